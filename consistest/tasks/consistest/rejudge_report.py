"""``consistest rejudge``'s report as text, Markdown or JSON: the spread table (each figure per column and its
spread), per-item disagreement, the cascade's stages, the probe pass rates, and every column's signature."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from consistest.core.table import format_table, pct
from consistest.tasks.consistest.methods.judge import stages_line

SHOWN = ("overall", "persona_wh", "persona_yn", "history_wh", "history_yn")  # plus every d=N figure


def render(report: Mapping[str, Any], fmt: str = "table") -> str:
    if fmt == "json":
        return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False)
    lines = [f"Rejudged {report['n']:,} replies of {report['run']}; columns:"]
    lines += [f"  {short}: {col}" for short, col in names(report).items()] + [""]
    lines += spread_table(report, fmt) + [""]
    lines += format_table(
        ["reference", "column", "n", "scored differently", "column - reference [95% CI]"],
        [_disagreement_row(report, d) for d in report["disagreement"]],
        fmt,
    )
    lines += ["", *stage_lines(report), *probe_lines(report, fmt), "", "Signatures:"]
    for col in report["columns"]:
        name, sig = short(report, col), report["signatures"][col]
        lines.append(f"  {name}: {sig}" if fmt != "markdown" else f"- {name}: `{sig}`")
    sig = report["signature"]
    return "\n".join([*lines, "", f"`{sig}`" if fmt == "markdown" else sig])


def judged(report: Mapping[str, Any]) -> list[str]:
    """The judged columns, in the report's order."""
    return [c for c in report["columns"] if c != "run"]


def names(report: Mapping[str, Any]) -> dict[str, str]:
    """Short column names for the tables: ``run``, then J1, J2... for the judged columns."""
    return {"run": f"the run's stored scores ({report['run_method']})"} | {
        f"J{k}": c for k, c in enumerate(judged(report), 1)
    }


def short(report: Mapping[str, Any], col: str) -> str:
    return next(k for k, v in names(report).items() if v == col or k == col)


def spread_table(report: Mapping[str, Any], fmt: str) -> list[str]:
    """One row per figure: each column's mean [95% CI], then the spread across the judged columns."""
    cols = report["columns"]
    keys = [k for k in report["figures"][cols[-1]] if k in SHOWN or k.startswith("d=")]
    rows = []
    for key in keys:
        cells = [_mean_ci(report["figures"][c].get(key)) for c in cols]
        label = report["figures"][cols[-1]][key]["label"]
        rows.append([label, *cells, pct(report["spread"].get(key))])
    return format_table(["figure", *(short(report, c) for c in cols), "spread"], rows, fmt)


def _mean_ci(f: Mapping[str, Any] | None) -> str:
    if not f or f.get("mean") is None:
        return "-"
    ci = f.get("ci")
    return f"{pct(f['mean'])} [{pct(ci[0])}, {pct(ci[1])}]" if ci else pct(f["mean"])


def _disagreement_row(report: Mapping[str, Any], d: Mapping[str, Any]) -> list[str]:
    diff = d["difference"]
    delta = "-" if diff["delta"] is None else f"{100 * diff['delta']:+.1f}"
    if diff.get("ci_low") is not None:
        delta += f" [{100 * diff['ci_low']:+.1f}, {100 * diff['ci_high']:+.1f}]"
    share = "-" if d["differ_share"] is None else f"{d['differ']:,} ({pct(d['differ_share'])}%)"
    return [short(report, d["reference"]), short(report, d["column"]), f"{d['n']:,}", share, delta]


def stage_lines(report: Mapping[str, Any]) -> list[str]:
    return [f"{short(report, col)} {stages_line(report['stages'][col])}" for col in judged(report)]


def probe_lines(report: Mapping[str, Any], fmt: str) -> list[str]:
    probes = report.get("probes")
    if not probes:
        return []
    rows = []
    for col in ["paper", *judged(report)]:  # the report's column order (JSON files keep keys sorted)
        p = probes["columns"][col]
        ci = p["ci"]
        rate = "-" if p["pass_rate"] is None else pct(p["pass_rate"])
        rows.append(
            [
                "paper rules" if col == "paper" else short(report, col),
                f"{p['passed']:,}",
                f"{p['decided']:,} of {probes['n']:,}",
                rate + (f" [{pct(ci[0])}, {pct(ci[1])}]" if ci else ""),
            ]
        )
    head = f"Wrong but on-topic replies passed (score > 0; {probes['n']:,} probes, another persona's answer):"
    return [
        "",
        head,
        *format_table(["scorer", "passed", "decided", "pass rate % of decided [95% CI]"], rows, fmt),
    ]
