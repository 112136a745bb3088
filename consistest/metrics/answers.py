"""A bot turn read with the user's question it answers: the rules of the detectors' ``--qa-rules``.

Alone, "no ." contradicts nothing; after "do you have a dog ?" it says "i don't have a dog", which a persona
sentence "i have a german shepherd dog ." contradicts. These rules give a detector what the question adds:

- ``answer_statement``: a reply opening with a yes/no word or a bare short form, spelled out as the
  question's statement or its negation ("i don't have a dog . i have a cat");
- ``qa_evidence``: where the rules can tell, whether the reply contradicts the speaker's earlier statements
  (persona sentences, earlier turns) or agrees with them, and how: it returns the user's question (``role``);
  its yes/no word is contradicted by its own long part (``intra``: "yes , i hate math" to "do you like math
  ?"); the earlier statements and the reply take opposite stands on a Y/N question (``yn``); or, for any
  question, a reply clause negates or gives another value than an earlier statement on the question's topic
  (``fact``: "i live in texas" after "i live in alabama").

Pure token rules over :mod:`.propositions` and :mod:`.stances` (the readings ``--method plus`` uses),
versioned with ``ANSWERS_VERSION``; what they do not decide is left to NLI.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from consistest.metrics.clean import clean_response
from consistest.metrics.numbers import tokens
from consistest.metrics.plus import long_part
from consistest.metrics.propositions import (
    Keys,
    clauses,
    is_content,
    proposition,
    question_keys,
    stem,
    words_of,
)
from consistest.metrics.rules import FILLERS, _phrase_at, question_forms
from consistest.metrics.stances import clause_reading
from consistest.metrics.yesno import LONG_SHARE, _combine, about_user, fact_reading

ANSWERS_VERSION = 1
Polarity = Literal["yes", "no"]
Rule = Literal["role", "intra", "yn", "fact"]
CATEGORY: dict[Rule, str] = {"role": "role", "intra": "intra", "yn": "history", "fact": "history"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Evidence:
    """What the rules found: a ``contradiction`` (of ``category``) or ``consistent``, and the rule."""

    verdict: Literal["contradiction", "consistent"]
    rule: Rule

    @property
    def category(self) -> str | None:
        return CATEGORY[self.rule] if self.verdict == "contradiction" else None


def answer_polarity(question: str, reply: str) -> Polarity | None:
    """``yes``/``no`` when the reply opens (after fillers) with a yes/no phrase, or with a short form of the
    question standing alone ("i do ." to "do you ...?"); None otherwise, also for "i do like it"."""
    toks = [t for t in tokens(clean_response(reply)) if t.strip()]
    i = 0
    while i < len(toks) and (toks[i] in FILLERS or not toks[i][0].isalnum()):
        i += 1
    said = _phrase_at(toks, i)
    if said is not None:
        return said[0]  # type: ignore[return-value]
    for form, polarity in question_forms(question)[0].get(toks[i] if i < len(toks) else "", []):
        j = i + len(form)
        if tuple(toks[i:j]) == form and (j == len(toks) or not toks[j][0].isalnum()):
            return polarity  # type: ignore[return-value]
    return None


def answer_statement(question: str, reply: str) -> str:
    """The reply with its yes/no answer spelled out as the question's statement or negation, then the rest
    ("yes i do . i have two" to "do you have kids ?" -> "i have kids . i have two"); the reply unchanged
    when the question is no Y/N question or the reply gives no yes/no answer."""
    prop = proposition(question)
    said = answer_polarity(question, reply) if prop is not None else None
    if prop is None or said is None:
        return reply
    head = prop.statement() if said == "yes" else prop.negation()
    rest = long_part(clean_response(reply))
    return f"{head} . {rest}" if rest else f"{head} ."


def content_stems(text: str) -> frozenset[str]:
    """The stems of a text's content words (no function words, pronouns or negations)."""
    return frozenset(stem(w) for w in words_of(text) if is_content(w))


def on_topic(question: str, premises: Sequence[str]) -> list[str]:
    """The premises sharing a content word with the question."""
    want = content_stems(question)
    return [p for p in premises if content_stems(p) & want]


def returns_question(question: str, reply: str) -> bool:
    """The reply asks the user's question back: one of its questions holds every content word of the user's
    (and, for a Y/N question, opens with the same word: "what do you like to grill ?" follows "do you like
    to grill ?" up, it does not return it)."""
    want = content_stems(question)
    if not want or not question.strip().endswith("?"):
        return False
    opener = question.split()[0].lower()
    opens = (lambda s: s.split()[0].lower() == opener) if proposition(question) else (lambda s: True)
    asked = [s for s in SENTENCE_END.split(reply.strip()) if s.endswith("?")]
    return any(want <= content_stems(s) and opens(s) for s in asked)


def qa_evidence(question: str, reply: str, premises: Sequence[str]) -> Evidence | None:
    """The rules' verdict on ``reply`` (the speaker's answer to ``question``) against ``premises`` (the
    speaker's persona sentences and earlier sentences), in the module docstring's order; None where they
    cannot tell."""
    if returns_question(question, reply):
        return Evidence("contradiction", "role")
    prop = proposition(question)
    if prop is not None:
        got = _yes_no_evidence(question, question_keys(prop), reply, premises)
        if got is not None:
            return got
    return _fact_evidence(question, reply, premises)


def _stance(keys: Keys, texts: Sequence[str], share: tuple[float, float], full_only: bool) -> str | None:
    """The texts' combined stance on the keys (yes, no, other, conflict or None), clauses about the user
    skipped."""
    got = []
    for text in texts:
        for c in clauses(clean_response(text)):
            r = None if about_user(c) else clause_reading(keys, c, *share)
            if r is not None and (r.full or not full_only):
                got.append(r.stance)
    return _combine(got)


def _yes_no_evidence(question: str, keys: Keys, reply: str, premises: Sequence[str]) -> Evidence | None:
    """A Y/N question: the reply's yes/no word against its own long part, then the reply's answer against
    the premises' stand on the question (another value counts as no: "i have brown eyes" to "blue eyes ?")."""
    said = answer_polarity(question, reply)
    cleaned = clean_response(reply)
    rest = long_part(cleaned) if said else cleaned
    own = _stance(keys, [rest], LONG_SHARE if said else (0.0, 0.0), full_only=False) if rest else None
    if (said == "yes" and own in ("no", "other")) or (said == "no" and own == "yes"):
        return Evidence("contradiction", "intra")
    answer = said or {"yes": "yes", "no": "no", "other": "no"}.get(own or "")
    truth = _stance(keys, premises, (0.0, 0.0), full_only=True)
    truth = "no" if truth == "other" else truth
    if answer is None or truth not in ("yes", "no"):
        return None
    return Evidence("consistent" if truth == answer else "contradiction", "yn")


def _fact_evidence(question: str, reply: str, premises: Sequence[str]) -> Evidence | None:
    """Any question: a reply clause that negates or gives another value than a premise on the question's
    topic contradicts it; one that restates it (and none that contradicts) is consistent."""
    cleaned = clean_response(answer_statement(question, reply))
    parts = [c for c in clauses(cleaned) if not about_user(c)]
    stances = set()
    for premise in on_topic(question, premises):
        for c in parts:
            r = fact_reading(clean_response(premise), c)
            if r is not None and r.full:
                stances.add(r.stance)
    if stances & {"no", "other"}:
        return Evidence("contradiction", "fact")
    return Evidence("consistent", "fact") if "yes" in stances else None
