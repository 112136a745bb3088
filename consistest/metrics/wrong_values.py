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
- ``typed_value`` (:mod:`consistest.metrics.typed_values`): another value of the closed type the question
  asks for: a colour to "what color ... ?", a name to a question about a name ("my dog is named olly" for
  trooper).
"""

from __future__ import annotations

import re
from typing import Literal

from consistest.metrics.category_text import clauses, evasive
from consistest.metrics.rules import content_tokens
from consistest.metrics.typed_values import typed_value
from consistest.metrics.wrong_value_frames import same_value, wrong_frame_value
from consistest.metrics.wrong_value_words import (
    _LIKE,
    DISLIKE,
    FIRST_PERSON,
    HEDGES,
    IRREGULAR_PAST,
    LIKE,
    MAX_SHORT,
    NOT_A_VALUE,
    PRONOUN_SUBJECTS,
    SUBJECTS,
    VERBS,
    key,
    keys,
    negated,
    truth_keys,
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


# ---------------------------------------------------------------- WH
_YOUR_X = re.compile(
    r"^(?:what|who|which|where|when)(?: is|'s| are| was) (?:the (?P<attr>\w+) of )?your (?P<x>[\w' ]+?) \?*$"
)
_ATTR_YOUR = re.compile(r"^(?:what|which) (?P<attr>\w+) (?:is|are) your (?P<x>[\w' ]+?) \?*$")
_WHERE_DO = re.compile(r"^where do you (?P<vp>[\w' ]+?) \?*$")
_KIND = r"(?: (?:kind|kinds|type|types|sort) of)?(?: (?P<x>\w+(?: \w+)?))?"
_STRANDED = r"(?: (?:of|to|in|on|at|for|with|about))?"  # "what do you listen to ?"
_WHAT_DO = re.compile(rf"^(?:what|which){_KIND} (?P<aux>do|did) you (?P<vp>\w+{_STRANDED}) \?*$")
_WHAT_ARE = re.compile(rf"^(?:what|which){_KIND} are you (?P<rest>(?:a |an )?\w+{_STRANDED}) \?*$")


def question_facts(question: str, truth: str) -> tuple[str, ...]:
    """Statements the question makes with its first truth ("what is your name ?" + kay -> "my name is kay";
    "what is the name of your cat ?" -> "my cat's name is T", "my cat is named T"; "what color is your
    dog ?" -> "my dog is T"; "where do you live ?" -> "i live in T"; "what religion do you follow ?" ->
    "i follow T" ("did": "i studied T" too); "what tv show are you a fan of ?" -> "i am a fan of T"):
    frames for replies that answer in the question's words when the fact has others."""
    q = " ".join(words(question)) + " ?"
    value = str(truth).split("|")[0].strip()
    if not value:
        return ()
    your, attr_your = _YOUR_X.match(q), _ATTR_YOUR.match(q)
    m = your or attr_your
    if m and (_open_end(m["x"]) or m["attr"] in ("1", "ones")):
        return ()  # "when was your son born ?", "what grade is your son in ?", "which one is your favorite ?"
    if your:
        x, attr = your["x"], your["attr"]
        if attr:
            return (f"my {x}'s {attr} is {value}", f"my {x} is {attr}d {value}")
        return (f"my {x} is {value}",)
    if attr_your:
        return (f"my {attr_your['x']} is {value}", f"my {attr_your['x']}'s {attr_your['attr']} is {value}")
    if m := _WHERE_DO.match(q):
        return (f"i {m['vp']} in {value}",)
    if (m := _WHAT_DO.match(q)) and m["vp"].split()[0] not in ("do", "think", "mean"):
        verb, _, rest = m["vp"].partition(" ")
        forms = (verb, _past(verb)) if m["aux"] == "did" else (verb,)
        return tuple(" ".join(w for w in ("i", v, rest, value) if w) for v in forms)
    if (m := _WHAT_ARE.match(q)) and m["rest"] not in ("doing", "going", "up to"):
        return (f"i am {m['rest']} {value}",)
    return ()


def _open_end(x: str) -> bool:
    """A question's "your X" that ends in a participle or a preposition is no noun ("your son born")."""
    last = x.split()[-1]
    return last in ("born", "in", "on", "at", "for", "from", "with", "to", "of") or last.endswith("ed")


def question_frame_value(question: str, truth: str, text: str, known: frozenset[str]) -> str:
    """A word of ``text`` in the place of the truth in one of the question's own frames
    (:func:`question_facts`), unless it is a manner or place adverb, which is no value ("i drive carefully",
    "i play outside"); else "". The first content word of the slot is read, whatever its kind ("my dog is
    old" names "old" for "what color is your dog ?"; a colour check dropped "a beautiful blue" too)."""
    values = truth_keys(truth)
    for fact in question_facts(question, truth):
        other = wrong_frame_value(fact, values, text, known=known)
        if other and not other.endswith("ly") and other not in NOT_A_VALUE:
            return other
    return ""


def _past(verb: str) -> str:
    """A past form ("study" -> "studied", "love" -> "loved", "stop" -> "stopped", "drive" -> "drove")."""
    if verb in IRREGULAR_PAST:
        return IRREGULAR_PAST[verb]
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb):
        return verb + verb[-1] + "ed"  # one syllable, one vowel, one consonant: "stop", "plan"
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


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


def wh_wrong_value(question: str, truth: str, facts: tuple[str, ...], text: str, typed: bool = True) -> str:
    """Why a WH reply states a wrong value ("" when no rule sees one): another value in a fact's frame or the
    question's, a bare value, another number, another value of the asked type (``typed``), in that order."""
    values, known = truth_keys(truth), frozenset().union(*(keys(f) for f in (*facts, question)))
    for fact in dict.fromkeys(facts):
        if other := wrong_frame_value(fact, values, text, known=known):
            return f"names {other!r} where the fact has {truth!r}"
    if other := question_frame_value(question, truth, text, known):
        return f"names {other!r} where the fact has {truth!r}"
    if short := short_value(question, truth, text):
        return f"answers {short!r}, not {truth!r}"
    if number := other_number(question, truth, text):
        return f"says {number}, not {truth!r}"
    other = typed and next(
        (t for f in dict.fromkeys(facts) if (t := typed_value(question, truth, f, text, known))), ""
    )
    return f"names {other!r}, not {truth!r}" if other else ""


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
