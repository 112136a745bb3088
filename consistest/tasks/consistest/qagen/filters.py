"""Filters on generated QAs: malformed, not exclusive, near-duplicate, truth not in the fact."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from consistest.core.records import QA
from consistest.text.lexicon import lexicon
from consistest.text.sentences import strip_punct

DUPLICATE_RATIO = 90.0
_VERBS = {
    "do", "does", "did", "is", "are", "am", "was", "were", "can", "could", "will", "would", "have", "has",
    "had", "should", "may", "might", "must", "shall",
}  # fmt: skip


def second_person(q: str) -> bool:
    return any(w in lexicon()["second_person"] for w in strip_punct(q).split())


def has_verb(q: str) -> bool:
    """A question needs an auxiliary or finite verb; English questions almost always hold one of these."""
    ws = strip_punct(q).split()
    if any(w in _VERBS for w in ws):
        return True  # "who likes cats?": a wh-subject question may hold only an inflected verb
    if len(ws) > 2 and ws[0] == "who" and ws[2] in ("you", "your"):
        return True  # "who taught you ...?": an irregular past before its object
    return bool(ws) and ws[0] in ("who", "what", "which") and any(w.endswith(("s", "ed")) for w in ws[1:2])


def truth_in_fact(a: str, fact: str, qtype: str) -> bool:
    """Y/N truth is yes/no; a WH truth (any `|` alternative) occurs as whole words in the fact."""
    if qtype == "yn":
        return a.strip() in ("yes", "no")
    norm_fact = f" {strip_punct(fact)} "
    return any(f" {strip_punct(alt)} " in norm_fact for alt in a.split("|") if strip_punct(alt))


def malformed_reason(qa: QA) -> str | None:
    """Why a question is malformed, or None: no '?', no verb, or it just copies the statement."""
    q = qa.q.strip()
    if not q.endswith("?"):
        return "no_question_mark"
    if not has_verb(q):
        return "no_verb"
    if strip_punct(q) == strip_punct(qa.c) or strip_punct(q) == strip_punct(qa.alt_c):
        return "copied_statement"
    if not second_person(q):
        return "not_second_person"
    return None


def is_exclusive(q: str) -> bool:
    """False for WH questions whose answer is one of many ("what animal do you love?"): the agent may
    love other animals too, so another true answer would be scored as a contradiction."""
    ws = strip_punct(q).split()
    if not ws or ws[0] not in ("what", "which", "who"):
        return True
    if {"favorite", "favourite", "name", "color", "colour", "job", "living", "old"} & set(ws):
        return True
    if ws[-2:] == ["to", "be"]:  # "what do you want to be?": the one thing one aims to become
        return True
    if ws[-1] == "do" and len(ws) <= 5 and ws[1] in ("do", "does", "did"):  # "what do you do?", "what does
        return True  # your mom do?", "what did your father do?": the job
    open_verbs = set(lexicon()["open_preference_verbs"])
    if len(ws) > 1 and ws[1] in ("do", "does", "did"):  # a bare "what do you have?" asks one of the
        open_verbs |= {"have", "own", "get", "need", "make", "buy"}  # many things one has
    aux = {k for k, w in enumerate(ws[:-1]) if w in ("do", "does", "did") and ws[k + 1] in ("you", "your")}
    return not any(w in open_verbs for k, w in enumerate(ws) if k > 0 and k not in aux)


def well_formed(qa: QA) -> bool:
    """The quality-benchmark check: ends with '?', second person, truth found in the fact."""
    return qa.q.strip().endswith("?") and second_person(qa.q) and truth_in_fact(qa.a, qa.c, qa.type)


def filter_qas(qas: Iterable[QA], dropped: Counter[str]) -> list[QA]:
    """Keep the QAs of one fact that pass every check; of near-duplicates with the same truth the first
    wins (a counterfactual differs from its positive question by one word and must survive)."""
    from rapidfuzz import fuzz

    kept: list[QA] = []
    for qa in qas:
        reason = malformed_reason(qa)
        if reason is None and not truth_in_fact(qa.a, qa.c, qa.type):
            reason = "truth_not_in_fact"
        if reason is None and qa.type == "wh" and not is_exclusive(qa.q):
            reason = "not_exclusive"
        if reason is None:
            nq = _canon(qa.q)
            same = (k for k in kept if k.a == qa.a and k.type == qa.type)
            if any(fuzz.ratio(nq, _canon(k.q)) >= DUPLICATE_RATIO for k in same):
                reason = "near_duplicate"
        if reason:
            dropped[reason] += 1
        else:
            kept.append(qa)
    return kept


def _canon(q: str) -> str:
    return re.sub(r"\s+", " ", strip_punct(q))
