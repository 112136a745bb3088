"""Classification metrics over label ids: accuracy, per-class precision/recall/F1, macro F1, confusion."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def classification_metrics(gold: Sequence[int], pred: Sequence[int], labels: Sequence[str]) -> dict[str, Any]:
    """Metrics of ``pred`` against ``gold``; ids index ``labels`` (their names in the output)."""
    k = len(labels)
    conf = [[0] * k for _ in range(k)]
    for g, p in zip(gold, pred, strict=True):
        conf[g][p] += 1
    per = {}
    for c, name in enumerate(labels):
        tp = conf[c][c]
        prec = tp / max(1, sum(conf[g][c] for g in range(k)))
        rec = tp / max(1, sum(conf[c]))
        per[name] = {
            "precision": prec,
            "recall": rec,
            "f1": 2 * prec * rec / (prec + rec) if tp else 0.0,
            "support": sum(conf[c]),
        }
    n = len(gold)
    return {
        "n": n,
        "accuracy": sum(conf[c][c] for c in range(k)) / max(1, n),
        "macro_f1": sum(v["f1"] for v in per.values()) / k,
        "per_class": per,
        "confusion": conf,
    }
