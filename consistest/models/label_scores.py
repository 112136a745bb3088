"""Closed-set replies scored by a local model: the log-probability of each label as the whole reply, so a
judge's label is chosen from the model's distribution instead of parsed from free text (small open-weight
judges rarely answer in the asked format; chosen this way they always give a label).

A label's score is the sum of the log-probabilities of its tokens after the prompt, ending with what ends a
reply: for chat templates, the template's own rendering of the label as the assistant turn (so
``<|im_end|>`` is scored too, and ``0`` does not take the mass of ``0.5``); otherwise the label's tokens and
the end-of-sequence token (a line break for transcripts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from consistest.core.records import Conversation, Turn
from consistest.models.rendering import chat_messages


def label_logprobs(
    model: Any, convs: Sequence[Conversation], labels: Sequence[Sequence[str]]
) -> list[dict[str, float]]:
    """For each conversation, each of its labels' log-probability as the reply (``model``: an
    :class:`~consistest.models.hf_chat.HFChatModel`, decoder-only). The prompt runs once; each label
    continues from its cached keys and values, which are cut back to the prompt after it."""
    import torch

    out = []
    for conv, options in zip(convs, labels, strict=True):
        prompt = model.encode(conv)
        replies = {label: reply_ids(model, conv, prompt, label) for label in options}
        with torch.inference_mode():
            first = model.model(input_ids=torch.tensor([prompt], device=model.device), use_cache=True)
            cache = first.past_key_values
            if not hasattr(cache, "crop"):  # caches that cannot be cut back: every label from the start
                out.append(_padded(model, prompt, replies))
                continue
            start = torch.log_softmax(first.logits[0, -1].float(), dim=-1)
            scores = {}
            for label, ids in replies.items():
                lp = float(start[ids[0]])
                if len(ids) > 1:
                    step = model.model(input_ids=torch.tensor([ids[:-1]], device=model.device),
                                       past_key_values=cache, use_cache=True)  # fmt: skip
                    logp = torch.log_softmax(step.logits[0].float(), dim=-1)
                    lp += float(sum(logp[i, ids[i + 1]] for i in range(len(ids) - 1)))
                    cache.crop(-(len(ids) - 1))  # negative: tokens to drop (old and new transformers)
                scores[label] = lp
        out.append(scores)
    return out


def _padded(model: Any, prompt: list[int], replies: dict[str, list[int]]) -> dict[str, float]:
    """Each label's log-probability from one right-padded batch of prompt + label."""
    import torch

    rows = [prompt + ids for ids in replies.values()]
    width = max(len(r) for r in rows)
    ids = torch.tensor([r + [model.pad_id] * (width - len(r)) for r in rows], device=model.device)
    mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows], device=model.device)
    with torch.inference_mode():
        logits = model.model(input_ids=ids, attention_mask=mask).logits.float()
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    return {
        label: float(sum(logp[k, p, row[p + 1]] for p in range(len(prompt) - 1, len(row) - 1)))
        for k, (label, row) in enumerate(zip(replies, rows, strict=True))
    }


def reply_ids(model: Any, conv: Conversation, prompt: list[int], label: str) -> list[int]:
    """The token ids that follow ``prompt`` when ``label`` is the whole reply."""
    if model.cfg.chat_template:
        messages = chat_messages(
            Conversation(persona=conv.persona, turns=(*conv.turns, Turn("assistant", label))),
            None,
            model.cfg.system_prompt,
        )
        text = model.tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=False)
        full = list(model.tok(text, add_special_tokens=False)["input_ids"])
        if full[: len(prompt)] == prompt and len(full) > len(prompt):
            return full[len(prompt) :]
    end = model.tokenize("\n") if model.cfg.transcript else [model.tok.eos_token_id or model.pad_id]
    return model.tokenize(label) + end
