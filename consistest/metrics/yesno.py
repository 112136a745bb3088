"""What a Y/N reply answers when it carries no yes/no word or short form (the ``yn-proposition`` rule), and
whether the long part of one that does agrees with it (the ``yn-long`` rule).

The evidence, in order: an evasive reply ("i'm not sure") answers nothing (0), but a hedge before an answer is
read past ("i'm not sure what to say , but i'm a clean eater": plus-7), and "i don't know" answers "do you
know ... ?" (plus-9); a reply that says the bot already is what the question or the fact only wishes it to
be ("i'm a lawyer" when it wants to be one) says what the fact rules out (0, plus-11); a clause that says
the fact and, in full, the question's proposition when the truth is no says yes ("i moved to this country a
long time ago", fact "i recently moved to this country": plus-12); a reply that restates the fact agrees
with the truth, one that negates it or puts another value in its place does not ("i have six sons" for the
fact "i have five sons"; a fact is one statement per clause, and "and i ..." opens another: plus-13);
otherwise the reply's stance on the question's proposition decides ("i own a yacht" -> yes, "i've never
owned one" -> no, "i was born in somalia" to "were you born in kenya ?" -> no), but another value than the
question's that shares none of the words the fact adds to the question is not the fact's either ("i work at
a cafe" to "do you work at a bar ?", fact "i work at a school"): it contradicts the fact (0, plus-17); a
looser word in place of a modifier the fact adds is no other value when the question is said in full ("a
wide range of instruments" for "several instruments"), and a clause that denies another part of the fact
gives 0 (plus-19; these readings of what the fact adds live in :mod:`.fact_beyond`); a member named where
the question asks about its kind ("i have a dog" to "do you have any pets ?") says yes, unless the fact names
other members (plus-20, :mod:`.kinds`), and outranks readings that rest on part of the words;
clauses that disagree with each other give 0 (the guidelines: any disagreement), and so does a reply that
restates the fact in one clause and says the question's proposition the other way in another; a reply that
shares no content word with question or fact is off-topic (0). What none of this decides is left to NLI.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from consistest.metrics.fact_beyond import (
    denies_fact_part,
    generic_member,
    loose_swap,
    member_reading,
    one_of_many,
    says_question_too,
    shares_content,
    unlike_fact,
)
from consistest.metrics.propositions import (
    Keys,
    Stance,
    clauses,
    is_content,
    lex,
    proposition,
    question_keys,
    statement_keys,
    stem,
    words_of,
)
from consistest.metrics.rules import FILLERS, _phrase_at
from consistest.metrics.stances import ClauseReading, clause_reading
from consistest.metrics.words import NEGATIONS, evasive

FACT_SHARE = 0.5  # a fact is restated (or given another value) by a clause holding this share of its keys
# A long part restates the question only when it holds all its keys, and gives it another value when it
# holds half of them: it follows a yes/no word, so only clear disagreement overrules that word.
LONG_SHARE = (1.0, 0.5)
Polarity = Literal["yes", "no"]
# plus-7: a hedge then "but" and an answer ("i'm not sure what to say , but i'm a clean eater"); not a
# hedge about the question itself ("i'm not sure what that is , but ..."), which answers nothing
HEDGE = re.compile(
    r"^(?:(?:oh|well|hmm|um)\W+)*(?:i'?m not (?:really )?sure|i am not (?:really )?sure|not sure)"
    r"(?: what to say| about that| about it| what you mean)*\s*(?:,\s*)?but\s+(?P<rest>\S.*)$"
)
# plus-7: what the bot says it thinks of the user is about the user ("i'm sure you have a step child")
_ABOUT_USER = re.compile(
    r"^(?:i'?m sure|i am sure|i bet|i think|i guess|i hope|i believe|i know)(?: that)? "
    # plus-12: condolence is about the user's loss ("i'm so sorry about your breakup")
    r"|^(?:i'?m |i am )?(?:so |very |really )?sorry (?:about|for|to hear about|to hear that) (?=you)"
)
_YOU = frozenset({"you", "your", "u", "ur", "yours"})
# plus-9: "i don't know" answers "do you know ...?" (no), where elsewhere it is evasive
_KNOW_QUESTION = re.compile(r"^(?:do|did) you know\b")
_DONT_KNOW = re.compile(r"^(?:(?:oh|well|hmm|um)\W+)*i (?:do not|don'?t|did not|didn'?t) (?:really )?know\b")
# plus-11: being now what the question or the fact only wishes to be ("i'm a lawyer" when the bot wants to be
# one) says something the fact rules out: 0, whatever the truth
_ASPIRE = re.compile(
    r"\b(?:want|wants|wanted|plan|plans|hope|hopes|going|dream|dreams)"
    r" (?:to be|to become|of being|of becoming) (?:a |an )?(?P<what>[a-z][a-z ]*)"
)
_ASPIRE_END = lex("when someday one after like because and but so in at for with of from by to or")
_NOT_YET = lex(
    "want wanna hope plan planning going gonna dream wish become becoming study studying student future"
)


# plus-13: "i am a vegan and i love hummus" states two things: "and" before a new "i" opens a statement
_AND_I = re.compile(r"\s+and\s+(?=i\b|i'm\b|i've\b|my\b)")


@dataclass(frozen=True)
class Reading:
    """What a reply answers: ``polarity`` (None: the rules cannot tell) and ``outcome``, the evidence."""

    outcome: str
    polarity: Polarity | None = None
    wrong_anyway: bool = False  # evasive, off-topic, conflicting, another value than the fact: 0 whatever

    def score(self, truth: Polarity) -> float | None:
        if self.wrong_anyway:
            return 0.0
        return None if self.polarity is None else float(self.polarity == truth)


def _flip(p: Polarity) -> Polarity:
    return "no" if p == "yes" else "yes"


@lru_cache(maxsize=1 << 12)
def fact_keys(fact: str) -> tuple[Keys, ...]:
    """The statements of a fact, each clause without its opening yes/no phrase ("not really , i ...")."""
    out = []
    for c in (part for whole in clauses(fact) for part in _AND_I.split(whole)):  # plus-13: "and i ..."
        words = c.split()
        i = 0
        while i < len(words) and words[i] in FILLERS:
            i += 1
        said = _phrase_at(words, i)
        if said is not None and not (i + said[1] < len(words) and is_content(words[i + said[1]])):
            i += said[1]  # "not really , as a woman i ...", but not "no games"
        keys = statement_keys(" ".join(words[i:]))
        if keys is not None:
            out.append(keys)
    return tuple(out)


def about_user(clause: str) -> bool:
    """A clause about the user, not the bot ("oh , you speak chinese"): no evidence of the bot's answer."""
    words = [w for w in clause.split() if w not in FILLERS and w not in ("wow", "lol", "haha")]
    words = _ABOUT_USER.sub("", " ".join(words)).split()
    return bool(words) and (words[0] in _YOU or words[0].startswith("you'"))  # plus-9: "you'd", "you'll"


def read_reply(question: str, truth: Polarity, fact: str, cleaned: str, standalone: bool = True) -> Reading:
    """The reading of a reply without a yes/no word or short form (see the module's docstring); with
    ``standalone=False`` the reading of the long part of one that has them, which need not be on topic.

    Evidence that rests on all the words of a fact or of the question outranks evidence that rests on part
    of them: the fact first, then the question's proposition, each read in full before either in part."""
    if standalone and evasive(cleaned):
        if _KNOW_QUESTION.match(question.strip().lower()) and _DONT_KNOW.match(cleaned.strip().lower()):
            return Reading("negates_question", "no")
        hedged = HEDGE.match(cleaned)
        if hedged is None:
            return Reading("evasive", wrong_anyway=True)
        return read_reply(question, truth, fact, hedged["rest"])
    parts = [c for c in clauses(cleaned) if not about_user(c)]
    if standalone and claims_aspired(question, fact, parts):
        return Reading("claims_aspired", wrong_anyway=True)
    prop = proposition(question)
    share = (0.0, 0.0) if standalone else LONG_SHARE
    on_q = [clause_reading(question_keys(prop), c, *share) for c in parts] if prop is not None else []
    on_fact = [fact_reading(fact, c) for c in parts]
    if standalone and _says_both(parts, on_fact, on_q, truth):
        return Reading("conflicting", wrong_anyway=True)
    if truth == "no" and says_question_too(question, fact, parts, on_fact, on_q):
        return _reading("question", "yes", truth)
    asked = question_keys(prop) if standalone and prop is not None else None
    kind = member_reading(asked, fact, parts) if asked is not None else None
    if kind == "yes" and one_of_many(asked, question, parts):  # type: ignore[arg-type]
        kind = None  # plus-25
    generic = kind == "yes" and generic_member(asked, fact)  # type: ignore[arg-type]
    for source, readings, full in (("fact", on_fact, True), ("question", on_q, True),
                                   ("fact", on_fact, False), ("question", on_q, False)):  # fmt: skip
        if kind is not None and not full:  # plus-20: a member named for its kind outranks partial readings
            if kind == "other":
                return Reading("other_member_than_fact", wrong_anyway=True)
            return Reading("kind_member", "yes")
        got = _combine([r.stance for r in readings if r is not None and r.full is full])
        if got == "conflict":
            return Reading("conflicting", wrong_anyway=True)
        if got == "other" and generic:  # plus-25: a member of the kind the fact names in general
            return Reading("kind_member", "yes")  # ("i'm studying spanish" to "do you study languages ?")
        if got == "other" and source == "fact" and full and loose_swap(question, readings, on_q):
            continue  # plus-19
        if got is not None:
            unlike = source == "question" and got == "other" and truth == "no"
            if unlike and unlike_fact(question, fact, parts):
                return Reading("other_value_unlike_fact", wrong_anyway=True)  # plus-17
            reading = _reading(source, got, truth)
            if standalone and reading.score(truth) == 1.0 and denies_fact_part(question, fact, parts):
                return Reading("denies_fact_part", wrong_anyway=True)  # plus-19
            return reading
    if standalone and fact.strip() and not shares_content(question, fact, parts):
        return Reading("off_topic", wrong_anyway=True)
    return Reading("undecided")


def aspired(text: str) -> frozenset[str]:
    """The stems of what a text wishes to be, by the head of each phrase ("i want to be a lawyer someday" ->
    {"lawy"})."""
    out = set()
    for c in clauses(text):
        for m in _ASPIRE.finditer(c):
            head = []
            for w in m["what"].split():
                if w in _ASPIRE_END:
                    break
                head.append(w)
            content = [w for w in head if is_content(w)]
            if content:
                out.add(stem(content[-1]))
    return frozenset(out)


def claims_aspired(question: str, fact: str, parts: list[str]) -> bool:
    """A clause "i am (a) ..." that says, without a wish, plan or negation, that the bot already is what
    the question or the fact wishes it to be ("i'm a lawyer" to "do you want to be a judge ?", fact "i want
    to be a lawyer")."""
    wished = aspired(question) | aspired(fact)
    if not wished:
        return False
    for clause in parts:
        words = words_of(clause)
        if words[:2] != ["i", "am"] or (_NOT_YET | _NOT_NOW | NEGATIONS) & set(words):
            continue
        if wished & {stem(w) for w in words[2:] if is_content(w)}:
            return True
    return False


# A clause that states no present fact of the bot's: a wish or plan, or the past ("i'd love to have a cat
# someday", "i lived in alaska before"); plus-5 reads no "both answers" in it.
_NOT_NOW = lex(
    "wish would want wanna hope if maybe might someday dream could should plan planning used was were had "
    "did before ago last once ever"
)


def _says_both(
    parts: list[str], on_fact: list[ClauseReading | None], on_q: list[ClauseReading | None], truth: Polarity
) -> bool:
    """One clause restates the fact in full and another, which does not, says in full that the question's
    proposition holds when the truth is no: a present statement of the bot's own ("i volunteer at a hospital
    , but i also volunteer at a soup kitchen" to "do you volunteer at a hospital ?", truth no). Not another
    subject ("my friend has a cat"), a wish or the past (plus-5), nor a negation, whose scope the rules do
    not read ("i work as a nurse . i do not work on weekends")."""
    restating = [f is not None and f.full and f.stance == "yes" for f in on_fact]
    if truth != "no" or not any(restating):
        return False
    for clause, restates, q in zip(parts, restating, on_q, strict=False):
        words = words_of(clause)
        own = bool(words) and words[0] == "i" and not _NOT_NOW & set(words)
        if own and not restates and q is not None and q.full and q.stance == "yes":
            return True
    return False


def _reading(source: str, stance: Stance, truth: Polarity) -> Reading:
    if source == "fact":
        if stance == "other":
            return Reading("other_value_than_fact", wrong_anyway=True)
        return Reading(
            f"{'restates' if stance == 'yes' else 'negates'}_fact", truth if stance == "yes" else _flip(truth)
        )
    outcome = {"yes": "restates_question", "no": "negates_question", "other": "states_other_value"}[stance]
    return Reading(outcome, "yes" if stance == "yes" else "no")


def fact_reading(fact: str, clause: str) -> ClauseReading | None:
    """The clause's strongest reading against any statement of the fact: full before partial, then yes
    before no before another value. One shared word is partial evidence however short the fact ("i prefer
    red to yellow" to the fact "my favorite color is yellow")."""
    got = [r for k in fact_keys(fact) if (r := clause_reading(k, clause, FACT_SHARE, FACT_SHARE)) is not None]
    got = [r if r.hits > 1 else replace(r, full=False) for r in got]
    return min(got, key=lambda r: (not r.full, ("yes", "no", "other").index(r.stance)), default=None)


def _combine(stances: list[Stance]) -> Stance | Literal["conflict"] | None:
    """One stance from the clauses': yes and no together conflict; yes beside another value is yes ("i'm
    wearing a hat . i'm wearing sunglasses")."""
    got = set(stances)
    if {"yes", "no"} <= got:
        return "conflict"
    return next((s for s in ("yes", "no", "other") if s in got), None)
