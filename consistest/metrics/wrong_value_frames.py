"""Values in a fact's frame: the reply fills the frame of the fact's value with another value ("i drive a
bmw" for "i drive a mercedes"); see ``wrong_values`` for the rule evidence these feed. Pure functions over
strings; their word lists are versioned with ``CATEGORIES_VERSION`` (categories.py)."""

from __future__ import annotations

from dataclasses import dataclass

from consistest.metrics.category_text import QUESTION_WORDS, clauses
from consistest.metrics.wrong_value_words import (
    _LIKE,
    ARTICLES,
    BE,
    FIRST_PERSON,
    FUNCTION,
    GAP_ADVERBS,
    MAX_GAP,
    MAX_VALUE,
    PREPOSITIONS,
    PRONOUN_SUBJECTS,
    key,
    keys,
    negated,
    words,
)


def _kind(word: str) -> str | None:
    """The class of a word that may sit between an anchor and a value (prepositions by meaning: "work in"
    and "work at" agree, "hike with" and "hike in" do not), None for any other word."""
    if word in GAP_ADVERBS:
        return "adverb"
    if word in ARTICLES or word.isdigit():
        return "article"
    if word in PREPOSITIONS:
        return f"preposition:{PREPOSITIONS[word]}"
    if word in BE or word.endswith("'s") or word in ("i'm", "i've"):
        return "be"
    return None


def _gap_ok(fact_gap: tuple[str, ...], reply_gap: list[str]) -> bool:
    """The reply has the same kinds of words between anchor and value as the fact: an article where the
    fact has one, a preposition of the same meaning, a be-verb ("my name is kim", not "my music genre");
    adverbs ("is probably") count as nothing, and the reply may add an article ("live in the city")."""
    got = {_kind(w) for w in reply_gap} - {"adverb"}
    want = {_kind(w) for w in fact_gap} - {"adverb"}
    return len(reply_gap) <= MAX_GAP + 1 and None not in got and (got == want or got == want | {"article"})


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


@dataclass(frozen=True)
class Frame:
    """Where a value sits next to an anchor word: read on (step +1) or back (-1) past a gap of the fact's
    kinds of words; ``subject``: the fact says "i"/"my" before it, so the reply must too; ``lead``: the
    fact's word before the anchor read on ("my" in "my name is ...": not "my pet's name is ...") or
    before a value read back ("have" in "i have red hair"), which the reply must match."""

    anchor: str
    gap: tuple[str, ...]
    step: int
    subject: bool
    lead: str = ""


def _frames(fact: str, values: frozenset[str], need: frozenset[str]) -> list[Frame]:
    """The frames around the value in the fact's clause that holds it (never across a comma: "my best
    friend , lucy" has none); like-verbs are no anchor (their objects are many)."""
    span, fws = None, ()
    for clause in clauses(fact) or (fact,):
        fws = words(clause)
        span = _value_span(fws, values)
        if span is not None:
            break
    if span is None:
        return []
    start, end = span
    before = [i for i in range(start) if key(fws[i])]
    if not need <= {key(fws[i]) for i in before}:
        return []
    subject = bool(FIRST_PERSON & set(fws[:start]))
    out = []
    if before:
        a = before[-1]
        out.append(Frame(key(fws[a]), fws[a + 1 : start], +1, subject, _lead(fws, a)))
    after = [i for i in range(end, len(fws)) if key(fws[i])]
    if after:
        a = after[0]
        out.append(Frame(key(fws[a]), fws[end:a], -1, subject, fws[start - 1] if start else ""))
    return [f for f in out if f.anchor != _LIKE]


def _lead(ws: tuple[str, ...], i: int) -> str:
    """The word before position ``i``, adverbs skipped ("i" in "i now live ..."); "" at the start."""
    j = i - 1
    while j >= 0 and ws[j] in FUNCTION | QUESTION_WORDS - FIRST_PERSON - ARTICLES - PRONOUN_SUBJECTS:
        j -= 1
    return ws[j] if j >= 0 else ""


def _same_lead(a: str, b: str) -> bool:
    """Two words that can stand before one slot: equal, one stem, one kind, or both first person."""
    if a == b or (a in FIRST_PERSON and b in FIRST_PERSON):
        return True
    return (bool(key(a)) and key(a) == key(b)) or (_kind(a) is not None and _kind(a) == _kind(b))


def frame_values(
    fact: str, values: frozenset[str], text: str, need: frozenset[str] = frozenset()
) -> list[str]:
    """Words ``text`` puts where the fact has its value (keys in ``values``), read on from the fact's anchor
    before the value and back from its anchor after it, in the reply's affirmative clauses; ``need``: keys
    the fact's words before the value must include for the frame to count."""
    frames = _frames(fact, values, need)
    found: list[str] = []
    for clause in clauses(text) if frames else ():
        ws = words(clause)
        if not negated(ws):
            found += [v for f in frames for v in _read(ws, f)]
    return found


def _read(ws: tuple[str, ...], f: Frame) -> list[str]:
    """The value word next to each occurrence of the frame's anchor in one clause of the reply."""
    out = []
    for i, w in enumerate(ws):
        if key(w) != f.anchor:
            continue
        j, gap = i + f.step, []
        while 0 <= j < len(ws) and not key(ws[j]) and _kind(ws[j]) is not None and len(gap) <= MAX_GAP:
            gap.append(ws[j])
            j += f.step
        if not (0 <= j < len(ws)) or not key(ws[j]) or key(ws[j]) == _LIKE:
            continue
        if not _gap_ok(f.gap, gap[:: f.step]) or (f.subject and not FIRST_PERSON & set(ws[: min(i, j)])):
            continue
        if f.step > 0:
            if _same_lead(f.lead, _lead(ws, i)):
                out.append(ws[j])
            continue
        # read back over a value of up to MAX_VALUE words ("a labrador retriever named max")
        for k in range(j, max(-1, j - MAX_VALUE), -1):
            if not key(ws[k]):
                break
            if _same_lead(f.lead, ws[k - 1] if k else ""):
                out.append(ws[j])
                break
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
    if not got or any(same_value(key(w), v) for w in got for v in values):
        return ""
    other = [w for w in got if not any(same_value(key(w), k) for k in keys(fact) | known)]
    return other[0] if other else ""


def same_value(a: str, b: str) -> bool:
    """Two keys name one value: equal, one the other's start ("dolly" / "doll", four letters at least),
    or a number and its last digits ("92" for "1992")."""
    if a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))):
        return True
    return a.isdigit() and b.isdigit() and len(a) >= 2 and b.endswith(a)
