"""Where a clause stands on a statement's keys (:mod:`.propositions`): it says it (``yes``), negates it
(``no``), puts another value in one key word's place behind the same function words (``other``: "i was born
in somalia" for "i was born in kenya"), or says nothing about it. Pure token rules, versioned with
``PLUS_VERSION``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from consistest.metrics.propositions import (
    ARTICLES,
    BE,
    HELPERS,
    LIGHT_VERBS,
    SUBJECTS,
    Keys,
    Stance,
    is_adverb,
    is_content,
    is_negated,
    stem,
    verb_stem,
    words_of,
)
from consistest.metrics.words import GENERIC, PRONOUNS, is_negation


class Swap(NamedTuple):
    """Another word in a key word's place: the key word, the word there, and whether the key word stands
    right before a content word, as a modifier does ("several" in "several instruments")."""

    gone: str
    put: str
    modifier: bool


@dataclass(frozen=True)
class ClauseReading:
    """A clause's stance on some keys and whether it rests on all of them (``full``: every key word said,
    or another value in a key word's place) or on part of them."""

    stance: Stance
    full: bool
    hits: int = 0  # key words said (verb and value)
    swap: Swap | None = None  # for ``other`` in a key word's place


def clause_stance(keys: Keys, clause: str, min_share: float = 0.0, min_swap: float = 0.0) -> Stance | None:
    """``yes`` (the clause states what ``keys`` states), ``no`` (its negation), ``other`` (another value in
    the same frame), or None (the clause is not about it); see :func:`clause_reading`."""
    got = clause_reading(keys, clause, min_share, min_swap)
    return None if got is None else got.stance


def clause_reading(
    keys: Keys, clause: str, min_share: float = 0.0, min_swap: float = 0.0
) -> ClauseReading | None:
    """The clause's stance on ``keys``. A clause holding only some of the keys (verb and value words)
    restates them when it holds at least ``min_share`` of them, and states another value when it holds at
    least ``min_swap`` of them; a clause holding none may still say the subject is something else ("i'm a
    teacher" to "are you a truck driver ?")."""
    words = words_of(clause)
    stems = [
        match_stem(w, keys) if w != "like" or _verb_like(words, k) else None for k, w in enumerate(words)
    ]
    flipped = is_negated(words, keys.past) != keys.negated
    hits = [v for v in keys.value if v in stems]
    verb_hit = keys.verb is not None and keys.verb in stems
    share = (len(hits) + verb_hit) / (len(keys.value) + (keys.verb is not None) or 1)
    said = len(hits) + verb_hit
    if len(hits) == len(keys.value) and said:
        return ClauseReading("no" if flipped else "yes", True, said)
    swap = swapped(keys, words, stems) if said and share >= min_swap else None
    if swap is not None:
        if flipped or keys.negated:
            return None  # "i don't drink cola" beside "i don't drink soda": no other value
        # Full evidence: one key word replaced, all others said ("i drive a nissan altima" for "... nissan
        # pathfinder"); not "watching the game" for "watch nhl hockey", nor a light verb alone as anchor
        # ("i have a german shepherd" to "do you have a dog ?").
        full = len(hits) == len(keys.value) - 1 and (bool(hits) or keys.verb not in LIGHT_VERBS)
        return ClauseReading("other", full, said, swap)
    if hits and share >= min_share:
        return ClauseReading("no" if flipped else "yes", False, said)
    if (
        verb_hit
        and not hits
        and keys.verb not in LIGHT_VERBS - {"like"}
        and _object_pronoun(words, stems, keys)
    ):
        return ClauseReading("no" if flipped else "yes", False, said)  # "i love it" to "do you like poetry ?"
    if not hits and keys.verb is None and not flipped and _be_another(keys, words):
        return ClauseReading("other", False)
    return None


def _object_pronoun(words: list[str], stems: list[str | None], keys: Keys) -> bool:
    """The verb's object is a pronoun standing for the value ("i love it", "i don't play them")."""
    k = stems.index(keys.verb) + 1
    while k < len(words) and (words[k] in ("to", "doing") or is_adverb(words[k])):
        k += 1
    return k < len(words) and words[k] in ("it", "them", "that", "those", "this", "these")


def _verb_like(words: list[str], k: int) -> bool:
    """ "like" is the verb after a subject, an auxiliary, a negation or an adverb ("i really like"), not the
    preposition of "nothing like a glass of wine"."""
    prev = words[k - 1] if k else ""
    return prev in SUBJECTS | HELPERS | {"you", "would"} or is_negation(prev) or is_adverb(prev)


def _be_another(keys: Keys, words: list[str]) -> bool:
    """The clause says what the subject is ("i am a teacher") where the keys say it is something else
    ("a truck driver"): both name it with an indefinite article."""
    n = len(keys.subject)
    if tuple(words[:n]) != keys.subject or not ({"a", "an"} & set(keys.words)):
        return False
    rest = words[n:]
    while rest and (rest[0] in BE or rest[0] == "have" or is_adverb(rest[0])):
        rest = rest[1:]
    return len(rest) > 1 and rest[0] in ("a", "an") and any(is_content(w) for w in rest[1:3])


def match_stem(word: str, keys: Keys) -> str | None:
    if keys.verb is not None and verb_stem(word) == keys.verb:
        return keys.verb
    return stem(word) if is_content(word) else None


def substituted(keys: Keys, words: list[str], stems: list[str | None]) -> tuple[str, str] | None:
    """(missing word, the word in its place) when a missing value word's place, next to a word both share
    and behind the same function words ("born in _", "five _", "drive a _"), holds another content word."""
    got = swapped(keys, words, stems)
    return None if got is None else (got.gone, got.put)


def swapped(keys: Keys, words: list[str], stems: list[str | None]) -> Swap | None:
    """:func:`substituted`, saying too whether the missing word is a modifier (before a content word)."""
    ref = [match_stem(w, keys) for w in keys.words]
    for i, s in enumerate(ref):
        if s is None or s not in keys.value or s in stems or keys.words[i] in GENERIC:
            continue
        for step in (-1, 1):  # the anchor: the nearest shared word before (step -1) or after the gap
            j = i + step
            while 0 <= j < len(ref) and ref[j] is None:
                j += step
            if not (0 <= j < len(ref)) or ref[j] not in stems:
                continue
            gap = _gap(keys.words, j, i)
            k = stems.index(ref[j])
            m = k - step
            while 0 <= m < len(words) and words[m] in ARTICLES:
                m -= step
            got = []
            while 0 <= m < len(words) and len(got) < len(gap) and stems[m] is None:
                got.append(words[m])
                m -= step
                while 0 <= m < len(words) and words[m] in ARTICLES:
                    m -= step
            found = 0 <= m < len(words) and stems[m] not in (None, *ref) and words[m] not in PRONOUNS
            if found and keys.words[i].isdigit() and not words[m].isdigit():
                continue  # a number's place holds another number or no value ("a few dogs" for "three dogs")
            if tuple(got) == gap and found and not _split_compound(words, m, step, keys.words[i]):
                modifier = i + 1 < len(keys.words) and is_content(keys.words[i + 1])
                return Swap(keys.words[i], words[m], modifier)  # the same frame ("born in _"), another word
    return None


def _split_compound(words: list[str], m: int, step: int, missing: str) -> bool:
    """ "full time" for "fulltime": the word in the place and its neighbour spell the missing word."""
    pair = words[m : m + 2] if step == -1 else words[m - 1 : m + 1]
    return "".join(pair) == missing


def _gap(words: tuple[str, ...], anchor: int, missing: int) -> tuple[str, ...]:
    """The function words between an anchor and a missing word, read from the anchor towards it."""
    step = 1 if missing > anchor else -1
    return tuple(w for w in words[anchor + step : missing : step] if w not in ARTICLES)
