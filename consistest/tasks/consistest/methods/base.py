"""What every ConsisTest scoring method is: the :class:`ScoringMethod` protocol and its one verdict type.

A method judges each reply to a sample: rule outcome and score, what it asked the NLI model, and the final
score (``None`` when it cannot decide, e.g. without NLI). ``score``, ``agree`` and the reports see methods
only through this protocol and the registry in :mod:`consistest.tasks.consistest.methods`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from consistest.core import log
from consistest.core.records import Sample
from consistest.models.base import NLI


@dataclass(frozen=True)
class Judged:
    """One reply as a method saw it: rule outcome and score, what NLI was asked, the final score, and what a
    model judge did (``detail``: the stage that decided, the judge's raw replies; None for rule methods)."""

    outcome: str
    rule_score: float | None
    nli_use: str
    cleaned: str
    nli_label: str | None
    score: float | None
    detail: dict[str, Any] | None = None


@runtime_checkable
class ScoringMethod(Protocol):
    """A scoring method: its ``--method`` name, the value it puts in the signature's ``method:`` part (a
    version when its rules can change), and its verdicts on replies."""

    name: str

    def tag(self) -> str:
        """The signature value, e.g. ``paper`` or ``plus-5``; bump it when a verdict changes."""
        ...

    def judge(
        self, samples: Sequence[Sample], replies: Sequence[str], nli: NLI | None, *, quiet: bool = True
    ) -> list[Judged]:
        """``replies[i]`` judged as the reply to ``samples[i]``; ``nli=None`` leaves NLI-only decisions
        undecided."""
        ...


def nli_labels(asks: list[list[tuple[str, str]]], nli: NLI | None, quiet: bool) -> list[list[str | None]]:
    """One NLI call over every item's (premise, hypothesis) pairs; labels handed back per item."""
    if nli is None:
        return [[None] * len(a) for a in asks]
    pairs = [p for a in asks for p in a]
    if pairs:
        log.info(f"NLI: {len(set(pairs))} distinct pairs for {len(pairs)} queries", quiet=quiet)
    flat = iter(nli.predict(pairs) if pairs else [])
    return [[next(flat) for _ in a] for a in asks]
