"""A bot turn read with the user's question it answers: the rules of the detectors' ``--qa-rules``.

Alone, "no ." contradicts nothing; after "do you have a dog ?" it says "i don't have a dog", which a persona
sentence "i have a german shepherd dog ." contradicts. These rules give a detector what the question adds,
and, but for the first, only where the user's turn is a question (it ends with "?", or opens with a WH
word; ``is_question``):

- :mod:`.roles`, after any user turn: a reply that repeats it word for word (``echo``: "oh , i have three
  dogs ." after "i have three dogs ."), takes over a statement of it, or one the user made of themselves
  earlier, nearly word for word (``copy``: "i think they were bred from the original pinschers ." after "i
  think they're cute . i think they were bred from the original pinschers , but i'm not sure ."), or says
  again as the bot's, adding nothing, what the user said of themselves and nothing the bot said or was told
  holds (``claim``: "i grow roses in my garden too" after "i grow roses in my garden every spring"), is role
  confusion;
- :mod:`.self_negation`, after any user turn too: a reply that says something of the speaker and, in
  another clause, its negation ("i'm not a godfather . i'm a godfather ."), or gives the speaker two ages,
  sexes or jobs ("i'm a nurse . i'm a doctor ."), contradicts itself (``self-negation``, ``self-slot``:
  intra);
- :mod:`.self_facts`, after any user turn too: a reply that gives the speaker's age, sex or job, where an
  earlier statement gives another ("i'm 16" after "i'm 27 years old"; "i'm a waitress" after "i am a nurse",
  the speaker's one job), contradicts it (``slot``: history), a bare yes read as the question's statement;
- ``answer_statement`` (:mod:`.answer_reading`): a reply opening with a yes/no word or a bare short form,
  spelled out as the question's statement or its negation ("i don't have a dog . i have a cat");
- ``qa_evidence``: where the rules can tell, whether the reply contradicts the speaker's earlier statements
  (persona sentences, earlier turns) or agrees with them, and how: it only returns the user's question
  (``role``, as the annotation guidelines define it); on a question about the bot ("... you ...?"), its
  yes/no word is contradicted by its own long part or short form (``intra``: "yes , i hate math" to "do you
  like math ?"), or the earlier statements and the reply take opposite stands (``yn``); for any question, a
  reply clause negates or gives another value than an earlier statement on the question's topic with the
  same subject (``fact``: "i have five sisters" after "i have three sisters"); last, the reply read as a
  ConsisTest reply to the premise closest to the question, its truth what that premise says beyond the
  question (``topic``, :mod:`.topic_facts`: "about once a year" to "how often do you visit europe ?" after
  "i visit europe twice a year"; "oh , you speak chinese ? that's cool !" returns the question).

Known limits: verbs and tenses are not compared ("no" to "do you like japan ?" contradicts "i live in japan";
"no" to "did you have a dog as a kid ?" contradicts "i have a dog"), and a consistent answer decides the turn
even when a later sentence of it contradicts another persona fact.

Pure token rules over :mod:`.propositions` and :mod:`.stances` (the readings ``--method plus`` uses),
versioned with ``ANSWERS_VERSION``; what they do not decide is left to NLI.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from consistest.core.records import Category
from consistest.metrics.answer_reading import (
    _plain,
    answer_polarity,
    answer_statement,
    is_question,
    on_topic,
    returns_question,
)
from consistest.metrics.borrowed import own_statements
from consistest.metrics.categories import CATEGORIES_VERSION
from consistest.metrics.clean import CLEAN_VERSION, clean_response
from consistest.metrics.plus import PLUS_VERSION, long_part
from consistest.metrics.propositions import (
    Keys,
    clauses,
    proposition,
    question_keys,
    statement_keys,
)
from consistest.metrics.roles import agreed, claims_user_fact, copies_user, echoes
from consistest.metrics.rules import RULES_VERSION, Outcome, judge
from consistest.metrics.self_facts import other_value
from consistest.metrics.self_negation import gives_two_values, negates_itself
from consistest.metrics.stances import clause_reading
from consistest.metrics.topic_facts import topic_category
from consistest.metrics.yesno import LONG_SHARE, _combine, about_user, fact_reading

# 2-13 (CHANGELOG.md has each in full): only after a question, subjects compared (2); the reply's own
# clauses, a value the fact rule contradicts outranking a consistent yes/no (3); the scorer's reading of
# yes/no phrases (4); the ``topic`` rule (5) and its review (6); role confusion ``echo`` and ``claim`` (7)
# and two reviews (8, 9); ``slot``: another age or sex (10), its review (11), jobs (12) and their review (13)
# 14-19 (CHANGELOG.md has each in full): ``copy`` and a one-word ``claim`` (14), ``self-negation`` (15),
# ``self-slot`` (16), a review of both (17: word for word in order; no added or side job), ``copy`` of earlier
# user turns (18) and a review of it (19: only what the user said of themselves, not what the bot agreed
# with, no reaction); each designed on the rounds of tests/data/dialogues read before it, frozen before the
# next round (14: round 10 ... 19: round 16); where no question picks the premises, the guard reads only
# pairs of statements that share a topic (20: designed on rounds 1-17); the guard reads its pairs with
# contractions spelled out, a statement said again scoring 0 (21: designed on rounds 1-20), and said again
# in fewer of its words too (22: designed on rounds 1-21); the role readings do not count as the bot's own
# an earlier turn of its that took over the user's words (23: ``borrowed``, designed on rounds 1-23); the
# topic reading's categories are ``cat:4`` and its plus ``plus-4`` (24: a wrong value in the question's frame,
# a Y/N reply plus reads the other way, are history; a reply saying both answers is 0; designed on the
# held-out replies read before 2026-11-27's third test set); ``cat:5`` and ``plus-5`` (25: a review's
# examples: no manner adverb in a question's frame; says-both only for the bot's
# present "yes")
# 26, 27: a candidate's, reverted (unused); 28: ``plus-7`` (a hedge read past, "i'm sure you" about the user,
# "zero" a negation)
# 29: a candidate's (plus-8), reverted (unused)
# 30: ``plus-9``; 31: ``plus-10``; 32: ``plus-11`` and ``cat:8``; 33: ``plus-12`` and ``cat:9``
# 34: ``plus-13``; 35: a candidate's (plus-14, cat:10), reverted (unused); 36: ``plus-15`` and ``cat:11``
# 37: ``plus-16`` (the self-negation rule reads "i hate school but i love it")
# 38: ``plus-17`` and ``cat:12`` (another value than the question's and the fact's is 0, history)
# 39: ``plus-18`` (a number's place needs a number; every age or sex clash read)
# 40: ``plus-19`` and ``cat:13`` (a looser modifier is no other value; a clause denying another part of the
# fact is 0, history)
# 41: ``plus-20`` and ``cat:14`` (a member named for the asked kind; another member than the fact's is 0)
# 42: ``plus-21`` (the holder rule, WH only)
# 43: ``plus-22`` and ``cat:15`` (WH extras after the truth's article or frame; a partner of the other sex)
# 44: ``plus-23`` and ``cat:16`` (a WH truth said only negated is 0, history)
# 45: ``plus-24`` (WH keywords split in two or a number spelled another way; a repeated frame read back
# further)
# ``cat:17`` and ``cat:18`` read nothing new here (the topic reading guesses its facts:
# ``decide(..., typed=False)``)
# 46: ``plus-25`` (quantifiers are no value; a member of a kind the fact names in general; kinds of languages
# and grandchildren)
ANSWERS_VERSION = 46
assert (RULES_VERSION, PLUS_VERSION, CLEAN_VERSION, CATEGORIES_VERSION) == (3, 25, 2, 18), (
    "bump ANSWERS_VERSION with its parts"
)
Rule = Literal[
    "echo",
    "copy",
    "claim",
    "claim-nli",
    "self-negation",
    "self-slot",
    "slot",
    "role",
    "intra",
    "yn",
    "fact",
    "topic",
]
# the ``topic`` rule's contradictions carry the category it found (``Evidence.found``); "history" otherwise
CATEGORY: dict[Rule, str] = {
    "echo": "role", "copy": "role", "claim": "role", "claim-nli": "role", "self-negation": "intra",
    "self-slot": "intra", "slot": "history", "role": "role", "intra": "intra", "yn": "history",
    "fact": "history", "topic": "history",
}  # fmt: skip
# a yes and nothing more, in the present: what ``slot`` reads spelled out as the question's statement
_BARE_YES = re.compile(r"^(?:(?:yes|yeah|yep|yup|sure|of course|definitely|absolutely|i am|i'm|i do)\W*)+$")
ADDING = re.compile(r"\b(?:too|also|as well|both|either|besides|plus)\b")


@dataclass(frozen=True)
class Evidence:
    """What the rules found: a ``contradiction`` (of ``category``) or ``consistent``, and the rule."""

    verdict: Literal["contradiction", "consistent"]
    rule: Rule
    found: Category | None = None  # the failure category the ``topic`` rule found

    @property
    def category(self) -> str | None:
        return (self.found or CATEGORY[self.rule]) if self.verdict == "contradiction" else None


def qa_evidence(
    question: str,
    reply: str,
    premises: Sequence[str],
    history: Sequence[str] = (),
    persona: Sequence[str] = (),
) -> Evidence | None:
    """The rules' verdict on ``reply`` (the speaker's answer to ``question``) against ``premises`` (the
    speaker's persona sentences and earlier sentences), in the module docstring's order; None where they
    cannot tell, and after a user turn that asks nothing always but for the role readings. ``history``
    (the turns before the reply, the question last; its user turns are those the role readings read) and
    ``persona`` are what the ``topic`` rule reads besides: the user's statements and the values a WH
    answer may add."""
    question, reply = _plain(question), _plain(reply)
    turns = [_plain(t) for t in history or (question,)]
    users = turns[-1::-2]  # the user's turns, the last first
    own = own_statements(turns, premises, persona)  # not what an earlier turn of its took over (23)
    held = [*own, *agreed(turns)]  # and what the bot agreed with ("me too !")
    if echoes(question, reply, own):
        return Evidence("contradiction", "echo")
    if copies_user(users, reply, held):
        return Evidence("contradiction", "copy")
    if claims_user_fact(reply, users, held):
        return Evidence("contradiction", "claim")
    if negates_itself(reply):
        return Evidence("contradiction", "self-negation")
    if gives_two_values(reply):
        return Evidence("contradiction", "self-slot")
    if other_value(answer_statement(question, reply) if _BARE_YES.match(reply) else reply, premises):
        return Evidence("contradiction", "slot")  # "yes ." to "are you a nurse ?" too, not "yes , i was ."
    if not is_question(question):
        return None
    if returns_question(question, reply):
        return Evidence("contradiction", "role")
    prop = proposition(question)
    about_bot = prop is not None and prop.subject == ("i",)
    yn = _yes_no_evidence(question, question_keys(prop), reply, premises) if about_bot else None  # type: ignore[arg-type]
    if yn is not None and yn.verdict == "contradiction":
        return yn
    fact = _fact_evidence(question, reply, premises)  # "yes , i have three kids" after "i have two kids"
    if fact is not None and (fact.verdict == "contradiction" or yn is None):
        return fact
    if yn is not None or (prop is not None and not about_bot):
        return yn
    return _topic_evidence(question, reply, premises, history or (question,), persona, about_bot)


def _topic_evidence(
    question: str, reply: str, premises: Sequence[str], history: Sequence[str], persona: Sequence[str],
    yes_no: bool,
) -> Evidence | None:  # fmt: skip
    """The ``topic`` rule (:mod:`.topic_facts`), the truth of a Y/N question the premise's stand."""

    def stand(q: str, premise: str) -> str | None:
        got = _premise_stand(question_keys(proposition(q)), [premise])  # type: ignore[arg-type]
        return got if got in ("yes", "no") else None

    found = topic_category(question, reply, premises, history, persona, yes_no, stand)
    if found is None:
        return None
    if found[0] == "consistent":
        return Evidence("consistent", "topic")
    return Evidence("contradiction", "topic", found[0])


def _own_clauses(texts: Sequence[str]) -> list[str]:
    """The clauses of the texts not about the user."""
    return [c for t in texts for c in clauses(clean_response(_plain(t))) if not about_user(c)]


def _same_subject(a: Keys | None, b: Keys | None) -> bool:
    """Two clauses about the same subject, or one without a subject ("two cats !" answers for the asker's)."""
    return a is None or b is None or not a.subject or not b.subject or a.subject == b.subject


def _premise_stand(keys: Keys, premises: Sequence[str]) -> str | None:
    """The premises' stand on a question about the bot: their clauses about the bot that say all its
    value words (or another value in the same frame). The verb and the tense are not compared: on dev,
    requiring them lost more right verdicts ("i am fluent in spanish" to "can you speak spanish ?") than it
    saved wrong ones ("i live in japan" to "do you like japan ?")."""
    stand = _stance(keys, premises, full_only=True)
    return "no" if stand == "other" else stand


def _yes_no_evidence(question: str, keys: Keys, reply: str, premises: Sequence[str]) -> Evidence | None:
    """A Y/N question about the bot: the reply's yes/no word against its own short form and long part
    (another value contradicts a yes unless the reply adds it: "yes , i also have a cat"), then the reply's
    answer against the premises' stand (another value counts as no: "i have brown eyes" to "blue eyes ?")."""
    said = answer_polarity(question, reply)
    cleaned = clean_response(reply)
    if said is not None and judge(question, said, "yn", reply).outcome == Outcome.OPPOSITE_SHORT_FORM:
        return Evidence("contradiction", "intra")  # "yes , i don't ."
    rest = long_part(cleaned) if said else cleaned
    own = _stance(keys, [rest], LONG_SHARE if said else (0.0, 0.0)) if rest else None
    if (said == "yes" and own == "no") or (said == "no" and own == "yes"):
        return Evidence("contradiction", "intra")
    if said == "yes" and own == "other" and not ADDING.search(rest):  # "yes , i have short hair"
        return Evidence("contradiction", "intra")
    answer = said or {"yes": "yes", "no": "no", "other": "no"}.get(own or "")
    truth = _premise_stand(keys, premises)
    if answer is None or truth not in ("yes", "no"):
        return None
    return Evidence("consistent" if truth == answer else "contradiction", "yn")


def _stance(
    keys: Keys, texts: Sequence[str], share: tuple[float, float] = (0.0, 0.0), full_only: bool = False
) -> str | None:
    """The texts' combined stance on the keys (yes, no, other, conflict or None): clauses about the user or
    another subject skipped ("no , but my brother has a dog"), and another value only on full evidence
    ("i like rock" names a kind of music, it does not answer "do you like music ?" with no); with
    ``full_only``, every stance only on full evidence."""
    got = []
    for c in _own_clauses(texts):
        r = clause_reading(keys, c, *share) if _same_subject(statement_keys(c), keys) else None
        if r is not None and (r.full or (r.stance != "other" and not full_only)):
            got.append(r.stance)
    return _combine(got)


def _fact_evidence(question: str, reply: str, premises: Sequence[str]) -> Evidence | None:
    """Any question: a reply clause that negates or gives another value than a premise clause on the
    question's topic (with the same subject) contradicts it; one that restates it (and none that
    contradicts) is consistent."""
    parts = [(c, statement_keys(c)) for c in _own_clauses([answer_statement(question, reply)])]
    stances = set()
    for pc in _own_clauses(on_topic(question, premises)):
        pk = statement_keys(pc)
        for c, k in parts:
            if not _same_subject(k, pk):
                continue
            r = fact_reading(pc, c)
            if r is not None and r.full:
                stances.add(r.stance)
    if stances & {"no", "other"}:
        return Evidence("contradiction", "fact")
    return Evidence("consistent", "fact") if "yes" in stances else None
