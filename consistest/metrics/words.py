"""Word lists of the plus rules (versioned with ``PLUS_VERSION``): function words, negations, evasive replies.

Kept apart from :mod:`consistest.metrics.plus` so that the proposition rules and the plus rules share them.
"""

from __future__ import annotations

import re


def lex(words: str) -> frozenset[str]:
    """A lexicon written as one space-separated string."""
    return frozenset(words.split())


# Function words: never keywords of a truth, never the evidence that a reply restates something.
FUNCTION_WORDS = lex(
    "i me my mine myself you your yours he him his she her hers it its we us our they them their this that "
    "these those in on at to of for with about from by into onto over under around near up down out off "
    "a an the some any all each every much many lot lots is am are was were be been being do does did have "
    "has had will would can could should just very really so too also then than there here but because "
    "though since if when while as like yet"
)
# Question words: never a value ("do you know how to say ...").
WH_WORDS = lex("what who whom whose which where when why how")
# What content_tokens leaves of contractions ("i've" -> "i", "ve") and words that carry no value.
CLITICS = lex("m s re ve ll d t nt im ive")
# Nouns that name no value: a word in their place is not another value ("the day" for "time") ...
GENERIC = lex("time times thing things stuff way kind sort bit lot place something everything")
# ... and words that stand for a value without naming another ("a small one" -> "onepron").
PRONOUNS = lex("onepron something everything anything stuff thing things it them")
NEGATIONS = lex("not n't never no zero 0 don't can't cannot won't isn't aren't wasn't didn't doesn't")
NEGATIVE_VERBS = lex("hate hates hated dislike dislikes disliked")
# Evasive or non-committal replies: the reply answers nothing (the guidelines: 0). Matched as whole
# clauses or clause openings, after cleaning and lowercasing.
EVASIVE = re.compile(
    r"^(?:(?:oh|well|hmm|um|lol|haha)\W+)*(?:i'?m not (?:really )?sure|i am not sure|not sure|"
    r"i (?:do not|don'?t) (?:really )?know|idk|no idea|i have no idea|i (?:can'?t|cannot|don'?t) remember|"
    r"hard to say|it depends|(?:that'?s|that is|what) a (?:good|great|tough|personal|interesting) question|"
    r"i'?d rather not|i would rather not|i'?m not sure what|what do you mean)\b"
)
# Persona-breaking self-descriptions (the guidelines: 0).
OUT_OF_PERSONA = re.compile(
    r"\b(?:as an ai|i'?m an ai|i am an ai|since i'?m an ai|as a language model|ai language model|"
    r"i'?m (?:just )?a (?:chat)?bot|i am (?:just )?a (?:chat)?bot|as a (?:chat)?bot)\b",
    re.IGNORECASE,
)


def is_negation(word: str) -> bool:
    """``not``, ``never``, ``no``, any ``-n't`` contraction, or a verb of dislike ("hate")."""
    return word in NEGATIONS or word.endswith("n't") or word in NEGATIVE_VERBS


def evasive(clause: str) -> bool:
    """The clause commits to nothing: "i'm not sure", "i don't know , i like music", "good question"."""
    return bool(EVASIVE.match(clause.strip().lower().replace("\u2019", "'")))
