"""``plus``: the improved hybrid (:mod:`consistest.metrics.plus`), versioned rules on top of the paper's.

Its veto asks are read with its own threshold on P(contradiction) (``PLUS_VETO_TAU``) when the NLI
declares probabilities (:class:`~consistest.models.base.ProbabilisticNLI`); an NLI without them vetoes by
its own labels, and a warning says so. ``rules`` picks a subset of its rules (``agree --ablation``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core import log
from consistest.core.records import Sample
from consistest.metrics.plus import (
    DEFAULT_RULES,
    VETO_ASKS,
    PlusVerdict,
    Rule,
    final_plus,
    judge_plus,
    method_tag,
)
from consistest.models.base import NLI, ProbabilisticNLI
from consistest.models.nli import decide
from consistest.tasks.consistest.methods.base import Judged, nli_labels


def support_text(s: Sample) -> str:
    """What a WH answer's extra values may come from without penalty: the fact and the persona."""
    return " ".join([s.fact, s.nli_premise, *s.persona])


def fact_text(s: Sample) -> str:
    """What the bot said that the answer rests on: the fact, and the NLI premise where it differs."""
    return s.fact if s.nli_premise in ("", s.fact) else f"{s.fact} . {s.nli_premise}"


@dataclass(frozen=True)
class PlusMethod:
    name: str = "plus"
    rules: tuple[Rule, ...] = DEFAULT_RULES

    def tag(self) -> str:
        return method_tag("plus", self.rules)

    def judge(
        self, samples: Sequence[Sample], replies: Sequence[str], nli: NLI | None, *, quiet: bool = True
    ) -> list[Judged]:
        plus = [
            judge_plus(s.question, s.answer, s.type, r, support_text(s), self.rules, fact_text(s))
            for s, r in zip(samples, replies, strict=True)
        ]
        labels = plus_labels(
            [(v, v.pairs(s.nli_premise)) for s, v in zip(samples, plus, strict=True)], nli, quiet
        )
        return [
            Judged(v.outcome, v.rule_score, "+".join(v.asks) or "none", v.cleaned, lab[0] if lab else None,
                   final_plus(v, lab))
            for v, lab in zip(plus, labels, strict=True)
        ]  # fmt: skip


def plus_labels(
    items: list[tuple[PlusVerdict, list[tuple[str, str]]]], nli: NLI | None, quiet: bool
) -> list[list[str | None]]:
    """Labels of every plus ask: the veto asks of a verdict with a ``veto_tau`` read as P(contradiction) >
    tau when the NLI gives probabilities, every other ask (and every ask, for an NLI without them) as its
    label."""
    taus = [[v.veto_tau if a in VETO_ASKS else None for a in v.asks] for v, _ in items]
    if nli is None or all(t is None for ts in taus for t in ts):
        return nli_labels([pairs for _, pairs in items], nli, quiet)
    if not isinstance(nli, ProbabilisticNLI):
        log.warning(f"the NLI model {nli.name!r} gives no probabilities: plus's veto reads its labels, not "
                    "P(contradiction) > PLUS_VETO_TAU")  # fmt: skip
        return nli_labels([pairs for _, pairs in items], nli, quiet)
    rows = [list(zip(pairs, ts, strict=True)) for (_, pairs), ts in zip(items, taus, strict=True)]
    veto = list(dict.fromkeys(p for row in rows for p, t in row if t is not None))
    log.info(f"NLI probabilities: {len(veto)} distinct pairs for the veto", quiet=quiet)
    proba = dict(zip(veto, nli.predict_proba(veto), strict=True))
    plain = nli_labels([[p for p, t in row if t is None] for row in rows], nli, quiet)
    out: list[list[str | None]] = []
    for row, labels in zip(rows, plain, strict=True):
        rest = iter(labels)
        out.append([next(rest) if t is None else decide(proba[p], t) for p, t in row])
    return out
