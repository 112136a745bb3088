"""What a Y/N reply answers when it carries no yes/no word or short form (the ``yn-proposition`` rule), and
whether the long part of one that does agrees with it (the ``yn-long`` rule).

The evidence, in order: an evasive reply ("i'm not sure") answers nothing (0); a reply that restates the fact
agrees with the truth, one that negates it or puts another value in its place does not ("i have six sons"
for the fact "i have five sons"); otherwise the reply's stance on the question's proposition decides ("i own
a yacht" -> yes, "i've never owned one" -> no, "i was born in somalia" to "were you born in kenya ?" -> no);
clauses that disagree with each other give 0 (the guidelines: any disagreement); a reply that shares no
content word with question or fact is off-topic (0). What none of this decides is left to NLI.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from consistest.metrics.propositions import (
    Keys,
    Stance,
    _words,
    clause_stance,
    clauses,
    is_content,
    proposition,
    question_keys,
    statement_keys,
    stem,
)
from consistest.metrics.rules import FILLERS, _phrase_at
from consistest.metrics.words import evasive

FACT_SHARE = 0.5  # a fact is restated (or given another value) by a clause holding this share of its keys
# A long part restates the question only when it holds all its keys, and gives it another value when it
# holds half of them: it follows a yes/no word, so only clear disagreement overrules that word.
LONG_SHARE = (1.0, 0.5)
Polarity = Literal["yes", "no"]


@dataclass(frozen=True)
class Reading:
    """What a reply answers: ``polarity`` (None: the rules cannot tell) and ``outcome``, the evidence."""

    outcome: str
    polarity: Polarity | None = None
    wrong_anyway: bool = False  # evasive, off-topic, conflicting, another value than the fact: 0 whatever

    def score(self, truth: Polarity) -> float | None:
        if self.wrong_anyway:
            return 0.0
        return None if self.polarity is None else float(self.polarity == truth)


def _flip(p: Polarity) -> Polarity:
    return "no" if p == "yes" else "yes"


@lru_cache(maxsize=1 << 12)
def fact_keys(fact: str) -> tuple[Keys, ...]:
    """The statements of a fact, each clause without its opening yes/no phrase ("not really , i ...")."""
    out = []
    for c in clauses(fact):
        words = c.split()
        i = 0
        while i < len(words) and words[i] in FILLERS:
            i += 1
        said = _phrase_at(words, i)
        if said is not None and not (i + said[1] < len(words) and is_content(words[i + said[1]])):
            i += said[1]  # "not really , as a woman i ...", but not "no games"
        keys = statement_keys(" ".join(words[i:]))
        if keys is not None:
            out.append(keys)
    return tuple(out)


def about_user(clause: str) -> bool:
    """A clause about the user, not the bot ("oh , you speak chinese"): no evidence of the bot's answer."""
    words = [w for w in clause.split() if w not in FILLERS and w not in ("wow", "lol", "haha")]
    return bool(words) and words[0] in ("you", "your", "u", "ur", "you're", "yours")


def read_reply(question: str, truth: Polarity, fact: str, cleaned: str, standalone: bool = True) -> Reading:
    """The reading of a reply without a yes/no word or short form (see the module's docstring); with
    ``standalone=False`` the reading of the long part of one that has them, which need not be on topic."""
    if standalone and evasive(cleaned):
        return Reading("evasive", wrong_anyway=True)
    parts = [c for c in clauses(cleaned) if not about_user(c)]
    on_fact = _combine([_fact_stance(fact, c) for c in parts])
    if on_fact == "conflict":
        return Reading("conflicting", wrong_anyway=True)
    if on_fact == "other":
        return Reading("other_value_than_fact", wrong_anyway=True)
    if on_fact is not None:
        return Reading("restates_fact" if on_fact == "yes" else "negates_fact",
                       truth if on_fact == "yes" else _flip(truth))  # fmt: skip
    prop = proposition(question)
    if prop is not None:
        keys = question_keys(prop)
        share = (0.0, 0.0) if standalone else LONG_SHARE
        on_q = _combine([clause_stance(keys, c, *share) for c in parts])
        if on_q == "conflict":
            return Reading("conflicting", wrong_anyway=True)
        if on_q is not None:
            outcome = {"yes": "restates_question", "no": "negates_question", "other": "states_other_value"}[
                on_q
            ]
            return Reading(outcome, "yes" if on_q == "yes" else "no")
    if standalone and fact.strip() and not _shares_content(question, fact, parts):
        return Reading("off_topic", wrong_anyway=True)
    return Reading("undecided")


def _fact_stance(fact: str, clause: str) -> Stance | None:
    got = [clause_stance(k, clause, FACT_SHARE, FACT_SHARE) for k in fact_keys(fact)]
    return next((s for s in ("yes", "no", "other") if s in got), None)


def _combine(stances: list[Stance | None]) -> Stance | Literal["conflict"] | None:
    """One stance from the clauses': yes and no together conflict; yes beside another value is yes ("i'm
    wearing a hat . i'm wearing sunglasses")."""
    got = set(stances) - {None}
    if {"yes", "no"} <= got:
        return "conflict"
    return next((s for s in ("yes", "no", "other") if s in got), None)


def _shares_content(question: str, fact: str, parts: list[str]) -> bool:
    have = {stem(w) for c in parts for w in _words(c) if is_content(w)}
    want = {stem(w) for w in _words(question) + _words(fact) if is_content(w)}
    return bool(have & want)
