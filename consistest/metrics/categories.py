"""Why a ConsisTest reply fails: one category per scored item, with the evidence, in scores.jsonl.

Checked in this order, first match wins (CDConv's order, after "consistent"):

1. ``consistent``: the item scored above 0 (for a trigger without truth: no contradiction was found),
   unless its yes/no word is right and its long answer says the opposite or another value (``intra``);
2. ``intra``: the reply contradicts itself: its yes/no word and short form disagree; its short answer is
   right but the long answer restates the question negated, names another value than the fact, or
   contradicts the fact (NLI); its short answer is wrong but the long answer restates the truth or is what
   the fact says (NLI); its clauses restate the question both ways, or two clauses contradict (NLI);
3. ``role``: it answers as the user would: it returns or repeats the question, tells the user the agent's
   own fact ("oh , you speak chinese ?"), or claims a fact the user stated in the history (a near copy,
   or NLI entailment from the user's sentence but not from the fact);
4. ``history``: it states a wrong value or the wrong polarity: a wrong short answer; a Y/N reply that
   restates the question's proposition the other way ("i own a yacht" when the truth is no); a reply that
   fills the fact's frame with another value ("i drive a bmw" for "i drive a mercedes"), or another number
   where ``--method plus`` reads one ("about once a year" for "twice a year"); a bare WH value
   or a number that is not the truth; or NLI finds a contradiction. The rules decide before NLI, so a
   guard that says neutral does not turn a wrong value into ``uninformative``;
5. ``uninformative``: empty, only questions, evasive, or (with an NLI model) generic or off-topic.

``not_judged`` when only an NLI model could tell (``--nli none``): a reply the rules find no evidence in
could be a contradiction in other words, so it is counted apart, never as uninformative or consistent.
``decide`` is pure given an NLI lookup; ``nli_pairs`` lists every pair it may ask for, so all of them run
in one batched NLI call (``tasks/consistest/categories.py``, ``categorise``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from consistest.core.records import Category, Sample, ScoredItem
from consistest.metrics import wrong_value_frames as wvf
from consistest.metrics import wrong_values as wv
from consistest.metrics.category_text import (
    clauses,
    copied,
    evasive,
    gives_fact_to_user,
    long_answer,
    repeats,
    returned_question,
    supported,
    user_statements,
)
from consistest.metrics.rules import content_tokens, keyword_alternatives, truth_polarity
from consistest.metrics.scorer_outcomes import (
    ANOTHER_VALUE,
    HISTORY_OUTCOMES,
    NO_TRUTH,
    RIGHT_SHORT,
    SELF_CONTRADICTIONS,
    STANCES,
    WRONG_SHORT,
)

__all__ = [
    "CATEGORIES_VERSION",
    "NO_TRUTH",
    "clauses",
    "decide",
    "evasive",
    "long_answer",
    "nli_pairs",
    "returned_question",
]

# Bump when a rule or word list changes a category; it goes into the signature as ``cat:<n>``. One line per
# version here; CHANGELOG.md has each in full.
# 2: rule-found wrong values and polarities decide before NLI; ``not_judged`` for what only NLI could place
# 3: plus's ``another_value`` ("about once a year" for "twice a year") is history
# 4: plus's question read the other way is history; WH questions restated as frames ("i follow T")
# 5: no manner or place adverb is a value ("i drive carefully"); no frame for a "your X" that is no noun
# 6, 7, 10: candidates', reverted (unused)
# 8: ``long_part_disagrees`` is checked as a right short answer (intra); ``claims_aspired`` is history
# 9: plus's question read the other way outranks NLI's reading of two clauses
# 11: ``contradicts_itself`` (plus-15) is intra
# 12, 13: ``other_value_unlike_fact`` (plus-17), ``denies_fact_part`` (plus-19) are history
# 14: ``kind_member`` (plus-20) reads as the question said yes; ``other_member_than_fact`` is history
# 15, 16: ``other_partner`` (plus-22), ``negates_truth`` (plus-23) are history
# 17: another value of the type a WH question asks for (a colour, a name) is history (``typed_value``)
# 18: ``typed_value`` reads names in any case, never "named after", only the bot's own name for its own; a
# name where the fact names the truth; no colour of the verb the question does not ask; "gray" is "grey"
CATEGORIES_VERSION = 18
NOT_JUDGED: Category = "not_judged"
Lookup = Callable[[str, str], "str | None"]
OTHER = {"yes": "no", "no": "yes"}
# A bot that says it is an AI answers from outside its persona: no fact of it is contradicted.
OUT_OF_PERSONA = re.compile(
    r"\b(?:as an ai|i'?m an ai|i am an ai|as a language model|ai language model|"
    r"i'?m (?:just )?a (?:chat)?bot|i am (?:just )?a (?:chat)?bot|as a (?:chat)?bot)\b",
    re.IGNORECASE,
)


def nli_pairs(item: ScoredItem, sample: Sample) -> list[tuple[str, str]]:
    """Every (premise, hypothesis) pair ``decide`` may look up for this item."""
    if _consistent(item):
        return []
    pairs = []
    parts = clauses(item.cleaned)
    pairs += [(a, b) for i, a in enumerate(parts) for b in parts[i + 1 :]]
    long = long_answer(item.question, item.cleaned) if item.type == "yn" else ""
    if long:
        pairs.append((sample.nli_premise, long))
    pairs.append((sample.nli_premise, item.cleaned))
    for user in user_statements(sample):
        for c in parts:
            if set(content_tokens(user)) & set(content_tokens(c)):
                pairs += [(user, c), (sample.nli_premise, c)]
    return [p for p in pairs if p[0].strip() and p[1].strip()]


def _consistent(item: ScoredItem) -> bool:
    return item.score is not None and item.score > 0


def decide(item: ScoredItem, sample: Sample, nli: Lookup | None, typed: bool = True) -> tuple[Category, str]:
    """The item's category and why, given NLI labels by pair (``nli`` is None without a model; it returns
    None for a pair it has no label for). ``typed=False`` where the fact is a guess (the detectors' topic
    reading): a value of the asked type (``wv.typed_value``) is then no evidence."""
    if _consistent(item):
        found = _intra_by_rules(item, sample) or _question_word_credit(item, sample, typed)
        return found or ("consistent", f"score {item.score:g}")
    if OUT_OF_PERSONA.search(item.response.replace("\u2019", "'")):
        return "uninformative", "out of persona: the bot says it is an AI or a language model"
    look: Lookup = nli or (lambda _p, _h: None)
    no_truth = item.outcome == NO_TRUTH
    found = (
        _intra(item, sample, look)
        or _role(item, sample, look, no_truth)
        or _history(item, sample, look, typed)
    )
    if found is not None:
        return found
    if no_truth:
        if nli is None:
            return NOT_JUDGED, "no truth to score; contradictions need an NLI model (--nli)"
        return "consistent", "no truth to score and no contradiction found"
    return _uninformative(item, sample, look, judged=nli is not None)


def _yn(item: ScoredItem) -> tuple[str | None, str]:
    """(the truth's polarity, the long answer) of a Y/N item; (None, "") otherwise."""
    if item.type != "yn" or item.outcome == NO_TRUTH:
        return None, ""
    return truth_polarity(item.truth), long_answer(item.question, item.cleaned)


def _intra_by_rules(item: ScoredItem, sample: Sample) -> tuple[Category, str] | None:
    """Self-contradictions the rules see: the reply restates the question both ways; a right short
    answer whose long answer says the opposite or another value; a wrong one whose long answer restates
    the truth; a WH reply that fills the fact's frame with the truth and with another value ("i'm 22
    years old . i'm a 12 year old girl")."""
    truth, long = _yn(item)
    if item.type == "wh" and item.outcome != NO_TRUTH and keyword_alternatives(item.truth):
        return _both_values(item, sample)
    if truth is None or not long:
        return None
    said = wv.stated_polarity(item.question, long)
    if said == "both":
        return "intra", f"the long answer {long!r} restates the question both ways"
    if item.outcome in RIGHT_SHORT and said == OTHER[truth]:
        return "intra", f"right short answer, but the long answer {long!r} says {said!r}"
    if item.outcome in WRONG_SHORT and said == truth:
        return "intra", f"wrong short answer, but the long answer {long!r} says {truth!r}"
    if item.outcome in WRONG_SHORT and wv.restates(long, (sample.fact, sample.nli_premise)):
        return "intra", f"wrong short answer, but the long answer {long!r} restates the fact"
    if item.outcome in RIGHT_SHORT:
        other = wv.yn_wrong_value(item.question, truth, (sample.fact, sample.nli_premise), long)
        if other:
            return "intra", f"right short answer, but the long answer {long!r} names {other!r}, not the fact"
    return None


def _intra(item: ScoredItem, sample: Sample, nli: Lookup) -> tuple[Category, str] | None:
    if item.outcome in SELF_CONTRADICTIONS:
        return "intra", SELF_CONTRADICTIONS[item.outcome]
    found = _intra_by_rules(item, sample)
    if found is not None or _said_other_way(item) or item.outcome in HISTORY_OUTCOMES:
        return found  # cat:9: the rules' reading of the question outranks NLI's reading of the clauses
    long = long_answer(item.question, item.cleaned) if item.type == "yn" else ""
    if item.outcome in RIGHT_SHORT and long and item.nli_label == "contradiction":
        return "intra", f"right short answer, but NLI: {long!r} contradicts the fact"
    if (
        item.outcome in WRONG_SHORT
        and supported(long, sample.fact)
        and nli(sample.nli_premise, long) == "entailment"
    ):
        return "intra", f"wrong short answer, but the long answer {long!r} is what the fact says"
    parts = clauses(item.cleaned)
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            if nli(a, b) == "contradiction":
                return "intra", f"NLI: clause {a!r} contradicts clause {b!r}"
    return None


def _role(item: ScoredItem, sample: Sample, nli: Lookup, no_truth: bool) -> tuple[Category, str] | None:
    back = None if no_truth else returned_question(item.question, item.response)
    if back is not None and (repeats(back, item.question) or not re.search(r"\w", item.cleaned)):
        return "role", f"returns the question: {back!r}"
    yours = gives_fact_to_user(item.response, sample.fact)
    if yours is not None:
        return "role", f"gives its own fact to the user: {yours!r}"
    for user in user_statements(sample):
        for c in clauses(item.cleaned):
            if not set(content_tokens(user)) & set(content_tokens(c)):
                continue
            if copied(user, c):
                return "role", f"claims the user's fact {user!r} as its own"
            if nli(user, c) == "entailment" and nli(sample.nli_premise, c) != "entailment":
                return "role", f"NLI: {c!r} restates the user's {user!r}, not the fact"
    return None


def _said_other_way(item: ScoredItem) -> bool:
    """``--method plus`` reads the reply as the question's proposition said the other way from the truth."""
    said = STANCES.get(item.outcome)
    return said is not None and said == OTHER.get(truth_polarity(item.truth) or "")


def _history(item: ScoredItem, sample: Sample, nli: Lookup, typed: bool) -> tuple[Category, str] | None:
    if item.outcome in WRONG_SHORT:
        return "history", f"wrong short answer (truth {item.truth!r})"
    if item.outcome == ANOTHER_VALUE:
        return "history", f"another number in the place of the truth's ({item.truth!r})"
    if item.outcome in HISTORY_OUTCOMES:
        return "history", HISTORY_OUTCOMES[item.outcome]
    if _said_other_way(item):
        said = STANCES[item.outcome]
        return "history", f"plus reads it as the question's proposition said {said!r} (truth {item.truth!r})"
    found = _wrong_value(item, sample, typed)
    if found:
        return "history", found
    label = item.nli_label or nli(sample.nli_premise, item.cleaned)
    if label == "contradiction":
        return "history", "NLI: the reply contradicts the fact"
    return None


def _both_values(item: ScoredItem, sample: Sample) -> tuple[Category, str] | None:
    values = wv.truth_keys(item.truth)
    known = frozenset().union(*(wv.keys(f) for f in (sample.fact, sample.nli_premise, item.question)))
    for fact in dict.fromkeys((sample.fact, sample.nli_premise)):
        got = wvf.frame_values(fact, values, item.cleaned)
        right = [w for w in got if any(wvf.same_value(wv.key(w), v) for v in values)]
        other = [w for w in got if w not in right and not any(wvf.same_value(wv.key(w), k) for k in known)]
        if right and other:
            return "intra", f"names both {other[0]!r} and the fact's {item.truth!r} in one frame"
    number = wv.both_numbers(item.truth, item.cleaned)
    return ("intra", f"says both {number} and the fact's {item.truth!r}") if number else None


def _question_word_credit(item: ScoredItem, sample: Sample, typed: bool) -> tuple[Category, str] | None:
    """A WH reply whose only recalled truth keywords are words of the question ("nature documentaries"
    for "war documentaries" to "what type of documentaries do you watch ?") and that names another value:
    ``history``, whatever its partial score."""
    if item.type != "wh" or item.score is None or item.score >= 1:
        return None
    recalled = wv.truth_keys(item.truth) & wv.keys(item.cleaned)
    if not recalled <= wv.keys(item.question):
        return None
    why = _wrong_value(item, sample, typed)
    return ("history", f"{why} (its partial credit is a word of the question)") if why else None


def _wrong_value(item: ScoredItem, sample: Sample, typed: bool) -> str:
    """Why the rules see a wrong value or the wrong polarity in the reply ("" when they do not)."""
    facts = (sample.fact, sample.nli_premise)
    truth, long = _yn(item)
    if wv.restates(long or item.cleaned, facts):  # the fact in its own words is no other value
        return ""  # ("i'm getting married" to "are you married ?")
    if truth is not None:
        text = long or item.cleaned
        if wv.stated_polarity(item.question, text) == OTHER[truth]:
            return f"restates the question as {OTHER[truth]!r} (truth {truth!r})"
        other = wv.yn_wrong_value(item.question, truth, facts, text)
        return f"names {other!r} where the fact has another value" if other else ""
    if item.type != "wh" or item.outcome == NO_TRUTH or not keyword_alternatives(item.truth):
        return ""
    return wv.wh_wrong_value(item.question, item.truth, facts, item.cleaned, typed)


def _uninformative(item: ScoredItem, sample: Sample, nli: Lookup, judged: bool) -> tuple[Category, str]:
    if item.outcome == "empty" or not re.search(r"\w", item.cleaned):
        return "uninformative", "no statement (empty, or only questions)"
    if evasive(item.cleaned):
        return "uninformative", f"evasive: {item.cleaned!r}"
    if not judged or item.score is None:
        return NOT_JUDGED, "no rule finds a contradiction; only an NLI model could place it (--nli none)"
    has_keywords = bool(keyword_alternatives(item.truth))
    label = item.nli_label or nli(sample.nli_premise, item.cleaned) or "not run"
    what = "no truth keyword" if item.type == "wh" and has_keywords else "not entailed by the fact"
    return "uninformative", f"generic or off-topic: {what} (NLI {label})"
