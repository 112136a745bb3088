"""Kinds and the members that name them (plus-20): "i have a dog" answers "do you have any pets ?". A member
is read for its kind, but a member the fact does not name, while it names another, is another value: the
annotators give 0 to "i have a cat" when the bot has dogs. Versioned data, with ``PLUS_VERSION``."""

from __future__ import annotations

from typing import Literal

from consistest.metrics.propositions import Keys, content_stems, lex, stem, words_of

# each kind's words (any of them asks for the kind) and its members
_KINDS = (
    ("pet pets animal animals",
     "dog puppy puppies cat kitten fish goldfish bird parrot hamster turtle tortoise rabbit bunny bunnies "
     "horse pony ponies ferret snake lizard gecko"),
    ("sibling siblings", "brother sister"),
    ("kid kids child children", "son daughter"),
    # plus-25
    ("grandchild grandchildren grandkid grandkids", "granddaughter grandson"),
    ("language languages",
     "english spanish french german italian portuguese russian chinese mandarin japanese korean arabic hindi "
     "latin greek dutch swedish hebrew"),
    ("instrument instruments",
     "piano guitar violin cello drum drums flute trumpet saxophone sax bass ukulele harp clarinet "
     "banjo keyboard"),
)  # fmt: skip
KINDS: dict[str, frozenset[str]] = {
    stem(k): frozenset(stem(m) for m in lex(members)) for kinds, members in _KINDS for k in lex(kinds)
}


def asked_kind(keys: Keys) -> frozenset[str] | None:
    """The members of the kind a question's one value word names ("do you have any pets ?"), or None."""
    return KINDS.get(keys.value[0]) if len(keys.value) == 1 else None


def kind_reading(
    keys: Keys, fact: str, objects: list[str], said: frozenset[str]
) -> Literal["yes", "other"] | None:
    """``yes`` when an object of the bot's own clauses with the question's verb names a member of the kind the
    question asks about ("i have a dog" to "do you have pets ?"), and the fact names no member or the same;
    ``other`` when the reply (its content stems, ``said``) names none of the fact's members ("i have a dog",
    fact "i have a pet turtle"), or one more while the fact counts those it names, so names all there are ("i
    have a dog and a cat", fact "i have two dogs"; not "my brother is older than me"); None otherwise."""
    members = asked_kind(keys)
    if members is None or not any(o in members for o in objects):
        return None
    named = content_stems(fact) & members
    if not named:
        return "yes"
    told = said & members
    if not told & named:
        return "other"  # "i have a dog" for the fact "i have a pet turtle"
    counted = any(w.isdigit() for w in words_of(fact))  # "two cats", "one brother": all there are
    return "other" if counted and told - named else "yes"
