"""Entities worth asking about in a statement: spaCy named entities, numbers and proper nouns.

AIH's inquirer asks the bot about the entities of what it just said. A pure function over parsed tokens
(:class:`~consistest.text.parse.Tok`), so tests build the tokens by hand. Versioned: ENTITIES_VERSION
goes into the AIH signature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from consistest.text.parse import Tok

ENTITIES_VERSION = 1
EntityKind = Literal["named", "number", "proper_noun"]
ENTITY_KINDS: tuple[EntityKind, ...] = get_args(EntityKind)
# Tokens a tagger on chat text sometimes takes for names or numbers; never worth a question.
NOT_ENTITIES = frozenset(
    "i im lol haha hahaha hi hello hey ok okay oh yes no yeah wow um u omg btw".split()  # noqa: SIM905
)
_EDGE_WORDS = frozenset({"the", "a", "an", "my", "your", "our", "his", "her", "their", "about", "around"})


@dataclass(frozen=True)
class Entity:
    """A token span ``[start, end)`` of the parse, its text, the spaCy type (``NUMBER``/``PROPN`` for the
    others) and how it was found."""

    text: str
    label: str
    kind: EntityKind
    start: int
    end: int


def _named_spans(toks: Sequence[Tok]) -> list[tuple[int, int, str]]:
    """(start, end, type) of spaCy's entities; without IOB marks, runs of one type are one entity."""
    spans: list[tuple[int, int, str]] = []
    k = 0
    while k < len(toks):
        if not toks[k].ent:
            k += 1
            continue
        end = k + 1
        while end < len(toks) and toks[end].ent == toks[k].ent and toks[end].ent_iob in ("I", ""):
            end += 1
        spans.append((k, end, toks[k].ent))
        k = end
    return spans


def _runs(toks: Sequence[Tok], keep: set[int], test: Callable[[Tok], bool]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive tokens that pass ``test`` and are not in ``keep``."""
    runs: list[tuple[int, int]] = []
    k = 0
    while k < len(toks):
        if k in keep or not test(toks[k]):
            k += 1
            continue
        end = k + 1
        while end < len(toks) and end not in keep and test(toks[end]):
            end += 1
        runs.append((k, end))
        k = end
    return runs


def _trim(toks: Sequence[Tok], start: int, end: int) -> tuple[int, int]:
    """Drop leading/trailing articles, possessives and punctuation from a span."""
    while start < end and (toks[start].text in _EDGE_WORDS or not toks[start].text[:1].isalnum()):
        start += 1
    while end > start and not toks[end - 1].text[:1].isalnum():
        end -= 1
    return start, end


def entities(toks: Sequence[Tok]) -> list[Entity]:
    """Named entities, then numbers and proper nouns outside them, in order; one per distinct text."""
    found: list[Entity] = []
    covered: set[int] = set()
    for start, end, label in _named_spans(toks):
        covered.update(range(start, end))
        found.append(_entity(toks, start, end, label, "named"))
    numbers = _runs(toks, covered, lambda t: t.tag == "CD" and t.text.lower() not in NOT_ENTITIES)
    covered.update(k for s, e in numbers for k in range(s, e))
    found += [_entity(toks, s, e, "NUMBER", "number") for s, e in numbers]
    found += [
        _entity(toks, s, e, "PROPN", "proper_noun")
        for s, e in _runs(
            toks, covered, lambda t: t.tag in ("NNP", "NNPS") and t.text.lower() not in NOT_ENTITIES
        )
    ]
    out: dict[str, Entity] = {}
    for ent in sorted((e for e in found if e is not None), key=lambda e: e.start):
        if ent.text.lower() not in NOT_ENTITIES:
            out.setdefault(ent.text.lower(), ent)
    return list(out.values())


def _entity(toks: Sequence[Tok], start: int, end: int, label: str, kind: EntityKind) -> Entity | None:
    start, end = _trim(toks, start, end)
    if start >= end:
        return None
    return Entity(" ".join(t.text for t in toks[start:end]), label, kind, start, end)
