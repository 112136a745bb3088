"""``nli-pairs --qa-rules``: a threshold for each regime of the judged turn.

The answer rules act only after a user turn that asks something; after one that asks nothing the guard
alone decides, and its scores there sit on another scale. On our synthetic dev split (2026-11-26) the
turns after a statement reached 74.8% balanced accuracy at a threshold of their own (0.41) against 65.3% at
the one picked for answers to questions (0.0092); picked on one half of the contexts and read on the other,
73.0 and 76.1 against 64.4 and 66.1. So, when the dev dialogues after a statement (the ``--dev`` sets' and
the dev split of ``--data``'s, each dialogue once) hold at least ``MIN_PER_CLASS`` of each class,
``tau_statement`` is picked on them and ``tau`` on the ``--dev`` dialogues that answer a question (all of
them when those lack a class); otherwise ``tau`` is picked on all the ``--dev`` dialogues and serves every
turn, as before regimes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core.records import DialogueExample
from consistest.metrics.answers import is_question
from consistest.tasks.cdconv.threshold import pick_tau

MIN_PER_CLASS = 20


def question_of(ex: DialogueExample) -> str:
    """The user's turn the last one answers ("" in a one-turn dialogue)."""
    return ex.turns[-2] if len(ex.turns) >= 2 else ""


def bot_turns(turns: Sequence[str]) -> list[str]:
    """The earlier turns of the speaker of the last turn (speakers alternate)."""
    return list(turns[-3::-2][::-1])


def asks(ex: DialogueExample) -> bool:
    """The judged turn answers a user turn that asks something (the regime of ``tau``)."""
    return is_question(question_of(ex))


@dataclass(frozen=True)
class RegimeTaus:
    """The picked thresholds, their dev balanced accuracies, and how many dialogues each was picked on."""

    tau: float
    balanced: float
    n: int
    tau_statement: float | None = None
    balanced_statement: float | None = None
    n_statement: int = 0


def regime_taus(scores: Sequence[float], examples: Sequence[DialogueExample], n_main: int) -> RegimeTaus:
    """``tau_statement`` on every dialogue of ``examples`` after a statement and ``tau`` on those of
    ``examples[:n_main]`` (the ``--dev`` sets) that answer a question; without enough of the first (fewer
    than ``MIN_PER_CLASS`` of a class), one ``tau`` on all of ``examples[:n_main]``."""
    rows = [(s, ex.label != "none", asks(ex)) for s, ex in zip(scores, examples, strict=True)]
    after = [(s, c) for s, c, a in rows if not a]
    main = [(s, c) for s, c, _ in rows[:n_main]]
    if min(sum(c for _, c in after), sum(not c for _, c in after)) < MIN_PER_CLASS:
        return RegimeTaus(*pick_tau([s for s, _ in main], [c for _, c in main]), len(main))
    answers = [(s, c) for s, c, a in rows[:n_main] if a]
    if len({c for _, c in answers}) == 2:
        main = answers
    tau, bal = pick_tau([s for s, _ in main], [c for _, c in main])
    t2, b2 = pick_tau([s for s, _ in after], [c for _, c in after])
    return RegimeTaus(tau, bal, len(main), t2, b2, len(after))


def tau_for(ex: DialogueExample, tau: float, tau_statement: float | None) -> float:
    """The threshold of the judged turn's regime."""
    return tau if tau_statement is None or asks(ex) else tau_statement
