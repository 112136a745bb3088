"""NLI guard: a Hugging Face sequence-classification model behind the ``consistest.models.base.NLI`` protocol.

``load_nli(spec)`` loads a hub id or any local model directory; label names come from ``config.id2label``
(any case) or, for generic ``LABEL_0..`` names, from an explicit ``labels`` string (the CLI's --nli-labels).
``HFNLI.predict`` scores each distinct (premise, hypothesis) pair once, in length-sorted batches, truncated
to the model's limit; ``HFNLI.predict_proba`` gives the label probabilities (the ``ProbabilisticNLI``
capability, which AIH's judge thresholds). torch/transformers are imported lazily.

A model folder may hold a contradiction threshold chosen on dev data (``nli_threshold.json``, written by
``consistest train-guard``; read it with :func:`stored_threshold`). Then ``predict`` says contradiction when
P(contradiction) > tau (as AIH's judge does) and otherwise the likelier of neutral and entailment, and the
signature names tau (``name[c,n,e;c>0.42]``). A folder without one is read by argmax, as always.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import folder_hash
from consistest.models.base import NLI, NLI_LABELS

DEFAULT_NLI = "Ehsanl/Roberta-DNLI"
NONE_SPECS = ("none", "")
_GENERIC = re.compile(r"^label_?\d+$", re.IGNORECASE)
_SHORT = {"contradiction": "c", "neutral": "n", "entailment": "e"}
THRESHOLD_FILE = "nli_threshold.json"  # {"contradiction": tau, "rule": ..., ...} beside the weights


def stored_threshold(path: str | Path) -> float | None:
    """The contradiction threshold tau stored in a model folder (``nli_threshold.json``), or None when the
    folder has none (a hub id, or a model read by argmax). A malformed file is an InputError."""
    file = Path(path).expanduser() / THRESHOLD_FILE
    if not file.is_file():
        return None
    from consistest.core.io import read_json

    data = read_json(file)
    tau = data.get("contradiction") if isinstance(data, dict) else None
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not 0.0 <= tau < 1.0:
        raise InputError("must be a number in [0, 1)", path=str(file), field="contradiction")
    return float(tau)


def threshold_tag(tau: float | None) -> str:
    """The signature's mark of a threshold: ``;c>0.420``, or nothing for argmax."""
    return "" if tau is None else f";c>{tau:.3f}"


def canonical_label(name: str) -> str | None:
    """Map a label name (any case, common spellings) to contradiction/neutral/entailment, else None."""
    n = re.sub(r"[^a-z]", "", str(name).lower())
    if n in ("c", "contradiction", "contradict", "contradicts", "contradictory", "contra"):
        return "contradiction"
    if n in ("n", "neutral", "neither", "notentailment", "nonentailment", "unknown"):
        return "neutral"
    if n in ("e", "entailment", "entail", "entails", "entailed"):
        return "entailment"
    return None


def resolve_label_map(id2label: Mapping[Any, str], labels: str | None = None) -> dict[int, str]:
    """Model label id -> canonical NLI label, from ``labels`` ("contradiction,neutral,...") or id2label."""
    n = len(id2label)
    if labels:
        names = [x.strip() for x in labels.split(",") if x.strip()]
        if len(names) != n:
            raise InputError(
                f"--nli-labels names {len(names)} labels but the model has {n} outputs", field="nli-labels"
            )
        by_id, where = dict(enumerate(names)), "--nli-labels"
    else:
        by_id, where = {int(k): str(v) for k, v in id2label.items()}, "config.id2label"
        if any(_GENERIC.match(v) for v in by_id.values()):
            generic = ", ".join(by_id[i] for i in sorted(by_id))
            raise InputError(
                f"the NLI model's config.id2label has generic names ({generic}): pass --nli-labels with one "
                "name per label id, e.g. --nli-labels contradiction,neutral,entailment"
            )
    out = {}
    for i, name in by_id.items():
        lab = canonical_label(name)
        if lab is None and labels:
            raise InputError(
                f"unknown NLI label {name!r} (use contradiction, neutral, entailment)", field="nli-labels"
            )
        if lab is None:
            raise InputError(
                f"the NLI model's label {name!r} is not contradiction/neutral/entailment: "
                "pass --nli-labels to name each label id"
            )
        out[i] = lab
    return _check_map(out, where)


def _check_map(m: dict[int, str], where: str) -> dict[int, str]:
    if "contradiction" not in m.values() and "entailment" not in m.values():
        raise InputError(f"{where} maps no id to contradiction or entailment: the NLI guard cannot work")
    return m


def label_map_signature(label_map: Mapping[int, str]) -> str:
    """Compact label map for the signature: ``c,n,e`` lists the canonical label of ids 0, 1, 2."""
    return ",".join(_SHORT[label_map[i]] for i in sorted(label_map))


class HFNLI:
    """A transformers sequence classifier as an ``NLI``: dedup, length-sorted batches, truncation."""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        label_map: Mapping[int, str],
        *,
        name: str,
        batch_size: int = 32,
        device: str = "cpu",
        max_length: int | None = None,
        sort: bool = True,
        dedup: bool = True,
        threshold: float | None = None,
    ) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.label_map = dict(label_map)
        self.name = name
        self.batch_size = max(1, int(batch_size))
        self.device = device
        self.max_length = max_length or model_max_length(model, tokenizer)
        self.sort = sort
        self.dedup = dedup
        if threshold is not None and "contradiction" not in self.label_map.values():
            raise InputError(f"{name}: a contradiction threshold needs a contradiction label")
        self.threshold = threshold  # P(contradiction) > threshold is a contradiction; None: argmax

    @property
    def signature(self) -> str:
        """``<name>[c,n,e]`` (``<name>[c,n,e;c>0.420]`` with a threshold): the model and how its outputs
        were read."""
        return f"{self.name}[{label_map_signature(self.label_map)}{threshold_tag(self.threshold)}]"

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        """One canonical label per pair; each distinct pair runs through the model once."""
        if self.threshold is not None:
            return [decide(p, self.threshold) for p in self.predict_proba(pairs)]
        return [self.label_map[max(range(len(row)), key=row.__getitem__)] for row in self._logits(pairs)]

    def predict_proba(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]:
        """P(contradiction), P(neutral), P(entailment) per pair (softmax over the model's outputs; ids that
        map to one canonical label are summed, a label the model lacks gets 0). Never thresholded."""
        return [probabilities(row, self.label_map) for row in self._logits(pairs)]

    def _logits(self, pairs: Sequence[tuple[str, str]]) -> list[list[float]]:
        """Model outputs by label id, each distinct pair run once, in length-sorted batches."""
        if not pairs:
            return []
        keys = list(dict.fromkeys(pairs)) if self.dedup else list(pairs)
        enc = self.tokenizer(
            [p for p, _ in keys], [h for _, h in keys], truncation=True, max_length=self.max_length
        )["input_ids"]
        order = sorted(range(len(keys)), key=lambda i: len(enc[i])) if self.sort else list(range(len(keys)))
        rows: list[list[float]] = [[] for _ in keys]
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            for i, row in zip(idx, self._run([enc[i] for i in idx]), strict=True):
                rows[i] = row
        if not self.dedup:
            return rows
        found = dict(zip(keys, rows, strict=True))
        return [found[p] for p in pairs]

    def _run(self, ids: list[list[int]]) -> list[list[float]]:
        import torch

        batch = self.tokenizer.pad({"input_ids": ids}, return_tensors="pt")
        batch = {k: v.to(self.device) for k, v in batch.items() if k in ("input_ids", "attention_mask")}
        with torch.inference_mode():
            logits = self.model(**batch).logits
        return logits.float().tolist()


def probabilities(logits: Sequence[float], label_map: Mapping[int, str]) -> dict[str, float]:
    """Softmax of one row of logits, summed by canonical label."""
    top = max(logits)
    exp = [math.exp(x - top) for x in logits]
    total = sum(exp)
    by_label = dict.fromkeys(NLI_LABELS, 0.0)
    for i, e in enumerate(exp):
        by_label[label_map[i]] += e / total
    return by_label


def decide(proba: Mapping[str, float], tau: float) -> str:
    """Contradiction when P(contradiction) > tau, else the likelier of entailment and neutral."""
    if proba["contradiction"] > tau:
        return "contradiction"
    return "entailment" if proba["entailment"] > proba["neutral"] else "neutral"


def model_max_length(model: Any, tokenizer: Any) -> int:
    """The longest input the model takes: the tokenizer's limit when set, else the position table's."""
    tok_max = getattr(tokenizer, "model_max_length", None) or 0
    cfg = model.config
    pos = getattr(cfg, "max_position_embeddings", None) or 512
    if "roberta" in str(getattr(cfg, "model_type", "")) or getattr(cfg, "model_type", "") in ("camembert",):
        pos -= (getattr(cfg, "pad_token_id", 1) or 1) + 1  # RoBERTa positions start after padding_idx
    return int(tok_max) if 0 < tok_max < 1_000_000 and tok_max <= pos else int(pos)


# What to do when the NLI guard cannot be had (offline, or a guard folder not made yet): one place to
# update when the one-command guard recipe lands.
NO_GUARD_HINT = (
    "pass --nli none to score with the rules alone (items only NLI can decide stay undecided), or make an "
    "offline guard and pass its folder (README section 'An offline NLI guard'; docs: guides/guard.md)"
)


def load_nli(
    spec: str,
    labels: str | None = None,
    *,
    batch_size: int = 32,
    device: str = "cpu",
    max_length: int | None = None,
    quiet: bool = False,
) -> NLI:
    """Load an NLI model from a hub id or a local directory (offline: a missing model is an InputError).

    ``device`` may be ``auto`` (cuda when available); ``quiet`` silences transformers' bars and warnings.
    """
    from transformers import AutoModelForSequenceClassification

    from consistest.models.hf_loader import load_pretrained, resolve_device

    device = resolve_device(device)
    spec = str(spec)
    tokenizer, model = load_pretrained(
        spec, lambda _config: AutoModelForSequenceClassification, what="NLI model", quiet=quiet,
        hint=NO_GUARD_HINT,
    )  # fmt: skip
    label_map = resolve_label_map(model.config.id2label, labels)
    model.eval().to(device)
    local = Path(spec).expanduser()
    name = local_model_name(local) if local.is_dir() else spec
    tau = stored_threshold(local) if local.is_dir() else None
    return HFNLI(
        model,
        tokenizer,
        label_map,
        name=name,
        batch_size=batch_size,
        device=device,
        max_length=max_length,
        threshold=tau,
    )


# The JSON files a classifier's predictions depend on; reports saved beside them (a recipe's paths and
# timings: guard.json, metrics.json) are not hashed, so the same weights name themselves the same anywhere.
PREDICTION_JSON = frozenset(
    {"config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json",
     "vocab.json", THRESHOLD_FILE}
)  # fmt: skip


def local_model_name(directory: Path) -> str:
    """``<dir name>@<sha256[:8] of its config, tokenizer, threshold and weight files>``: the same model names
    itself the same on every machine, and a retrained one in the same folder does not."""
    digest = folder_hash(
        directory,
        (".json", ".safetensors", ".bin"),
        skip=lambda n: n.endswith(".json") and n not in PREDICTION_JSON,
    )
    return f"{directory.resolve().name}@{digest[:8]}"


def nli_from_option(spec: str | None, labels: str | None = None, **kwargs: Any) -> NLI | None:
    """The CLI's ``--nli``: ``none`` (or empty) means rules only, anything else goes to ``load_nli``."""
    if spec is None or spec.strip().lower() in NONE_SPECS:
        return None
    return load_nli(spec, labels, **kwargs)


def nli_signature(nli: NLI | None) -> str:
    """The signature's ``nli:`` value: ``none``, or what the model declares (``<name>[c,n,e]`` for HF)."""
    return "none" if nli is None else nli.signature


__all__ = [
    "DEFAULT_NLI",
    "NLI_LABELS",
    "HFNLI",
    "THRESHOLD_FILE",
    "canonical_label",
    "decide",
    "label_map_signature",
    "load_nli",
    "model_max_length",
    "nli_from_option",
    "nli_signature",
    "resolve_label_map",
    "stored_threshold",
]
