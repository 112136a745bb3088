"""Scoring methods over ConsisTest samples: the paper's hybrid (``paper``, the default, so published numbers
reproduce) and the improved one (``plus``, :mod:`consistest.metrics.plus`). Both run the rules on every
reply, then one NLI call over every distinct (premise, hypothesis) pair whose label can change a score.

``plus``'s veto asks are read with its own threshold on P(contradiction) (``PLUS_VETO_TAU``) when the NLI
declares probabilities (:class:`~consistest.models.base.ProbabilisticNLI`); an NLI without them vetoes by
its own labels, and a warning says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from consistest.core import log
from consistest.core.errors import InputError
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
from consistest.metrics.rules import Need, final_score, judge
from consistest.models.base import NLI, ProbabilisticNLI
from consistest.models.nli import decide

Method = Literal["paper", "plus"]
METHODS: tuple[Method, ...] = get_args(Method)


@dataclass(frozen=True)
class Judged:
    """One reply as a method saw it: rule outcome and score, what NLI was asked, the final score."""

    outcome: str
    rule_score: float | None
    nli_use: str
    cleaned: str
    nli_label: str | None
    score: float | None


def check_method(method: str) -> Method:
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}, expected one of {', '.join(METHODS)}", field="method")
    return method  # type: ignore[return-value]


def signature_value(method: Method, rules: Sequence[Rule] = DEFAULT_RULES) -> str:
    """``paper`` or ``plus-<version>`` (a rule subset is named: ``plus-1[extras]``)."""
    return method_tag(method, rules)


def support_text(s: Sample) -> str:
    """What a WH answer's extra values may come from without penalty: the fact and the persona."""
    return " ".join([s.fact, s.nli_premise, *s.persona])


def fact_text(s: Sample) -> str:
    """What the bot said that the answer rests on: the fact, and the NLI premise where it differs."""
    return s.fact if s.nli_premise in ("", s.fact) else f"{s.fact} . {s.nli_premise}"


def judge_samples(
    samples: Sequence[Sample],
    responses: Mapping[str, str],
    nli: NLI | None,
    *,
    method: Method = "paper",
    rules: Sequence[Rule] = DEFAULT_RULES,
    quiet: bool = True,
) -> list[Judged]:
    """Judge every sample's reply with ``method``; ``nli=None`` leaves NLI-only decisions undecided."""
    replies = [responses[s.id] for s in samples]
    return judge_replies(samples, replies, nli, method=method, rules=rules, quiet=quiet)


def judge_replies(
    samples: Sequence[Sample],
    replies: Sequence[str],
    nli: NLI | None,
    *,
    method: Method = "paper",
    rules: Sequence[Rule] = DEFAULT_RULES,
    quiet: bool = True,
) -> list[Judged]:
    """Judge ``replies[i]`` as the reply to ``samples[i]`` (a sample may come several times, answered by
    different models)."""
    check_method(method)
    if len(replies) != len(samples):
        raise ValueError("one reply per sample")
    if method == "paper":
        paper = [judge(s.question, s.answer, s.type, r) for s, r in zip(samples, replies, strict=True)]
        asks = [
            [(s.nli_premise, v.cleaned)] if v.need is not Need.NONE else []
            for s, v in zip(samples, paper, strict=True)
        ]
        labels = _labels(asks, nli, quiet)
        return [
            Judged(v.outcome.value, v.rule_score, v.need.value, v.cleaned, lab[0] if lab else None,
                   final_score(v, lab[0] if lab else None))
            for v, lab in zip(paper, labels, strict=True)
        ]  # fmt: skip
    plus = [
        judge_plus(s.question, s.answer, s.type, r, support_text(s), rules, fact_text(s))
        for s, r in zip(samples, replies, strict=True)
    ]
    labels = _plus_labels(
        [(v, v.pairs(s.nli_premise)) for s, v in zip(samples, plus, strict=True)], nli, quiet
    )
    return [
        Judged(v.outcome, v.rule_score, "+".join(v.asks) or "none", v.cleaned, lab[0] if lab else None,
               final_plus(v, lab))
        for v, lab in zip(plus, labels, strict=True)
    ]  # fmt: skip


def _plus_labels(
    items: list[tuple[PlusVerdict, list[tuple[str, str]]]], nli: NLI | None, quiet: bool
) -> list[list[str | None]]:
    """Labels of every plus ask: the veto asks of a verdict with a ``veto_tau`` read as P(contradiction) >
    tau when the NLI gives probabilities, every other ask (and every ask, for an NLI without them) as its
    label."""
    taus = [[v.veto_tau if a in VETO_ASKS else None for a in v.asks] for v, _ in items]
    if nli is None or all(t is None for ts in taus for t in ts):
        return _labels([pairs for _, pairs in items], nli, quiet)
    if not isinstance(nli, ProbabilisticNLI):
        log.warning(f"the NLI model {nli.name!r} gives no probabilities: plus's veto reads its labels, not "
                    "P(contradiction) > PLUS_VETO_TAU")  # fmt: skip
        return _labels([pairs for _, pairs in items], nli, quiet)
    rows = [list(zip(pairs, ts, strict=True)) for (_, pairs), ts in zip(items, taus, strict=True)]
    veto = list(dict.fromkeys(p for row in rows for p, t in row if t is not None))
    log.info(f"NLI probabilities: {len(veto)} distinct pairs for the veto", quiet=quiet)
    proba = dict(zip(veto, nli.predict_proba(veto), strict=True))
    plain = _labels([[p for p, t in row if t is None] for row in rows], nli, quiet)
    out: list[list[str | None]] = []
    for row, labels in zip(rows, plain, strict=True):
        rest = iter(labels)
        out.append([next(rest) if t is None else decide(proba[p], t) for p, t in row])
    return out


def _labels(asks: list[list[tuple[str, str]]], nli: NLI | None, quiet: bool) -> list[list[str | None]]:
    """One NLI call over every item's (premise, hypothesis) pairs; labels handed back per item."""
    if nli is None:
        return [[None] * len(a) for a in asks]
    pairs = [p for a in asks for p in a]
    if pairs:
        log.info(f"NLI: {len(set(pairs))} distinct pairs for {len(pairs)} queries", quiet=quiet)
    flat = iter(nli.predict(pairs) if pairs else [])
    return [[next(flat) for _ in a] for a in asks]
