"""Why a ConsisTest reply fails: one category per scored item, with the evidence, in scores.jsonl.

Checked in this order, first match wins (CDConv's order, after "consistent"):

1. ``consistent``: the item scored above 0 (for a trigger without truth: no contradiction was found);
2. ``intra``: the reply contradicts itself: its yes/no word and short form disagree, the short answer is
   right but the long answer contradicts the fact, the short answer is wrong but the long answer is what
   the fact says, or two of its clauses contradict each other (NLI);
3. ``role``: it answers as the user would: it returns or repeats the question, tells the user the agent's
   own fact ("oh , you speak chinese ?"), or claims a fact the user stated in the history (a near copy,
   or NLI entailment from the user's sentence but not from the fact);
4. ``history``: it contradicts the fact: a wrong short answer, or NLI finds a contradiction;
5. ``uninformative``: empty, evasive, generic or off-topic;

``undecided`` when only an NLI model could tell and none was given. ``decide`` is pure given an NLI lookup;
``nli_pairs`` lists every pair it may ask for, so all of them run in one batched NLI call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from consistest.core.records import Category, Sample, ScoredItem
from consistest.metrics.clean import split_sentences
from consistest.metrics.numbers import tokens
from consistest.metrics.rules import (
    PHRASES_BY_FIRST,
    Outcome,
    content_tokens,
    keyword_alternatives,
    question_forms,
)
from consistest.models.base import NLI

# Bump when a rule or word list changes a category; it goes into the signature as ``cat:<n>``.
CATEGORIES_VERSION = 1
NO_TRUTH = Outcome.NO_TRUTH.value  # a trigger turn without truth ("ok ."): categories only
WRONG_SHORT = frozenset({"wrong_yes_no", "wrong_short_form"})
RIGHT_SHORT = frozenset({"correct_short_answer", "yes_no_only"})
# Replies that commit to nothing (matched as whole normalised replies or openings).
EVASIVE = (
    "i don't know", "i do not know", "i dont know", "idk", "not sure", "i'm not sure", "i am not sure",
    "no idea", "i have no idea", "maybe", "i can't remember", "i cannot remember", "i don't remember",
    "hard to say", "it depends", "i'd rather not say", "i would rather not say", "i'm an ai", "as an ai",
    "i see", "ok", "okay", "cool", "nice", "that's nice", "that's cool", "that's interesting", "interesting",
    "haha", "lol", "good question", "that is a good question",
)  # fmt: skip
_EVASIVE = frozenset(EVASIVE)
_WORDS = re.compile(r"[\w']+")
# A question returned to the user ("and you ?").
RETURNED = frozenset({"you", "and you", "what about you", "how about you", "do you", "are you", "have you"})
MIN_OVERLAP = 0.6  # share of the asked question's content words a returned question repeats
COPY_OVERLAP = 0.8  # share of a user sentence's content words a reply clause copies
SUPPORT = 0.5  # share of a long answer's content words the fact must hold for NLI's entailment to count


Lookup = Callable[[str, str], "str | None"]


_CLAUSE_BREAK = re.compile(r"\s*(?:,|;|\bbut\b|\band\b(?=\s+(?:i|my|it|we)\b)|\bso\b(?=\s+(?:i|my)\b))\s*")


@lru_cache(maxsize=1 << 15)
def _sentences(text: str) -> tuple[str, ...]:
    return tuple(split_sentences(text))


@lru_cache(maxsize=1 << 15)
def clauses(text: str) -> tuple[str, ...]:
    """Statements of a reply: sentences split at commas and at "and/but/so" before a new subject."""
    out: list[str] = []
    for sent in _sentences(text):
        parts = _CLAUSE_BREAK.split(sent)
        out += [p.strip(" .!") for p in parts if len(re.findall(r"\w+", p)) >= 2]
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _openers(question: str) -> dict[str, list[tuple[list[str], bool]]]:
    """What ``long_answer`` tries at a position, by its first token, in order: the yes/no phrases, then the
    question's short forms (whole clauses only), each longest first, as the rules index them."""
    forms, _ = question_forms(question)
    return {
        first: [(list(w), False) for _, w in PHRASES_BY_FIRST.get(first, ())]
        + [(list(f), True) for f, _ in forms.get(first, ())]
        for first in {*PHRASES_BY_FIRST, *forms}
    }


@lru_cache(maxsize=1 << 15)
def long_answer(question: str, cleaned: str) -> str:
    """The reply without its opening yes/no word and short form ("yes , i do . i have 2" -> "i have 2")."""
    toks = [t for t in tokens(cleaned) if t.strip()]
    openers = _openers(question)
    i, moved = 0, True
    while moved and i < len(toks):
        moved = False
        if not re.match(r"\w", toks[i]):
            i, moved = i + 1, True
            continue
        for ph, whole in openers.get(toks[i], ()):
            end = i + len(ph)
            # a short form counts only as a whole clause ("i do ." but not "i do have a dog")
            if toks[i:end] == ph and not (whole and end < len(toks) and re.match(r"\w", toks[end])):
                i, moved = end, True
                break
    return " ".join(toks[i:]).strip(" .,!")


@lru_cache(maxsize=1 << 15)
def evasive(text: str) -> bool:
    """The whole reply is an evasive or phatic phrase (trailing punctuation and fillers aside)."""
    words = _WORDS.findall(text.lower())
    # an evasive phrase, followed by at most two more words ("i don't know really", "ok then")
    return any(" ".join(words[:m]) in _EVASIVE for m in range(max(1, len(words) - 2), len(words) + 1))


QUESTION_WORDS = frozenset(
    ["do", "does", "did", "are", "is", "was", "were", "have", "has", "can", "will", "would", "you", "your",
     "u", "what", "where", "who", "which", "how", "when", "why", "any", "some", "ever", "to", "of", "in",
     "i", "am", "my", "me", "i'm", "im", "be", "been", "too", "also", "really", "so", "very", "just", "that",
     "it", "not", "don't", "t", "m", "s", "re", "ve", "ll", "d", "the", "a", "an", "and", "or", "but", "on",
     "at", "for", "with", "mine", "yes", "no", "well", "honestly", "actually", "oh"]
)  # fmt: skip


@lru_cache(maxsize=1 << 16)
def topic_words(text: str) -> frozenset[str]:
    """Stems of the content words, without auxiliaries, question words and pronouns."""
    return frozenset(_stem(w) for w in content_tokens(text) if w not in QUESTION_WORDS)


def _stem(word: str) -> str:
    """A crude stem, enough to match "hating" with "hate" and "retired" with "retire"."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def returned_question(question: str, response: str) -> str | None:
    """A question of the reply that hands the asked one back to the user, else None (content words
    compared without auxiliaries and pronouns)."""
    asked = topic_words(question)
    for sent in _sentences(response):
        if not sent.rstrip().endswith("?"):
            continue
        words = " ".join(_WORDS.findall(sent.lower()))
        mine = topic_words(sent)
        if words in RETURNED or (asked and len(asked & mine) / len(asked) >= MIN_OVERLAP):
            return sent.strip()
    return None


def repeats(question: str, asked: str) -> bool:
    """A question that repeats the asked one's topic (not just "what about you ?")."""
    want = topic_words(asked)
    return bool(want) and len(want & topic_words(question)) / len(want) >= MIN_OVERLAP


def supported(text: str, fact: str) -> bool:
    """Most of the text's content words are the fact's ("i drive a bmw" / "i drive a bmw .", not "i have
    brown eyes" / "i have blue eyes"): a check on an NLI entailment from a small model."""
    mine = topic_words(text)
    return bool(mine) and len(mine & topic_words(fact)) / len(mine) >= SUPPORT


_TO_USER = re.compile(r"^(?:(?:oh|so|wow|wait|hmm|ah|ok|okay|really)\W+)*(?:you|your|you're)\b")


def gives_fact_to_user(response: str, fact: str) -> str | None:
    """A sentence that tells or asks the user the agent's own fact ("oh , you speak chinese ?" for "i speak
    chinese ."): it opens with you/your and repeats most of the fact's content words."""
    want = topic_words(fact)
    for sent in _sentences(response):
        if (
            _TO_USER.match(sent.lower().strip())
            and want
            and len(want & topic_words(sent)) / len(want) >= MIN_OVERLAP
        ):
            return sent.strip()
    return None


def user_statements(sample: Sample) -> list[str]:
    """The user's first-person statements in the history before the question (the user spoke last)."""
    return list(_user_statements(tuple(sample.history[-1::-2][1:])))


@lru_cache(maxsize=1 << 14)
def _user_statements(users: tuple[str, ...]) -> tuple[str, ...]:
    """Memoised on the user turns: the samples of one dialogue share most of them."""
    out: list[str] = []
    for utt in users:
        out += [
            c
            for c in clauses(utt)
            if re.match(r"(i|my|i'm|i've|i am)\b", c.lower()) and len(topic_words(c)) >= 2
        ]
    return tuple(out)


def copied(user: str, clause: str) -> bool:
    """A reply clause that repeats most of a user sentence's content words."""
    u = topic_words(user)
    return len(u) >= 2 and len(u & topic_words(clause)) / len(u) >= COPY_OVERLAP


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


def decide(item: ScoredItem, sample: Sample, nli: Lookup | None) -> tuple[Category, str]:
    """The item's category and why, given NLI labels by pair (``nli`` is None without a model; it returns
    None for a pair it has no label for)."""
    if _consistent(item):
        return "consistent", f"score {item.score:g}"
    look: Lookup = nli or (lambda _p, _h: None)
    no_truth = item.outcome == NO_TRUTH
    found = _intra(item, sample, look) or _role(item, sample, look, no_truth) or _history(item, sample, look)
    if found is not None:
        return found
    if no_truth:
        if nli is None:
            return "undecided", "no truth to score; contradictions need an NLI model (--nli)"
        return "consistent", "no truth to score and no contradiction found"
    return _uninformative(item, sample, look)


def _intra(item: ScoredItem, sample: Sample, nli: Lookup) -> tuple[Category, str] | None:
    if item.outcome == "opposite_short_form":
        return "intra", "the yes/no word and a short form disagree"
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


def _history(item: ScoredItem, sample: Sample, nli: Lookup) -> tuple[Category, str] | None:
    if item.outcome in WRONG_SHORT:
        return "history", f"wrong short answer (truth {item.truth!r})"
    label = item.nli_label or nli(sample.nli_premise, item.cleaned)
    if label == "contradiction":
        return "history", "NLI: the reply contradicts the fact"
    return None


def _uninformative(item: ScoredItem, sample: Sample, nli: Lookup) -> tuple[Category, str]:
    if item.outcome == "empty" or not re.search(r"\w", item.cleaned):
        return "uninformative", "no statement (empty, or only questions)"
    if evasive(item.cleaned):
        return "uninformative", f"evasive: {item.cleaned!r}"
    if item.score is None:
        return "undecided", "only an NLI model could decide (--nli none)"
    has_keywords = bool(keyword_alternatives(item.truth))
    label = item.nli_label or nli(sample.nli_premise, item.cleaned) or "not run"
    what = "no truth keyword" if item.type == "wh" and has_keywords else "not entailed by the fact"
    return "uninformative", f"generic or off-topic: {what} (NLI {label})"


def categorise(
    items: Sequence[ScoredItem],
    samples: Sequence[Sample],
    nli: NLI | None,
    *,
    triggers: Mapping[str, str] | None = None,
    quiet: bool = True,
) -> list[ScoredItem]:
    """Items with ``category`` and ``category_why`` (and ``trigger`` from ``triggers``, by id) set; one
    batched NLI call for every pair the rules may need."""
    from consistest.core import log

    by_id = {s.id: s for s in samples}
    labels: dict[tuple[str, str], str] = {}
    if nli is not None:
        pairs = list(dict.fromkeys(p for it in items for p in nli_pairs(it, by_id[it.id])))
        if pairs:
            log.info(f"categories: NLI on {len(pairs)} distinct pairs", quiet=quiet)
            labels = dict(zip(pairs, nli.predict(pairs), strict=True))
    lookup: Lookup | None = None if nli is None else (lambda p, h: labels.get((p, h)))
    out = []
    for it in items:
        cat, why = decide(it, by_id[it.id], lookup)
        trig = (triggers or {}).get(it.id, it.trigger)
        # ``dataclasses.replace`` costs as much as the rules here; the fields are the same
        out.append(ScoredItem(**{**it.__dict__, "category": cat, "category_why": why, "trigger": trig}))
    return out
