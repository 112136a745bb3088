"""Compare scored runs side by side: each figure per run, and a paired bootstrap for each difference."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from consistest.errors import InputError
from consistest.io import read_json, read_jsonl
from consistest.scoring.bootstrap import N_BOOT, paired_bootstrap
from consistest.scoring.report import SCORES_FILE, SUMMARY_FILE, figure_groups, format_table, pct
from consistest.signature import parse_signature


def load_run(rundir: str | Path) -> dict[str, Any]:
    """A run directory's rows (by id) and summary."""
    rundir = Path(rundir)
    if not rundir.is_dir():
        raise InputError("run directory not found", path=str(rundir))
    rows = {obj["id"]: obj for _, obj in read_jsonl(rundir / SCORES_FILE)}
    return {"dir": str(rundir), "rows": rows, "summary": read_json(rundir / SUMMARY_FILE)}


def compare_runs(rundirs: Sequence[str | Path], *, seed: int = 0, n_boot: int = N_BOOT) -> dict[str, Any]:
    """Every run against the first: per figure, each run's mean and the paired difference to run 1."""
    if len(rundirs) < 2:
        raise InputError("compare needs at least two run directories")
    runs = [load_run(d) for d in rundirs]
    base = runs[0]
    data = [parse_signature(r["summary"]["signature"]).get("data") for r in runs]
    if len(set(data)) > 1:
        raise InputError(f"runs were scored on different datasets (data: {', '.join(map(str, data))})")
    base_rows = list(base["rows"].values())
    figures: list[dict[str, Any]] = []
    for key, label, pred in figure_groups(base_rows):
        ids = [i for i, r in base["rows"].items() if pred(r)]
        if not ids:
            continue
        entry: dict[str, Any] = {"key": key, "label": label, "runs": [], "diffs": []}
        for r in runs:
            got = [r["rows"][i]["score"] for i in ids if i in r["rows"] and r["rows"][i]["score"] is not None]
            entry["runs"].append({"mean": sum(got) / len(got) if got else None, "n": len(got)})
        for k, r in enumerate(runs[1:], start=1):
            both = [
                i
                for i in ids
                if i in r["rows"]
                and base["rows"][i]["score"] is not None
                and r["rows"][i]["score"] is not None
            ]
            a = [base["rows"][i]["score"] for i in both]
            b = [r["rows"][i]["score"] for i in both]
            entry["diffs"].append(
                {"run": k, **paired_bootstrap(a, b, seed=seed, name=f"{key}:{k}", n_boot=n_boot)}
            )
        figures.append(entry)
    return {
        "runs": [{"dir": r["dir"], "signature": r["summary"]["signature"]} for r in runs],
        "figures": figures,
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
    """Side-by-side means; each later run's delta vs run 1 with its paired-bootstrap p-value."""
    if fmt == "json":
        return json.dumps(cmp, indent=2, sort_keys=True)
    n = len(cmp["runs"])
    header = ["figure"] + [f"run{k + 1}" for k in range(n)]
    header += [f"run{k + 1}-run1 (p)" for k in range(1, n)]
    rows = []
    for f in cmp["figures"]:
        cells = [f["label"]] + [pct(r["mean"]) for r in f["runs"]]
        for d in f["diffs"]:
            delta = "-" if d["delta"] is None else f"{100 * d['delta']:+.1f}"
            p = "" if d["p"] is None else f" ({_p_text(d['p'], cmp['bootstrap']['n_boot'])}){_stars(d['p'])}"
            cells.append(delta + p)
        rows.append(cells)
    legend = [f"run{k + 1}: {r['dir']}  {r['signature']}" for k, r in enumerate(cmp["runs"])]
    legend.append("p: paired bootstrap, two-sided; * p<0.05, ** p<0.01, *** p<0.001")
    if fmt == "markdown":
        return "\n".join(format_table(header, rows, fmt) + [""] + [f"- {x}" for x in legend])
    return "\n".join(format_table(header, rows, fmt) + legend)
