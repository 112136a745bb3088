"""Wrong but on-topic replies, to see how often a judge passes them (``consistest rejudge``'s probe set).

LLM judges are known to pass an answer that talks about the right thing with the wrong value. The probes
come from the dataset itself: for a WH question, the reply is the fact that answers the same question for
another persona ("what pets do you have?" answered with another persona's "i have two dogs ."), kept only
when it shares no content word with the correct answer and is short enough to read as a reply. Every
probe should score 0; the share that scores above 0 is the judge's pass rate on wrong answers. One probe per
QA (its distances would only repeat it), drawn by a hash of (seed, QA), never by file order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from consistest.core import log
from consistest.core.records import Sample, content_hash
from consistest.core.stats import N_BOOT, bootstrap_ci
from consistest.metrics.wrong_values import keys, truth_keys, words
from consistest.models.base import NLI
from consistest.tasks.consistest.methods import JudgeMethod, ScoringMethod
from consistest.tasks.consistest.methods.paper import PaperMethod

PROBES_VERSION = "1"  # bump when the choice of probe replies changes
MAX_PROBE_WORDS = 20  # longer facts (history utterances) read as more than an answer


@dataclass(frozen=True)
class Probe:
    """A sample and the wrong but on-topic reply put in its place, with the sample it was taken from."""

    sample: Sample
    reply: str
    taken_from: str  # the id of the sample whose fact is the reply


def on_topic_probes(samples: Sequence[Sample], n: int, seed: int = 0) -> list[Probe]:
    """Up to ``n`` probes, one per WH QA that has a usable other-persona answer, drawn by hash."""
    by_question: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        if s.type == "wh":
            by_question[" ".join(words(s.question))].append(s)
    firsts = {s.qa_id: s for s in reversed(samples) if s.type == "wh"}  # each QA's first sample
    out = []
    for s in firsts.values():
        truth = truth_keys(s.answer)
        candidates = [
            t
            for t in by_question[" ".join(words(s.question))]
            if t.dialog_id != s.dialog_id and usable(t.fact, truth)
        ]
        if candidates and truth:
            t = min(candidates, key=lambda t: content_hash(seed, "probe", s.qa_id, t.id))
            out.append(Probe(s, t.fact, t.id))
    out.sort(key=lambda p: content_hash(seed, "probe-draw", p.sample.qa_id))
    return out[:n]


def usable(reply: str, truth: frozenset[str]) -> bool:
    """A short reply with no content word of the truth (so it is wrong, not a paraphrase)."""
    return 0 < len(words(reply)) <= MAX_PROBE_WORDS and not (keys(reply) & truth)


def probe_figures(
    samples: Sequence[Sample],
    nli: NLI | None,
    methods: Mapping[str, ScoringMethod],
    *,
    n: int,
    seed: int = 0,
    n_boot: int = N_BOOT,
    quiet: bool = True,
) -> dict[str, Any] | None:
    """How often each column (and the paper's rules, for reference) passes wrong but on-topic replies:
    share of decided probes scored above 0, with its 95% interval. A judge method judges every probe itself
    (``when="all"``): the cascade's rules would decide most of them, and the question is the judge's."""
    probes = on_topic_probes(samples, n, seed) if n else []
    if not probes:
        return None
    ps, replies = [p.sample for p in probes], [p.reply for p in probes]
    columns: dict[str, list[float | None]] = {
        "paper": [j.score for j in PaperMethod().judge(ps, replies, nli, quiet=True)]
    }
    for label, m in methods.items():
        log.info(f"probing {label} with {len(ps):,} wrong but on-topic replies", quiet=quiet)
        alone = replace(m, when="all") if isinstance(m, JudgeMethod) else m
        columns[label] = [j.score for j in alone.judge(ps, replies, nli, quiet=quiet)]
    out: dict[str, Any] = {"n": len(probes), "version": PROBES_VERSION, "columns": {}}
    for col, values in columns.items():
        passed = [float(v > 0) for v in values if v is not None]
        ci = bootstrap_ci(passed, seed=seed, name=f"probe:{col}", n_boot=n_boot) if len(passed) > 1 else None
        out["columns"][col] = {"decided": len(passed), "passed": int(sum(passed)),
                               "pass_rate": sum(passed) / len(passed) if passed else None,
                               "ci": list(ci) if ci else None}  # fmt: skip
    out["examples"] = [{"id": p.sample.id, "question": p.sample.question, "truth": p.sample.answer,
                        "reply": p.reply, **{c: columns[c][k] for c in columns}}
                       for k, p in enumerate(probes[:5])]  # fmt: skip
    return out
