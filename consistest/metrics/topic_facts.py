"""An answer read against the speaker's own statement on the question's topic, as ConsisTest reads a reply
against its gold fact: the ``topic`` rule of the detectors' answer rules (``qa:5``; as below, ``qa:6``).

A detector has no gold fact or truth, only the speaker's persona and earlier sentences. Here the fact is the
stated clause sharing the most content words with the user's question, one of them more than a light word
("favorite", "go"), about the same party (the bot itself, or its wife, mom, ... as the question asks;
``party``); every clause that ties counts. The truth is what that clause says beyond the question: for a WH
question its words that the question does not hold ("twice a year" from "i visit europe twice a year ." to
"how often do you visit europe ?"; negated clauses give none), for a Y/N question about the speaker the
clause's stand on it (as the ``yn`` rule reads it). The reply is scored with ``--method plus``'s rules
without NLI and put in a failure category (:mod:`.categories`): ``history``, ``intra`` or ``role``
contradicts the fact, ``consistent`` agrees with it (a WH reply with a negation never does: "definitely not
blue"). ``uninformative`` and ``not_judged`` decide nothing, nor do two tied facts that disagree, nor
questions about the user or hypothetical ones ("what would you do if ...").

Known limits: tenses are not compared ("i worked at a bank" is read as where the speaker works), a WH
reply in other words than the clause is another value ("on saturdays and sundays" for "on weekends"), and
"you speak chinese ? me too !" returns the question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from consistest.core.records import Category, QType, Sample, ScoredItem
from consistest.metrics.categories import decide
from consistest.metrics.clean import reply_sentences
from consistest.metrics.plus import final_plus, judge_plus
from consistest.metrics.propositions import clauses, content_stems, is_content, statement_keys, stem, words_of
from consistest.metrics.shortforms import FEMALE, MALE
from consistest.metrics.words import is_negation, lex
from consistest.metrics.wrong_value_words import HEDGES

CONTRADICTING: frozenset[Category] = frozenset({"history", "intra", "role"})
Stand = Callable[[str, str], "str | None"]  # (question, premise) -> "yes", "no" or None
PEOPLE = frozenset(
    stem(w)
    for w in FEMALE
    | MALE
    | lex("parents parent kids kid children child siblings sibling friend friends family spouse partner "
          "boss roommate neighbor coworker cousin baby grandparents husband wife")
)  # fmt: skip
LIGHT = frozenset(stem(w) for w in lex("favorite favourite kind type sort go get make thing time lot day"))
HYPOTHETICAL = lex("would should could if might")
USER = lex("i me my mine myself")
BOT = lex("you your yours yourself")
OTHER = lex("he she they it his her their its this that there")


def _person(words: Sequence[str]) -> str | None:
    """The first word naming a person of the speaker's ("wife", "mom's"), as a stem."""
    for w in words:
        s = stem(w.split("'")[0])
        if s in PEOPLE:
            return s
    return None


def question_party(question: str) -> str | None:
    """Whom a question is about: ``self`` (the person asked), a person of theirs ("your wife": ``wife``),
    ``any`` (nobody in particular: "what is the spanish word for work ?"), or None (the asker: "what is
    my name ?")."""
    words = words_of(question)
    if set(words) & USER and not set(words) & BOT:
        return None
    if "your" in words:
        at = words.index("your")
        return _person(words[at + 1 : at + 4]) or "self"
    return "self" if set(words) & BOT else "any"


def clause_party(clause: str) -> str | None:
    """Whom a stated clause is about: ``self`` ("i ...", "we ...", "my name ..."), a person ("my best friend
    ..."), ``any`` (a pronoun or a thing: "his name is max"), or None (the listener: "you ...")."""
    words = words_of(clause)
    if not words or words[0] in ("i", "we"):
        return "self"
    if words[0] in BOT:
        return None
    if words[0] in ("my", "our"):
        return _person(words[1:4]) or "self"
    return "any"


def _same_party(asked: str | None, clause: str) -> bool:
    """A clause about ``asked`` (the question's party), or about anyone."""
    said = clause_party(clause)
    return asked is not None and said is not None and (asked == said or "any" in (asked, said))


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
    """The stated clauses (``statements``) about the question's party sharing the most content words with
    it, one of them not a light word (none when no clause does, or the question is about no party of the
    speaker's)."""
    want, asked = content_stems(question), question_party(question)
    shared = []
    for c in statements(question, premises):
        common = content_stems(c) & want
        if common - LIGHT and _same_party(asked, c):
            shared.append((len(common), c))
    best = max((n for n, _ in shared), default=0)
    return list(dict.fromkeys(c for n, c in shared if n == best))


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
    return decide(item, sample, None, typed=False)  # the premise is a guess: no evidence by type


def topic_category(
    question: str, reply: str, premises: Sequence[str], history: Sequence[str], persona: Sequence[str],
    yes_no: bool, stand: Stand,
) -> tuple[Category, str] | None:  # fmt: skip
    """``reply``'s category against its closest facts: a contradicting one (with why) when some fact is
    contradicted and none agrees, ``consistent`` when some agrees and none is contradicted, else None.
    ``yes_no``: the question is a Y/N question about the speaker, whose truth ``stand`` reads."""
    if set(words_of(question)) & HYPOTHETICAL:
        return None  # "what would you do if you won the lottery ?" asks for no fact
    found: list[tuple[Category, str]] = []
    for premise in closest_facts(question, premises):
        keys = statement_keys(premise)
        if not yes_no and keys is not None and keys.negated:
            continue  # "i do not work at a hospital" names no workplace
        truth = stand(question, premise) if yes_no else wh_truth(question, premise)
        qtype: QType = "yn" if yes_no else "wh"
        if truth:
            found.append(fact_category(question, qtype, truth, reply, premise, persona, history))
    bad = [f for f in found if f[0] in CONTRADICTING]
    good = [f for f in found if f[0] == "consistent"]
    if bad and not good:
        return bad[0]
    if yes_no or not any(is_negation(w) for w in words_of(reply)):
        return good[0] if good and not bad else None
    return None  # "definitely not blue": not agreement
