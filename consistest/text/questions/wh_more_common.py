"""Shared parts of the wider WH rules (:mod:`.wh_more`): word lists, patterns and small helpers."""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.text.lexicon import lexicon
from consistest.text.parse import Tok
from consistest.text.questions.yn_templates import Question

DECADES = "teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties"
RELIGIONS = frozenset(
    [
        "buddhist",
        "christian",
        "catholic",
        "protestant",
        "muslim",
        "jewish",
        "hindu",
        "atheist",
        "agnostic",
        "mormon",
        "pagan",
        "sikh",
    ]
)
DIETS = frozenset(["vegan", "vegetarian", "pescatarian", "omnivore", "carnivore"])
MORE_JOBS = frozenset(
    ["streamer", "gamer", "salesperson", "sales rep", "firefighter", "housekeeper", "coder"]
)
MILITARY = frozenset(["army", "navy", "air force", "marines", "marine corps", "coast guard", "military"])
GENDERS = frozenset(["man", "woman", "male", "female", "guy", "girl", "boy", "lady", "gentleman"])
DEICTIC = frozenset(["this", "that", "these", "those", "here", "there"])  # "this country": no answer
MARITAL = frozenset(["married", "single", "divorced", "widowed", "engaged", "separated"])
NUMBER = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
ART = r"(?:an? |the )?"
NP = r"(\w+(?: \w+){0,3})"  # a short answer: one to four words
DAYS = "day|week|month|year|morning|night|weekend|summer|winter|" + "|".join(
    ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
)
FREQ = re.compile(
    r"\b((?:once|twice|three times|four times|\d+ times|(?:one|two|three|four|five|six|seven) times) "
    rf"(?:a|per|every|each) (?:day|week|month|year)|(?:every|each) (?:{DAYS})|"
    r"regularly|daily|weekly|monthly|most days|every other (?:day|week))$"
)


def plain_text(toks: Sequence[Tok]) -> str:
    drop = set(lexicon()["drop_adverbs"])
    return " ".join(t.text for t in toks if t.text not in drop)


def one_question(q: str, a: str, template: str) -> list[Question]:
    return [Question(q, a.strip(), template)]


def before_from(np: str) -> str:
    """ "super model from italy" -> "super model" (the person, not where they come from)."""
    return np.split(" from ")[0]


def job_like(np: str) -> bool:
    jobs = set(lexicon()["occupations"])
    words = np.split()
    return words[-1].rstrip("s") in jobs or " ".join(words[-2:]) in jobs
