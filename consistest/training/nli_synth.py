"""Synthetic contradictions for the NLI guard: negation, antonyms and swapped attribute values.

Dialogue NLI's natural contradictions are nearly all "another value of a single-valued attribute"; a guard
trained on them alone misses the contradictions chatbots make most ("i do not have a dog", "i hate cats",
"i have red hair" for "... blonde hair"). These pure functions turn one sentence into a contradicting one
(or ``None`` when no rule applies). The lexicons (:mod:`consistest.training.nli_synth_words`) are
versioned data: ``SYNTH_VERSION`` goes into the pairs' stats. WordNet is not used: its data cannot be
installed from PyPI, so the antonyms are our own.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Literal, get_args

from consistest.training.nli_synth_words import (
    ADJ_ANTONYMS,
    ADVERBS,
    AUX_AFTER_HAVE,
    BE,
    CLOSERS,
    COLOURS,
    CONTRACTIONS,
    HAIR_COLOURS,
    HEDGES,
    INTENSIFIERS,
    IRREGULAR_PAST,
    MODALS,
    MULTI_VALUED_PREFIXES,
    NUMBER_WORDS,
    OPENERS,
    POSITIVE_OF,
    SWAP_RELATIONS,
    TENS_WORDS,
    VALUE_INTRODUCERS,
    VERB_ANTONYMS,
)

SYNTH_VERSION = "2"  # 2: "restate" entailments (the same sentence with surface edits)

Kind = Literal["natural", "negation", "antonym", "swap", "swap-neutral", "evasive", "restate"]
KINDS: tuple[Kind, ...] = get_args(Kind)
SYNTHETIC: tuple[Kind, ...] = ("negation", "antonym", "swap")

_TOKEN = re.compile(r"\S+")


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _subject_at(toks: list[str]) -> int | None:
    """Index of the first clause-opening "i"/"i'm" (at the start or after punctuation / and / but)."""
    for i, t in enumerate(toks):
        if t in ("i", "i'm", "im") and (
            i == 0 or not toks[i - 1][-1].isalnum() or toks[i - 1] in ("and", "but")
        ):
            return i
    return None


def negate(text: str) -> str | None:
    """Flip the polarity of the first "i ..." or "my X is ..." clause: "i have a dog" -> "i do not have a
    dog", "i am tall" -> "i am not tall", "i went" -> "i never went", "i don't eat meat" -> "i eat meat"."""
    toks = _words(text)
    s = _subject_at(toks)
    if s is None:
        return _negate_my(toks)
    if toks[s] in ("i'm", "im"):
        return _join(toks[: s + 1], ["not"], toks[s + 1 :]) if toks[s + 1 : s + 2] != ["not"] else None
    j = s + 1
    while j < len(toks) and toks[j] in ADVERBS:
        j += 1
    if j >= len(toks) or not toks[j].isalpha() and "'" not in toks[j]:
        return None
    t, nxt = toks[j], toks[j + 1] if j + 1 < len(toks) else ""
    if t in POSITIVE_OF:
        return _join(toks[:j], [POSITIVE_OF[t]], toks[j + 1 :])
    if t in ("don't", "didn't", "never"):
        return (
            _join(toks[:j], [], toks[j + 1 :]) if t != "didn't" else _join(toks[:j], ["did"], toks[j + 1 :])
        )
    if t in ("do", "did", "am", "was") and nxt == "not":
        return _join(toks[:j], [] if t in ("do", "did") else [t], toks[j + 2 :])
    if t in ("am", "was", "do", "did") or t in MODALS or (t == "have" and nxt in AUX_AFTER_HAVE):
        return _join(toks[: j + 1], ["not"], toks[j + 1 :])
    if t in HEDGES or t.endswith("ing") or t.endswith("s") and t not in ("has",):
        return None
    if t.endswith("ed") or t in IRREGULAR_PAST:
        return _join(toks[:j], ["never"], toks[j:])
    return _join(toks[:j], ["do", "not"], toks[j:])


def _negate_my(toks: list[str]) -> str | None:
    """ "my favorite color is blue" -> "my favorite color is not blue" (a be-verb within 4 words of "my")."""
    if "my" not in toks:
        return None
    m = toks.index("my")
    for j in range(m + 2, min(len(toks), m + 5)):
        if toks[j] in BE:
            if toks[j + 1 : j + 2] == ["not"]:
                return _join(toks[: j + 1], [], toks[j + 2 :])
            return _join(toks[: j + 1], ["not"], toks[j + 1 :])
        if not toks[j].isalpha():
            return None
    return None


def antonym(text: str, rng: random.Random) -> str | None:
    """Swap a verb after the subject (like -> hate, love -> can not stand, always -> never) or an adjective
    after a form of "be" (tall -> short) for its antonym; the first such word only."""
    toks = _words(text)
    s = _subject_at(toks)
    if s is not None:
        j = s + 1
        while j < len(toks) and (toks[j] in ADVERBS - {"always", "never"} or toks[j] == "do"):
            j += 1
        if j < len(toks) and toks[j] in VERB_ANTONYMS:
            return _join(toks[:j], [rng.choice(VERB_ANTONYMS[toks[j]])], toks[j + 1 :])
    for j, t in enumerate(toks[:-1]):
        if t in BE or t in ("i'm", "im", "'m"):
            k = j + 1
            while k < len(toks) and toks[k] in INTENSIFIERS:
                k += 1
            if k < len(toks) and toks[k] in ADJ_ANTONYMS:
                return _join(toks[:k], [ADJ_ANTONYMS[toks[k]]], toks[k + 1 :])
    return None


def swap_value(text: str, relation: str, obj: str, pool: tuple[str, ...], rng: random.Random) -> str | None:
    """Replace the attribute value in ``text`` with another of its class: the age number, a hair/eye
    colour, or a value of ``pool`` (jobs, places, ...; the triple's own object counts too)."""
    toks = _words(text)
    if relation == "has_age":
        for i, t in enumerate(toks):
            if t.isdigit() and 0 < int(t) < 120:
                return _join(toks[:i], [str(_other_age(int(t), rng))], toks[i + 1 :])
        return None
    if relation in ("physical_attribute", "favorite_color"):
        for i, t in enumerate(toks):
            near = toks[i + 1 : i + 3]
            if t in HAIR_COLOURS and ("hair" in near or "eyes" in near or relation == "favorite_color"):
                colours = HAIR_COLOURS if "hair" in near else COLOURS
                return _join(toks[:i], [_other(t, colours, rng)], toks[i + 1 :])
        if relation == "physical_attribute":
            return None
    joined = " ".join(toks)
    for v in sorted(pool, key=lambda v: (-len(v), v)):
        for m in re.finditer(rf"(?<!\S){re.escape(v)}(?!\S)", joined):
            before = joined[: m.start()].split()[-1:]
            if relation in SWAP_RELATIONS or before and before[0] in VALUE_INTRODUCERS:
                new = _other(v, pool, rng)
                return None if new == v else _fix_articles(joined[: m.start()] + new + joined[m.end() :])
    return None


def restate(text: str, rng: random.Random) -> str:
    """The same statement with surface edits: contractions in or out, numbers as words or digits, a
    chat opener or closer; the text itself when no edit applies and the coin says so."""
    toks = _words(text)
    joined = " ".join(toks)
    for long, short in CONTRACTIONS:
        if re.search(rf"(?<!\S){re.escape(long)}(?!\S)", joined) and rng.random() < 0.7:
            joined = re.sub(rf"(?<!\S){re.escape(long)}(?!\S)", short, joined)
        elif re.search(rf"(?<!\S){re.escape(short)}(?!\S)", joined) and rng.random() < 0.7:
            joined = re.sub(rf"(?<!\S){re.escape(short)}(?!\S)", long, joined)
    joined = " ".join(_number_word(t) if t.isdigit() else t for t in joined.split())
    if rng.random() < 0.5:
        joined = rng.choice(OPENERS) + joined
    if rng.random() < 0.5:
        joined = joined.rstrip(" .!") + rng.choice(CLOSERS)
    return joined


def _number_word(t: str) -> str:
    """ "20" -> "twenty", "45" -> "forty five" (0-99; other numbers stay digits)."""
    n = int(t)
    if n < 20:
        return NUMBER_WORDS[n]
    if n < 100:
        return TENS_WORDS[n // 10 - 2] + ("" if n % 10 == 0 else " " + NUMBER_WORDS[n % 10])
    return t


def _other(value: str, pool: tuple[str, ...], rng: random.Random) -> str:
    choices = sorted(set(pool) - {value, "gray" if value == "grey" else "grey" if value == "gray" else ""})
    return rng.choice(choices) if choices else value


def _other_age(n: int, rng: random.Random) -> int:
    delta = rng.randint(3, 20) * rng.choice((-1, 1))
    return n + delta if 0 < n + delta < 120 else n + abs(delta)


def _fix_articles(text: str) -> str:
    """ "a engineer" -> "an engineer", "an nurse" -> "a nurse"."""
    text = re.sub(r"(?<!\S)a (?=[aeiou])", "an ", text)
    return re.sub(r"(?<!\S)an (?=[^aeiou\s])", "a ", text)


def _join(*parts: list[str]) -> str:
    return " ".join(t for p in parts for t in p)


def swap_kind(relation: str, single_valued: frozenset[str]) -> Kind | None:
    """What swapping a relation's value makes: a contradiction (single-valued or a physical colour), a
    neutral pair (multi-valued: "i like pizza" / "i like sushi"), or nothing we can label."""
    if relation in single_valued or relation == "physical_attribute":
        return "swap"
    if relation.startswith(MULTI_VALUED_PREFIXES):
        return "swap-neutral"
    return None


def value_pools(items: list[tuple[str, tuple[str, str, str]]]) -> dict[str, tuple[str, ...]]:
    """Per relation, the values a swap may draw: the lexicon of its class (jobs, places, ...), else the
    relation's triple objects that look like plain values (one or two words, letters only, not a verb
    form) and appear word for word in at least two sentences."""
    seen: dict[str, Counter[str]] = {}
    for text, (_, rel, obj) in items:
        ok = (
            len(obj) >= 3
            and len(obj.split()) <= 2
            and obj.replace(" ", "").isalpha()
            and not obj.endswith(("ing", "ed"))
        )
        if rel not in SWAP_RELATIONS and ok and re.search(rf"(?<!\S){re.escape(obj)}(?!\S)", text.lower()):
            seen.setdefault(rel, Counter())[obj] += 1
    pools = {r: tuple(sorted(v for v, n in c.items() if n >= 2)) for r, c in seen.items()}
    return pools | dict(SWAP_RELATIONS)


def synthesize(
    items: list[tuple[str, tuple[str, str, str]]], seed: int, single_valued: frozenset[str]
) -> dict[Kind, list[tuple[int, str]]]:
    """Per kind, (index of the source item, new hypothesis) for every item a rule applies to. Choices are
    seeded by the item's text, so the output does not depend on order."""
    pools = value_pools(items)
    out: dict[Kind, list[tuple[int, str]]] = {k: [] for k in (*SYNTHETIC, "swap-neutral", "restate")}
    for i, (text, (_, rel, obj)) in enumerate(items):
        rng = random.Random(f"{seed}:synth:{text}")
        made: dict[Kind, str | None] = {"negation": negate(text), "antonym": antonym(text, rng)}
        out["restate"].append((i, restate(text, rng)))
        kind = swap_kind(rel, single_valued)
        if kind is not None:
            made[kind] = swap_value(text, rel, obj, pools.get(rel, ()), rng)
        for k, hyp in made.items():
            if hyp and hyp != " ".join(_words(text)):
                out[k].append((i, hyp))
    return out
