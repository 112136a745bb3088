"""Neural WH questions as in the paper: answer-agnostic T5 question generation + extractive QA, keeping
questions whose answer is found with confidence and is short.

Both models sit behind ``consistest.models.base.QuestionGenerator`` / ``Answerer`` so tests pass tiny
models or fakes. Defaults are real hub ids; a local directory works the same way (the hub may be
unreachable: see ``load_neural``).
"""

from __future__ import annotations

from collections.abc import Sequence

from consistest.models.base import Answerer, QuestionGenerator
from consistest.models.questions import HFExtractiveAnswerer, HFQuestionGenerator
from consistest.text.questions.yn_templates import Question

DEFAULT_QG_MODEL = "valhalla/t5-base-e2e-qg"  # answer-agnostic: "generate questions: ..." -> "q1 <sep> q2"
DEFAULT_QA_MODEL = "deepset/roberta-base-squad2"


def neural_wh(
    statements: Sequence[str],
    qg: QuestionGenerator,
    answerer: Answerer,
    min_confidence: float,
    max_answer_tokens: int,
) -> list[list[Question]]:
    """Questions from ``qg`` for each statement, kept when ``answerer`` finds a short, confident answer."""
    generated = qg.generate(statements)
    pairs = [(q, s) for s, qs in zip(statements, generated, strict=True) for q in qs]
    answers = answerer.answer(pairs) if pairs else []
    out: list[list[Question]] = [[] for _ in statements]
    k = 0
    for i, qs in enumerate(generated):
        for q in qs:
            span, conf = answers[k]
            k += 1
            span = span.strip(" .,!?;:").lower()
            if span and conf >= min_confidence and len(span.split()) <= max_answer_tokens:
                question = q.strip() if q.strip().endswith("?") else q.strip() + "?"
                out[i].append(Question(question.lower(), span, "neural.qg"))
    return out


def load_neural(qg_model: str, qa_model: str, device: str, batch_size: int):
    """Both adapters; raises (OSError, ValueError, ...) when a model cannot be loaded."""
    qg = HFQuestionGenerator(qg_model, device=device, batch_size=batch_size)
    qa = HFExtractiveAnswerer(qa_model, device=device, batch_size=batch_size * 2)
    return qg, qa
