"""The word lists of the synthetic pairs (:mod:`consistest.training.nli_synth`): the words negation and
antonyms read, antonym tables, the value classes a swap draws from, and the surface edits of a restatement.

They are versioned data: a change to a list changes the pairs, so it goes with a new ``SYNTH_VERSION``
(nli_synth.py), which the pairs' stats record. Our own lists: WordNet's data cannot be installed from PyPI.
"""

from __future__ import annotations


def _lex(words: str) -> tuple[str, ...]:
    """A lexicon written as one space-separated string."""
    return tuple(words.split())


ADVERBS = frozenset(_lex("really also just still usually often absolutely totally actually truly mostly"))
HEDGES = frozenset(_lex("think guess mean bet suppose wonder hope feel see agree wish know"))
MODALS = frozenset(_lex("can could will would should must might"))
POSITIVE_OF = {"can't": "can", "cannot": "can", "won't": "will", "couldn't": "could", "wouldn't": "would"}
NEGATORS = frozenset({"don't", "didn't", "never", "do not", "did not"})
AUX_AFTER_HAVE = frozenset(_lex("been got had done seen gone made always never lived worked"))
IRREGULAR_PAST = frozenset(
    _lex(
        "went grew had got made took ate saw came left bought lost met found felt kept wrote became began "
        "ran won broke drove flew fell gave knew taught thought spent sold told"
    )
)
BE = frozenset({"am", "was", "is", "are", "were"})
INTENSIFIERS = frozenset(_lex("very so pretty too quite really extremely super"))

# Verb antonyms (after the subject), adjective antonyms (after a form of "be"), one adverb pair.
VERB_ANTONYMS: dict[str, tuple[str, ...]] = {
    "like": ("hate", "dislike", "can not stand"),
    "love": ("hate", "can not stand", "dislike"),
    "enjoy": ("hate", "dislike"),
    "adore": ("hate",),
    "hate": ("love", "like", "enjoy"),
    "dislike": ("like", "love"),
    "likes": ("hates", "dislikes"),
    "loves": ("hates",),
    "enjoys": ("hates",),
    "hates": ("loves", "likes"),
    "liked": ("hated", "disliked"),
    "loved": ("hated",),
    "enjoyed": ("hated",),
    "hated": ("loved", "liked"),
    "always": ("never",),
    "never": ("always",),
}
ADJ_PAIRS: tuple[tuple[str, str], ...] = (
    ("big", "small"), ("tall", "short"), ("old", "young"), ("happy", "sad"), ("rich", "poor"),
    ("fat", "thin"), ("married", "single"), ("early", "late"), ("hot", "cold"), ("fast", "slow"),
    ("strong", "weak"), ("quiet", "loud"), ("shy", "outgoing"), ("introverted", "extroverted"),
    ("healthy", "unhealthy"), ("employed", "unemployed"), ("lazy", "hardworking"), ("neat", "messy"),
    ("organized", "disorganized"), ("good", "bad"), ("active", "inactive"), ("lucky", "unlucky"),
    ("popular", "unpopular"), ("patient", "impatient"), ("friendly", "unfriendly"),
)  # fmt: skip
ADJ_ANTONYMS: dict[str, str] = {a: b for a, b in ADJ_PAIRS} | {b: a for a, b in ADJ_PAIRS}

# Attribute value classes for swaps (hair colour, age, job, place, marital status, favourite colour).
COLOURS = _lex("red blue green yellow orange purple pink black white brown grey gray silver gold")
HAIR_COLOURS = ("blonde", "brunette", "red", "black", "brown", "grey", "white", "purple", "pink", "blue")
PROFESSIONS = _lex(
    "nurse teacher doctor lawyer dentist chef cashier mechanic accountant engineer farmer firefighter "
    "plumber pilot librarian waitress waiter bartender janitor programmer writer photographer painter "
    "musician singer dancer soldier electrician carpenter pharmacist "
    "veterinarian barista scientist professor student"
)
PLACES = _lex(
    "ohio alabama colorado pennsylvania alaska canada california texas florida georgia michigan oregon "
    "kansas maine montana nevada utah iowa idaho vermont virginia mexico france germany italy spain japan "
    "china india brazil england ireland australia russia chicago boston seattle denver miami"
)
MARITAL = ("married", "single", "divorced", "engaged", "widowed")
SWAP_RELATIONS: dict[str, tuple[str, ...]] = {
    "has_profession": PROFESSIONS,
    "live_in_citystatecountry": PLACES,
    "place_origin": PLACES,
    "marital_status": MARITAL,
    "favorite_color": COLOURS,
}
# Surface edits that keep the meaning ("restate" entailments): a guard trained on one-word synthetic
# contradictions alone learns "nearly the same sentence = contradiction" and flags a reply that repeats
# the fact word for word.
CONTRACTIONS = (
    ("i am", "i'm"), ("i have", "i've"), ("do not", "don't"), ("it is", "it's"), ("i will", "i'll"),
    ("can not", "can't"), ("did not", "didn't"), ("is not", "isn't"), ("that is", "that's"),
)  # fmt: skip
OPENERS = ("yes , ", "yeah , ", "well , ", "oh , ", "haha , ", "sure , ")
CLOSERS = (" !", " . what about you ?", " , do you ?", " . how about you ?", " lol")
NUMBER_WORDS = _lex(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
)
TENS_WORDS = _lex("twenty thirty forty fifty sixty seventy eighty ninety")

# Words after which a value of a multi-valued relation is the object ("my dog", "like pizza").
VALUE_INTRODUCERS = frozenset(_lex("a an the my some two three like love likes loves have has own eat drink"))
MULTI_VALUED_PREFIXES = ("like_", "have", "own")  # another object is no contradiction ("swap-neutral")
