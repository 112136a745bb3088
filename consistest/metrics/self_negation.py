"""A reply that contradicts itself without a question (CDConv's ``intra``): a statement and its negation,
or two values of the speaker's age, sex or job.

The answer rules' ``intra`` (:mod:`.answers`) needs a Y/N question whose yes/no word the reply's long part
contradicts. Small chat models also contradict themselves with no question at all, in the same words: "i'm
not a godfather . i'm a godfather ."; "i don't have a dog . i have a dog ."; "i'm a big fan of cheesecake ,
but i'm not a big fan of cheesecake". ``negates_itself`` reads exactly that: two statements of the reply
about the speaker that say the same words in the same order once the negation is taken out (and the "do"
that carries it, and fillers such as "really" or "just"), one negated and the other not. ``gives_two_values``
reads the other kind they make: a sentence that gives the speaker's age, sex or job where an earlier
sentence of the same reply gives another ("i'm a nurse . i'm a doctor ."; "i'm 30 years old ! i'm a 32 year
old !"), read by ``slot``'s own readings (:mod:`.self_facts`) with the earlier sentences as the statements it
checks.

Liking and hating are read as one verb said and negated (``plus-16``): "i hate school but i love it so
much" contradicts itself, an "it" liked right after a statement of liking being what that statement likes;
a negated dislike ("i don't hate school") says no liking. ``contradicts_itself`` is what ``--method plus``
reads as a Y/N reply that contradicts itself: ``negates_itself``, or ``gives_two_values`` for two ages or
sexes (not two jobs, which one person may hold).

Not read: questions, hedges ("i'm not sure ... i'm sure"; "i know ... i don't know"), statements that
open with anything but the speaker ("you're not ... you are"), a negation that follows the listener ("i'm
glad you're not . i'm glad you're ..." negates the listener's state, not the speaker's), "not just" and "not
only" (which negate nothing), statements in another tense or order ("i'm not married . i was married";
"my dog is not afraid of my cat . my cat is afraid of my dog") or with words of their own ("i'm not working
. i'm working on it"), and a second job said as an addition or a side job ("i'm a lawyer . i'm an author
too ."; "i'm a nurse . i'm a part time bartender .").

Pure token rules, versioned with the answer rules (``ANSWERS_VERSION``). ``negates_itself`` was designed on
rounds 1-9 of ``tests/data/dialogues`` (dev) and ``gives_two_values`` on rounds 1-11, and both revised on
rounds 1-12 after a review's examples (``qa:17``).
"""

from __future__ import annotations

import re

from consistest.metrics.category_text import clauses, topic_words
from consistest.metrics.clean import clean_response, reply_sentences
from consistest.metrics.self_facts import other_value
from consistest.metrics.words import lex
from consistest.metrics.wrong_value_words import DISLIKE, HEDGES, LIKE, LISTENER, words

_SPEAKER = lex("i i'm i've im my")  # a statement about the speaker opens with one of these
_NEGATORS = lex("not no never")  # and any word ending in "n't"
# what a negated contraction or the speaker's contraction says without its negation
_EXPAND = {
    "i'm": ("i", "am"), "im": ("i", "am"), "i've": ("i", "have"), "isn't": ("is",), "aren't": ("are",),
    "wasn't": ("was",), "weren't": ("were",), "haven't": ("have",), "hasn't": ("has",), "can't": ("can",),
    "cannot": ("can",), "won't": ("will",), "wouldn't": ("would",), "couldn't": ("could",),
}  # fmt: skip
_DO = lex("do does did don't doesn't didn't")  # "i don't have" says "i have" once "not" is out
_FILLERS = lex("really just actually truly so very too also even still quite")
# a second job said as an addition or a side job is no other value ("i'm an author too")
_SIDE_JOB = re.compile(
    r"\b(?:too|also|as well|besides|plus|volunteer|part[- ]time|freelance|side|weekends?|nights?|hobby)\b"
)


Reading = tuple[tuple[str, ...], bool]  # a statement's words without negation, and whether it is negated


def _reading(clause: str) -> Reading | None:
    """What a statement of the speaker says, as its words without negation, "do" or fillers, and whether the
    speaker negates it; None for a question, a hedge, a statement about someone else or one without a
    content word."""
    ws = words(clause)
    if not ws or ws[0] not in _SPEAKER or clause.rstrip().endswith("?") or set(ws) & HEDGES:
        return None
    if not topic_words(clause):
        return None
    upto = next((i for i, w in enumerate(ws) if w in LISTENER), len(ws))
    said: list[str] = []
    negative = False
    for i, w in enumerate(ws):
        neg = w in _NEGATORS or w.endswith("n't")
        if neg and ws[i + 1 : i + 2] in (("just",), ("only",)):
            neg = False  # "not just a nurse" says "a nurse"
        negative |= neg and i < upto
        if w in _DO or w in _FILLERS or (neg and w not in _EXPAND):
            continue
        said += _EXPAND.get(w, (w,))
    return tuple(said), negative


def _liking(said: tuple[str, ...], negative: bool) -> Reading | None:
    """A statement of liking read as one verb: "i hate school" says "i <like> school" negated, "i love it so
    much" "i <like> it"; None without a like-verb, or for a negated dislike ("i don't hate school" is no
    "i like school")."""
    verbs = [w for w in said if w in LIKE or w in DISLIKE]
    hated = any(w in DISLIKE for w in verbs)
    if not verbs or (hated and negative):
        return None
    out = ["<like>" if w in verbs else w for w in said]
    while out[-1] in ("much", "lot", "a"):  # "i love it so much", "i hate it a lot"
        out.pop()
    return tuple(out), negative or hated


def _likings(read: list[tuple[str, Reading]]) -> list[tuple[str, Reading]]:
    """The statements of liking among ``read``, an "it" liked right after a statement of liking read as what
    that statement likes ("i hate school but i love it")."""
    out: list[tuple[str, Reading]] = []
    previous = None
    for clause, got in read:
        liked = _liking(*got)
        if liked and liked[0][-1:] == ("it",) and out and out[-1][0] == previous:
            before = out[-1][1][0]
            liked = (liked[0][:-1] + before[before.index("<like>") + 1 :], liked[1])
        if liked:
            out.append((clause, liked))
        previous = clause
    return out


def negates_itself(reply: str) -> tuple[str, str] | None:
    """The first two clauses of ``reply`` that state the same thing of the speaker, one negated and the
    other not ("i'm not a godfather", "i'm a godfather"; plus-16: "i hate school but i love it"); None when
    there are none."""
    read = [(c, got) for c in clauses(clean_response(reply)) if (got := _reading(c)) is not None]
    return _clash(read) or _clash(_likings(read))


def _clash(read: list[tuple[str, Reading]]) -> tuple[str, str] | None:
    """The first two of ``read`` that say the same words, one negated and the other not."""
    for i, (first, (said, negative)) in enumerate(read):
        for second, (said_too, negative_too) in read[i + 1 :]:
            if said == said_too and negative != negative_too:
                return first, second
    return None


def gives_two_values(reply: str, jobs_too: bool = True) -> tuple[str, str] | None:
    """The first sentence of ``reply`` that gives the speaker's age, sex or job and the earlier sentence of
    it that gives another (``other_value``'s clause and statement; ages and sexes only with ``jobs_too``
    False), but for a job said as an addition or a side job; None when there is none."""
    sentences = reply_sentences(clean_response(reply))
    for i, sentence in enumerate(sentences[1:], 1):
        clash = other_value(sentence, sentences[:i], jobs_too)
        if clash and not _SIDE_JOB.search(sentence.lower()):
            return clash
    return None


def contradicts_itself(reply: str) -> tuple[str, str] | None:
    """The two parts of ``reply`` that contradict each other: a statement and its negation
    (:func:`negates_itself`), else two ages or sexes of the speaker (:func:`gives_two_values`), but not
    two jobs, which one person may hold ("i'm a custodian . i'm a musician"); plus-18 reads an age or sex
    clash after a job clash too."""
    if found := negates_itself(reply):
        return found
    return gives_two_values(reply, jobs_too=False)
