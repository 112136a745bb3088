"""The interfaces of the model layer, so benchmarks pass fakes and backends stay thin.

A :class:`ChatModel` replies to :class:`~consistest.core.records.Conversation` s keyed by item id and knows
no benchmark. ``stream`` yields replies chunk by chunk as they finish; deterministic backends plan their
batches over all items, so a resumed run repeats the same batches and texts. Simple models subclass
:class:`BatchedChatModel` and implement ``reply`` only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set
from typing import Literal, Protocol, get_args, runtime_checkable

from consistest.core.errors import InputError
from consistest.core.records import Conversation

NLILabel = Literal["contradiction", "neutral", "entailment"]
NLI_LABELS: tuple[NLILabel, ...] = get_args(NLILabel)

Item = tuple[str, Conversation]  # (item id, conversation to reply to)
Chunk = list[tuple[str, str]]  # (item id, reply)


@runtime_checkable
class ChatModel(Protocol):
    """Replies to conversations: one reply per item not in ``skip``, yielded in chunks as they finish."""

    name: str

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]: ...


class BatchedChatModel:
    """A ChatModel from a plain ``reply(conversations)``: fixed-order chunks of ``batch_size`` items."""

    name: str = "model"
    batch_size: int = 32

    def reply(self, conversations: Sequence[Conversation]) -> list[str]:
        raise NotImplementedError

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        rest = [(i, c) for i, c in items if i not in skip]
        for start in range(0, len(rest), self.batch_size):
            part = rest[start : start + self.batch_size]
            texts = self.reply([c for _, c in part])
            if len(texts) != len(part):
                raise InputError(f"model {self.name!r} returned {len(texts)} replies for {len(part)} inputs")
            yield [(i, t) for (i, _), t in zip(part, texts, strict=True)]


@runtime_checkable
class LabelScorer(Protocol):
    """A chat model that also scores closed-set replies: each label's log-probability as the whole reply to
    each item (a judge's label chosen from the model's distribution, never parsed)."""

    def label_logprobs(
        self, items: Sequence[Item], labels: Sequence[Sequence[str]]
    ) -> list[dict[str, float]]: ...


def replies(model: ChatModel, items: Sequence[Item]) -> dict[str, str]:
    """Every item's reply, collected (item id -> text)."""
    return dict(pair for chunk in model.stream(items) for pair in chunk)


@runtime_checkable
class NLI(Protocol):
    """Natural language inference: one of NLI_LABELS per (premise, hypothesis) pair."""

    name: str  # hub id or folder@hash
    signature: str  # the signature's nli: value (name and how outputs are read, e.g. ``name[c,n,e]``)

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[str]: ...


@runtime_checkable
class ProbabilisticNLI(NLI, Protocol):
    """An NLI model that also gives label probabilities (judges that threshold P(contradiction) need it)."""

    def predict_proba(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]: ...


def label_probabilities(
    nli: ProbabilisticNLI, pairs: Sequence[tuple[str, str]], label: str
) -> dict[tuple[str, str], float]:
    """P(``label``) of each distinct pair, in one batched call (none for no pairs)."""
    flat = list(dict.fromkeys(pairs))
    return dict(zip(flat, (r[label] for r in nli.predict_proba(flat)), strict=True)) if flat else {}


@runtime_checkable
class QuestionGenerator(Protocol):
    """Answer-agnostic question generation: candidate questions for each statement."""

    name: str

    def generate(self, statements: Sequence[str]) -> list[list[str]]: ...


@runtime_checkable
class AnswerAwareQuestionGenerator(Protocol):
    """Answer-aware question generation: one question per (context, answer span) whose answer is the span."""

    name: str

    def generate(self, pairs: Sequence[tuple[str, str]]) -> list[str]: ...


@runtime_checkable
class Answerer(Protocol):
    """Extractive QA: (answer span, confidence) for each (question, context) pair."""

    name: str

    def answer(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, float]]: ...
