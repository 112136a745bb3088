"""The word lists of the scoring rules (rules.py): yes/no phrases, fillers, adverbs, clause ends and the
question's function words. Versioned data: a change that moves a score bumps ``RULES_VERSION`` in rules.py.
"""

from __future__ import annotations

MAX_KEYWORDS = 5
YES_PHRASES = (
    "yes",
    "yeah",
    "yep",
    "yup",
    "sure",
    "yea",
    "yah",
    "absolutely",
    "definitely",
    "certainly",
    "indeed",
    "of course",
    "correct",
)
NO_PHRASES = ("no", "nope", "nah", "never", "not really", "not yet", "not at all", "not anymore", "none")
NOT_AN_ANSWER_AFTER = frozenset({"idea", "clue", "problem", "worries", "doubt", "way", "matter"})  # "no idea"
FILLERS = frozenset(
    [
        "oh",
        "ooh",
        "well",
        "um",
        "umm",
        "uh",
        "hmm",
        "hm",
        "haha",
        "hahaha",
        "lol",
        "lmao",
        "ah",
        "aw",
        "aww",
        "hey",
        "hi",
        "hello",
        "so",
        "actually",
        "honestly",
        "wow",
        "ha",
        "hah",
        "ok",
        "okay",
        "yes",
    ]
) - {"yes"}
ADVERBS = frozenset(
    [
        "really",
        "actually",
        "also",
        "too",
        "definitely",
        "certainly",
        "still",
        "just",
        "ever",
        "always",
        "totally",
        "absolutely",
        "sure",
        "truly",
        "do",
    ]
)
CLAUSE_END = frozenset(
    ["and", "but", "so", "though", "as", "because", "cause", "since", "although", "yet", "lol", "haha"]
)
IGNORED = frozenset({"a", "an", "the", "and", "or"})
# Question words an answer need not repeat ("do you have any pets ?" <- "i don't have pets").
QUESTION_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "any",
        "some",
        "ever",
        "really",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "your",
        "my",
        "you",
        "u",
        "it",
        "that",
        "this",
        "there",
        "yet",
        "still",
        "currently",
        "now",
        "also",
        "too",
        "much",
        "lot",
        "lots",
    ]
)


# (polarity, words) of the yes/no phrases by their first word, "no" phrases first, longer phrases first.
PHRASES_BY_FIRST: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
for _polarity, _group in (("no", NO_PHRASES), ("yes", YES_PHRASES)):
    for _phrase in sorted(_group, key=lambda p: -len(p.split())):
        PHRASES_BY_FIRST.setdefault(_phrase.split()[0], []).append((_polarity, tuple(_phrase.split())))
