"""What a Y/N reply says of the words a fact adds to its question, for :mod:`.yesno`: the question said too
where the fact rules it out (plus-12), another value that is not the fact's either (plus-17), a looser word
in a modifier's place (plus-19), a clause denying another part of the fact (plus-19) and members named for
the kind the question asks about (plus-20). Pure token rules, versioned with ``PLUS_VERSION``."""

from __future__ import annotations

from typing import Literal

from consistest.metrics.kinds import asked_kind, kind_reading
from consistest.metrics.propositions import (
    ARTICLES,
    LIGHT_VERBS,
    MORE_THAN_ONE,
    Keys,
    content_stems,
    is_adverb,
    is_content,
    is_negated,
    lex,
    stem,
    verb_stem,
    words_of,
)
from consistest.metrics.stances import ClauseReading
from consistest.metrics.words import is_negation

# plus-19: degree words, which stand for each other's place as numbers do; relative pronouns, which end a
# negation's reach
_DEGREES = lex("little lot lots more less few many much several some")
_RELATIVE = lex("who which that whom whose where")
# plus-20: words that may open a clause before its subject ("and i have a sister")
_OPENERS = lex("and but so also plus then")


def full_yes(r: ClauseReading | None) -> bool:
    return r is not None and r.full and r.stance == "yes"


def says_question_too(
    question: str,
    fact: str,
    parts: list[str],
    on_fact: list[ClauseReading | None],
    on_q: list[ClauseReading | None],
) -> bool:
    """plus-12: a clause that says the fact and the question's proposition in full, with a word of the
    question the fact lacks ("i moved to this country a long time ago", fact "i recently moved to this
    country"): when the truth is no, that word is what makes it false. Not the fact's own words that hold the
    question's ("no , i have blonde hair and blue eyes" to "do you have blue hair ?")."""
    if not on_q:
        return False  # no proposition read from the question
    beyond = content_stems(question) - content_stems(fact)
    return any(
        full_yes(f) and full_yes(q) and bool(beyond & content_stems(c))
        for c, f, q in zip(parts, on_fact, on_q, strict=True)
    )


def unlike_fact(question: str, fact: str, parts: list[str]) -> bool:
    """plus-17: the reply shares none of the content words the fact has beyond the question's, so another
    value it gives in the question's place is not the fact's ("i work at a pub" to "do you work at a bar ?",
    fact "i work at a school"). A fact that adds no word ("i've never had a steady relationship") says
    nothing of it."""
    own = content_stems(fact) - content_stems(question)
    return bool(own) and not own & _said_stems(parts)


def loose_swap(question: str, on_fact: list[ClauseReading | None], on_q: list[ClauseReading | None]) -> bool:
    """plus-19: the reply says the question's proposition in full, and the word it puts in place of a
    modifier the fact adds is no number, no degree for a degree and not the question's ("i play a wide range
    of instruments", fact "i play several instruments"): a looser wording of the fact, not another value;
    the question's reading decides. A head word's place still holds another value ("nissan altima")."""
    asked = content_stems(question)
    swaps = [r.swap for r in on_fact if r is not None and r.full and r.stance == "other"]
    return (
        any(full_yes(q) for q in on_q)
        and all(s is not None for s in swaps)
        and all(s.modifier and not _a_value(s.gone, s.put, asked) for s in swaps)
    )


def _a_value(gone: str, put: str, asked: frozenset[str]) -> bool:
    """A word in another's place that is a value: a number, the question's word, or a degree put for a
    degree ("a little grey hair" for "a lot more grey hair")."""
    return put.isdigit() or stem(put) in asked or (gone in _DEGREES and put in _DEGREES)


def denies_fact_part(question: str, fact: str, parts: list[str]) -> bool:
    """plus-19: a clause of the bot's own negates a part of the fact the question does not ask about ("i
    love the treadmill , but i'm not a fan of the rowing machine", fact "i like doing the treadmill and
    rowing machine"). Not a light verb ("get"), not across a relative clause ("i'm not one of those who can
    drink too much"), and not when the fact has a negation of its own."""
    if is_negated(words_of(fact)):
        return False
    own = {s for s in content_stems(fact) - content_stems(question) if s not in LIGHT_VERBS}
    for c in parts:
        words = words_of(c)
        if words[:1] != ["i"]:
            continue
        neg = next((k for k, w in enumerate(words) if is_negation(w)), None)
        if neg is None:
            continue
        scope = []
        for w in words[neg + 1 :]:
            if w in _RELATIVE:
                break
            scope.append(w)
        if own & content_stems(" ".join(scope)):
            return True
    return False


def shares_content(question: str, fact: str, parts: list[str]) -> bool:
    return bool(_said_stems(parts) & (content_stems(question) | content_stems(fact)))


def _said_stems(parts: list[str]) -> frozenset[str]:
    """The content stems of a reply's clauses, all together."""
    return frozenset().union(*(content_stems(c) for c in parts))


def member_reading(keys: Keys, fact: str, parts: list[str]) -> Literal["yes", "other"] | None:
    """plus-20: the reply's reading as members of the kind the question asks about (:mod:`.kinds`), from the
    objects of the question's verb in the bot's own unnegated clauses and the content words of all its
    unnegated clauses (a member named anywhere counts: "i have a dog ... she loves my cat")."""
    if keys.verb is None or asked_kind(keys) is None:
        return None  # cheap first: most questions ask about no kind
    objects = [o for c in parts if (o := _object_of(keys.verb, words_of(c))) is not None]
    return kind_reading(keys, fact, objects, _unnegated_stems(parts))


def one_of_many(keys: Keys, question: str, parts: list[str]) -> bool:
    """plus-25: the question asks "more than one" and the reply names fewer than two members of the kind ("i
    play the violin" to "do you play more than one instrument ?"): no member reading."""
    if not MORE_THAN_ONE.search(question.lower()) or (members := asked_kind(keys)) is None:
        return False
    return len(_unnegated_stems(parts) & members) < 2


def generic_member(keys: Keys, fact: str) -> bool:
    """plus-25: the fact names no member of the kind the question asks about ("i also study languages"), so a
    member the reply names ("i'm studying spanish") is no other value than the fact's; where the fact names
    one, another is ("a cat named catie" for "a cat named spook")."""
    members = asked_kind(keys)
    return members is not None and not content_stems(fact) & members


def _unnegated_stems(parts: list[str]) -> frozenset[str]:
    """The content stems of the reply's unnegated clauses: the members it names (plus-20, plus-25)."""
    return frozenset().union(*(content_stems(c) for c in parts if not is_negated(words_of(c))))


def _object_of(verb: str, words: list[str]) -> str | None:
    """The stem of the first content word after ``verb`` in an own, unnegated clause ("i have a dog" ->
    "dog"), past articles, numbers, quantities and adverbs; None where there is none."""
    while words[:1] and words[0] in _OPENERS:
        words = words[1:]
    if words[:1] != ["i"] or is_negated(words):
        return None
    k = next((k for k, w in enumerate(words) if verb_stem(w) == verb), None)
    if k is None:
        return None
    for w in words[k + 1 :]:
        if w in ARTICLES or w in _DEGREES or w.isdigit() or is_adverb(w):
            continue
        return stem(w) if is_content(w) else None
    return None
