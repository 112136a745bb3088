"""A contradiction threshold picked on labelled dev dialogues, for every detector that gives a
P(contradiction): ``nli-pairs`` always, the trained architectures with ``--decision tau``.

The dialogue is a contradiction when its P(contradiction) exceeds ``tau``, the threshold that maximises
balanced accuracy (the mean of the recall of contradictions and of consistent turns) on dev; a classifier's
own argmax leans to the class it saw most in training, which on data unlike its training data can mean
saying ``none`` to nearly everything.
"""

from __future__ import annotations

import statistics
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Protocol

from consistest.core.errors import InputError
from consistest.core.records import DialogueExample, content_hash

TAU_RULE = "max balanced accuracy on dev (lower median of ties)"


class ScoresDialogues(Protocol):
    """A detector whose predictions carry a P(contradiction)."""

    def contradiction_scores(self, examples: Sequence[DialogueExample]) -> list[float]: ...


def pick_tau(scores: Sequence[float], contradiction: Sequence[bool]) -> tuple[float, float]:
    """(tau, balanced accuracy at tau): the threshold on the largest P(contradiction) that maximises the
    mean of the two classes' recall on dev; candidates lie halfway between distinct scores; the lower
    median of the best ones is taken. Needs both classes."""
    pos = sorted(s for s, c in zip(scores, contradiction, strict=True) if c)
    neg = sorted(s for s, c in zip(scores, contradiction, strict=True) if not c)
    if not pos or not neg:
        raise InputError("picking tau needs dev dialogues of both classes (contradiction and none)")
    values = sorted(set(scores))
    cands = [0.0] + [(a + b) / 2 for a, b in zip(values, values[1:], strict=False)] + [1.0]

    def bal(t: float) -> float:
        tpr = 1 - bisect_right(pos, t) / len(pos)
        tnr = bisect_right(neg, t) / len(neg)
        return (tpr + tnr) / 2

    accs = [bal(t) for t in cands]
    best = max(accs)
    tied = [t for t, a in zip(cands, accs, strict=True) if a == best]
    return float(statistics.median_low(tied)), best


def labelled_dev(dev: Mapping[str, Sequence[DialogueExample]]) -> list[DialogueExample]:
    """The labelled dialogues of the dev sets, pooled; an error when there are none."""
    labelled = [ex for v in dev.values() for ex in v if ex.label is not None]
    if not labelled:
        raise InputError("no labelled dev dialogues to pick tau on (--data with a dev split, or --dev)")
    return labelled


def tau_on_dev(detector: ScoresDialogues, dev: Mapping[str, Sequence[DialogueExample]]) -> dict[str, object]:
    """Pick tau for ``detector`` on the pooled labelled dev dialogues: what ``detector.json`` keeps of it."""
    labelled = labelled_dev(dev)
    tau, bal = pick_tau(detector.contradiction_scores(labelled), [ex.label != "none" for ex in labelled])
    return {
        "tau": tau,
        "tau_rule": TAU_RULE,
        "dev_balanced_accuracy": bal,
        "tau_dev": {name: sum(ex.label is not None for ex in v) for name, v in dev.items()},
        "tau_dev_hash": content_hash(sorted((ex.id, ex.label) for ex in labelled))[:12],
    }
