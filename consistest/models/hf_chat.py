"""Hugging Face generators behind ``consistest.models.base.Responder``: seq2seq (BART, T5) or decoder-only.

The architecture comes from ``config.is_encoder_decoder``; the model is a hub id or a local directory.
Inputs are encoded by :mod:`consistest.models.rendering` (or a chat template with ``chat_template``).
Under deterministic decoding (greedy, beam) each distinct encoded input is generated once, in batches of
inputs sorted by length, planned over the whole sample list so a resumed run repeats the same batches.
Sampling runs one sample at a time with a seed derived from (seed, sample id), so a sample's text never
depends on its batch or on what ran before. torch/transformers are imported lazily.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from consistest.core.errors import InputError
from consistest.models.hf_loader import load_pretrained, resolve_device
from consistest.core.records import Sample
from consistest.models.rendering import arrange, chat_messages, encode_ids
from consistest.models.decoding import GenerationConfig

Chunk = list[tuple[str, str]]  # (sample id, response)


def _load(spec: str, dtype: str, device: str, quiet: bool) -> tuple[Any, Any]:
    """Tokenizer and model (seq2seq or causal LM, from the config), in eval mode on ``device``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM

    torch_dtype = "auto" if dtype == "auto" and device != "cpu" else getattr(torch, dtype, torch.float32)
    tok, model = load_pretrained(
        spec,
        lambda config: AutoModelForSeq2SeqLM if config.is_encoder_decoder else AutoModelForCausalLM,
        what="model",
        quiet=quiet,
        dtype=torch_dtype,
    )
    return tok, model.to(device).eval()


class HFResponder:
    """A Hugging Face generator configured by a GenerationConfig."""

    def __init__(
        self, cfg: GenerationConfig, *, quiet: bool = False, log: Callable[[str], None] | None = None
    ):
        self.cfg = cfg
        self.name = cfg.model
        self.log = log or (lambda msg: None if quiet else print(f"consistest: {msg}", file=sys.stderr))
        self.device = resolve_device(cfg.device)
        self.tok, self.model = _load(cfg.model, cfg.dtype, self.device, quiet)
        self.decoder_only = not self.model.config.is_encoder_decoder
        self.pad_id = self.tok.pad_token_id if self.tok.pad_token_id is not None else self.tok.eos_token_id
        if self.pad_id is None:
            raise InputError(f"model {cfg.model!r}: the tokenizer has neither a pad nor an EOS token")
        self._warned_cut = False
        self._tokenize = lru_cache(maxsize=200_000)(self._tokenize_uncached)
        if cfg.chat_template and not getattr(self.tok, "chat_template", None):
            raise InputError(
                f"model {cfg.model!r}: --chat-template given but the tokenizer has no chat template"
            )
        if not cfg.chat_template:
            self._warn_unknown_speakers()
        self.prefix, _ = self._affixes()
        eos = [self.tok.eos_token_id] if self.tok.eos_token_id is not None else []
        self.suffix = self.tokenize(cfg.speaker_tokens[1]) if self.decoder_only else eos
        self.stop_ids = set(eos) | {self.pad_id} | self._single_ids(cfg.speaker_tokens)

    # -- encoding -------------------------------------------------------------------------------------------
    def _tokenize_uncached(self, text: str) -> tuple[int, ...]:
        return tuple(self.tok(text, add_special_tokens=False)["input_ids"])

    def tokenize(self, text: str) -> list[int]:
        return list(self._tokenize(text))

    def _affixes(self) -> tuple[list[int], list[int]]:
        """The ids the tokenizer adds before and after a text (BART: <s> ... </s>, GPT-2: nothing)."""
        bare = self.tokenize("a")
        full = list(self.tok("a")["input_ids"])
        for i in range(len(full) - len(bare) + 1):
            if full[i : i + len(bare)] == bare:
                return full[:i], full[i + len(bare) :]
        return [], []

    def _single_ids(self, tokens: Sequence[str]) -> set[int]:
        ids = set()
        for t in tokens:
            one = self.tokenize(t)
            if len(one) == 1 and one[0] != self.tok.unk_token_id:
                ids.add(one[0])
        return ids

    def _warn_unknown_speakers(self) -> None:
        vocab = self.tok.get_vocab()
        unknown = [t for t in self.cfg.speaker_tokens if t not in vocab]
        if unknown:
            self.log(
                f"warning: speaker token(s) {', '.join(unknown)} unknown to the tokenizer of "
                f"{self.cfg.model!r}: the model was not fine-tuned with them "
                "(set --speaker-tokens, or --chat-template for chat models)"
            )

    def encode(self, sample: Sample) -> list[int]:
        """Token ids of one sample (input variant, speaker tokens, truncation), cut to the model's length."""
        ctx = arrange(sample, self.cfg.input_variant)
        if self.cfg.chat_template:
            ids = self._chat_ids(ctx)
        else:
            ids = encode_ids(
                ctx,
                self.tokenize,
                speakers=self.cfg.speaker_tokens,
                utterance_max_tokens=self.cfg.utterance_max_tokens,
                prefix=self.prefix,
                suffix=self.suffix,
            )
        return self._fit(ids)

    def _chat_ids(self, ctx: Any) -> list[int]:
        n = self.cfg.utterance_max_tokens

        def cut(text: str) -> str:
            ids = self.tokenize(text)
            return text if not n or len(ids) <= n else self.tok.decode(ids[:n])

        try:
            text = self.tok.apply_chat_template(
                chat_messages(ctx, cut), tokenize=False, add_generation_prompt=True
            )
        except Exception as e:  # template errors are jinja exceptions of several types
            raise InputError(f"model {self.cfg.model!r}: chat template failed: {e}") from None
        return list(self.tok(text, add_special_tokens=False)["input_ids"])

    def _fit(self, ids: list[int]) -> list[int]:
        """Keep the prefix and the end of an input longer than the model accepts (rare for PersonaChat)."""
        limit = getattr(self.model.config, "max_position_embeddings", None) or getattr(
            self.model.config, "n_positions", None
        )
        if not limit:
            return ids
        room = limit - (self.cfg.max_new_tokens if self.decoder_only else 0)
        if len(ids) <= room:
            return ids
        if not self._warned_cut:
            self._warned_cut = True
            self.log(f"warning: inputs longer than the model's {limit} positions lose their start")
        head = len(self.prefix)
        return ids[:head] + ids[len(ids) - (room - head) :]

    # -- generation -----------------------------------------------------------------------------------------
    def plan(self, samples: Sequence[Sample]) -> list[list[tuple[tuple[int, ...], list[str]]]]:
        """Batches of (distinct input ids, the sample ids sharing it), sorted by input length."""
        groups: dict[tuple[int, ...], list[str]] = {}
        for s in samples:
            groups.setdefault(tuple(self.encode(s)), []).append(s.id)
        ordered = sorted(groups.items(), key=lambda kv: (len(kv[0]), kv[0]))
        size = self.cfg.batch_size
        return [ordered[i : i + size] for i in range(0, len(ordered), size)]

    def stream(
        self, samples: Sequence[Sample], skip: frozenset[str] | set[str] = frozenset()
    ) -> Iterator[Chunk]:
        """Yield responses chunk by chunk for every sample not in ``skip`` (planned over all ``samples``)."""
        if self.cfg.do_sample:
            yield from self._stream_sampled(samples, skip)
            return
        for batch in self.plan(samples):
            if all(sid in skip for _, sids in batch for sid in sids):
                continue
            texts = self.generate([list(ids) for ids, _ in batch])
            yield [
                (sid, text)
                for (_, sids), text in zip(batch, texts, strict=True)
                for sid in sids
                if sid not in skip
            ]

    def _stream_sampled(self, samples: Sequence[Sample], skip: Any) -> Iterator[Chunk]:
        import torch

        for s in samples:
            if s.id in skip:
                continue
            torch.manual_seed(random.Random(f"{self.cfg.seed}:{s.id}").getrandbits(63))
            yield [(s.id, self.generate([self.encode(s)])[0])]

    def respond(self, samples: Sequence[Sample]) -> list[str]:
        got = dict(pair for chunk in self.stream(samples) for pair in chunk)
        return [got[s.id] for s in samples]

    def generate(self, inputs: list[list[int]]) -> list[str]:
        """Decode one padded batch (left padding for decoder-only models) and return the reply texts."""
        import torch

        width = max(len(x) for x in inputs)
        pads = [[self.pad_id] * (width - len(x)) for x in inputs]
        ones = [[1] * len(x) for x in inputs]
        zeros = [[0] * len(p) for p in pads]
        if self.decoder_only:  # left padding: the reply continues right after each input
            rows = [p + x for x, p in zip(inputs, pads, strict=True)]
            masks = [z + o for o, z in zip(ones, zeros, strict=True)]
        else:
            rows = [x + p for x, p in zip(inputs, pads, strict=True)]
            masks = [o + z for o, z in zip(ones, zeros, strict=True)]
        input_ids = torch.tensor(rows, device=self.device)
        attention_mask = torch.tensor(masks, device=self.device)
        kwargs: dict[str, Any] = {"max_new_tokens": self.cfg.max_new_tokens, "num_beams": self.cfg.num_beams}
        if self.cfg.do_sample:
            kwargs.update(do_sample=True, temperature=self.cfg.temperature, top_p=self.cfg.top_p, top_k=0)
        else:
            kwargs.update(do_sample=False)
        if self.decoder_only:
            kwargs.update(pad_token_id=self.pad_id, eos_token_id=sorted(self.stop_ids))
        with torch.inference_mode():
            out = self.model.generate(input_ids=input_ids, attention_mask=attention_mask, **kwargs)
        if self.decoder_only:
            out = out[:, width:]
        return [self._decode(row.tolist()) for row in out]

    def _decode(self, ids: list[int]) -> str:
        if self.decoder_only:
            for i, t in enumerate(ids):
                if t in self.stop_ids:
                    ids = ids[:i]
                    break
        text = self.tok.decode(ids, skip_special_tokens=True)
        return " ".join(text.split())
