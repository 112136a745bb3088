"""Versioned Dialogue-NLI relation tables and the pure rules that label a pair of triples.

A triple is ``(subject, relation, object)`` as in the DNLI annotation of PersonaChat. The label rules follow
the way Dialogue NLI was built (Welleck et al., 2019): the same triple entails; the same subject and a
single-valued relation with another object contradicts, and so does an opposite relation on the same object;
different, unrelated relations are neutral. Anything else ("i have a dog" / "i have 3 dog") gets no label.
"""

from __future__ import annotations

import re

Triple = tuple[str, str, str]

RELATIONS_VERSION = "2"  # 2: evasive replies as neutral hypotheses

# Replies that commit to nothing. Chatbots say them often and Dialogue NLI has none, so a guard trained on
# it alone may call "i don't know" entailed by "i have a dog"; these pairs teach that they are neutral.
EVASIVE_REPLIES: tuple[str, ...] = (
    "i don't know .",
    "i do not know .",
    "i'm not sure .",
    "i am not sure about that .",
    "maybe .",
    "i have no idea .",
    "hard to say .",
    "it depends .",
    "i would rather not say .",
    "i can't remember .",
    "let me think about it .",
    "that is a good question .",
    "that's interesting .",
    "i see .",
    "oh , cool .",
    "haha , nice .",
)

# Relations with usable labels never come from these (DNLI's "no triple" markers).
SKIP_RELATIONS: frozenset[str] = frozenset({"other", "<blank>", ""})

# A person has one value of these at a time: another object is a contradiction.
SINGLE_VALUED: frozenset[str] = frozenset(
    {
        "has_age",
        "name",
        "gender",
        "marital_status",
        "live_in_citystatecountry",
        "place_origin",
        "has_profession",
        "job_status",
        "school_status",
        "favorite_color",
        "favorite_food",
        "favorite_movie",
        "favorite_music",
        "favorite_music_artist",
        "favorite_season",
        "favorite_hobby",
        "favorite_place",
        "favorite_book",
        "favorite_sport",
        "favorite_animal",
        "favorite_drink",
        "favorite_show",
    }
)

# Relations whose objects must both be numbers to contradict ("i am old" vs "i am 40" is not one).
NUMERIC_ONLY: frozenset[str] = frozenset({"has_age"})

_LIKES = (
    "like_general",
    "like_food",
    "like_activity",
    "like_animal",
    "like_drink",
    "like_music",
    "like_sports",
    "like_goto",
    "like_watching",
    "like_movie",
    "like_read",
)
_HAVES = (
    "have",
    "have_pet",
    "have_chidren",
    "have_children",
    "have_vehicle",
    "have_sibling",
    "have_family",
    "own",
)

# Opposite relations: (positive, negative) on the same object contradict.
OPPOSITES: frozenset[tuple[str, str]] = frozenset(
    {(r, "dislike") for r in _LIKES} | {(r, "not_have") for r in _HAVES}
)

# Relation families (by prefix): relations of one family may say related things (like_movie horror /
# favorite_movie comedy, has_profession / employed_by_general), so neutral pairs come from two families.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("like_", "preference"),
    ("favorite", "preference"),
    ("dislike", "preference"),
    ("have", "possession"),
    ("own", "possession"),
    ("not_have", "possession"),
    ("live_in", "place"),
    ("place_origin", "place"),
    ("has_profession", "work"),
    ("previous_profession", "work"),
    ("employed_by", "work"),
    ("job_status", "work"),
    ("want_job", "work"),
    ("teach", "work"),
    ("attend_school", "school"),
    ("school_status", "school"),
    ("has_degree", "school"),
)

_NUMBER = re.compile(r"^\d+(\.\d+)?$")


def usable(triple: Triple) -> bool:
    """Whether a triple carries a labelled fact (not DNLI's ``other``/``<blank>`` markers)."""
    s, r, o = triple
    return bool(s.strip()) and r not in SKIP_RELATIONS and o.strip() not in ("", "<blank>")


def opposite(r1: str, r2: str) -> bool:
    """Whether one relation negates the other (like_food vs dislike, have_pet vs not_have)."""
    return (r1, r2) in OPPOSITES or (r2, r1) in OPPOSITES


def contradicts(t1: Triple, t2: Triple) -> bool:
    """Same subject, and a single-valued relation with another object or opposite relations on one object."""
    (s1, r1, o1), (s2, r2, o2) = t1, t2
    if s1 != s2:
        return False
    if r1 == r2 and r1 in SINGLE_VALUED and o1 != o2:
        return r1 not in NUMERIC_ONLY or bool(_NUMBER.match(o1) and _NUMBER.match(o2))
    return o1 == o2 and opposite(r1, r2)


def family(r: str) -> str:
    """The relation's family (see FAMILIES); a relation outside them is its own family."""
    return next((f for p, f in FAMILIES if r.startswith(p)), r)


def neutral(t1: Triple, t2: Triple) -> bool:
    """Relations of different families and different objects."""
    (_, r1, o1), (_, r2, o2) = t1, t2
    return o1 != o2 and family(r1) != family(r2)


def label(t1: Triple, t2: Triple) -> str | None:
    """The DNLI label of two single-triple sentences, or None when the rules do not decide."""
    if not (usable(t1) and usable(t2)):
        return None
    if t1 == t2:
        return "entailment"
    if contradicts(t1, t2):
        return "contradiction"
    if neutral(t1, t2):
        return "neutral"
    return None
