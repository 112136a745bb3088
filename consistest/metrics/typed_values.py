"""Another value of the closed type a WH question asks for (``typed_value``): a colour to "what color ... ?",
a name to a question about a name. What makes a WH reply ``history`` in the failure categories when no frame
reads its value. Pure functions over strings; versioned with ``CATEGORIES_VERSION`` (categories.py)."""

from __future__ import annotations

import re

from consistest.metrics.category_text import clauses
from consistest.metrics.wrong_value_frames import same_value
from consistest.metrics.wrong_value_words import (
    COLOURS,
    DISLIKE,
    LIKE,
    NOT_A_NAME,
    NOT_A_VALUE,
    SPELLING,
    key,
    keys,
    negated,
    truth_keys,
    words,
)

_NAMED = re.compile(r"\b(my |i'm |i am )?(?:named|called|name is|name's|name was)\s+([a-z]+)")
_OWN_NAME = re.compile(r"\b(?:my name|i'?m called|i am called|call me)\b")
_TYPE_WORDS = frozenset({"color", "colour", "name", "shade"})  # "favorite", "kind" ... have no key anyway


def typed_value(question: str, truth: str, fact: str, text: str, known: frozenset[str]) -> str:
    """Another value of the closed type a WH question asks for, in an affirmative clause of the reply, else
    "": a colour to "what color ... ?" ("i have a black car" for grey); a name to a question about a name
    ("my cat is named chris" for charlie; "my name is kyle" only where the question asks the bot's own
    name, and then only the bot's own name counts). Only where ``fact`` holds every content word of the
    question but the type's ("eyes" for "what color are your eyes ?"; a name of the bot's own for "your
    name"), or names the truth ("a lab named trooper" for "what is your dog's name ?"); words of the truth
    and of ``known`` are no other value, nor a colour of the verb the question does not ask ("i love blue"
    to "what color do you hate ?"). Known gaps: a colour counts whatever it describes, hedged ones too,
    and the first person must come right before the naming words ("my first name is kyle" reads as no
    name of the bot's own)."""
    q = question.lower()
    colour, name = re.search(r"\bcolou?rs?\b", q), re.search(r"\bnamed?\b", q)
    own = re.search(r"\byour (?:full |first |last |real )?name\b", q)
    if not (colour or name) or not _speaks_of(question, truth, fact, bool(name and not colour)):
        return ""
    if own and not _OWN_NAME.search(fact.lower()):
        return ""
    taken = {SPELLING.get(t, t) for t in known | truth_keys(truth)}
    for clause in clauses(text.lower()):
        ws = words(clause)
        if negated(ws) or _other_verb(words(q), ws):
            continue
        said = [SPELLING.get(w, w) for w in ws if w in COLOURS] if colour else []
        if name and not colour:
            found = _NAMED.finditer(clause)
            said = [m[2] for m in found if bool(m[1]) == bool(own) and m[2] not in NOT_A_NAME]
        for w in said:
            k = key(w)
            if k and w not in NOT_A_VALUE and not any(same_value(k, t) or _one_letter(w, t) for t in taken):
                return w
    return ""


def _one_letter(a: str, b: str) -> bool:
    """A name of five letters or more misspelt by one letter dropped or two swapped ("barnby" for
    barnaby): the same name."""
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        i = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
        return a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1]
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _speaks_of(question: str, truth: str, fact: str, name: bool) -> bool:
    """The fact holds every content word of the question but the type's, or (a name question) names the
    truth ("i have a lab named trooper")."""
    about = keys(question) - {k for w in _TYPE_WORDS if (k := key(w))}
    if about <= keys(fact):
        return True
    values = truth_keys(truth)
    return name and any(key(m[2]) in values for m in _NAMED.finditer(fact.lower()) if not m[1])


def _other_verb(question: tuple[str, ...], clause: tuple[str, ...]) -> bool:
    """The clause likes where the question asks what is hated, or the other way round."""
    if DISLIKE & set(question):
        return bool(LIKE & set(clause)) and not DISLIKE & set(clause)
    return bool(LIKE & set(question) or "favorite" in question) and bool(DISLIKE & set(clause))
