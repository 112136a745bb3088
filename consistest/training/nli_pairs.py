"""Dialogue-NLI-style pairs from the DNLI triples of PersonaChat dialogues (``consistest nli-pairs``).

Each sentence with exactly one usable triple (persona sentences and utterances of both speakers) is a
candidate. Sentences are split train/dev by persona: a persona (speaker) is a dev persona with probability
``dev_fraction``; a sentence is dev only when all personas saying it are dev personas, else train, so no
sentence text reaches two splits. Within a split, pairs are labelled by
``nli_relations.label`` (same triple -> entailment, single-valued clash or opposite relation ->
contradiction, unrelated relations -> neutral), capped per relation, and balanced across the 3 labels.
All choices are content-seeded, so the output does not depend on input order.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl
from consistest.core.records import Dialogue, content_hash
from consistest.training.nli_relations import (
    EVASIVE_REPLIES,
    OPPOSITES,
    RELATIONS_VERSION,
    SINGLE_VALUED,
    Triple,
    contradicts,
    label,
    usable,
)

LABELS = ("entailment", "neutral", "contradiction")
EVASIVE: Triple = ("", "evasive", "")  # the pseudo-triple of an evasive reply
SPLITS = ("train", "dev")


@dataclass(frozen=True)
class NLIPairsConfig:
    """Settings of ``consistest nli-pairs``."""

    dialogues: str
    out: str
    stats: str | None = None  # default: <out>.stats.json
    seed: int = 0
    dev_fraction: float = 0.15
    max_per_relation: int = 300  # per split, label and relation
    neutral_tries: int = 8  # random partners tried per premise for neutral pairs
    evasive_share: float = 0.2  # share of neutral pairs whose hypothesis is an evasive reply
    quiet: bool = False


@dataclass(frozen=True)
class Sentence:
    text: str
    triple: Triple
    unit: str  # persona key of the speaker


def speaker_units(d: Dialogue) -> Iterable[tuple[str, str, tuple[Triple, ...]]]:
    """(persona key, sentence, triples) for both speakers: agent = persona + odd turns, user = even turns."""
    agent = content_hash("persona", sorted(d.persona))
    user = content_hash("persona", sorted(d.partner_persona)) if d.partner_persona else f"user:{d.dialog_id}"
    for text, triples in zip(d.persona, d.persona_triples, strict=False):
        yield agent, text, triples
    for i, (text, triples) in enumerate(zip(d.utterances, d.utterance_triples, strict=False)):
        yield (agent if i % 2 else user), text, triples


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


def assign_splits(
    sents: Sequence[Sentence], units: dict[str, set[str]], seed: int, dev_fraction: float
) -> dict[str, str]:
    """Sentence text -> split. Each persona goes to dev with probability ``dev_fraction`` (content-seeded);
    a sentence goes to dev only when every persona that says it is a dev persona, else to train."""

    def split_of(unit: str) -> str:
        return "dev" if int(content_hash(seed, "split", unit), 16) / 16**16 < dev_fraction else "train"

    return {s.text: "dev" if all(split_of(u) == "dev" for u in units[s.text]) else "train" for s in sents}


def _rank(seed: int, *parts: Any) -> str:
    return content_hash(seed, *parts)


def _oriented(seed: int, a: Sentence, b: Sentence) -> tuple[Sentence, Sentence]:
    """Content-seeded premise/hypothesis order for a symmetric pair."""
    return (a, b) if _rank(seed, "order", a.text, b.text) < _rank(seed, "order", b.text, a.text) else (b, a)


def _relation_key(lab: str, p: Sentence, h: Sentence) -> str:
    if h.triple == EVASIVE:
        return f"{p.triple[1]}/evasive"
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
    """The evasive replies of a split: alternate entries, so train and dev share none (and paraphrases
    such as "i don't know ." / "i do not know ." fall on opposite sides)."""
    return EVASIVE_REPLIES[SPLITS.index(split) :: 2]


def with_evasive(
    neutral: list[tuple[Sentence, Sentence]], seed: int, share: float, split: str
) -> list[tuple[Sentence, Sentence]]:
    """Give a content-seeded ``share`` of the neutral pairs an evasive reply as hypothesis (label stays
    neutral, class sizes stay balanced)."""
    ranked = sorted(neutral, key=lambda x: _rank(seed, "evasive", x[0].text, x[1].text))
    k = round(share * len(ranked))
    replies = evasive_replies(split)
    evasive = [
        (p, Sentence(random.Random(f"{seed}:evasive:{p.text}").choice(replies), EVASIVE, p.unit))
        for p, _ in ranked[:k]
    ]
    return evasive + ranked[k:]


def make_pairs(
    dialogues: Sequence[Dialogue],
    *,
    seed: int = 0,
    dev_fraction: float = 0.15,
    max_per_relation: int = 300,
    neutral_tries: int = 8,
    evasive_share: float = 0.2,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Rows (premise, hypothesis, label, split, relation, triples) and stats for a list of dialogues."""
    if not any(d.persona_triples or d.utterance_triples for d in dialogues):
        raise InputError("the dialogues carry no DNLI triples (use the ConvAI2 'both' layout with triples)")
    sents, units = collect_sentences(dialogues)
    splits = assign_splits(sents, units, seed, dev_fraction)
    rows: list[dict[str, Any]] = []
    stats: dict[str, Any] = {
        "version": RELATIONS_VERSION,
        "seed": seed,
        "dev_fraction": dev_fraction,
        "max_per_relation": max_per_relation,
        "evasive_share": evasive_share,
        "sentences": {},
        "counts": {},
        "relations": {},
    }
    for split in SPLITS:
        part = [s for s in sents if splits[s.text] == split]
        chosen = select_pairs(candidate_pairs(part, seed, neutral_tries), seed, max_per_relation)
        chosen["neutral"] = with_evasive(chosen["neutral"], seed, evasive_share, split)
        rel_counts: dict[str, Counter[str]] = defaultdict(Counter)
        for lab in LABELS:
            for p, h in chosen[lab]:
                rel = _relation_key(lab, p, h)
                rel_counts[rel][lab] += 1
                rows.append(
                    {
                        "id": content_hash(p.text, h.text, lab),
                        "premise": p.text,
                        "hypothesis": h.text,
                        "label": lab,
                        "split": split,
                        "relation": rel,
                        "premise_triple": list(p.triple),
                        "hypothesis_triple": list(h.triple) if h.triple != EVASIVE else [],
                    }
                )
        stats["sentences"][split] = len(part)
        stats["counts"][split] = {lab: len(chosen[lab]) for lab in LABELS}
        stats["relations"][split] = {r: dict(c) for r, c in sorted(rel_counts.items())}
    rows.sort(key=lambda r: (SPLITS.index(r["split"]), r["id"]))
    return rows, stats


def format_stats(stats: dict[str, Any]) -> str:
    """A per-relation table (entailment/neutral/contradiction per split) for stderr."""
    lines = []
    for split in SPLITS:
        c = stats["counts"][split]
        lines.append(
            f"[{split}] sentences={stats['sentences'][split]} " + " ".join(f"{k}={v}" for k, v in c.items())
        )
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for rel, cnt in stats["relations"][split].items():
            table[rel.split("/")[0]].update(cnt)  # neutral "r1/r2" counted under the premise relation
        for rel, cnt in sorted(table.items()):
            lines.append(f"  {rel:<36} " + " ".join(f"{k[0]}={cnt.get(k, 0):<4}" for k in LABELS))
    return "\n".join(lines)


def build_nli_pairs(config: NLIPairsConfig) -> dict[str, Any]:
    """Read dialogues, write the pairs JSONL and the stats JSON; return the stats."""
    from consistest.data.dialogues import read_dialogues

    if not 0.0 <= config.dev_fraction < 1.0:
        raise InputError("must be in [0, 1)", field="dev-fraction")
    if not 0.0 <= config.evasive_share <= 1.0:
        raise InputError("must be in [0, 1]", field="evasive-share")
    dialogues = read_dialogues(config.dialogues)
    rows, stats = make_pairs(
        dialogues,
        seed=config.seed,
        dev_fraction=config.dev_fraction,
        max_per_relation=config.max_per_relation,
        neutral_tries=config.neutral_tries,
        evasive_share=config.evasive_share,
    )
    stats["dialogues"] = str(config.dialogues)
    atomic_write_jsonl(config.out, rows)
    stats_path = config.stats or str(Path(config.out).with_suffix("")) + ".stats.json"
    atomic_write_json(stats_path, stats)
    log.info(format_stats(stats), quiet=config.quiet)
    log.info(f"wrote {len(rows)} pairs to {config.out} and stats to {stats_path}", quiet=config.quiet)
    return stats
