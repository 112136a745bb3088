"""An answer read against the speaker's own fact on the question's topic, as ConsisTest reads a reply
against its gold fact: the ``topic`` rule of the detectors' answer rules (``qa:5``).

A detector has no gold fact or truth, only the speaker's persona and earlier sentences. Here the fact is the
premise sharing the most content words with the user's question (every premise that ties), and the truth is
what it says beyond the question: for a WH question its words that the question does not hold ("twice a
year" from "i visit europe twice a year ." to "how often do you visit europe ?"), for a Y/N question about
the speaker the premise's stand on it (``Reading`` of :mod:`.stances`, as the ``yn`` rule reads it). The
reply is scored with ``--method plus``'s rules without NLI and put in a failure category
(:mod:`.categories`): ``history``, ``intra`` or ``role`` contradicts the fact, ``consistent`` agrees with
it. ``uninformative`` and ``not_judged`` decide nothing, nor do two tied facts that disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from consistest.core.records import Category, QType, Sample, ScoredItem
from consistest.metrics.categories import decide
from consistest.metrics.clean import reply_sentences
from consistest.metrics.plus import final_plus, judge_plus
from consistest.metrics.propositions import clauses, content_stems, is_content, stem, words_of
from consistest.metrics.wrong_value_words import HEDGES

CONTRADICTING: frozenset[Category] = frozenset({"history", "intra", "role"})
Stand = Callable[[str, str], "str | None"]  # (question, premise) -> "yes", "no" or None


def statements(question: str, premises: Sequence[str]) -> list[str]:
    """The premises' clauses that state something: not in a question ("do you work ?"), and without a
    hedge the question does not hold ("i wish i could work at home" to "where do you work ?")."""
    asked = set(words_of(question))
    out = []
    for premise in premises:
        for sentence in reply_sentences(premise):
            if sentence.rstrip().endswith("?"):
                continue
            out += [c for c in clauses(sentence) if not (set(words_of(c)) & HEDGES) - asked]
    return out


def closest_facts(question: str, premises: Sequence[str]) -> list[str]:
    """The premise clauses (``statements``) sharing the most content words with the question (none when
    none shares one)."""
    want = content_stems(question)
    shared = [(len(content_stems(c) & want), c) for c in statements(question, premises)]
    best = max((n for n, _ in shared), default=0)
    return list(dict.fromkeys(c for n, c in shared if n == best)) if best else []


def wh_truth(question: str, premise: str) -> str:
    """What the premise says beyond the question: its words without those on the question's content words,
    function words trimmed at both ends, the words between kept ("twice a year" from "i visit europe twice a
    year ." to "how often do you visit europe ?"; "" when nothing is left)."""
    asked = content_stems(question)
    kept = [w for w in words_of(premise) if not (is_content(w) and stem(w) in asked)]
    while kept and not is_content(kept[0]):
        kept.pop(0)
    while kept and not is_content(kept[-1]):
        kept.pop()
    return " ".join(kept)


def fact_category(
    question: str, qtype: QType, truth: str, reply: str, premise: str, persona: Sequence[str],
    history: Sequence[str],
) -> tuple[Category, str]:  # fmt: skip
    """The failure category of ``reply`` as a ConsisTest item whose fact is ``premise`` and whose truth is
    ``truth`` (plus's rules, no NLI), and why."""
    sample = Sample(
        id="", qa_id="", dialog_id="", persona=list(persona), history=[*history], question=question,
        answer=truth, fact=premise, nli_premise=premise, source="pers", type=qtype, distance=0, turn=0,
    )  # fmt: skip
    support = " ".join([premise, *persona])
    v = judge_plus(question, truth, qtype, reply, support, fact=premise)
    item = ScoredItem(
        id="", qa_id="", question=question, truth=truth, response=reply, cleaned=v.cleaned, outcome=v.outcome,
        rule_score=v.rule_score, nli_use="+".join(v.asks) or "none", nli_label=None, score=final_plus(v),
        source="pers", type=qtype, distance=0,
    )  # fmt: skip
    return decide(item, sample, None)


def topic_category(
    question: str, reply: str, premises: Sequence[str], history: Sequence[str], persona: Sequence[str],
    yes_no: bool, stand: Stand,
) -> tuple[Category, str] | None:  # fmt: skip
    """``reply``'s category against its closest facts: a contradicting one (with why) when some fact is
    contradicted and none agrees, ``consistent`` when some agrees and none is contradicted, else None.
    ``yes_no``: the question is a Y/N question about the speaker, whose truth ``stand`` reads."""
    found: list[tuple[Category, str]] = []
    for premise in closest_facts(question, premises):
        truth = stand(question, premise) if yes_no else wh_truth(question, premise)
        qtype: QType = "yn" if yes_no else "wh"
        if truth:
            found.append(fact_category(question, qtype, truth, reply, premise, persona, history))
    bad = [f for f in found if f[0] in CONTRADICTING]
    good = [f for f in found if f[0] == "consistent"]
    if bad and not good:
        return bad[0]
    return good[0] if good and not bad else None
