"""``baseline:oracle``: the gold answer as a reply, a ChatModel that needs the benchmark's samples.

Y/N: ``yes .`` / ``no .`` then the fact; WH: the fact itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set

from consistest.core.records import Sample
from consistest.metrics.rules import truth_polarity
from consistest.models.base import Chunk, Item

ORACLE = "baseline:oracle"


def oracle_response(sample: Sample) -> str:
    """The gold answer in words: Y/N -> ``yes . <fact>`` / ``no . <fact>``, WH -> the fact."""
    if sample.type == "yn":
        word = truth_polarity(sample.answer) or "yes"  # "i do not like people | no" -> no
        return f"{word} . {sample.fact}".strip()
    return sample.fact.strip()


class OracleModel:
    """Replies to each item (a sample id) with its sample's gold answer; the conversation is ignored."""

    name = ORACLE

    def __init__(self, samples: Sequence[Sample]) -> None:
        self._by_id = {s.id: s for s in samples}

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        yield [(i, oracle_response(self._by_id[i])) for i, _ in items if i not in skip]
