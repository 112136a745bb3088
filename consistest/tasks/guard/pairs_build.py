"""``consistest nli-pairs``: write the training pairs, their stats and the guard's probe sets.

The probe sets (rows with ``split: dev-probe`` and ``split: test-probe``, never trained on: ``train-nli``
reads only ``train``/``dev`` rows) ask what the guard is for: a persona sentence of an unseen persona
against a real utterance that contradicts it, or that is consistent with it (entails it, or says
something unrelated). Their contradiction recall and false-alarm rate are what ``consistest eval-nli``
reports; the test probe comes from the frozen test split (``nli_splits``), the dev probe is what a
threshold is chosen on.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl
from consistest.core.records import Dialogue, content_hash
from consistest.metrics.rules import content_tokens
from consistest.training.nli_pairs import LABELS, make_pairs
from consistest.training.nli_relations import label
from consistest.training.nli_sentences import (
    Sentence,
    assign_sentence_splits,
    collect_sentences,
    persona_texts,
)
from consistest.training.nli_splits import SPLITS, split_seed

PROBE_SPLITS = {"dev": "dev-probe", "test": "test-probe"}  # the probe rows of a held-out split
LEGACY_PROBE = "probe"  # files written before the test split: their probe is a dev probe


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
    # synthetic pairs added on top of a split's natural pairs, as shares of one label's natural count
    evasive_share: float = 0.2  # neutral: an evasive reply as hypothesis
    synthetic_share: float = 0.5  # contradiction: negation / antonym / value swap
    swap_neutral_share: float = 0.15  # neutral: another value of a multi-valued relation
    restate_share: float = 0.5  # entailment: the same sentence with surface edits
    probe: bool = True  # add the persona-vs-utterance probe rows (splits dev-probe, test-probe)
    quiet: bool = False


def probe_rows(
    dialogues: Sequence[Dialogue],
    *,
    split: str = "dev",
    seed: int = 0,
    dev_fraction: float = 0.15,
    per_premise: int = 10,
    **split_options: float,
) -> list[dict[str, Any]]:
    """Persona sentence vs utterance, both of ``split`` (dev or test) and both stating their triple's
    object (Dialogue NLI's triples of utterances are noisy: "wow you have been there a lot" carries
    ``live_in united states``): every contradiction (at most ``per_premise`` per persona sentence,
    content-seeded), and as many consistent pairs, half entailed, half neutral."""
    sents, units = collect_sentences(dialogues)
    persona = persona_texts(dialogues)
    splits = assign_sentence_splits(dialogues, sents, units, seed, dev_fraction, **split_options)
    held = [s for s in sents if splits[s.text] == split and states_object(s)]
    premises = [s for s in held if s.text in persona]
    hyps = [s for s in held if s.text not in persona]
    seed = split_seed(split, seed)  # after the split: the test probe's sampling is frozen too
    found: dict[str, list[tuple[Sentence, Sentence]]] = {lab: [] for lab in LABELS}
    for p in premises:
        per: dict[str, list[tuple[Sentence, Sentence]]] = defaultdict(list)
        for h in hyps:
            lab = label(p.triple, h.triple)
            if lab is not None:
                per[lab].append((p, h))
        for lab, pairs in per.items():
            found[lab] += sorted(pairs, key=lambda x: content_hash(seed, "probe", lab, x[0].text, x[1].text))[
                :per_premise
            ]
    n = len(found["contradiction"])
    ent = _sample(found["entailment"], n // 2, seed)
    neu = _sample(found["neutral"], n - len(ent), seed)
    chosen = {"contradiction": found["contradiction"], "entailment": ent, "neutral": neu}
    rows = [_row(p, h, lab, PROBE_SPLITS[split]) for lab in LABELS for p, h in chosen[lab]]
    return sorted(rows, key=lambda r: r["id"])


def states_object(s: Sentence) -> bool:
    """Whether the sentence says a content word of its triple's object (numbers as digits)."""
    return bool(set(content_tokens(s.triple[2])) & set(content_tokens(s.text)))


def _sample(pairs: list[tuple[Sentence, Sentence]], k: int, seed: Any) -> list[tuple[Sentence, Sentence]]:
    return sorted(pairs, key=lambda x: content_hash(seed, "probe-sample", x[0].text, x[1].text))[:k]


def _row(p: Sentence, h: Sentence, lab: str, split: str) -> dict[str, Any]:
    return {
        "id": content_hash(p.text, h.text, lab, split),
        "premise": p.text,
        "hypothesis": h.text,
        "label": lab,
        "split": split,
        "source": "dnli",
        "relation": p.triple[1]
        if p.triple[1] == h.triple[1]
        else "~".join(sorted((p.triple[1], h.triple[1]))),
        "kind": "natural",
        "premise_triple": list(p.triple),
        "hypothesis_triple": list(h.triple),
    }


def format_stats(stats: dict[str, Any]) -> str:
    """Per split: label counts, then entailment/neutral/contradiction per relation and per kind."""
    lines = []
    for split in SPLITS:
        if split not in stats["counts"]:
            continue
        c = stats["counts"][split]
        lines.append(
            f"[{split}] sentences={stats['sentences'][split]} " + " ".join(f"{k}={v}" for k, v in c.items())
        )
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for rel, cnt in stats["relations"][split].items():
            table[rel.split("/")[0]].update(cnt)  # neutral "r1/r2" counted under the premise relation
        for rel, cnt in sorted(table.items()):
            lines.append(f"  {rel:<36} " + " ".join(f"{k[0]}={cnt.get(k, 0):<4}" for k in LABELS))
        lines.append("  kinds: " + " ".join(f"{k}={v}" for k, v in stats["kinds"][split].items()))
    for name, counts in stats.get("probe", {}).items():
        lines.append(f"[{name}] " + " ".join(f"{k}={v}" for k, v in counts.items()))
    return "\n".join(lines)


def build_nli_pairs(config: NLIPairsConfig) -> dict[str, Any]:
    """Read dialogues, write the pairs JSONL (train, dev and probe rows) and the stats JSON."""
    from consistest.data.dialogues import read_dialogues

    if not 0.0 <= config.dev_fraction < 1.0:
        raise InputError("must be in [0, 1)", field="dev-fraction")
    shares = {
        "evasive-share": config.evasive_share,
        "synthetic-share": config.synthetic_share,
        "swap-neutral-share": config.swap_neutral_share,
        "restate-share": config.restate_share,
    }
    for name, value in shares.items():
        if not 0.0 <= value <= 1.0:
            raise InputError("must be in [0, 1]", field=name)
    dialogues = read_dialogues(config.dialogues)
    rows, stats = make_pairs(
        dialogues,
        seed=config.seed,
        dev_fraction=config.dev_fraction,
        max_per_relation=config.max_per_relation,
        neutral_tries=config.neutral_tries,
        evasive_share=config.evasive_share,
        synthetic_share=config.synthetic_share,
        swap_neutral_share=config.swap_neutral_share,
        restate_share=config.restate_share,
    )
    if config.probe:
        stats["probe"] = {}
        for split, name in PROBE_SPLITS.items():
            probe = probe_rows(dialogues, split=split, seed=config.seed, dev_fraction=config.dev_fraction)
            stats["probe"][name] = dict(Counter(r["label"] for r in probe))
            rows += probe
    stats["dialogues"] = str(config.dialogues)
    atomic_write_jsonl(config.out, rows)
    stats_path = config.stats or str(Path(config.out).with_suffix("")) + ".stats.json"
    atomic_write_json(stats_path, stats)
    log.info(format_stats(stats), quiet=config.quiet)
    log.info(f"wrote {len(rows)} pairs to {config.out} and stats to {stats_path}", quiet=config.quiet)
    return stats
