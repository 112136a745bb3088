"""NLI training data: read NLI JSONL (premise/hypothesis/label) and the Dialogue NLI layout
(sentence1/sentence2/label in positive/negative/neutral), honour a ``split`` field, hold out dev slices.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import distinct_names, read_jsonl, read_text
from consistest.core.records import content_hash

# Model label ids, saved as config.id2label (the scorer reads names from there).
ID2LABEL: dict[int, str] = {0: "contradiction", 1: "neutral", 2: "entailment"}
LABEL2ID: dict[str, int] = {v: k for k, v in ID2LABEL.items()}
# Accepted label spellings: NLI names and the Dialogue NLI ones.
LABEL_ALIASES: dict[str, str] = {
    "contradiction": "contradiction",
    "neutral": "neutral",
    "entailment": "entailment",
    "negative": "contradiction",
    "positive": "entailment",
    "e": "entailment",  # ANLI's one-letter labels
    "n": "neutral",
    "c": "contradiction",
}


@dataclass(frozen=True)
class NLIExample:
    premise: str
    hypothesis: str
    label: int


# Integer labels as the published NLI datasets number them (SNLI, MultiNLI, ANLI on the hub and their
# exports: 0 entailment, 1 neutral, 2 contradiction), not as our model ids, which put contradiction first.
HUB_INT_LABELS: dict[int, str] = {0: "entailment", 1: "neutral", 2: "contradiction"}


def parse_nli_label(value: Any, path: str, record: str) -> int:
    """Label name (any case) or integer in the hub datasets' numbering (``HUB_INT_LABELS``) -> model id;
    anything else (SNLI's -1, "no gold label", included) is an InputError."""
    where = {"path": path, "record": record, "field": "label"}
    if isinstance(value, int) and not isinstance(value, bool):
        if value not in HUB_INT_LABELS:
            hint = " (SNLI's 'no gold label': drop these rows)" if value == -1 else ""
            raise InputError(
                f"unknown label {value}{hint}; integers: 0 entailment, 1 neutral, 2 contradiction", **where
            )
        return LABEL2ID[HUB_INT_LABELS[value]]
    name = LABEL_ALIASES.get(str(value).strip().lower()) if isinstance(value, str) else None
    if name is None:
        raise InputError(
            f"unknown label {value!r} (use entailment/neutral/contradiction, positive/negative, e/n/c, "
            "or 0/1/2 as the hub's NLI datasets number them)",
            **where,
        )
    return LABEL2ID[name]


def _records(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """(record name, object) from JSONL, or from a JSON array (the DNLI release ships arrays in .jsonl)."""
    head = read_text(path).lstrip()[:1]
    if head == "[":
        try:
            data = json.loads(read_text(path))
        except json.JSONDecodeError as e:
            raise InputError(f"invalid JSON at line {e.lineno}: {e.msg}", path=str(path)) from None
        out = []
        for i, obj in enumerate(data):
            if not isinstance(obj, dict):
                raise InputError("expected a JSON object", path=str(path), record=f"item {i}")
            out.append((f"item {i}", obj))
        return out
    return [(f"line {n}", obj) for n, obj in read_jsonl(path)]


def _text(obj: dict[str, Any], keys: Sequence[str], path: str, record: str) -> str:
    for k in keys:
        if k in obj:
            v = obj[k]
            if not isinstance(v, str) or not v.strip():
                raise InputError("must be a non-empty string", path=path, record=record, field=k)
            return v
    raise InputError(f"missing (expected {' or '.join(keys)})", path=path, record=record, field=keys[0])


def read_nli_file(path: str | Path, split: str | None = None) -> list[NLIExample]:
    """Examples of one file. Rows with a ``split`` field are kept only when it equals ``split``
    (``train`` for --train files, ``dev`` for --dev files); rows without one are always kept."""
    path = Path(path)
    out = []
    for record, obj in _records(path):
        if split is not None and "split" in obj and obj["split"] != split:
            continue
        premise = _text(obj, ("premise", "sentence1", "context"), str(path), record)  # context: ANLI
        hypothesis = _text(obj, ("hypothesis", "sentence2"), str(path), record)
        if "label" not in obj:
            raise InputError("missing", path=str(path), record=record, field="label")
        out.append(NLIExample(premise, hypothesis, parse_nli_label(obj["label"], str(path), record)))
    if not out:
        raise InputError(f"no examples{f' with split {split!r}' if split else ''}", path=str(path))
    return out


def has_split_field(path: str | Path) -> bool:
    """Whether the file's first record carries a ``split`` field (nli-pairs output)."""
    recs = _records(Path(path))
    return bool(recs) and "split" in recs[0][1]


def holdout(
    examples: Sequence[NLIExample], fraction: float, seed: int
) -> tuple[list[NLIExample], list[NLIExample]]:
    """(train, dev): a content-seeded ``fraction`` of premises goes to dev with all their hypotheses."""
    train, dev = [], []
    for ex in examples:
        h = int(content_hash(seed, "holdout", ex.premise), 16) / 16**16
        (dev if h < fraction else train).append(ex)
    return train, dev


def subsample(examples: Sequence[NLIExample], limit: int | None, seed: int) -> list[NLIExample]:
    """At most ``limit`` examples, chosen by content hash (order-independent)."""
    if not limit or len(examples) <= limit:
        return list(examples)
    keyed = sorted(examples, key=lambda e: content_hash(seed, "sub", e.premise, e.hypothesis, e.label))
    return keyed[:limit]


def load_sets(
    train: Sequence[str], dev: Sequence[str], *, holdout_fraction: float, max_per_file: int | None, seed: int
) -> tuple[list[NLIExample], dict[str, list[NLIExample]]]:
    """Training examples (all --train files) and named dev sets: each --dev file, the ``dev`` split of
    --train files that carry one, and a held-out slice of the other --train files."""
    if not 0.0 <= holdout_fraction < 1.0:
        raise InputError("must be in [0, 1)", field="holdout")
    train_ex: list[NLIExample] = []
    dev_sets: dict[str, list[NLIExample]] = {}
    for p in train:
        name = Path(p).name
        if has_split_field(p):
            train_ex += subsample(read_nli_file(p, "train"), max_per_file, seed)
            if str(p) not in map(str, dev):
                with contextlib.suppress(InputError):  # a file without dev rows has no dev set
                    dev_sets[f"{name}:dev"] = read_nli_file(p, "dev")
            continue
        tr, dv = holdout(read_nli_file(p), holdout_fraction, seed)
        train_ex += subsample(tr, max_per_file, seed)
        if dv:
            dev_sets[f"{name}:holdout"] = dv
    for name, p in zip(distinct_names(dev, "dev"), dev, strict=True):
        dev_sets[name] = read_nli_file(p, "dev")
    if not train_ex:
        raise InputError("no training examples", field="train")
    return train_ex, dev_sets
