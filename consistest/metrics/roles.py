"""Role confusion without a fact: a bot turn that speaks the user's part, read against the user's turns only.

Two readings the detectors' answer rules (``--qa-rules``, :mod:`.answers`) apply after any user turn, a
question or not (CDConv's ``role``; the annotation guidelines of ``tests/data/dialogues``):

- ``echoes``: the reply repeats the user's last turn word for word, at least ``ECHO_MIN_WORDS`` words
  ("oh , i have three dogs ." after "i have three dogs .");
- ``claims_user_fact``: a first-person clause of the reply is mostly the words of something the user said
  ("i'm a librarian" after "make a living as a librarian for boston college"), and nothing the bot said or
  was told holds it ("i like all music" is no claim when its persona says "i like all music").

Pure token rules over :mod:`.category_text`'s topic words; their thresholds were chosen on dev dialogues
(the dialogue set's dev split, the synthetic dev split, DECODE ``rct``'s train and dev parts) and are
versioned with the answer rules (``ANSWERS_VERSION``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.metrics.category_text import clauses, topic_words
from consistest.metrics.clean import clean_response
from consistest.metrics.words import lex
from consistest.metrics.wrong_value_words import HEDGES, negated, words

_TOKEN = re.compile(r"[\w']+|[.!?]")
_OPENERS = lex("yes yeah oh well ok okay so and")
# a greeting returned is not role confusion ("hi , how is it going ?")
_GREETING_WORDS = lex("hi hello hey there going doing today mate ya y o u")
ECHO_MIN_WORDS = 4
_FIRST_PERSON = re.compile(
    r"^(?:(?:yes|yeah|oh|well|wow|so|and|but|ok|okay)\W+)*(?:i|i'm|i've|im|my|we|we're)\b"
)
CLAIM_SHARE = 0.6  # share of the reply clause's content words that are the user's
CLAIM_MIN_WORDS = 2  # content words the clause and the user's share, at least
HELD = 0.5  # share of the clause's content words a bot statement holds for it to be the bot's own


def echoes(turn: str, reply: str) -> bool:
    """The reply repeats the other speaker's whole turn word for word (at least ``ECHO_MIN_WORDS`` words,
    two of them content words beyond a greeting's), from the start of one of its sentences or after an
    opener: the speaker takes the other's part."""
    said = _TOKEN.findall(turn.lower().replace("\u2019", "'"))
    while said and said[-1] in ".!?":
        said.pop()
    if sum(w not in ".!?" for w in said) < ECHO_MIN_WORDS or len(topic_words(turn) - _GREETING_WORDS) < 2:
        return False
    got = _TOKEN.findall(reply.lower().replace("\u2019", "'"))
    starts = {0} | {i + 1 for i, t in enumerate(got) if t in ".!?"}
    n = len(said)
    return any(
        got[i : i + n] == said and (i in starts or all(t in _OPENERS for t in got[:i]))
        for i in range(len(got) - n + 1)
    )


def claims_user_fact(reply: str, user_turns: Sequence[str], own: Sequence[str]) -> str | None:
    """The first clause of ``reply`` that claims, as the bot's, what the user said in ``user_turns``: a
    first-person clause, not negated, hedged or asked, whose content words (two at least shared) are
    mostly words of one of the user's statements, and that none of the bot's ``own`` statements (its
    persona and earlier turns) holds; None when there is none."""
    users = [c for t in user_turns for c in clauses(t) if not c.rstrip().endswith("?")]
    mine = [topic_words(c) for t in own for c in clauses(t)]
    for c in clauses(clean_response(reply)):
        text = c.lower().strip()
        ws = words(text)
        if not _FIRST_PERSON.match(text) or text.endswith("?") or negated(ws) or set(ws) & HEDGES:
            continue
        said = topic_words(c)
        if len(said) < CLAIM_MIN_WORDS or any(len(said & m) / len(said) >= HELD for m in mine):
            continue
        for u in users:
            shared = said & topic_words(u)
            if len(shared) >= CLAIM_MIN_WORDS and len(shared) / len(said) >= CLAIM_SHARE:
                return c
    return None
