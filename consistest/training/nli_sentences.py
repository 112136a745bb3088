"""The sentences Dialogue-NLI pairs are made of (:mod:`consistest.training.nli_pairs`), and their splits.

A sentence (a persona sentence or an utterance of either speaker) is kept when it carries exactly one usable
DNLI triple, whitespace-normalised, with the persona key of a speaker who says it; its split follows
``nli_splits`` (persona sentences by their text, utterances by their speakers, the test split frozen).
Kept apart from the pairing rules because CDConv's detector data and the guard's probes read the same
sentences.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core.records import Dialogue
from consistest.training.nli_relations import Triple, usable
from consistest.training.nli_splits import TEST_FRACTION, assign_splits, speaker_units, unit_persona_texts


@dataclass(frozen=True)
class Sentence:
    text: str
    triple: Triple
    unit: str  # persona key of the speaker


def _usable_triples(triples: Sequence[Triple]) -> set[Triple]:
    return {t for t in triples if usable(t)}


def collect_sentences(dialogues: Sequence[Dialogue]) -> tuple[list[Sentence], dict[str, set[str]]]:
    """Sentences with exactly one usable triple (a text seen with two different triples is dropped),
    and the persona keys that say each text."""
    seen: dict[str, set[Triple]] = defaultdict(set)
    units: dict[str, set[str]] = defaultdict(set)
    for d in dialogues:
        for unit, text, triples in speaker_units(d):
            good = _usable_triples(triples)
            text = " ".join(text.split())
            if len(good) == 1 and text:
                seen[text] |= good
                units[text].add(unit)
    sents = [
        Sentence(text, next(iter(ts)), min(units[text])) for text, ts in sorted(seen.items()) if len(ts) == 1
    ]
    return sents, units


def persona_texts(dialogues: Sequence[Dialogue]) -> frozenset[str]:
    """Every persona sentence (agent's and partner's), whitespace-normalised as in collect_sentences."""
    return frozenset(" ".join(t.split()) for d in dialogues for t in (*d.persona, *d.partner_persona))


def assign_sentence_splits(
    dialogues: Sequence[Dialogue],
    sents: Sequence[Sentence],
    units: dict[str, set[str]],
    seed: int,
    dev_fraction: float,
    test_fraction: float = TEST_FRACTION,
) -> dict[str, str]:
    """Sentence text -> train/dev/test/drop (``nli_splits.assign_splits``)."""
    return assign_splits(
        {s.text: s.triple for s in sents}, units, seed, dev_fraction, persona_texts(dialogues),
        unit_persona_texts(dialogues), test_fraction,
    )  # fmt: skip
