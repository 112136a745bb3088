"""Question generation and extractive QA on Hugging Face models, behind ``QuestionGenerator``/``Answerer``.

Answer-agnostic T5 question generation (the e2e-qg layout: ``generate questions: <text>`` ->
``q1 <sep> q2``), answer-aware T5 question generation (the qg-hl layout: ``generate question: ... <hl>
answer <hl> ...`` -> one question) and extractive QA (best span by start/end logits). Any hub id or local
folder loads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from consistest.models.hf_loader import load_pretrained

QG_PREFIX = "generate questions: "
QG_SEP = "<sep>"
HL_PREFIX = "generate question: "
HL = "<hl>"
DEFAULT_ANSWER_AWARE_QG = "valhalla/t5-base-qg-hl"


class _Seq2SeqGenerator:
    """A seq2seq model that turns prompts into texts: beam search, batches of ``batch_size``."""

    what = "question-generation model"

    def __init__(self, model: str, device: str = "cpu", batch_size: int = 16,
                 num_beams: int = 4, max_new_tokens: int = 64) -> None:  # fmt: skip
        from transformers import AutoModelForSeq2SeqLM

        self.name = model
        self.tokenizer, self.model = load_pretrained(model, lambda _c: AutoModelForSeq2SeqLM, what=self.what)
        self.model = self.model.to(device).eval()
        self.device, self.batch_size = device, batch_size
        self.num_beams, self.max_new_tokens = num_beams, max_new_tokens

    def texts(self, prompts: Sequence[str], skip_special_tokens: bool) -> list[str]:
        import torch

        out: list[str] = []
        for start in range(0, len(prompts), self.batch_size):
            batch = list(prompts[start : start + self.batch_size])
            enc = self.tokenizer(batch, return_tensors="pt", padding=True, truncation=True, max_length=256)
            enc = {k: v.to(self.device) for k, v in enc.items() if k in ("input_ids", "attention_mask")}
            with torch.no_grad():
                ids = self.model.generate(**enc, num_beams=self.num_beams, do_sample=False,
                                          max_new_tokens=self.max_new_tokens)  # fmt: skip
            out.extend(self.tokenizer.batch_decode(ids, skip_special_tokens=skip_special_tokens))
        return out


class HFQuestionGenerator(_Seq2SeqGenerator):
    """A seq2seq QG model (T5 e2e-qg layout): one prompt per statement, questions split on <sep>."""

    def generate(self, statements: Sequence[str]) -> list[list[str]]:
        texts = self.texts([f"{QG_PREFIX}{s}" for s in statements], skip_special_tokens=False)
        return [split_questions(t, self.tokenizer) for t in texts]


def split_questions(text: str, tokenizer: Any = None) -> list[str]:
    """'q1 <sep> q2 <sep></s><pad>' -> ['q1', 'q2'] (special tokens removed, duplicates dropped)."""
    for special in ("<pad>", "</s>", "<s>", *(getattr(tokenizer, "all_special_tokens", None) or ())):
        if special != QG_SEP:
            text = text.replace(special, " ")
    parts = [" ".join(p.split()) for p in text.split(QG_SEP)]
    return list(dict.fromkeys(p for p in parts if p))


def highlight(context: str, answer: str) -> str:
    """The qg-hl input: ``context`` with the first case-insensitive occurrence of ``answer`` between <hl>
    marks (appended, marked, when the context lacks it)."""
    at = context.lower().find(answer.lower()) if answer else -1
    if at < 0:
        return f"{HL_PREFIX}{context} {HL} {answer} {HL}"
    end = at + len(answer)
    return f"{HL_PREFIX}{context[:at]}{HL} {context[at:end]} {HL}{context[end:]}"


class HFAnswerAwareQG(_Seq2SeqGenerator):
    """A seq2seq answer-aware QG model (T5 qg-hl layout): one question per (context, answer)."""

    what = "answer-aware question-generation model"

    def generate(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        texts = self.texts([highlight(c, a) for c, a in pairs], skip_special_tokens=True)
        return [" ".join(t.split()) for t in texts]


class HFExtractiveAnswerer:
    """Extractive QA: the best context span (start/end logits) and its probability."""

    def __init__(self, model: str, device: str = "cpu", batch_size: int = 32,
                 max_span_subwords: int = 20) -> None:  # fmt: skip
        from transformers import AutoModelForQuestionAnswering

        self.name = model
        self.tokenizer, self.model = load_pretrained(
            model, lambda _c: AutoModelForQuestionAnswering, what="extractive QA model"
        )
        self.model = self.model.to(device).eval()
        self.device, self.batch_size, self.max_span = device, batch_size, max_span_subwords

    def answer(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = []
        for start in range(0, len(pairs), self.batch_size):
            out.extend(self._batch(pairs[start : start + self.batch_size]))
        return out

    def _batch(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, float]]:
        import torch

        qs, ctxs = [q for q, _ in pairs], [c for _, c in pairs]
        enc = self.tokenizer(qs, ctxs, truncation="only_second", max_length=256, padding=True,
                             return_offsets_mapping=True, return_tensors="pt")  # fmt: skip
        offsets = enc.pop("offset_mapping").tolist()
        seq_ids = [enc.sequence_ids(b) for b in range(len(pairs))]
        inputs = {k: v.to(self.device) for k, v in enc.items() if k in ("input_ids", "attention_mask")}
        with torch.no_grad():
            res = self.model(**inputs)
        starts, ends = res.start_logits.float().cpu(), res.end_logits.float().cpu()
        spans = zip(starts, ends, seq_ids, offsets, ctxs, strict=True)
        return [best_span(s, e, ids, offs, ctx, self.max_span) for s, e, ids, offs, ctx in spans]


def best_span(start: Any, end: Any, seq_ids: list[int | None], offsets: list[list[int]], context: str,
              max_len: int) -> tuple[str, float]:  # fmt: skip
    """Highest start+end logit span inside the context; confidence = p(start) * p(end)."""
    ctx = [k for k, s in enumerate(seq_ids) if s == 1]
    if not ctx:
        return "", 0.0
    p_start, p_end = start.softmax(-1), end.softmax(-1)
    best, best_score = (ctx[0], ctx[0]), float("-inf")
    for s in ctx:
        for e in ctx:
            if s <= e < s + max_len and float(start[s] + end[e]) > best_score:
                best, best_score = (s, e), float(start[s] + end[e])
    s, e = best
    span = context[offsets[s][0] : offsets[e][1]].strip()
    return span, float(p_start[s] * p_end[e])
