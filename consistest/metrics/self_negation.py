"""A reply that contradicts itself without a question (CDConv's ``intra``): a statement and its negation,
or two values of the speaker's age, sex or job.

The answer rules' ``intra`` (:mod:`.answers`) needs a Y/N question whose yes/no word the reply's long part
contradicts. Small chat models also contradict themselves with no question at all, in the same words: "i'm
not a godfather . i'm a godfather ."; "i'm not picky . i'm picky ."; "i'm a big fan of cheesecake , but i'm
not a big fan of cheesecake". ``negates_itself`` reads exactly that: two statements of the reply about the
speaker, with the same content words, one negated and the other not. ``gives_two_values`` reads the other
kind they make: a sentence that gives the speaker's age, sex or job where an earlier sentence of the same
reply gives another ("i'm a nurse . i'm a doctor ."; "i'm 30 years old ! i'm a 32 year old !"), read by
``slot``'s own readings (:mod:`.self_facts`) with the earlier sentences as the statements it checks.

Not read: questions, hedges ("i'm not sure ... i'm sure"; "i know ... i don't know"), statements that
open with anything but the speaker ("you're not ... you are"), and a negation that follows the listener
("i'm glad you're not . i'm glad you're ..." negates the listener's state, not the speaker's). Statements
with other content words are not compared ("i'm not a fan of rap , i'm a fan of rock").

Pure token rules over :mod:`.category_text`'s clauses and topic words, versioned with the answer rules
(``ANSWERS_VERSION``). ``negates_itself`` was designed on rounds 1-9 of ``tests/data/dialogues`` (dev), where
it found 11 of the 50 self-contradictions and flagged none of the 1,934 consistent turns;
``gives_two_values`` on rounds 1-11, where it flagged 8 contradictions (5 of them self-contradictions, the
rest role or history) and none of the 2,621 consistent turns.
"""

from __future__ import annotations

from consistest.metrics.category_text import clauses, topic_words
from consistest.metrics.clean import clean_response, reply_sentences
from consistest.metrics.self_facts import other_value
from consistest.metrics.words import lex
from consistest.metrics.wrong_value_words import HEDGES, negated, words

_SPEAKER = lex("i i'm i've im my")  # a statement about the speaker opens with one of these
_LISTENER = lex("you your you're yours yourself you've you'd you'll")


def _reading(clause: str) -> tuple[frozenset[str], bool] | None:
    """What a statement of the speaker says (its content words) and whether the speaker negates it; None
    for a question, a hedge, a statement about someone else or one without a content word."""
    ws = words(clause)
    if not ws or ws[0] not in _SPEAKER or clause.rstrip().endswith("?") or set(ws) & HEDGES:
        return None
    said = topic_words(clause)
    if not said:
        return None
    upto = next((i for i, w in enumerate(ws) if w in _LISTENER), len(ws))
    return said, negated(ws[:upto])


def negates_itself(reply: str) -> tuple[str, str] | None:
    """The first two clauses of ``reply`` that state the same thing of the speaker, one negated and the
    other not ("i'm not a godfather", "i'm a godfather"); None when there are none."""
    read = [(c, got) for c in clauses(clean_response(reply)) if (got := _reading(c)) is not None]
    for i, (first, (said, negative)) in enumerate(read):
        for second, (said_too, negative_too) in read[i + 1 :]:
            if said == said_too and negative != negative_too:
                return first, second
    return None


def gives_two_values(reply: str) -> tuple[str, str] | None:
    """The first sentence of ``reply`` that gives the speaker's age, sex or job and the earlier sentence of
    it that gives another (``other_value``'s clause and statement); None when there is none."""
    sentences = reply_sentences(clean_response(reply))
    for i, sentence in enumerate(sentences[1:], 1):
        if clash := other_value(sentence, sentences[:i]):
            return clash
    return None
