"""Facts of the speaker that hold one value at a time, said again with another: age and sex.

The ``slot`` reading of the detectors' answer rules (``--qa-rules``, :mod:`.answers`), after any user turn:
a clause of the reply that gives the speaker's age ("i'm 16", "i am 30 years old", "i'm a 42 year old
male") or sex ("because i'm a boy", "i'm a little girl") contradicts a persona sentence or earlier
statement of the speaker's that gives another ("i'm 27 years old"; "i'm a 12 year old girl"), unless one of
them gives the same. Other values a person may hold several of (jobs, places, pets) are left to the guard:
on the synthetic dev split a job reading fired on personas with two jobs ("i am a musician" and "i work as
a custodian").

Only a clause that is nothing but the statement counts, after fillers ("oh , i'm 16 now"): not "i feel like
i'm 80 years old", "when i am 70 ...", "i'm a big boy", "i'm a yes man"; not an age under 3 ("i am one" is
no age); not a number that ends a turn without punctuation, which the length limit may have cut ("i'm 2" of
"i'm 25"). Designed on dev data (round 1 of ``tests/data/dialogues``, the synthetic dev split, DECODE
``rct`` train and dev, ConsisTest dev replies) and a review's examples; there it fires on 21 contradictions
and on none of 2,802 consistent turns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.metrics.category_text import clauses
from consistest.metrics.clean import clean_response
from consistest.metrics.numbers import normalize_numbers
from consistest.metrics.words import lex

_FILLER = r"(?:yes|yeah|yep|no|nope|oh|well|wow|so|and|but|ok|okay|lol|haha|actually|because|cause|hi|hey)"
_FILLERS = rf"^(?:{_FILLER}\W+)*"
_I_AM = r"i\s*(?:'m|am|m)\s+"
_OLD = r"(?:years?|yrs?)[\s-]*old|yo"
_AGE = (
    re.compile(_FILLERS + _I_AM + rf"(\d{{1,3}})\s*(?:{_OLD})?(?:\s+(?:now|today|too|already))?$"),
    re.compile(_FILLERS + _I_AM + rf"an?\s+(\d{{1,3}})[\s-]*(?:{_OLD})\b(?!.*\b(?:heart|spirit|inside)\b)"),
    re.compile(_FILLERS + r"my age is (\d{1,3})$"),
)
MIN_AGE = 3
_FEMALE = lex("girl woman female lady gal mom mother wife grandmother grandma daughter housewife")
_MALE = lex("boy man male guy dude dad father husband grandfather grandpa son")
_MODIFIER = r"little|young|old|single|grown|married|divorced|retired|widowed|proud|teenage"
_MODIFIERS = rf"(?:{_MODIFIER}|\d{{1,3}}[\s-]*{_OLD})"
_SEX = re.compile(_FILLERS + _I_AM + rf"(?:an?\s+)?(?:{_MODIFIERS}\s+){{0,2}}([\w-]+)$")


def _plain(clause: str) -> str:
    return normalize_numbers(clause.lower().replace("\u2019", "'").strip(" .!"))


def age(clause: str) -> int | None:
    """The speaker's age a clause states (number words read as digits; 3 and over), or None."""
    text = _plain(clause)
    for pattern in _AGE:
        if (m := pattern.search(text)) and int(m[1]) >= MIN_AGE:
            return int(m[1])
    return None


def sex(clause: str) -> str | None:
    """``female`` or ``male`` when the clause says what the speaker is ("i'm a little girl"), or None."""
    m = _SEX.search(_plain(clause))
    word = m[1] if m else None
    return "female" if word in _FEMALE else "male" if word in _MALE else None


def _stated(text: str) -> list[str]:
    """A turn's statements: not its questions, nor a last clause ending in a number when the turn has no
    final punctuation (the length limit may have cut it)."""
    out = [c for c in clauses(text) if not c.rstrip().endswith("?")]
    cut = not text.rstrip().endswith((".", "!", "?", ")", '"'))
    if out and cut and re.search(r"\d\W*$", _plain(out[-1])):
        out = out[:-1]
    return out


def other_value(reply: str, own: Sequence[str]) -> tuple[str, str] | None:
    """The first clause of ``reply`` that gives the speaker's age or sex, with the statement of ``own``
    (persona sentences, earlier turns) that gives another, when none of ``own`` gives the same; None when
    there is none."""
    held = [c for t in own for c in _stated(t)]
    for c in _stated(clean_response(reply)):
        for read in (age, sex):
            value = read(c)
            if value is None:
                continue
            readings = [(read(o), o) for o in held]
            if any(v == value for v, _ in readings):
                continue
            clash = next((o for v, o in readings if v is not None), None)
            if clash is not None:
                return c, clash
    return None
