"""Neural WH adapters with tiny config-built models (T5 QG, RoBERTa extractive QA): no download."""

from __future__ import annotations

from pathlib import Path

import pytest

from consistest.models.base import Answerer, QuestionGenerator
from consistest.models.questions import HFExtractiveAnswerer, HFQuestionGenerator, split_questions
from consistest.tasks.consistest.qagen.wh_neural import neural_wh
from tests.tiny_models import tiny_extractive_qa, tiny_generator

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    import torch

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("qagen")
    qg = tiny_generator(root / "qg", "t5", speaker_tokens=("<sep>",))
    return qg, tiny_extractive_qa(root / "qa")


def test_split_questions() -> None:
    assert split_questions("how old are you? <sep> where do you live? <sep></s><pad>") == [
        "how old are you?",
        "where do you live?",
    ]
    assert split_questions("<pad> a? <sep> a? </s>") == ["a?"]


def test_tiny_qg_batched(models: tuple[Path, Path]) -> None:
    qg = HFQuestionGenerator(str(models[0]), batch_size=2, num_beams=2, max_new_tokens=8)
    assert isinstance(qg, QuestionGenerator) and qg.name == str(models[0])
    statements = ["i have two dogs .", "i live in texas .", "i am a nurse ."]
    out = qg.generate(statements)
    assert len(out) == 3 and all(isinstance(qs, list) for qs in out)
    assert out == qg.generate(statements)  # beam search: deterministic


def test_tiny_answerer_spans_in_context(models: tuple[Path, Path]) -> None:
    qa = HFExtractiveAnswerer(str(models[1]), batch_size=2, max_span_subwords=4)
    assert isinstance(qa, Answerer)
    pairs = [
        ("how many dogs do you have?", "i have two dogs ."),
        ("where do you live?", "i live in texas ."),
    ] * 2
    out = qa.answer(pairs)
    assert len(out) == 4 and out[:2] == out[2:]
    for (span, conf), (_, ctx) in zip(out, pairs, strict=True):
        assert span and span in ctx and 0.0 <= conf <= 1.0


def test_neural_wh_keeps_confident_short_answers() -> None:
    class QG:
        name = "qg"

        def generate(self, statements):
            return [["how many dogs do you have", "what is it?"] for _ in statements]

    class QA:
        name = "qa"

        def answer(self, pairs):
            return [("two", 0.9) if q.startswith("how") else ("a very long answer span indeed here", 0.99)
                    for q, _ in pairs]  # fmt: skip

    out = neural_wh(["i have two dogs"], QG(), QA(), min_confidence=0.5, max_answer_tokens=5)
    assert [(q.q, q.a, q.template) for q in out[0]] == [("how many dogs do you have?", "two", "neural.qg")]
    assert neural_wh(["i have two dogs"], QG(), QA(), min_confidence=0.95, max_answer_tokens=5) == [[]]
