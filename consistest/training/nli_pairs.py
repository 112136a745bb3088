"""Dialogue-NLI-style pairs from the DNLI triples of PersonaChat dialogues (``consistest nli-pairs``).

Each sentence with exactly one usable triple (persona sentences and utterances of both speakers:
``nli_sentences``) is a candidate. Sentences are split train/dev/test (``nli_splits``: persona sentences by
their text, utterances by their speakers, the test split frozen) so that no sentence text reaches two
splits. Within a split, pairs are labelled by ``nli_relations.label`` (same triple -> entailment,
single-valued clash or opposite relation -> contradiction, unrelated relations -> neutral), capped per
relation, and balanced across the 3 labels; then synthetic pairs are added on top of these natural ones:
contradictions (negation, antonym, swapped value: ``nli_synth``), restated entailments, evasive replies and
swapped multi-valued values as neutrals. All choices are content-seeded, so the output does not depend on
input order.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from consistest.core.errors import InputError
from consistest.core.records import Dialogue, content_hash
from consistest.training.nli_relations import (
    EVASIVE_REPLIES,
    OPPOSITES,
    RELATIONS_VERSION,
    SINGLE_VALUED,
    Triple,
    contradicts,
    label,
)
from consistest.training.nli_sentences import Sentence, assign_sentence_splits, collect_sentences
from consistest.training.nli_splits import SPLIT_SCHEME, SPLITS, TEST_FRACTION, split_seed
from consistest.training.nli_synth import SYNTH_VERSION, SYNTHETIC, synthesize

LABELS = ("entailment", "neutral", "contradiction")
EVASIVE: Triple = ("", "evasive", "")  # the pseudo-triple of an evasive reply
# 3: three splits (frozen test), synthetic pairs added on top of the natural ones instead of replacing them
PAIRS_VERSION = "3"


def _rank(seed: Any, *parts: Any) -> str:
    return content_hash(seed, *parts)


def _oriented(seed: int, a: Sentence, b: Sentence) -> tuple[Sentence, Sentence]:
    """Content-seeded premise/hypothesis order for a symmetric pair."""
    return (a, b) if _rank(seed, "order", a.text, b.text) < _rank(seed, "order", b.text, a.text) else (b, a)


def _kind(h: Sentence) -> str:
    """``natural`` for a pair of corpus sentences, else the rule that made the hypothesis."""
    return h.triple[1] if not h.triple[0] else "natural"


def _relation_key(lab: str, p: Sentence, h: Sentence) -> str:
    if not h.triple[0]:  # evasive or synthetic hypothesis
        return f"{p.triple[1]}/{h.triple[1]}"
    if lab == "neutral" or p.triple[1] == h.triple[1]:
        return p.triple[1] if lab != "neutral" else f"{p.triple[1]}/{h.triple[1]}"
    return "~".join(sorted((p.triple[1], h.triple[1])))


def candidate_pairs(
    sents: Sequence[Sentence], seed: int, neutral_tries: int
) -> dict[str, list[tuple[Sentence, Sentence]]]:
    """All entailment and contradiction pairs of a split, plus sampled neutral pairs."""
    by_triple: dict[Triple, list[Sentence]] = defaultdict(list)
    by_subj_rel: dict[tuple[str, str], list[Sentence]] = defaultdict(list)
    for s in sents:
        by_triple[s.triple].append(s)
        by_subj_rel[s.triple[0], s.triple[1]].append(s)
    out: dict[str, list[tuple[Sentence, Sentence]]] = {lab: [] for lab in LABELS}
    for group in by_triple.values():
        out["entailment"] += [_oriented(seed, a, b) for a, b in combinations(group, 2)]
    for (subj, rel), group in by_subj_rel.items():
        if rel in SINGLE_VALUED:
            out["contradiction"] += [
                _oriented(seed, a, b) for a, b in combinations(group, 2) if contradicts(a.triple, b.triple)
            ]
        for pos, neg in OPPOSITES:
            if rel == pos:
                negs = by_subj_rel.get((subj, neg), [])
                out["contradiction"] += [
                    _oriented(seed, a, b) for a in group for b in negs if contradicts(a.triple, b.triple)
                ]
    for p in sents:
        rng = random.Random(f"{seed}:neutral:{p.text}")
        for _ in range(neutral_tries):
            h = sents[rng.randrange(len(sents))]
            if label(p.triple, h.triple) == "neutral":
                out["neutral"].append((p, h))
    return out


def select_pairs(
    cands: dict[str, list[tuple[Sentence, Sentence]]], seed: int, max_per_relation: int
) -> dict[str, list[tuple[Sentence, Sentence]]]:
    """Cap each (label, relation) at ``max_per_relation``, then balance labels to the rarest one."""
    capped: dict[str, list[tuple[Sentence, Sentence]]] = {}
    for lab, pairs in cands.items():
        by_rel: dict[str, list[tuple[Sentence, Sentence]]] = defaultdict(list)
        for p, h in dict.fromkeys(pairs):
            by_rel[p.triple[1]].append((p, h))
        capped[lab] = [
            pair
            for rel_pairs in by_rel.values()
            for pair in sorted(rel_pairs, key=lambda x: _rank(seed, lab, x[0].text, x[1].text))[
                :max_per_relation
            ]
        ]
    n = min(len(v) for v in capped.values())
    return {
        lab: sorted(pairs, key=lambda x: _rank(seed, "balance", lab, x[0].text, x[1].text))[:n]
        for lab, pairs in capped.items()
    }


def evasive_replies(split: str) -> tuple[str, ...]:
    """The evasive replies of a split, none shared between splits: train takes every other entry, dev
    and test every fourth (paraphrases such as "i don't know ." / "i do not know ." are neighbours, so
    they fall on different sides)."""
    by_split = {"train": EVASIVE_REPLIES[0::2], "dev": EVASIVE_REPLIES[1::4], "test": EVASIVE_REPLIES[3::4]}
    return by_split[split]


def evasive_pairs(
    neutral: list[tuple[Sentence, Sentence]], seed: int, k: int, split: str
) -> list[tuple[Sentence, Sentence]]:
    """``k`` new neutral pairs: the premises of content-seeded neutral pairs with an evasive reply."""
    ranked = sorted(neutral, key=lambda x: _rank(seed, "evasive", x[0].text, x[1].text))
    replies = evasive_replies(split)
    return [
        (p, Sentence(random.Random(f"{seed}:evasive:{p.text}").choice(replies), EVASIVE, p.unit))
        for p, _ in ranked[:k]
    ]


def pick_synthetic(
    made: dict[str, list[tuple[Sentence, Sentence]]], kinds: Sequence[str], want: int, seed: int
) -> list[tuple[Sentence, Sentence]]:
    """Up to ``want`` synthetic pairs, content-seeded, taken round-robin over ``kinds`` (a kind that runs
    out leaves its turn to the others)."""
    queues = [sorted(made[k], key=lambda x: _rank(seed, k, x[0].text, x[1].text)) for k in kinds]
    picked: list[tuple[Sentence, Sentence]] = []
    while len(picked) < want and any(queues):
        for q in queues:
            if q and len(picked) < want:
                picked.append(q.pop(0))
    return picked


def synthetic_candidates(
    part: Sequence[Sentence], seed: int, elsewhere: frozenset[str] = frozenset()
) -> dict[str, list[tuple[Sentence, Sentence]]]:
    """(premise, synthetic hypothesis) pairs per kind for the sentences of one split; a hypothesis that
    happens to be a sentence of another split (``elsewhere``) is dropped, so no text crosses splits."""
    made = synthesize([(s.text, s.triple) for s in part], seed, SINGLE_VALUED)
    return {
        k: [(part[i], Sentence(h, ("", k, ""), part[i].unit)) for i, h in v if h not in elsewhere]
        for k, v in made.items()
    }


def make_pairs(
    dialogues: Sequence[Dialogue],
    *,
    seed: int = 0,
    dev_fraction: float = 0.15,
    max_per_relation: int = 300,
    neutral_tries: int = 8,
    evasive_share: float = 0.2,
    synthetic_share: float = 0.5,
    swap_neutral_share: float = 0.15,
    restate_share: float = 0.5,
    test_fraction: float = TEST_FRACTION,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Rows (premise, hypothesis, label, split, relation, kind, triples) and stats. The shares are of the
    natural pairs of a split (one label's count after balancing) and are added on top of them."""
    if not any(d.persona_triples or d.utterance_triples for d in dialogues):
        raise InputError("the dialogues carry no DNLI triples (use the ConvAI2 'both' layout with triples)")
    sents, units = collect_sentences(dialogues)
    splits = assign_sentence_splits(dialogues, sents, units, seed, dev_fraction, test_fraction)
    rows: list[dict[str, Any]] = []
    stats: dict[str, Any] = {
        "version": RELATIONS_VERSION,
        "pairs_version": PAIRS_VERSION,
        "split": SPLIT_SCHEME,
        "seed": seed,
        "dev_fraction": dev_fraction,
        "test_fraction": test_fraction,
        "max_per_relation": max_per_relation,
        "evasive_share": evasive_share,
        "synthetic_share": synthetic_share,
        "swap_neutral_share": swap_neutral_share,
        "restate_share": restate_share,
        "synth_version": SYNTH_VERSION,
        "dropped": sum(v == "drop" for v in splits.values()),
        "sentences": {},
        "kinds": {},
        "counts": {},
        "relations": {},
    }
    shares = {"synthetic": synthetic_share, "restate": restate_share}
    shares |= {"swap-neutral": swap_neutral_share, "evasive": evasive_share}
    for split in SPLITS:
        part = [s for s in sents if splits[s.text] == split]
        chosen = split_pairs(
            part, split, splits, split_seed(split, seed), max_per_relation, neutral_tries, shares
        )
        rows += _rows_and_stats(chosen, split, stats)
        stats["sentences"][split] = len(part)
    rows.sort(key=lambda r: (SPLITS.index(r["split"]), r["id"]))
    return rows, stats


def split_pairs(
    part: Sequence[Sentence],
    split: str,
    splits: dict[str, str],
    seed: Any,
    max_per_relation: int,
    neutral_tries: int,
    shares: dict[str, float],
) -> dict[str, list[tuple[Sentence, Sentence]]]:
    """The natural pairs of one split, balanced, plus the synthetic ones on top."""
    chosen = select_pairs(candidate_pairs(part, seed, neutral_tries), seed, max_per_relation)
    n = len(chosen["contradiction"])
    made = synthetic_candidates(part, seed, frozenset(t for t, sp in splits.items() if sp != split))
    chosen["contradiction"] += pick_synthetic(made, SYNTHETIC, round(shares["synthetic"] * n), seed)
    chosen["entailment"] += pick_synthetic(made, ["restate"], round(shares["restate"] * n), seed)
    extra = pick_synthetic(made, ["swap-neutral"], round(shares["swap-neutral"] * n), seed)
    extra += evasive_pairs(chosen["neutral"], seed, round(shares["evasive"] * n), split)
    chosen["neutral"] += extra
    return chosen


def _rows_and_stats(
    chosen: dict[str, list[tuple[Sentence, Sentence]]], split: str, stats: dict[str, Any]
) -> list[dict[str, Any]]:
    rel_counts: dict[str, Counter[str]] = defaultdict(Counter)
    kind_counts: Counter[str] = Counter()
    rows = []
    for lab in LABELS:
        for p, h in chosen[lab]:
            rel = _relation_key(lab, p, h)
            rel_counts[rel][lab] += 1
            kind_counts[f"{lab}/{_kind(h)}"] += 1
            rows.append(
                {
                    "id": content_hash(p.text, h.text, lab),
                    "premise": p.text,
                    "hypothesis": h.text,
                    "label": lab,
                    "split": split,
                    "source": "dnli",
                    "relation": rel,
                    "kind": _kind(h),
                    "premise_triple": list(p.triple),
                    "hypothesis_triple": list(h.triple) if h.triple[0] else [],
                }
            )
    stats["counts"][split] = {lab: len(chosen[lab]) for lab in LABELS}
    stats["relations"][split] = {r: dict(c) for r, c in sorted(rel_counts.items())}
    stats["kinds"][split] = dict(sorted(kind_counts.items()))
    return rows
