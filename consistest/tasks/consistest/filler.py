"""Filler sessions must not contradict the asked fact: a session build drops (and counts) every sample
whose continuation sessions hold an agent utterance that contradicts its fact.

Two checks, either or both:

- **triples**: the Dialogue-NLI triples of a ConvAI2 "both" file with triples
  (``convai2_valid_both_triples.txt``), looked up by text (lower case, contractions expanded, punctuation
  dropped) for the fact (the persona sentence, or the agent utterance holding a history fact) and for each
  filler utterance; two triples contradict by the Dialogue-NLI rules (same subject and a single-valued
  relation with another object, or opposite relations on one object:
  :func:`consistest.training.nli_relations.contradicts`). Where a text has no triple, this check cannot
  tell.
- **guard**: an NLI model (any local sequence classifier, e.g. the offline guard) on (the sample's NLI
  premise, the filler utterance); a ``contradiction`` label drops the sample.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from consistest.core.records import Dialogue
from consistest.models.base import NLI
from consistest.text.sentences import strip_punct
from consistest.training.nli_relations import Triple, contradicts, usable

CHECKS = ("triples", "guard")


def text_key(text: str) -> str:
    return strip_punct(text)


def triples_index(dialogues: Iterable[Dialogue]) -> dict[str, tuple[Triple, ...]]:
    """Text key -> the usable DNLI triples of that persona sentence or utterance (union over dialogues)."""
    found: dict[str, dict[Triple, None]] = {}
    for d in dialogues:
        pairs = [*zip(d.persona, d.persona_triples, strict=False)]
        pairs += zip(d.utterances, d.utterance_triples, strict=False)
        for text, triples in pairs:
            for t in triples:
                if usable(t):
                    found.setdefault(text_key(text), {})[tuple(t)] = None  # type: ignore[index]
    return {k: tuple(v) for k, v in found.items()}


@dataclass
class FillerCheck:
    """The checks of a session build; ``stats`` counts what they saw (samples checked, how many of their
    facts have triples, guard pairs asked)."""

    triples: dict[str, tuple[Triple, ...]] | None = None
    guard: NLI | None = None
    triples_name: str = ""  # the triples file's name and sha256 prefix, for the signature
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def enabled(self) -> bool:
        return self.triples is not None or self.guard is not None

    def tag(self) -> str:
        """The signature's ``check:`` value: ``dnli-<sha12>``, ``nli-<guard>`` joined by ``+``; ``none``."""
        parts = []
        if self.triples is not None:
            parts.append(f"dnli-{self.triples_name}")
        if self.guard is not None:
            parts.append(f"guard-{self.guard.signature}")
        return "+".join(parts) or "none"

    def run(self, requests: Sequence[tuple[str, str, Sequence[str]]]) -> list[str | None]:
        """For each (fact text, NLI premise, filler utterances): ``triples``, ``guard`` (the first check that
        finds a contradiction) or None."""
        out: list[str | None] = [None] * len(requests)
        if self.triples is not None:
            for k, (fact, _, fillers) in enumerate(requests):
                if self._triples_contradict(fact, fillers):
                    out[k] = "triples"
        if self.guard is not None:
            pairs = list(dict.fromkeys((p, u) for k, (_, p, us) in enumerate(requests) if out[k] is None
                                       for u in us))  # fmt: skip
            labels = dict(zip(pairs, self.guard.predict(pairs), strict=True)) if pairs else {}
            self.stats["guard_pairs"] = len(pairs)
            self.stats["guard_contradictions"] = sum(v == "contradiction" for v in labels.values())
            for k, (_, premise, fillers) in enumerate(requests):
                if out[k] is None and any(labels.get((premise, u)) == "contradiction" for u in fillers):
                    out[k] = "guard"
        return out

    def _triples_contradict(self, fact: str, fillers: Sequence[str]) -> bool:
        assert self.triples is not None
        mine = self.triples.get(text_key(fact), ())
        self.stats["checked"] = self.stats.get("checked", 0) + 1
        self.stats["fact_has_triples"] = self.stats.get("fact_has_triples", 0) + bool(mine)
        if not mine:
            return False
        theirs = [b for u in fillers for b in self.triples.get(text_key(u), ())]
        return any(contradicts(a, b) for b in theirs for a in mine)
