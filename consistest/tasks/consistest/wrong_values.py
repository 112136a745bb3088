"""Rule evidence that a reply states a wrong value or the wrong polarity: what makes a reply ``history``
(or ``intra``) in the failure categories when the NLI guard says neutral or was not run. Pure functions
over strings; their word lists are versioned with ``CATEGORIES_VERSION`` (categories.py).

- ``stated_polarity``: a first-person clause of the reply restates the Y/N question's proposition,
  positively ("i own a yacht , it's a luxury vessel" to "do you own a yacht ?") or negated ("i don't own
  a yacht", "i hate math" to "do you like math ?"); hedged clauses ("i wish i owned a yacht", "i don't
  know if ...") are no evidence.
- ``frame_values``: the reply fills the fact's frame with another value: the word next to the fact's value
  (its anchor: "drive" in "i drive a mercedes", "hair" in "i have red hair") is in the reply and the word
  in the value's place differs ("i drive a bmw", "i have blonde hair"), with the same kind of words
  between them (an article where the fact has one: "i like to drive fast" is no value of "drive a ...").
- ``short_value``: a WH reply that opens with a bare value ("in the fall .", "peanuts , i carry an epi
  pen .") naming no truth keyword.
- ``other_number``: a number where the truth is a number ("i'm 32 years old" for 23).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from consistest.metrics.numbers import normalize_numbers
from consistest.metrics.rules import _fold, content_tokens, keyword_alternatives
from consistest.tasks.consistest.categories_text import QUESTION_WORDS, clauses, evasive, stem

Polarity = Literal["yes", "no", "both"]


def _lex(text: str) -> frozenset[str]:
    """A word list written as one space-separated string."""
    return frozenset(text.split())


_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Words that are never a value or an anchor (beyond the question words of ``categories_text``).
FUNCTION = _lex(
    "from about by into onto than then there here this these those they them their he she his her him we "
    "us our was get got lot lots bit much many more most other same thing things stuff kind sort type "
    "one ones kinds out up down off over back away pretty kinda quite usually mostly often sometimes"
)
# Openers and reactions that are no value ("well , ...", "sounds fun").
NOT_VALUES = _lex(
    "hello hi hey thanks thank sorry wow cool great nice awesome sure yeah yep yup yes no nope absolutely "
    "definitely totally course haha lol hmm um uh oh ah ok okay well sounds good fun true right exactly "
    "indeed probably maybe perhaps honestly actually"
)
ARTICLES = _lex("a an the my his her their our your some this that its")
PREPOSITIONS = _lex("in at on for to from with of as by near into around inside outside")
BE = _lex("is am are was were be been being")
NEGATIONS = _lex("not never no none nothing nobody neither nor cannot without")
FIRST_PERSON = _lex("i i'm i've i'd i'll my me mine myself we we're we've our us")
# A clause with one of these states no fact ("i wish i owned a yacht", "not sure i do").
HEDGES = _lex(
    "wish would want wanna hope if maybe might someday dream could should hopefully plan planning used "
    "sure know remember guess suppose"
)
LIKE = frozenset({"like", "love", "enjoy", "adore", "likes", "loves", "enjoys", "liked", "loved"})
DISLIKE = frozenset({"hate", "dislike", "detest", "loathe", "hates", "dislikes", "hated"})
_LIKE = "<like>"  # one key for the like-verbs: "i love nature" restates "do you like nature ?"
_ORDINAL_WORDS = (
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)
ORDINALS = {w: str(i) for i, w in enumerate(_ORDINAL_WORDS)}
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
PRONOUN_SUBJECTS = _lex("you your it it's he she he's she's they they're we're that's there's you're")
MAX_GAP = 3  # words between an anchor and the value
MAX_SHORT = 6  # words of a bare WH value


@lru_cache(maxsize=1 << 15)
def words(text: str) -> tuple[str, ...]:
    """Lowercase words (numbers as digits, contractions kept whole: "don't", "i'm", "dog's")."""
    return tuple(_TOKEN.findall(normalize_numbers(str(text).replace("\u2019", "'").lower())))


def key(word: str) -> str:
    """The stem a content word is compared by ("" for function words, pronouns and contractions; a
    possessive counts as its noun: "dog's" -> "dog"); like/love/enjoy share one key."""
    if "'" in word:
        base, _, suffix = word.partition("'")
        if suffix != "s" or base in ("it", "that", "he", "she", "what", "there", "here", "who", "let"):
            return ""
        word = base
    if word in LIKE:
        return _LIKE
    if word in ORDINALS or _ORDINAL.match(word):
        return ORDINALS.get(word) or _ORDINAL.match(word)[1]  # type: ignore[index]
    if word in QUESTION_WORDS or word in FUNCTION or word in NOT_VALUES or word in NEGATIONS:
        return ""
    return stem(_fold(word))


def keys(text: str) -> frozenset[str]:
    return frozenset(k for w in words(text) if (k := key(w)))


def negated(ws: tuple[str, ...]) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in ws)


# ---------------------------------------------------------------- Y/N: the question restated
def stated_polarity(question: str, text: str) -> Polarity | None:
    """yes / no when first-person clauses of ``text`` restate the question's proposition only positively /
    only negated, ``both`` when they say both, None when none restates it (or the question is negative)."""
    qw = words(question)
    want = frozenset(k for w in qw if (k := key(w)))
    if not want or negated(qw):
        return None
    said: set[str] = set()
    for clause in clauses(text):
        ws = words(clause)
        if not FIRST_PERSON & set(ws) or HEDGES & set(ws):
            continue
        have = {k for w in ws if (k := key(w))}
        dislike = _LIKE in want and bool(DISLIKE & set(ws))
        if dislike:
            have.add(_LIKE)
        if want <= have:
            said.add("no" if negated(ws) != dislike else "yes")
    if not said:
        return None
    return "both" if len(said) == 2 else said.pop()  # type: ignore[return-value]


def restates(text: str, facts: tuple[str, ...]) -> bool:
    """Every content word of ``text`` (two at least) is a word of one of the facts ("i have short hair"
    for "i've short hair ."): the text says what the fact says, in its words."""
    mine = keys(text)
    return len(mine) >= 2 and any(mine <= keys(f) for f in facts)


# ---------------------------------------------------------------- values in the fact's frame
def _kind(word: str) -> str | None:
    """The class of a word that may sit between an anchor and a value, None for any other word."""
    if word in ARTICLES or word.isdigit():
        return "article"
    if word in PREPOSITIONS:
        return "preposition"
    if word in BE or word.endswith("'s"):
        return "be"
    return None


def _gap_ok(fact_gap: list[str], reply_gap: list[str]) -> bool:
    """The reply has the same kinds of words between anchor and value as the fact (an article where the
    fact has one; a preposition or a be-verb only where the fact has one)."""
    allowed = {_kind(w) for w in fact_gap}
    got = [_kind(w) for w in reply_gap]
    if len(reply_gap) > MAX_GAP or None in got or not set(got) <= allowed:
        return False
    return "article" not in allowed or "article" in got


def _value_span(fws: tuple[str, ...], values: frozenset[str]) -> tuple[int, int] | None:
    """The first run of the fact's words whose keys are value keys (articles inside a run allowed)."""
    start = next((i for i, w in enumerate(fws) if key(w) in values), None)
    if start is None:
        return None
    end = start + 1
    while end < len(fws) and (key(fws[end]) in values or fws[end] in ARTICLES):
        end += 1
    while fws[end - 1] in ARTICLES:
        end -= 1
    return start, end


def frame_values(
    fact: str, values: frozenset[str], text: str, need: frozenset[str] = frozenset()
) -> list[str]:
    """Words ``text`` puts where the fact has its value (keys in ``values``), found from the fact's anchor
    before the value (reading on) and after it (reading back); ``need``: keys the fact's words before the
    value must include for the frame to count. Empty when the fact has no usable frame."""
    fws = words(fact)
    span = _value_span(fws, values)
    if span is None:
        return []
    start, end = span
    before = [i for i in range(start) if key(fws[i])]
    if not need <= {key(fws[i]) for i in before}:
        return []
    after = [i for i in range(end, len(fws)) if key(fws[i])]
    rws = words(text)
    found: list[str] = []
    if before:
        a = before[-1]
        found += _read(rws, key(fws[a]), list(fws[a + 1 : start]), +1)
    if after:
        a = after[0]
        found += _read(rws, key(fws[a]), list(fws[end:a]), -1)
    return found


def _read(rws: tuple[str, ...], anchor: str, fact_gap: list[str], step: int) -> list[str]:
    """The value key next to each occurrence of ``anchor`` in the reply (after it for step +1, before it
    for -1), past a gap of the fact's kinds of words."""
    out = []
    for i, w in enumerate(rws):
        if key(w) != anchor:
            continue
        j, gap = i + step, []
        while 0 <= j < len(rws) and not key(rws[j]) and _kind(rws[j]) is not None and len(gap) <= MAX_GAP:
            gap.append(rws[j])
            j += step
        if 0 <= j < len(rws) and key(rws[j]) and key(rws[j]) != _LIKE and _gap_ok(fact_gap, gap[::step]):
            out.append(key(rws[j]))
    return out


def wrong_frame_value(
    fact: str,
    values: frozenset[str],
    text: str,
    need: frozenset[str] = frozenset(),
    known: frozenset[str] = frozenset(),
) -> str:
    """A word of ``text`` that fills the fact's frame with another value ("" when none does, or when the
    reply also fills it with the fact's own value). Words of the fact itself, or of ``known`` (the other
    statements of the fact), are no other value ("i love sports" where the fact has "american sports")."""
    got = frame_values(fact, values, text, need)
    if not got or any(same_value(k, v) for k in got for v in values):
        return ""
    other = [k for k in got if k not in keys(fact) | known]
    return other[0] if other else ""


def same_value(a: str, b: str) -> bool:
    """Two keys name one value: equal, or a number and its last digits ("92" for "1992")."""
    return a == b or (a.isdigit() and b.isdigit() and len(a) >= 2 and b.endswith(a))


# ---------------------------------------------------------------- WH
def truth_keys(truth: str) -> frozenset[str]:
    return frozenset(k for alt in keyword_alternatives(truth) for w in alt if (k := key(w)))


def short_value(question: str, truth: str, text: str) -> str:
    """The opening segment of a WH reply when it is a bare value without any truth keyword ("in the fall"
    for "spring"), else ""."""
    first = re.split(r"[,.!?;]|\s-\s", text.strip(), maxsplit=1)[0]
    ws = words(first)
    if not ws or len(ws) > MAX_SHORT or FIRST_PERSON & set(ws) or evasive(first) or negated(ws):
        return ""
    if PRONOUN_SUBJECTS & set(ws):
        return ""
    mine = {k for w in ws if (k := key(w))} - keys(question)
    want = truth_keys(truth)
    if not mine or not want or any(same_value(k, v) for k in mine for v in want):
        return ""
    return first.strip()


def other_number(truth: str, text: str) -> str:
    """A number in the reply where the truth is a number and the reply does not name it, else ""."""
    want = {t for t in content_tokens(truth) if t.isdigit()}
    if not want or len(want) != len(content_tokens(truth)):
        return ""
    toks = content_tokens(text)
    have = [t for t in toks if t.isdigit()]
    # "twenty eleven" reads as 20 11: adjacent numbers also count joined
    have += [a + b for a, b in zip(toks, toks[1:], strict=False) if a.isdigit() and b.isdigit()]
    return have[0] if have and not any(same_value(h, w) for h in have for w in want) else ""


# ---------------------------------------------------------------- Y/N: values beside the proposition
def yn_wrong_value(question: str, truth: str, facts: tuple[str, ...], text: str) -> str:
    """A word of a Y/N reply that fills a fact's frame with another value, else "": the question's object
    when the truth is yes ("i drive a bmw" to "do you drive a mercedes ?"; not for like-verbs, whose
    objects are many: "i like sushi" says nothing against "i like pizza"), and what the fact adds to the
    question ("i drive a nissan altima" where the fact has "nissan pathfinder"; when the truth is no,
    the fact's value in place of the question's object: "i drive a toyota" where it has "bmw")."""
    order = [k for w in words(question) if (k := key(w))]
    if not order or truth not in ("yes", "no"):
        return ""
    for fact in dict.fromkeys(facts):
        have = keys(fact)
        extra = have - set(order)
        need = frozenset(order if truth == "yes" else order[:-1])
        known = frozenset().union(*(keys(f) for f in facts))
        if extra and (got := wrong_frame_value(fact, frozenset(extra), text, need, known)):
            return got
        obj = order[-1]
        mine = truth == "yes" and obj in have and _LIKE not in order
        if mine and (got := wrong_frame_value(fact, frozenset({obj}), text, known=known)):
            return got
    return ""
