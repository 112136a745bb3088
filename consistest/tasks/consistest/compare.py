"""Compare scored runs side by side: each figure per run, and a paired bootstrap for each difference."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_json, read_jsonl
from consistest.core.signature import parse_signature
from consistest.core.stats import N_BOOT, paired_bootstrap
from consistest.tasks.consistest.report import SCORES_FILE, SUMMARY_FILE, figure_groups, format_table, pct


def load_run(rundir: str | Path) -> dict[str, Any]:
    """A run directory's rows (by id) and summary."""
    rundir = Path(rundir)
    if not rundir.is_dir():
        raise InputError("run directory not found", path=str(rundir))
    rows = {obj["id"]: obj for _, obj in read_jsonl(rundir / SCORES_FILE)}
    return {"dir": str(rundir), "rows": rows, "summary": read_json(rundir / SUMMARY_FILE)}


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
    rundirs: Sequence[str | Path], *, seed: int = 0, n_boot: int = N_BOOT, force: bool = False
) -> dict[str, Any]:
    """Every run against the first, on the items every run decided: per figure, each run's mean over
    those items, their number, and the paired difference to run 1. Runs on different data are refused
    unless ``force``; any other signature difference becomes a warning."""
    if len(rundirs) < 2:
        raise InputError("compare needs at least two run directories")
    runs = [load_run(d) for d in rundirs]
    diffs = signature_differences([r["summary"]["signature"] for r in runs])
    if "data" in diffs and not force:
        raise InputError(
            f"runs were scored on different datasets (data: {', '.join(map(str, diffs['data']))}); "
            "their numbers are not comparable (--force compares the shared ids anyway)"
        )
    warnings = [
        f"runs differ in {k}: "
        + ", ".join(f"run{i + 1} {v if v is not None else '(absent)'}" for i, v in enumerate(vals))
        for k, vals in diffs.items()
    ]
    base = runs[0]
    common = [
        i
        for i, row in base["rows"].items()
        if all(i in r["rows"] and r["rows"][i]["score"] is not None for r in runs)
        and row["score"] is not None
    ]
    if not common:
        raise InputError("the runs share no item that all of them decided")
    common_rows = [base["rows"][i] for i in common]
    figures: list[dict[str, Any]] = []
    for key, label, pred in figure_groups(common_rows):
        ids = [r["id"] for r in common_rows if pred(r)]
        if not ids:
            continue
        scores = [[float(r["rows"][i]["score"]) for i in ids] for r in runs]
        entry: dict[str, Any] = {
            "key": key,
            "label": label,
            "n": len(ids),
            "runs": [{"mean": sum(x) / len(x)} for x in scores],
            "diffs": [
                {"run": k, **paired_bootstrap(scores[0], x, seed=seed, name=f"{key}:{k}", n_boot=n_boot)}
                for k, x in enumerate(scores[1:], start=1)
            ],
        }
        figures.append(entry)
    sizes = [len(r["rows"]) for r in runs]
    return {
        "runs": [
            {"dir": r["dir"], "signature": r["summary"]["signature"], "items": n}
            for r, n in zip(runs, sizes, strict=True)
        ],
        "common_items": len(common),
        "figures": figures,
        "warnings": warnings,
        "bootstrap": {"seed": seed, "n_boot": n_boot},
    }


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
            cells.append(delta + p)
        rows.append(cells)
    total = max(r["items"] for r in cmp["runs"])
    legend = [f"run{k + 1}: {r['dir']}  {r['signature']}" for k, r in enumerate(cmp["runs"])]
    legend.append(
        f"means over the {cmp['common_items']:,} items every run decided (of up to {total:,}); "
        "p: paired bootstrap, two-sided; * p<0.05, ** p<0.01, *** p<0.001"
    )
    legend += [f"warning: {w}; these numbers may not be comparable" for w in cmp["warnings"]]
    if fmt == "markdown":
        return "\n".join(format_table(header, rows, fmt) + [""] + [f"- {x}" for x in legend])
    return "\n".join(format_table(header, rows, fmt) + legend)
