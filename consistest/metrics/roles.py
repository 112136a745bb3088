"""Role confusion without a fact: a bot turn that speaks the user's part, read against the user's turns only.

Three readings the detectors' answer rules (``--qa-rules``, :mod:`.answers`) apply after any user turn, a
question or not (CDConv's ``role``; the annotation guidelines of ``tests/data/dialogues``):

- ``echoes``: the reply repeats the user's last turn word for word, at least ``ECHO_MIN_WORDS`` words
  ("oh , i have three dogs ." after "i have three dogs .");
- ``copies``: a sentence of the reply takes over one of the user's statements in that turn nearly word for
  word, an opinion or a wish included ("I'd like a poodle." after "Getting a dog sounds like a good idea.
  I'd like a poodle, if I could pick any breed."; "The movies are lame." after "... The movies are lame.");
- ``claims_user_fact``: a clause of the reply says again, adding nothing of its own, something the user
  said of themselves ("i grow roses in my garden too" after "i grow roses in my garden every spring"), and
  nothing the bot said or was told holds it ("i like all music" is no claim when its persona says "i like
  all music"). A claim of one content word counts when that word names something ("i'm a librarian", not
  "i love it"); a claim in other words ("i'm a food bank worker" after "i help out at a food bank") is left
  to an NLI model, to which ``claim_candidates`` hands it (:mod:`consistest.tasks.cdconv.role_nli`).

All three come before the rules that need a question, so a reply that is role-confused and contradicts
itself is ``role``, not ``intra`` as the annotation guidelines' order would have it (the verdict is the same).

Pure token rules over :mod:`.category_text`'s topic words; their thresholds were chosen on dev dialogues
(``echoes`` and ``claims_user_fact``: the dialogue set's dev split, the synthetic dev split, DECODE
``rct``'s train and dev parts; ``copies``: rounds 1-9 of the dialogue set, all dev by then) and are
versioned with the answer rules (``ANSWERS_VERSION``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from consistest.metrics.category_text import clauses, stem, topic_words
from consistest.metrics.clean import clean_response, reply_sentences
from consistest.metrics.words import lex
from consistest.metrics.wrong_value_words import FIRST_PERSON, HEDGES, LISTENER, negated, words

_TOKEN = re.compile(r"[\w']+|[.!?]")
_OPENERS = lex("yes yeah oh well ok okay so and")
# a greeting returned is not role confusion ("hi , how is it going ?", "nice to meet you , my friend")
_GREETING_WORDS = lex(
    "hi hello hey there going doing today mate ya y o u good morning evening afternoon night nice meet "
    "friend fine great thanks thank how"
)
# wishes and leave-taking are nobody's fact to take over ("have a nice day too", "merry christmas")
_FORMULA_WORDS = lex(
    "day luck care soon talk talking christmas merry happy new year bye goodbye later weekend"
)
# reactions are nobody's fact to take over ("i'm sorry to hear that", "i know how you feel")
_REACTIONS = frozenset(
    stem(w) for w in lex("sorry glad hear heard know feel mean hope believe understand agree")
)
# not knowing or not being sure, with at most what about: no fact to take over ("i don't know much about
# cars", "i'm not sure if it helps"; not "i don't know how to swim")
_UNSURE = re.compile(
    r"^(?:(?:oh|well|yeah|hmm|um|honestly|to be honest|really)\W+)*"
    r"(?:i(?:'m| am) not (?:really |too |quite |so )?sure|"
    r"i (?:really )?(?:do not|don'?t|do n't) (?:really )?know)"
    r"\W*(?:(?:about|if|whether|what|why|much|anything|that|this|it|either|too|yet)\b.*)?$"
)
_SINGULAR = lex("i i'm im i've i'd i'll my me mine myself")  # the user's own, not "we", "our"
# an agreement that makes what the user said the bot's own too ("me too !", "same here", "so do i")
_AGREES = re.compile(
    r"^\W*(?:(?:yes|yeah|oh|wow|ugh|ha|haha|lol|omg|totally|no way)\W+)*"
    r"(?:me too|me neither|same(?: here| with me| for me)?|so (?:do|am|have|did) i|neither (?:do|am|have) i|"
    r"i agree|i do too|i am too|i'm too|mine too|so true|ditto|i know\W+right)\b"
)
# opinions and hearsay state no fact of the speaker's ("i think the weather is great", "i heard you run")
_NO_CLAIM = HEDGES | lex("think thought heard hear seem seems i'd id")
ECHO_MIN_WORDS = 4
_I = r"i|i'm|i've|im"  # the speaker's "i", as a clause may open with it
_SELF = re.compile(
    rf"^(?:(?:yes|yeah|oh|well|wow|so|and|but|ok|okay)\W+)*(?:(?P<i>{_I})\b|my\s+(?P<what>[\w']+))"
)
_ADDS = lex("too also well really so very lot much still")  # what a claim may add: "i have a dog too"
# how one is doing is no fact to claim ("i'm doing great , thanks" after "i'm doing great , you ?")
_STATE_STEMS = frozenset(stem(w) for w in _GREETING_WORDS | lex("well ok okay alright tired busy"))
CLAIM_MIN_WORDS = 2  # content words of the reply clause, all of them the user's (one if it names something)
COPY_MIN_RUN = 3  # words in a row a copied sentence shares with the user's statement ...
COPY_RUN_SHARE = 0.4  # ... and at least this share of the sentence's words
COPY_SHARE = 0.6  # share of the copied sentence's content words that the user's turn has
HELD = 0.5  # share of the clause's content words a bot statement holds for it to be the bot's own


def _held(said: frozenset[str], own: Sequence[str]) -> bool:
    """One of the bot's own statements holds most of these content words (two of them at least, when
    there are two: "three" alone does not make "i have three sisters" hold "i have three dogs")."""
    need = min(2, len(said))
    for c in (c for t in own for c in clauses(t)):
        shared = said & topic_words(c)
        if len(shared) >= need and len(shared) / len(said) >= HELD:
            return True
    return False


def _tokens(text: str) -> list[str]:
    """Lowercase words and sentence ends, curly apostrophes straightened."""
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


def echoes(turn: str, reply: str, own: Sequence[str] = ()) -> bool:
    """The reply repeats the other speaker's whole turn word for word (at least ``ECHO_MIN_WORDS`` words,
    two of them content words beyond a greeting's), from the start of one of its sentences or after an
    opener, and the turn said something of the user's own or asked (not an opinion: "cats are better than
    dogs"), is not quoted to ask it back ("... dogs ? i disagree"), and is nothing the bot's ``own``
    statements hold: the speaker takes the other's part."""
    said = _tokens(turn)
    while said and said[-1] in ".!?":
        said.pop()
    content = topic_words(turn) - _GREETING_WORDS
    if sum(w not in ".!?" for w in said) < ECHO_MIN_WORDS or len(content) < 2 or _held(content, own):
        return False
    asked = turn.rstrip().endswith("?")
    if not set(said) & FIRST_PERSON and not asked:
        return False
    got = _tokens(reply)
    starts = {0} | {i + 1 for i, t in enumerate(got) if t in ".!?"}
    n = len(said)
    return any(
        got[i : i + n] == said
        and (i in starts or all(t in _OPENERS for t in got[:i]))
        and (asked or got[i + n : i + n + 1] != ["?"])
        for i in range(len(got) - n + 1)
    )


def _run(a: Sequence[str], b: Sequence[str]) -> int:
    """The length of the longest run of words ``a`` and ``b`` share."""
    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match().size


def _spans(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """The words of ``a`` and of ``b`` from the first to the last that they share (in order)."""
    blocks = [m for m in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks() if m.size]
    if not blocks:
        return [], []
    first, last = blocks[0], blocks[-1]
    return a[first.a : last.a + last.size], b[first.b : last.b + last.size]


def _persons(ws: Sequence[str]) -> tuple[bool, bool]:
    """Whether words speak of the speaker ("i", "my", ...) and whether of the listener ("you", ...)."""
    return bool(set(ws) & FIRST_PERSON), bool(set(ws) & LISTENER)


def agreed(history: Sequence[str]) -> list[str]:
    """The user's turns of ``history`` (the turns before the reply, the user's last) that the bot agreed with
    in its next turn ("me too !", "same here", "so do i"): the bot holds them as its own statements."""
    return [history[j - 1] for j in range(len(history) - 2, 0, -2) if _AGREES.match(history[j].lower())]


def copies_user(user_turns: Sequence[str], reply: str, own: Sequence[str] = ()) -> bool:
    """``copies`` against the user's last turn (the first of ``user_turns``), and against what the user said
    of themselves in earlier ones (their sentences with "i", "my", "me"): an earlier remark, saying or plan
    of "we" is nobody's own to take over."""
    last, *earlier = user_turns
    return copies(last, reply, own) or any(copies(t, reply, own, only_self=True) for t in earlier)


def copies(turn: str, reply: str, own: Sequence[str] = (), only_self: bool = False) -> bool:
    """A sentence of the reply, not a question, takes over a statement of the user's ``turn`` (its sentences
    that ask nothing) nearly word for word: of its content words beyond a greeting's or a wish's, two at
    least and ``COPY_SHARE`` of them are the turn's; it shares ``COPY_MIN_RUN`` words in a row, and
    ``COPY_RUN_SHARE`` of its words, with the statement it shares most with, which it neither negates (in
    the words between the first and the last they share: "the movies are not lame .") nor turns to another
    person ("so you got back from japan ." after "i got back from japan ."; "i love hiking ." after "you
    love hiking ."); it is no reaction ("i'm sorry to hear that"), nor not knowing or not being sure
    (``_UNSURE``), and none of the bot's ``own`` statements holds it. Unlike ``echoes``, part of a turn, an
    opinion ("the movies are lame .") or a wish ("i'd like a poodle ."); with ``only_self``, only the turn's
    sentences with "i", "my", "me"."""
    stated = [s for s in reply_sentences(turn) if not s.endswith("?")]
    if only_self:
        stated = [s for s in stated if set(_tokens(s)) & _SINGULAR]
    theirs = topic_words(" ".join(stated))
    runs = [[w for w in _tokens(s) if w not in ".!?"] for s in stated]
    for sentence in reply_sentences(reply) if stated else ():
        got = [w for w in _tokens(sentence) if w not in ".!?"]
        said = topic_words(sentence) - _GREETING_WORDS - _FORMULA_WORDS - _REACTIONS
        if sentence.endswith("?") or len(said) < 2 or len(said & theirs) < COPY_SHARE * len(said):
            continue
        if _UNSURE.match(sentence.lower().strip()) or not _names_something(said):
            continue
        lengths = [_run(u, got) for u in runs]
        run = max(lengths)
        source = runs[lengths.index(run)]
        theirs_part, mine_part = _spans(source, got)  # "... , but i'm not sure" outside them negates nothing
        same = negated(tuple(theirs_part)) == negated(tuple(mine_part)) and _persons(source) == _persons(got)
        if same and run >= COPY_MIN_RUN and run >= COPY_RUN_SHARE * len(got) and not _held(said, own):
            return True
    return False


def _opener(clause: str) -> str | None:
    """Whose fact a clause states by its opening, after fillers: "i" (i, i'm, i've), "my <word>" (my favorite
    ..., my job ...), or None (we, my brother's, anything else)."""
    m = _SELF.match(clause.lower().strip())
    if m is None:
        return None
    return "i" if m["i"] else f"my {m['what']}"


def _says_of_self(clause: str) -> bool:
    """A clause that states something of the speaker's own: it opens with "i" or "my <word>", and is not
    asked, negated, hedged, an opinion or about the listener."""
    ws = words(clause.lower())
    return (
        _opener(clause) is not None
        and not clause.rstrip().endswith("?")
        and not negated(ws)
        and not set(ws) & (_NO_CLAIM | LISTENER)
    )


def claims_user_fact(reply: str, user_turns: Sequence[str], own: Sequence[str]) -> str | None:
    """The first clause of ``reply`` that claims, as the bot's, what the user said of themselves in
    ``user_turns``: it opens as one of the user's affirmative statements does ("i ...", or "my" and the same
    word: "my favorite band ..."), is not negated, hedged, asked, an opinion or about the listener ("i love
    that you volunteer"), says nothing beyond that statement (two content words at least, or one that names
    something, all of them the user's but for "too", "also" ...: "my favorite band is queen" gives its own
    value after "my favorite band is the beatles"), and none of the bot's ``own`` statements (its persona
    and earlier turns) holds it; None when there is none."""
    users = [
        (c, _opener(c)) for t in user_turns for c in clauses(t)
        if not c.rstrip().endswith("?") and not negated(words(c))
    ]  # fmt: skip
    for c in clauses(clean_response(reply)):
        if not _says_of_self(c):
            continue
        who, said = _opener(c), topic_words(c) - _ADDS - _STATE_STEMS
        if (len(said) < CLAIM_MIN_WORDS and not _names_something(said, one=True)) or _held(said, own):
            continue
        if any(who == theirs and said <= topic_words(u) for u, theirs in users):
            return c
    return None


_ASK_BACK = re.compile(r"\s*[,.!]?\s*(?:(?:and|what|how)\s+about\s+you|and\s+you|you)\s*\?\s*$")
_FIRST_PERSON = re.compile(rf"\b(?:{_I})\b")
# what may come before the user's "i ..." in one clause: not a condition or time ("when i am free ...",
# "after i retire"), an opinion, hearsay or hedge ("she thinks i am ...", "maybe i am ..."), a question
# without its "?" ("can i have a dog"), or the listener ("you must be ... i ...")
_NO_LEAD = lex(
    "if when whenever because though although unless until till than whether after before once as while "
    "since where think thinks thought say says said tell tells told believe believes claim claims hope wish "
    "bet guess hear hears heard know knows knew wonder want wants wanted would could should might maybe "
    "perhaps probably possibly hopefully someday next can am do does did will shall may must why how what "
    "who which"
)
# what a claim must say beyond liking, having or being glad: "i love it", "i have 10" name nothing
_NAMES_NOTHING = frozenset(
    stem(w)
    for w in lex(
        "love like enjoy have here there only one thing stuff lot way time now today glad happy sure know "
        "want go get got do did fan big huge them this that these those all few many ton lots some much more "
        "any lol haha gonna"
    )
)


_ACKNOWLEDGE = frozenset(
    stem(w) for w in lex("agree see understand kid kidding joke joking sorry thank thanks welcome sure right")
)


def _user_statement(clause: str) -> str | None:
    """The part of a user's clause that states something of the user's own: the clause, or what follows a
    short lead-in before its "i" ("no i love to travel", "except i am in a detention center", "that is
    great i am expecting twins"); None for a question, a negated clause, or a lead-in that makes it a
    condition, an opinion, hearsay, a hedge or a question without its "?"."""
    if _says_of_self(clause):
        return clause
    m = _FIRST_PERSON.search(clause.lower())
    if m is None or m.start() == 0:
        return None
    lead = words(clause[: m.start()].lower())  # "no" or "not me" before it answers; it negates nothing after
    if len(lead) > 4 or set(lead) & (_NO_LEAD | LISTENER):
        return None
    rest = clause[m.start() :]
    return rest if _says_of_self(rest) else None


def _names_something(said: frozenset[str], one: bool = False) -> bool:
    """Whether content words name something a claim could take over: not only liking, having, being glad
    ("i love it", "i have 10"), nor, as the ``one`` word of a claim, an acknowledgement ("i agree", "i see",
    "i'm sorry")."""
    nothing = _NAMES_NOTHING | _ACKNOWLEDGE if one else _NAMES_NOTHING
    return any(w not in nothing and not w.isdigit() for w in said)


def claim_candidates(
    reply: str, user_turns: Sequence[str], own: Sequence[str]
) -> tuple[list[str], list[str], list[str]]:
    """What an NLI model reads to find a claim in other words (``user_turns``: a list of turns, not one):
    the reply's clauses that state something of the bot's own and name something ("i love it" does not),
    the user's turns' clauses that state something of the user's own (``_user_statement``; a trailing "you
    ?" that asks it back dropped: "i like to read , what about you ?"), and the bot's own statements'
    clauses (its persona and earlier turns; not its questions). A reply clause whose words the bot's own
    statements hold ("i'm from ohio as well" with "i live in ohio") or that says how the bot is doing ("i'm
    good too") is no candidate."""
    if isinstance(user_turns, str):
        raise TypeError("user_turns is a list of turns")
    mine = [
        c for c in clauses(clean_response(reply))
        if _says_of_self(c) and _names_something(said := topic_words(c) - _ADDS - _STATE_STEMS)
        and not _held(said, own)
    ]  # fmt: skip
    theirs = [s for t in user_turns for c in clauses(_ASK_BACK.sub(" .", t)) if (s := _user_statement(c))]
    held = [c for t in own for c in clauses(t) if not c.rstrip().endswith("?")]
    return mine, theirs, held
