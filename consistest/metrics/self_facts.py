"""Facts of the speaker that hold one value at a time, said again with another: age and sex.

The ``slot`` reading of the detectors' answer rules (``--qa-rules``, :mod:`.answers`), after any user turn:
a clause of the reply that gives the speaker's age ("i'm 16", "i am 30 years old", "i'm a 42 year old
male") or sex ("because i'm a boy", "i'm a little girl") contradicts a persona sentence or earlier
statement of the speaker's that gives another ("i'm 27 years old"; "i'm a 12 year old girl"). Other values
a person may hold several of (jobs, places, pets) are left to the guard: on the synthetic dev split a job
reading fired on personas with two jobs ("i am a musician" and "i work as a custodian").

Only what a clause states plainly counts: not questions, not negated clauses, not a last clause cut off by
the length limit ("i'm 1" of "i'm 100 ..."). Designed on dev data (round 1 of ``tests/data/dialogues``,
the synthetic dev split, DECODE ``rct`` train and dev, ConsisTest dev replies), where it fired on 23
contradictions and on no consistent turn of 2,802.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.metrics.category_text import clauses
from consistest.metrics.clean import clean_response
from consistest.metrics.numbers import normalize_numbers
from consistest.metrics.words import lex
from consistest.metrics.wrong_value_words import negated, words

_I_AM = r"\bi\s*(?:'m|am|m)\s+"
_YEARS = r"(?:years?|yrs?)"
_AGE = (
    re.compile(_I_AM + rf"(\d{{1,3}})\s*{_YEARS}?\s*(?:old)?\s*(?:now|today|too)?$"),  # "i'm 16 now"
    re.compile(_I_AM + rf"(\d{{1,3}})\s*{_YEARS}\s*old\b"),  # "i am 30 years old and ...", "60years old"
    re.compile(_I_AM + rf"an?\s+(\d{{1,3}})[\s-]*{_YEARS}[\s-]*old\b"),  # "i'm a 12 year old girl"
    re.compile(r"\bmy age is (\d{1,3})\b"),
)
_FEMALE = lex("girl woman female lady gal mom mother wife grandmother grandma daughter housewife")
_MALE = lex("boy man male guy dude dad father husband grandfather grandpa son")
_SEX = re.compile(_I_AM + rf"an?\s+(?:\d{{1,3}}[\s-]*{_YEARS}[\s-]*old\s+)?(?:[\w-]+\s+)?([\w-]+)$")


def age(clause: str) -> int | None:
    """The speaker's age a clause states (number words read as digits), or None."""
    text = normalize_numbers(clause.lower().strip(" .!"))
    for pattern in _AGE:
        if m := pattern.search(text):
            return int(m[1])
    return None


def sex(clause: str) -> str | None:
    """``female`` or ``male`` when the clause says what the speaker is ("i'm a little girl"), or None."""
    m = _SEX.search(clause.lower().strip(" .!"))
    if m is None:
        return None
    return "female" if m[1] in _FEMALE else "male" if m[1] in _MALE else None


def _stated(text: str, *, cut: bool = False) -> list[str]:
    """The plain statements of a turn: no questions, no negated clauses, and with ``cut`` not the last
    clause of a longer turn the length limit cut off (it ends with no punctuation; a turn of one clause
    without it is kept: "i'm 16")."""
    out = [c for c in clauses(text) if not c.rstrip().endswith("?") and not negated(words(c.lower()))]
    if cut and len(out) > 1 and not text.rstrip().endswith((".", "!", "?", ")", '"')):
        out = out[:-1]
    return out


def other_value(reply: str, own: Sequence[str]) -> tuple[str, str] | None:
    """The first clause of ``reply`` that gives the speaker's age or sex, with the statement of ``own``
    (persona sentences, earlier turns) that gives another; None when there is none."""
    held = [c for t in own for c in _stated(t)]
    for c in _stated(clean_response(reply), cut=True):
        for read in (age, sex):
            value = read(c)
            if value is None:
                continue
            clash = next((o for o in held if read(o) not in (None, value)), None)
            if clash is not None:
                return c, clash
    return None
