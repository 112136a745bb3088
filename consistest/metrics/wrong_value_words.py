"""The words the wrong-value rules read (:mod:`consistest.metrics.wrong_values`): word lists and
how a reply's words become comparable keys (stems; like/love/enjoy one key; ordinals as numbers). Versioned
with ``CATEGORIES_VERSION`` (categories.py)."""

from __future__ import annotations

import re
from functools import lru_cache

from consistest.metrics.category_text import QUESTION_WORDS, stem
from consistest.metrics.numbers import ORDINAL_WORDS, normalize_numbers
from consistest.metrics.rules import _fold, keyword_alternatives


def _lex(text: str) -> frozenset[str]:
    """A word list written as one space-separated string."""
    return frozenset(text.split())


_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Words that are never a value or an anchor (beyond the question words of ``category_text``).
FUNCTION = _lex(
    "from about by into onto than then there here this these those they them their he she his her him we "
    "us our was get got lot lots bit much many more most other same thing things stuff kind sort type "
    "one ones kinds out up down off over back away pretty kinda quite usually mostly often sometimes "
    "different several various few all every any multiple certain recently lately currently now soon "
    "again already still anymore favorite favourite"
)
# Openers and reactions that are no value ("well , ...", "sounds fun").
NOT_VALUES = _lex(
    "hello hi hey thanks thank sorry wow cool great nice awesome sure yeah yep yup yes no nope absolutely "
    "definitely totally course haha lol hmm um uh oh ah ok okay well sounds good fun true right exactly "
    "indeed probably maybe perhaps honestly actually own yummy yum"
)
ARTICLES = _lex("a an the my his her their our your some this that its")
# Prepositions by meaning (the class a gap word must share with the fact's).
PREPOSITIONS = {w: c for c, ws in (("at", "in at on near around inside outside"), ("to", "to into onto"),
    ("for", "for"), ("from", "from"), ("with", "with"), ("of", "of"), ("as", "as"), ("by", "by"))
    for w in ws.split()}  # fmt: skip
BE = _lex("is am are was were be been being")
NEGATIONS = _lex("not never no none nothing nobody neither nor cannot without zero 0")
FIRST_PERSON = _lex("i i'm i've i'd i'll my me mine myself we we're we've our us")
LISTENER = _lex("you your you're yours yourself you've you'd you'll")
SUBJECTS = _lex("i i'm i've i'd i'll we we're we've")
# A clause with one of these states no fact ("i wish i owned a yacht", "not sure i do").
HEDGES = _lex(
    "wish would want wanna hope if maybe might someday dream could should hopefully plan planning used "
    "sure know remember guess suppose"
)
LIKE = frozenset({"like", "love", "enjoy", "adore", "likes", "loves", "enjoys", "liked", "loved"})
DISLIKE = frozenset({"hate", "dislike", "detest", "loathe", "hates", "dislikes", "hated"})
_LIKE = "<like>"  # one key for the like-verbs: "i love nature" restates "do you like nature ?"
ORDINALS = {w: str(i) for i, w in enumerate(ORDINAL_WORDS[:11])}  # "zeroth" to "tenth"
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
PRONOUN_SUBJECTS = _lex("you your it it's he she he's she's they they're we're that's there's you're")
# Auxiliaries and common verbs: a segment with one is a clause, not a bare value ("rob can really shred").
VERBS = _lex(
    "am is are was were be been have has had do does did can could will would should may might must shall "
    "feel feels felt get gets go goes went come came make made take took think know want need say says said "
    "tell tells told"
)
MAX_GAP = 3  # words between an anchor and the value
MAX_VALUE = 3  # words of a value read back from its anchor
# Adverbs that may sit anywhere in a frame's gap ("my favorite band is probably ...").
GAP_ADVERBS = _lex("probably really actually definitely just currently now also still always usually mostly")
MAX_SHORT = 6  # words of a bare WH value


# The values of closed types a WH question may ask for (``typed_value``): colours (not "gold" or "silver",
# most often a medal or a metal: "i'm a gold medalist").
COLOURS = _lex(
    "red blue green yellow orange purple pink black white grey gray brown navy teal violet "
    "beige maroon turquoise lavender magenta crimson"
)
# cat:18: what may follow "named" but is no name ("named after my grandpa"); a colour spelled two ways.
NOT_A_NAME = _lex("after for by the a an in on at from with and so")
SPELLING = {"gray": "grey"}
# cat:5: what may fill a question's own frame ("i follow T" for "what religion do you follow ?"): never a
# place or manner adverb ("i drive carefully", "i play outside").
NOT_A_VALUE = _lex("outside inside here there hard abroad alone together lot lots much more well fast")
# Past forms for "what did you VP ?" -> "i VPed T" where -ed is wrong.
IRREGULAR_PAST = dict(
    pair.split(":")
    for pair in _lex(
        "be:was have:had do:did go:went get:got make:made take:took see:saw say:said eat:ate buy:bought "
        "drive:drove ride:rode write:wrote read:read teach:taught grow:grew leave:left meet:met find:found "
        "win:won lose:lost keep:kept sell:sold tell:told think:thought bring:brought sing:sang fly:flew "
        "choose:chose begin:began give:gave wear:wore build:built feel:felt spend:spent"
    )
)


@lru_cache(maxsize=1 << 15)
def words(text: str) -> tuple[str, ...]:
    """Lowercase words (numbers as digits, contractions kept whole: "don't", "i'm", "dog's")."""
    return tuple(_TOKEN.findall(normalize_numbers(str(text).replace("\u2019", "'").lower())))


def key(word: str, strict: bool = True) -> str:
    """The stem a content word is compared by ("" for function words, pronouns and contractions; a
    possessive counts as its noun: "dog's" -> "dog"); like/love/enjoy share one key. ``strict=False``
    keeps the reactions and adjectives that are no value ("good" in "are you a good cook ?")."""
    if "'" in word:
        base, _, suffix = word.partition("'")
        if suffix != "s" or base in ("it", "that", "he", "she", "what", "there", "here", "who", "let"):
            return ""
        word = base
    if word in LIKE:
        return _LIKE
    if word in ORDINALS or _ORDINAL.match(word):
        return ORDINALS.get(word) or _ORDINAL.match(word)[1]  # type: ignore[index]
    if word in QUESTION_WORDS or word in FUNCTION or word in NEGATIONS or (strict and word in NOT_VALUES):
        return ""
    return stem(_fold(word))


def keys(text: str) -> frozenset[str]:
    return frozenset(k for w in words(text) if (k := key(w)))


def negated(ws: tuple[str, ...]) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in ws)


def truth_keys(truth: str) -> frozenset[str]:
    """The keys of every keyword alternative of a truth."""
    return frozenset(k for alt in keyword_alternatives(truth) for w in alt if (k := key(w)))
