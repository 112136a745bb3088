"""Whose value a WH reply gives (plus-21, the ``holder`` rule): a question that asks it of someone else
("where is your spouse from ?", "what is your cow's name ?") answered with the bot's own ("i'm from italy",
"my name is betsy") recalls the truth but gives it to the wrong holder; the annotators give such replies 0.5
or 0, so ``plus`` gives at most 0.5. Pure token rules, versioned with ``PLUS_VERSION``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.metrics.propositions import clauses, lex, words_of
from consistest.metrics.rules import content_tokens

# who a question may ask about besides the bot: its people and animals
HOLDERS = lex(
    "father mother dad mom mum parents spouse wife husband partner brother sister sibling son daughter kid "
    "kids child children friend friends boyfriend girlfriend grandmother grandfather grandma grandpa "
    "grandson granddaughter neighbor neighbour uncle aunt cousin boss dog cat cow horse pet"
)
_ASKED_OF = re.compile(r"\b(?:is|are|was|were|does|do|did)\s+(?:your|ur)\s+(?P<who>[a-z]+)(?:'s)?\b")
# what names the holder in a reply clause instead of the bot
_THIRD = lex("he she they his her him their them it its")
_OPENERS = lex("oh well yes yeah no so and but um hmm")
# "i have a black lab named trooper": the bot's own holder, named another way, not the bot itself
_HAVING = lex("have had has got own owned")


def asked_of(question: str) -> str | None:
    """The holder a WH question asks about when it is not the bot ("what color is your dog ?" -> "dog");
    None for a question about the bot ("when did you break up with your boyfriend ?"), also where the
    holder acts on it ("what skills did your parents teach you ?")."""
    q = question.lower()
    m = _ASKED_OF.search(q)
    if m is None or m["who"] not in HOLDERS or re.search(r"\byou\b", q[m.end() :]):
        return None
    return m["who"]


def gives_own(question: str, cleaned: str, truth_words: Sequence[str]) -> bool:
    """The reply's first clause holding a word of the truth says it of the bot ("i'm from italy", "my name is
    betsy") where the question asks it of a holder, and names neither the holder nor a third person; not
    what the bot has ("i have a black lab named trooper" to "what color is your dog ?")."""
    who = asked_of(question)
    if who is None:
        return False
    for clause in clauses(cleaned):
        if not set(truth_words) & set(content_tokens(clause)):
            continue
        words = words_of(clause)
        while words[:1] and words[0] in _OPENERS:
            words = words[1:]
        own = (words[:1] == ["i"] and not set(words[1:3]) & _HAVING) or words[:3] == ["my", "name", "is"]
        return own and who not in words and not set(words) & _THIRD
    return False
