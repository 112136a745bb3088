"""Whom the bot is partnered with (plus-22, the ``partner`` rule): a Y/N reply that names the bot's own
spouse or partner as a woman where the fact names a man ("i'm married to a woman named jenna", fact "my
husband is adopted"), or the other way round, gives another value than the fact's: the annotators give it
0 whatever its yes/no word. Pure regular expressions over a small lexicon, versioned with ``PLUS_VERSION``."""

from __future__ import annotations

import re
from typing import Literal

Sex = Literal["man", "woman"]

_FACT_WORDS: dict[Sex, str] = {"man": "husband|boyfriend|hubby", "woman": "wife|girlfriend"}
_PERSONS: dict[Sex, str] = {"man": "man|guy", "woman": "woman|lady|girl"}
_MODIFIERS = r"(?:[a-z'-]+\s+){0,2}"


def _own(sex: Sex) -> re.Pattern[str]:
    """The bot's own partner of ``sex``: "my wife", "i have a girlfriend", "married to a lovely woman"; not
    someone else's ("her husband") nor a wish ("i'd love a wife": no "my", "have" or "married")."""
    words, persons = _FACT_WORDS[sex], _PERSONS[sex]
    return re.compile(
        rf"\b(?:my\s+{_MODIFIERS}(?:{words})|i\s*(?:'ve|have|'m\s+with)\s+an?\s+{_MODIFIERS}(?:{words})"
        rf"|married\s+to\s+(?:an?|my)\s+{_MODIFIERS}(?:{words}|{persons}))\b"
    )


_OWN: dict[Sex, re.Pattern[str]] = {sex: _own(sex) for sex in ("man", "woman")}
# a partner the bot no longer has ("i just broke up with my boyfriend", "my wife left me"): a reply naming
# another may name a new one
_PAST = re.compile(r"\b(?:ex|broke\s+up|left\s+me|escape|murdered|divorced?|died|passed\s+away|late)\b")


def fact_partner(fact: str) -> Sex | None:
    """The sex of the bot's own partner a fact names ("my husband is adopted": man); None for none, both,
    or one it no longer has."""
    text = fact.lower().replace("\u2019", "'")
    said = [sex for sex, p in _OWN.items() if p.search(text)]
    return said[0] if len(said) == 1 and not _PAST.search(text) else None


def other_partner(fact: str, reply: str) -> bool:
    """Whether ``reply`` names the bot's own partner of the other sex than the one ``fact`` names, and none
    of the fact's."""
    sex = fact_partner(fact)
    if sex is None:
        return False
    other: Sex = "woman" if sex == "man" else "man"
    text = reply.lower().replace("\u2019", "'")
    return _names(other, text) and not _names(sex, text)


def _names(sex: Sex, text: str) -> bool:
    """Whether ``text`` names the bot's own partner of ``sex``, not negated ("i'm not married to a woman")."""
    return any(not _NEGATED.search(text[: m.start()]) for m in _OWN[sex].finditer(text))


_NEGATED = re.compile(r"\b(?:not|never|no)\s+(?:[a-z']+\s+){0,1}$|n't\s+(?:[a-z']+\s+){0,1}$")
