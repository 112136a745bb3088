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
from dataclasses import dataclass
from typing import Literal

from consistest.metrics.rules import content_tokens, keyword_alternatives
from consistest.tasks.consistest.categories_text import QUESTION_WORDS, clauses, evasive
from consistest.tasks.consistest.wrong_value_words import (
    _LIKE,
    ARTICLES,
    BE,
    DISLIKE,
    FIRST_PERSON,
    FUNCTION,
    GAP_ADVERBS,
    HEDGES,
    LIKE,
    MAX_GAP,
    MAX_SHORT,
    MAX_VALUE,
    PREPOSITIONS,
    PRONOUN_SUBJECTS,
    SUBJECTS,
    VERBS,
    key,
    keys,
    negated,
    words,
)

Polarity = Literal["yes", "no", "both"]


# ---------------------------------------------------------------- Y/N: the question restated
def stated_polarity(question: str, text: str) -> Polarity | None:
    """yes / no when first-person clauses of ``text`` restate the question's proposition only positively /
    only negated, ``both`` when they say both, None when none restates it (or the question is negative).

    A clause restates it when its content words open with the question's, in the question's order and
    with no other content word between them ("i have blonde hair and blue eyes" does not restate "blonde
    eyes", "i do not pick up my toys" does not restate "any toys"); its subject is "i"/"we" ("my" too when
    the question asks about "your" something, never "my mother" for "are you a dentist ?"); a negation
    counts before the question's first word ("we love animals , just no room" says yes)."""
    qw = words(question)
    want = [k for w in qw if (k := key(w, strict=False))]
    if not want or negated(qw):
        return None
    subjects = FIRST_PERSON if "your" in qw else SUBJECTS
    said: set[str] = set()
    for clause in clauses(text):
        ws = words(clause)
        if not subjects & set(ws) or HEDGES & set(ws):
            continue
        dislike = _LIKE in want and bool(DISLIKE & set(ws))
        at = [(i, _LIKE if dislike and w in DISLIKE else key(w, strict=False)) for i, w in enumerate(ws)]
        at = [(i, k) for i, k in at if k]
        if [k for _, k in at[: len(want)]] == want:
            said.add("no" if negated(ws[: at[0][0]]) != dislike else "yes")
        elif len(want) == 1 and "have" in qw and _possessed(ws, want[0]):
            said.add("yes")  # "i'm spending the day with my kids" to "do you have kids ?"
    if not said:
        return None
    return "both" if len(said) == 2 else said.pop()  # type: ignore[return-value]


def _possessed(ws: tuple[str, ...], thing: str) -> bool:
    """ "my <thing>" in an affirmative clause."""
    return not negated(ws) and any(a == "my" and key(b) == thing for a, b in zip(ws, ws[1:], strict=False))


def restates(text: str, facts: tuple[str, ...]) -> bool:
    """Every content word of ``text`` (two at least) is a word of one of the facts ("i have short hair"
    for "i've short hair ."): the text says what the fact says, in its words."""
    mine = keys(text)
    return len(mine) >= 2 and any(mine <= keys(f) for f in facts)


# ---------------------------------------------------------------- values in the fact's frame
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


# ---------------------------------------------------------------- WH
_YOUR_X = re.compile(
    r"^(?:what|who|which|where)(?: is|'s| are) (?:the (?P<attr>\w+) of )?your (?P<x>[\w' ]+?) \?*$"
)
_WHERE_DO = re.compile(r"^where do you (?P<vp>[\w' ]+?) \?*$")


def question_facts(question: str, truth: str) -> tuple[str, ...]:
    """Statements the question makes with its first truth ("what is your name ?" + kay -> "my name is kay";
    "what is the name of your cat ?" -> "my cat's name is T", "my cat is named T"; "where do you live ?"
    -> "i live in T"): frames for replies that answer in the question's words when the fact has others."""
    q = " ".join(words(question)) + " ?"
    value = str(truth).split("|")[0].strip()
    if not value:
        return ()
    m = _YOUR_X.match(q)
    if m and m["attr"]:
        return (f"my {m['x']}'s {m['attr']} is {value}", f"my {m['x']} is {m['attr']}d {value}")
    if m:
        return (f"my {m['x']} is {value}",)
    m = _WHERE_DO.match(q)
    return (f"i {m['vp']} in {value}",) if m else ()


def truth_keys(truth: str) -> frozenset[str]:
    return frozenset(k for alt in keyword_alternatives(truth) for w in alt if (k := key(w)))


def short_value(question: str, truth: str, text: str) -> str:
    """The opening segment of a WH reply when it is a bare value without any truth keyword ("in the fall"
    for "spring"), else ""."""
    first = re.split(r"[,.!?;]|\s-\s", text.strip(), maxsplit=1)[0]
    ws = words(first)
    if not ws or len(ws) > MAX_SHORT or FIRST_PERSON & set(ws) or evasive(first) or negated(ws):
        return ""
    if (PRONOUN_SUBJECTS | VERBS | HEDGES | LIKE | DISLIKE) & set(ws) or words(question)[:1] == ("why",):
        return ""  # a clause, not a bare value; or a reason, which is no value
    mine = {k for w in ws if (k := key(w))} - keys(question)
    want = truth_keys(truth)
    if not mine or not want or any(same_value(k, v) for k in mine for v in want):
        return ""
    return first.strip()


def other_number(question: str, truth: str, text: str) -> str:
    """A number in the reply where the truth is a number and the reply does not name it, else "": only
    when the reply speaks of what the question asks (its content words; "how old were you when you got
    married ?" is not answered by "i'm 40"), never a year for a count or a count for a year, and never
    the "one" of "the previous one"."""
    want = {t for t in content_tokens(truth) if t.isdigit()}
    if not want or len(want) != len(content_tokens(truth)):
        return ""
    if not keys(question) - {"old", "year", "age"} <= keys(text):
        return ""
    toks = content_tokens(text)
    have = [t for t in toks if t.isdigit() and (t != "1" or "1" in text)]
    # "twenty eleven" reads as 20 11: adjacent numbers also count joined
    have += [a + b for a, b in zip(toks, toks[1:], strict=False) if a.isdigit() and b.isdigit()]
    have = [h for h in have if any(_year(h) == _year(w) for w in want)]
    return have[0] if have and not any(same_value(h, w) for h in have for w in want) else ""


def both_numbers(truth: str, text: str) -> str:
    """Another number said of the same thing as the truth's number ("i'm 22 years old . i'm a 12 year old
    girl" for 12: both come before "year"), when the reply also says the truth; else ""."""
    want = {t for t in content_tokens(truth) if t.isdigit()}
    toks = content_tokens(text)
    after = {toks[i]: set() for i in range(len(toks)) if toks[i].isdigit()}
    for i, t in enumerate(toks[:-1]):
        if t.isdigit():
            after[t].add(toks[i + 1])
    said = set().union(*(after.get(w, set()) for w in want)) - {"and", "or"}
    other = [n for n in after if n not in want and after[n] & said and _year(n) == any(map(_year, want))]
    return other[0] if want and want & after.keys() and other else ""


def _year(number: str) -> bool:
    return len(number) == 4 and 1800 <= int(number) <= 2100


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
        known = frozenset().union(*(keys(f) for f in (*facts, question)))
        if extra and (got := wrong_frame_value(fact, frozenset(extra), text, need, known)):
            return got
        obj = order[-1]
        mine = truth == "yes" and obj in have and _LIKE not in order
        if mine and (got := wrong_frame_value(fact, frozenset({obj}), text, known=known)):
            return got
    return ""
