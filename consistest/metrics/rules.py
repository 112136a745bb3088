"""The scoring rules (paper Appendix B, faults fixed) as pure functions: response -> named outcome.

``judge(question, truth, qtype, response)`` returns a ``Verdict``: the rule outcome, the rule score and
what NLI must still do (nothing, a contradiction *guard*, or *decide* by entailment).
``final_score(verdict, nli_label)`` applies the guard; ``nli_label=None`` (``--nli none``) leaves the
items that need NLI to decide undecided (``None``). Every lexicon here is versioned by RULES_VERSION.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from consistest.metrics.clean import CLEAN_VERSION, clean_response
from consistest.metrics.numbers import normalize_numbers, tokens
from consistest.metrics.rule_words import (  # noqa: F401 (the lexicons, re-exported)
    ADVERBS,
    CLAUSE_END,
    FILLERS,
    IGNORED,
    MAX_KEYWORDS,
    NO_PHRASES,
    NOT_AN_ANSWER_AFTER,
    PHRASES_BY_FIRST,
    QUESTION_FUNCTION_WORDS,
    YES_PHRASES,
)
from consistest.metrics.shortforms import SHORTFORMS_VERSION, short_forms

# Bump when any rule or lexicon changes a score; it goes into the signature as ``rules:<n>``.
# 2: cleaning v2 (dropped-subject statements are not questions), "my <plural>" forms
# 3: a yes phrase before a "not" that ends the clause is no ("of course not ."; "yes not many" stays yes);
# punctuation between a phrase's words is skipped ("not ... really"), and punctuation is read ("sure , not")
RULES_VERSION = 3
assert CLEAN_VERSION == 2 and SHORTFORMS_VERSION == 2, "bump RULES_VERSION with its parts"


class Outcome(str, Enum):
    """Why a response got its score (named in scores.jsonl)."""

    EMPTY = "empty"
    WRONG_YES_NO = "wrong_yes_no"
    WRONG_SHORT_FORM = "wrong_short_form"
    OPPOSITE_SHORT_FORM = "opposite_short_form"
    CORRECT_SHORT_ANSWER = "correct_short_answer"
    YES_NO_ONLY = "yes_no_only"
    NO_SHORT_FORM = "no_short_form"
    KEYWORD_RECALL = "keyword_recall"
    NLI_ONLY = "nli_only"
    NO_TRUTH = "no_truth"  # a turn without a truth (a "short" trigger): nothing to score


class Need(str, Enum):
    """What the NLI label is still needed for."""

    NONE = "none"  # the rules decided
    GUARD = "guard"  # rule score stands unless NLI says contradiction
    DECIDE = "decide"  # 1 if NLI says entailment, else 0


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    rule_score: float | None
    need: Need
    cleaned: str


def final_score(verdict: Verdict, nli_label: str | None) -> float | None:
    """Apply the NLI guard; ``None`` label = no NLI: guards pass, decisions stay undecided."""
    if verdict.need is Need.DECIDE:
        return None if nli_label is None else float(nli_label == "entailment")
    if verdict.need is Need.GUARD and nli_label == "contradiction":
        return 0.0
    return verdict.rule_score


@lru_cache(maxsize=1 << 16)
def judge(question: str, truth: str, qtype: str, response: str) -> Verdict:
    """Score one response with the rules alone (total: any strings, no exceptions; pure, so cached)."""
    cleaned = clean_response(response or "")
    if not str(truth).strip():
        return Verdict(Outcome.NO_TRUTH, None, Need.NONE, cleaned)
    if not re.search(r"\w", cleaned):
        return Verdict(Outcome.EMPTY, 0.0, Need.NONE, cleaned)
    if qtype == "yn":
        polarity = truth_polarity(truth)
        if polarity is not None:
            return _judge_yn(question, polarity, cleaned)
    return _judge_wh(truth, cleaned)


# ---------------------------------------------------------------- Y/N
@lru_cache(maxsize=1 << 14)
def truth_polarity(truth: str) -> str | None:
    """``yes``/``no`` from the truth's alternatives ("i do | yes" -> yes, "not really | no" -> no)."""
    for alt in str(truth).split("|"):
        toks = [t for t in tokens(alt) if t.isalnum() or "'" in t]
        got = _phrase_at(toks, 0)
        if got is not None:
            return got[0]
    return None


def skip_fillers(toks: list[str], i: int = 0) -> int:
    """The index of the first token from ``i`` that is neither a filler ("oh", "well") nor punctuation."""
    while i < len(toks) and (toks[i] in FILLERS or not toks[i][0].isalnum()):
        i += 1
    return i


def _phrase_at(toks: list[str], i: int) -> tuple[str, int] | None:
    """A yes/no phrase starting at ``i``: (polarity, tokens used), punctuation between its words skipped
    ("not ... really"). A yes phrase before a "not" that ends the clause is no ("of course not ."); "yes not
    many", "sure , not a problem" stay yes."""
    for polarity, words in PHRASES_BY_FIRST.get(toks[i], ()) if i < len(toks) else ():
        end = _phrase_end(toks, i, words)
        if end is None:
            continue
        nxt = toks[end] if end < len(toks) else ""
        if polarity == "no" and words == ("no",) and nxt in NOT_AN_ANSWER_AFTER:
            return None
        if polarity == "yes" and nxt == "not" and (end + 1 == len(toks) or not toks[end + 1][:1].isalnum()):
            return "no", end + 1 - i
        return polarity, end - i
    return None


def _phrase_end(toks: list[str], i: int, words: tuple[str, ...]) -> int | None:
    """Where ``words`` end when they stand at ``i``, punctuation between them skipped; None if they don't."""
    j = i
    for k, w in enumerate(words):
        while k and j < len(toks) and not toks[j][:1].isalnum():
            j += 1
        if j >= len(toks) or toks[j] != w:
            return None
        j += 1
    return j


def _judge_yn(question: str, polarity: str, cleaned: str) -> Verdict:
    toks = [t for t in tokens(cleaned) if t.strip()]
    said = _phrase_at(toks, skip_fillers(toks))
    forms = _find_forms(toks, *question_forms(question))
    if said is not None:
        if said[0] != polarity:
            return Verdict(Outcome.WRONG_YES_NO, 0.0, Need.NONE, cleaned)
        if any(p != polarity for p in forms):
            return Verdict(Outcome.OPPOSITE_SHORT_FORM, 0.0, Need.NONE, cleaned)
        outcome = Outcome.CORRECT_SHORT_ANSWER if forms else Outcome.YES_NO_ONLY
        return Verdict(outcome, 1.0, Need.GUARD, cleaned)
    if forms:
        if forms[0] != polarity:
            return Verdict(Outcome.WRONG_SHORT_FORM, 0.0, Need.NONE, cleaned)
        if any(p != polarity for p in forms):
            return Verdict(Outcome.OPPOSITE_SHORT_FORM, 0.0, Need.NONE, cleaned)
        return Verdict(Outcome.CORRECT_SHORT_ANSWER, 1.0, Need.GUARD, cleaned)
    return Verdict(Outcome.NO_SHORT_FORM, None, Need.DECIDE, cleaned)


Forms = dict[str, list[tuple[tuple[str, ...], str]]]


@lru_cache(maxsize=1 << 14)
def question_forms(question: str) -> tuple[Forms, frozenset[str]]:
    """The question's short forms as (form, polarity) candidates by first word, longest first, and the
    content words an answer clause must repeat (see ``_Clauses``)."""
    sf = short_forms(tokens(question))
    if sf is None:
        return {}, frozenset()
    cands = [(f, "yes") for f in sf.positive] + [(f, "no") for f in sf.negative]
    cands.sort(key=lambda c: -len(c[0]))
    by_first: Forms = {}
    for form, polarity in cands:
        by_first.setdefault(form[0], []).append((form, polarity))
    need = frozenset(_fold(t) for t in sf.question_words if t not in QUESTION_FUNCTION_WORDS)
    return by_first, need


def _find_forms(toks: list[str], forms: Forms, need: frozenset[str]) -> list[str]:
    """Polarities of the short forms used as answers, in order ("i do not" beats "i do" at one spot)."""
    found: list[str] = []
    answers: _Clauses | None = None  # built at the first candidate: one pass, however many matches
    i = 0
    while i < len(toks):
        cands = forms.get(toks[i], ())
        if cands and (
            i == 0
            or not toks[i - 1].isalnum()
            or toks[i - 1] in CLAUSE_END
            or toks[i - 1] in FILLERS
            or _phrase_at(toks, i - 1) is not None
        ):
            answers = answers or _Clauses(toks, need)
            for form, pol in cands:
                n = len(form)
                if tuple(toks[i : i + n]) == form and answers.answers(i + n):
                    found.append(pol)
                    i += n - 1
                    break
        i += 1
    return found


def _clause_token(t: str) -> bool:
    return (t.isalnum() or "'" in t) and t not in CLAUSE_END


class _Clauses:
    """Whether a short form is an answer, for every position of a reply at once. It is when its clause
    (the words up to the next clause end) ends there ("i do .", "i do , ...") or holds adverbs only, or
    goes on to repeat every content word of the question, led by one ("i do have a dog" for "do you have
    a dog ?"); not when it says something else ("i don't know", "i'm in the third grade" for "are you in
    the fifth grade ?"). One right-to-left pass gives what the clause from any start holds; rescanning
    the clause at each match was quadratic in a long reply ("yes i do yes i do ..." x 10^5)."""

    def __init__(self, toks: list[str], need: frozenset[str]) -> None:
        n = len(toks)
        self.need = need
        self.all_adverbs = [True] * (n + 1)  # the clause from j holds adverbs only (or nothing)
        self.head: list[str | None] = [None] * (n + 1)  # its first word that is no adverb or function word
        self.has_need = [False] * (n + 1)  # it repeats every content word of the question
        seen: set[str] = set()
        for j in range(n - 1, -1, -1):
            t = toks[j]
            if not _clause_token(t):
                seen = set()
                continue
            self.all_adverbs[j] = t in ADVERBS and self.all_adverbs[j + 1]
            keep = t not in ADVERBS and t not in QUESTION_FUNCTION_WORDS
            self.head[j] = t if keep else self.head[j + 1]
            seen.add(_fold(t))
            self.has_need[j] = need <= seen

    def answers(self, j: int) -> bool:
        """The short form ending before ``j`` is an answer."""
        if self.all_adverbs[j]:
            return True
        head = self.head[j]
        return bool(self.need) and head is not None and _fold(head) in self.need and self.has_need[j]


# ---------------------------------------------------------------- WH
def content_tokens(text: str) -> list[str]:
    """Lowercase ``\\w+`` tokens, numbers as digits, articles and and/or dropped, light plural folding."""
    return list(_content_tokens(text))


@lru_cache(maxsize=1 << 16)
def _content_tokens(text: str) -> tuple[str, ...]:
    """Memoised: scoring and the categories ask for the same replies, facts and user turns many times."""
    words = re.findall(r"[0-9]+|[^\W\d_]+", normalize_numbers(text))  # "60years" -> 60, years
    return tuple(_fold(t) for t in words if t not in IGNORED)


def _fold(t: str) -> str:
    if len(t) > 4 and t.endswith("ies"):
        return t[:-3] + "y"
    if len(t) > 3 and t.endswith("s") and not t.endswith("ss"):
        return t[:-1]
    return t


def keyword_alternatives(truth: str) -> list[list[str]]:
    """The truth's ``|`` alternatives with 1..MAX_KEYWORDS content tokens."""
    return [list(a) for a in _keyword_alternatives(truth)]


@lru_cache(maxsize=1 << 14)
def _keyword_alternatives(truth: str) -> tuple[tuple[str, ...], ...]:
    alts = [content_tokens(a) for a in str(truth).split("|")]
    return tuple(tuple(a) for a in alts if 0 < len(a) <= MAX_KEYWORDS)


def keyword_recall(truth_tokens: Sequence[str], response_tokens: set[str]) -> float:
    distinct = list(dict.fromkeys(truth_tokens))
    return sum(t in response_tokens for t in distinct) / len(distinct)


def _judge_wh(truth: str, cleaned: str) -> Verdict:
    alts = _keyword_alternatives(truth)
    if not alts:
        return Verdict(Outcome.NLI_ONLY, None, Need.DECIDE, cleaned)
    have = set(content_tokens(cleaned))
    recall = max(keyword_recall(a, have) for a in alts)
    return Verdict(Outcome.KEYWORD_RECALL, recall, Need.GUARD if recall > 0 else Need.NONE, cleaned)
