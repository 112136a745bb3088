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


# ---------------------------------------------------------------- figures with bootstrap intervals
FIGURES = (
    ("acc2", "2-class accuracy"),
    (
        "balanced2",
        "2-class balanced accuracy",
    ),  # the mean of the two recalls: accuracy at half contradictions
    ("recall_contradiction", "recall: contradiction"),
    ("recall_none", "recall: none"),
    ("acc4", "4-class accuracy"),
    ("f1_4", "4-class macro F1"),
    ("recall_intra", "recall: intra"),
    ("recall_role", "recall: role"),
    ("recall_history", "recall: history"),
)


def point_figures(gold: Sequence[str], pred: Sequence[str]) -> dict[str, float | None]:
    """The figures of ``FIGURES`` in percent (None where a class has no gold example)."""
    m = detector_metrics(gold, pred)
    out: dict[str, float | None] = {"acc2": m["acc2"], "acc4": m["acc4"], "f1_4": m["f1_4"]}
    contra = [i for i, g in enumerate(gold) if g != "none"]
    out["recall_contradiction"] = (
        100 * sum(pred[i] != "none" for i in contra) / len(contra) if contra else None
    )
    for lab in DETECTOR_LABELS:
        out[f"recall_{lab}"] = m["recall"][lab] if m["support"][lab] else None
    both = out["recall_contradiction"] is not None and out["recall_none"] is not None
    out["balanced2"] = (out["recall_contradiction"] + out["recall_none"]) / 2 if both else None  # type: ignore[operator]
    return out


def figures_with_intervals(
    gold: Sequence[str],
    pred: Sequence[str],
    clusters: Sequence[str] | None = None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, dict[str, Any]]:
    """Each figure with a 95% percentile bootstrap interval, resampling ``clusters`` whole (the replies
    to one sample, say) or dialogues one by one; seeded by the content, so reruns agree."""
    import numpy as np

    from consistest.core.records import content_hash

    point = point_figures(gold, pred)
    keys = list(clusters) if clusters is not None else [str(i) for i in range(len(gold))]
    groups: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        groups.setdefault(k, []).append(i)
    members = list(groups.values())
    rng = np.random.default_rng(int(content_hash(seed, "detector-figures", list(gold), list(pred)), 16))
    draws: dict[str, list[float]] = {k: [] for k, _ in FIGURES}
    for _ in range(n_boot if len(members) > 1 else 0):
        idx = [i for j in rng.integers(0, len(members), len(members)) for i in members[j]]
        got = point_figures([gold[i] for i in idx], [pred[i] for i in idx])
        for k, v in got.items():
            if v is not None:
                draws[k].append(v)
    out = {}
    for k, _ in FIGURES:
        ci = None
        if point[k] is not None and len(draws[k]) >= n_boot // 2 and n_boot > 0:
            lo, hi = np.quantile(draws[k], [0.025, 0.975])
            ci = (float(lo), float(hi))
        n = len(gold) if not k.startswith("recall_") else _support(gold, k)
        out[k] = {"value": point[k], "ci": ci, "n": n}
    return out


def _support(gold: Sequence[str], key: str) -> int:
    lab = key.removeprefix("recall_")
    return sum(g != "none" for g in gold) if lab == "contradiction" else sum(g == lab for g in gold)


def render_intervals(figs: Mapping[str, Mapping[str, Any]], fmt: str = "table") -> str:
    """The figures with their intervals as a table (one row each)."""
    rows = []
    for k, label in FIGURES:
        f = figs[k]
        v, ci = f["value"], f["ci"]
        interval = f"[{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "-"
        rows.append([label, "-" if v is None else f"{v:.1f}", interval, str(f["n"])])
    return "\n".join(format_table(["figure", "%", "95% CI", "n"], rows, fmt))


# ---------------------------------------------------------------- a judge's undecided dialogues
def coverage_figures(
    gold: Sequence[str],
    pred: Sequence[str | None],
    clusters: Sequence[str] | None = None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """How many labelled dialogues a judge decided (``pred`` None: undecided), and 2- and 4-class accuracy
    over all of them with each undecided one counted wrong, with 95% bootstrap intervals. (The Table 4
    figures are over the decided ones only; together they show what undecided dialogues cost.)"""
    miss = {"none": "history"}  # a wrong label for each gold one, in 2 and in 4 classes
    wrong = [p if p is not None else miss.get(g, "none") for g, p in zip(gold, pred, strict=True)]
    figs = figures_with_intervals(gold, wrong, clusters, n_boot=n_boot, seed=seed)
    decided = sum(p is not None for p in pred)
    return {
        "n": len(gold),
        "decided": decided,
        "undecided": len(gold) - decided,
        "coverage": 100 * decided / len(gold) if gold else 0.0,
        "acc2_undecided_wrong": figs["acc2"],
        "acc4_undecided_wrong": figs["acc4"],
    }


def coverage_line(c: Mapping[str, Any]) -> str:
    """One line: decided / undecided, and 2-class accuracy with undecided dialogues counted wrong."""
    a = c["acc2_undecided_wrong"]
    ci = f" [{a['ci'][0]:.1f}, {a['ci'][1]:.1f}]" if a["ci"] else ""
    where = "left out of the figures above" if c["decided"] else "no figures: nothing decided"
    return (
        f"judge decided {c['decided']:,} of {c['n']:,} labelled dialogues ({c['coverage']:.1f}%), "
        f"undecided {c['undecided']:,} ({where}); 2-class accuracy counting undecided as wrong: "
        f"{a['value']:.1f}%{ci}"
    )
