"""Small model interfaces, so tests pass fakes and the HF adapters stay thin."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from consistest.core.records import Sample

NLI_LABELS: tuple[str, ...] = ("contradiction", "neutral", "entailment")


@runtime_checkable
class NLI(Protocol):
    """Natural language inference: one of NLI_LABELS per (premise, hypothesis) pair."""

    name: str  # id or path, goes into the signature

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[str]: ...


@runtime_checkable
class Responder(Protocol):
    """A chatbot under test: one response per sample."""

    name: str

    def respond(self, samples: Sequence[Sample]) -> list[str]: ...


@runtime_checkable
class QuestionGenerator(Protocol):
    """Answer-agnostic question generation: candidate questions for each statement."""

    name: str

    def generate(self, statements: Sequence[str]) -> list[list[str]]: ...


@runtime_checkable
class Answerer(Protocol):
    """Extractive QA: (answer span, confidence) for each (question, context) pair."""

    name: str

    def answer(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, float]]: ...
