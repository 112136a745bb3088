"""Compare scored runs side by side: each figure per run, and a paired bootstrap for each difference."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.records import ScoredItem
from consistest.core.rundir import SCORES_FILE, SUMMARY_FILE, read_manifest
from consistest.core.signature import parse_signature
from consistest.core.stats import N_BOOT, enough_for_interval, paired_bootstrap, too_few_text
from consistest.core.table import format_table, pct
from consistest.tasks.consistest.report import figure_groups


@dataclass(frozen=True)
class Run:
    """A scored run directory: its items by id and its summary."""

    dir: str
    items: dict[str, ScoredItem]
    summary: dict[str, Any]

    @property
    def signature(self) -> str:
        return str(self.summary.get("signature", ""))


def load_scored_run(rundir: str | Path) -> Run:
    """A run directory's scored items (by id) and summary; a malformed line is a one-line error."""
    rundir = Path(rundir)
    if not rundir.is_dir():
        raise InputError("run directory not found", path=str(rundir))
    items: dict[str, ScoredItem] = {}
    for lineno, obj in read_jsonl(rundir / SCORES_FILE):
        missing = [f.name for f in fields(ScoredItem) if f.default is MISSING and f.name not in obj]
        if missing:
            raise InputError(
                "missing", path=str(rundir / SCORES_FILE), record=f"line {lineno}", field=missing[0]
            )
        items[obj["id"]] = ScoredItem.from_dict(obj)
    summary = read_manifest(rundir / SUMMARY_FILE, required=("signature",))
    return Run(str(rundir), items, summary)


# Signature parts that describe the responder: comparing runs that differ in them is the point.
RESPONDER_PARTS = frozenset({"model", "input", "dec"})


def signature_differences(signatures: Sequence[str]) -> dict[str, list[str | None]]:
    """Signature parts (other than the responder's) whose values differ between runs: part -> values."""
    parsed = [parse_signature(s) for s in signatures]
    keys = dict.fromkeys(k for p in parsed for k in p)
    return {
        k: [p.get(k) for p in parsed]
        for k in keys
        if k not in RESPONDER_PARTS and len({p.get(k) for p in parsed}) > 1
    }


def compare_runs(
    rundirs: Sequence[str | Path], *, seed: int = 0, n_boot: int = N_BOOT, allow_different_data: bool = False
) -> dict[str, Any]:
    """Every run against the first, on the items every run decided: per figure, each run's mean over
    those items, their number, and the paired difference to run 1. Runs on different data are refused
    unless ``allow_different_data``; any other signature difference becomes a warning."""
    if len(rundirs) < 2:
        raise InputError("compare needs at least two run directories")
    runs = [load_scored_run(d) for d in rundirs]
    diffs = signature_differences([r.signature for r in runs])
    if "data" in diffs and not allow_different_data:
        raise InputError(
            f"runs were scored on different datasets (data: {', '.join(map(str, diffs['data']))}); "
            "their numbers are not comparable (--allow-different-data compares the shared ids anyway)"
        )
    warnings = [
        f"runs differ in {k}: "
        + ", ".join(f"run{i + 1} {v if v is not None else '(absent)'}" for i, v in enumerate(vals))
        for k, vals in diffs.items()
    ]
    base = runs[0]
    common = [i for i in base.items if all(i in r.items and r.items[i].score is not None for r in runs)]
    if not common:
        raise InputError("the runs share no item that all of them decided")
    common_rows = [base.items[i] for i in common]
    figures: list[dict[str, Any]] = []
    for key, label, pred in figure_groups(common_rows):
        ids = [r.id for r in common_rows if pred(r)]
        if not ids:
            continue
        scores = [[float(r.items[i].score) for i in ids] for r in runs]  # type: ignore[arg-type]
        qa_ids = [base.items[i].qa_id for i in ids]
        enough = enough_for_interval(len(ids), len(set(qa_ids)))  # else: the difference, no p-value
        boots = n_boot if enough else 0
        entry: dict[str, Any] = {
            "key": key,
            "label": label,
            "n": len(ids),
            "qas": len(set(qa_ids)),
            "too_few": not enough,
            "runs": [{"mean": sum(x) / len(x)} for x in scores],
            "diffs": [
                {
                    "run": k,
                    **paired_bootstrap(
                        scores[0], x, seed=seed, name=f"{key}:{k}", n_boot=boots, clusters=qa_ids
                    ),
                }  # fmt: skip
                for k, x in enumerate(scores[1:], start=1)
            ],
        }
        figures.append(entry)
    return {
        "runs": [{"dir": r.dir, "signature": r.signature, "items": len(r.items)} for r in runs],
        "common_items": len(common),
        "figures": figures,
        "warnings": warnings,
        "bootstrap": {"seed": seed, "n_boot": n_boot, "resample": "qa_id"},
    }


def plot_comparison(
    rundirs: Sequence[str | Path], path: str | Path, *, seed: int = 0, n_boot: int = N_BOOT
) -> Path:
    """Every run's distance curve on one figure (each over its own scored items, intervals over QAs);
    runs are labelled run1, run2... as in the table, with their model when the signature names one."""
    from consistest.tasks.consistest.curve import model_label, plot_curves
    from consistest.tasks.consistest.report import distance_curve

    curves = []
    for k, d in enumerate(rundirs, start=1):
        run = load_scored_run(d)
        model = parse_signature(run.signature).get("model")
        label = f"run{k} " + (model_label(model) if model else Path(run.dir).name)
        curves.append((label, distance_curve(list(run.items.values()), seed=seed, n_boot=n_boot)))
    return plot_curves(curves, Path(path), title="consistency against distance (95% CI over QAs)")


def _stars(p: float | None) -> str:
    if p is None:
        return ""
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def _p_text(p: float, n_boot: int) -> str:
    """``p=0.034``; a bootstrap p of 0 only says p < 1/n_boot, so it prints as such."""
    floor = 1 / max(n_boot, 1)
    return f"p<{floor:.3g}" if p < floor else f"p={p:.3f}"


def render_comparison(cmp: dict[str, Any], fmt: str = "table") -> str:
    """Side-by-side means on the shared items; each later run's delta vs run 1 with its paired p-value."""
    if fmt == "json":
        return json.dumps(cmp, indent=2, sort_keys=True)
    n = len(cmp["runs"])
    header = ["figure", "n"] + [f"run{k + 1}" for k in range(n)]
    header += [f"run{k + 1}-run1 (p)" for k in range(1, n)]
    rows = []
    for f in cmp["figures"]:
        cells = [f["label"], str(f["n"])] + [pct(r["mean"]) for r in f["runs"]]
        for d in f["diffs"]:
            delta = "-" if d["delta"] is None else f"{100 * d['delta']:+.1f}"
            p = "" if d["p"] is None else f" ({_p_text(d['p'], cmp['bootstrap']['n_boot'])}){_stars(d['p'])}"
            cells.append(delta + (" (too few)" if f.get("too_few") and d["delta"] else p))
        rows.append(cells)
    total = max(r["items"] for r in cmp["runs"])
    legend = [f"run{k + 1}: {r['dir']}  {r['signature']}" for k, r in enumerate(cmp["runs"])]
    legend.append(
        f"means over the {cmp['common_items']:,} items every run decided (of up to {total:,}); "
        "p: paired bootstrap, two-sided; * p<0.05, ** p<0.01, *** p<0.001"
    )
    if any(f.get("too_few") for f in cmp["figures"]):
        legend.append(f"too few: no p-value or star where {too_few_text()}")
    legend += [f"warning: {w}; these numbers may not be comparable" for w in cmp["warnings"]]
    if fmt == "markdown":
        return "\n".join(format_table(header, rows, fmt) + [""] + [f"- {x}" for x in legend])
    return "\n".join(format_table(header, rows, fmt) + legend)
