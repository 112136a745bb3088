"""``paper``: the published hybrid (``--method paper``, so published numbers reproduce): the Y/N and WH
rules, and the NLI guard where a rule leaves the decision to it (:mod:`consistest.metrics.rules`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core.records import Sample
from consistest.metrics.rules import Need, final_score, judge
from consistest.models.base import NLI
from consistest.tasks.consistest.methods.base import Judged, nli_labels


@dataclass(frozen=True)
class PaperMethod:
    name: str = "paper"

    def tag(self) -> str:
        return "paper"

    def judge(
        self, samples: Sequence[Sample], replies: Sequence[str], nli: NLI | None, *, quiet: bool = True
    ) -> list[Judged]:
        paper = [judge(s.question, s.answer, s.type, r) for s, r in zip(samples, replies, strict=True)]
        asks = [
            [(s.nli_premise, v.cleaned)] if v.need is not Need.NONE else []
            for s, v in zip(samples, paper, strict=True)
        ]
        labels = nli_labels(asks, nli, quiet)
        return [
            Judged(v.outcome.value, v.rule_score, v.need.value, v.cleaned, lab[0] if lab else None,
                   final_score(v, lab[0] if lab else None))
            for v, lab in zip(paper, labels, strict=True)
        ]  # fmt: skip
