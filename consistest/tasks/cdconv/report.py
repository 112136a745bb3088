"""Detector figures in the layout of CDConv's Table 4: 2-class accuracy / F1, 4-class accuracy / macro-F1,
and F1 per class (none, intra, role, history); by trigger too; the paper's figures for reference."""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from consistest.core.records import DETECTOR_LABELS
from consistest.core.table import format_table
from consistest.metrics.classification import classification_metrics

# CDConv Table 4 (RoBERTa, first trained on Chinese NLI; the authors' random 60/20/20 row split).
PAPER_TABLE4: dict[str, dict[str, float]] = {
    "pair": dict(acc2=75.7, f1_2=73.7, acc4=72.2, f1_4=55.1, none=81.2, intra=29.1, role=46.5, history=63.4),
    "flatten": dict(
        acc2=78.6, f1_2=77.0, acc4=75.7, f1_4=56.8, none=84.1, intra=28.8, role=43.3, history=70.9
    ),
    "hierarchical": dict(
        acc2=80.4, f1_2=78.1, acc4=77.8, f1_4=59.3, none=85.1, intra=33.0, role=48.1, history=71.0
    ),
}
COLUMNS = ("acc2", "f1_2", "acc4", "f1_4", *DETECTOR_LABELS)
HEADER = ["", "n", "2-acc", "2-F1", "4-acc", "4-F1", "F1 none", "intra", "role", "history"]


def detector_metrics(gold: Sequence[str], pred: Sequence[str]) -> dict[str, Any]:
    """Table 4's figures (percentages) plus the confusion matrices. 2-class F1 is the macro F1 of
    contradiction vs none; 4-class macro F1 averages the classes present in gold or predictions."""
    two = classification_metrics(
        [int(g != "none") for g in gold], [int(p != "none") for p in pred], ["none", "contradiction"]
    )
    ids = {lab: i for i, lab in enumerate(DETECTOR_LABELS)}
    four = classification_metrics([ids[g] for g in gold], [ids[p] for p in pred], list(DETECTOR_LABELS))
    present = [lab for lab in DETECTOR_LABELS if lab in set(gold) | set(pred)]
    f1 = {lab: 100 * four["per_class"][lab]["f1"] for lab in DETECTOR_LABELS}
    return {
        "n": len(gold),
        "acc2": 100 * two["accuracy"],
        "f1_2": 100 * two["macro_f1"],
        "f1_contradiction": 100 * two["per_class"]["contradiction"]["f1"],
        "acc4": 100 * four["accuracy"],
        "f1_4": sum(f1[lab] for lab in present) / max(1, len(present)),
        **f1,
        "support": {lab: four["per_class"][lab]["support"] for lab in DETECTOR_LABELS},
        "recall": {
            lab: 100 * four["per_class"][lab]["recall"] for lab in DETECTOR_LABELS
        },  # accuracy by gold class
        "confusion4": four["confusion"],
        "confusion2": two["confusion"],
    }


def by_group(gold: Sequence[str], pred: Sequence[str], groups: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Metrics per group value (e.g. per trigger), groups in sorted order."""
    out = {}
    for g in sorted(set(groups)):
        idx = [i for i, x in enumerate(groups) if x == g]
        out[g] = detector_metrics([gold[i] for i in idx], [pred[i] for i in idx])
    return out


def mean_sd(runs: Sequence[Mapping[str, Any]]) -> dict[str, tuple[float, float]]:
    """Mean and sample standard deviation of each Table 4 figure over runs (seeds)."""
    out = {}
    for c in COLUMNS:
        vals = [float(r[c]) for r in runs]
        out[c] = (statistics.mean(vals), statistics.stdev(vals) if len(vals) > 1 else 0.0)
    return out


def table_rows(rows: Mapping[str, Mapping[str, Any]]) -> list[list[str]]:
    """One text row per named result: n, then each Table 4 figure (``mean±sd`` for aggregated runs)."""
    out = []
    for name, m in rows.items():
        cells = []
        for c in COLUMNS:
            v = m[c]
            cells.append(f"{v[0]:.1f}±{v[1]:.1f}" if isinstance(v, tuple) else f"{float(v):.1f}")
        out.append([name, str(m.get("n", "")), *cells])
    return out


def render_metrics(rows: Mapping[str, Mapping[str, Any]], fmt: str = "table", signature: str = "") -> str:
    """Named metric rows as a text or Markdown table (signature last), or JSON."""
    if fmt == "json":
        return json.dumps({"signature": signature, "results": rows}, indent=2, sort_keys=True, default=list)
    body = format_table(HEADER, table_rows(rows), fmt)
    return "\n".join([*body, *([f"`{signature}`" if fmt == "markdown" else signature] if signature else [])])
