"""The ``consistest agree`` report: one table per labels file (dev, test ...), then the signature."""

from __future__ import annotations

import json
from typing import Any

MEANS = (("All", "mean_all"), ("WH", "mean_wh"), ("Y/N", "mean_yn"))
WITH_CI = (
    ("MSE", "mse"),
    ("agree", "agreement"),
    ("kappa Y/N", "kappa_yn"),
    ("Y/N no SF right", "yn_no_short_right"),
)
CELL = 21  # "0.083 [0.060,0.108]" and a margin


def render_agreement(result: Any, fmt: str = "table") -> str:
    """Per labels file: Table 4 with intervals, the plus - paper line, rows per model, the ablation; then
    the signature naming every labels file (``result``: an ``agree.AgreeResult``)."""
    if fmt == "json":
        return json.dumps(result.to_dict(), indent=1, sort_keys=True)
    blocks = [_split_block(sp) for sp in result.splits.values()]
    return "\n\n".join(blocks) + "\n" + result.signature


def _split_block(sp: Any) -> str:
    c = sp.counts
    head = (f"{sp.name}: {sp.path} ({c['all']} replies: WH {c['wh']}, Y/N {c['yn']}, of which "
            f"{c['yn_no_short']} without a yes/no word or short form)")  # fmt: skip
    lines = [head, _table("method", sp.rows)]
    lines.append(_diff_line("plus - paper", sp.comparison))
    if sp.judge_vs_paper is not None:
        lines.append(_diff_line("judge - paper", sp.judge_vs_paper))
    if sp.by_model:
        lines += ["", _model_table(sp.by_model)]
    if sp.ablation:
        lines += ["", _ablation_table(sp.ablation)]
    return "\n".join(lines)


def _table(title: str, rows: dict[str, dict[str, Any]]) -> str:
    width = max(len(title), *(len(k) for k in rows)) + 2
    head = f"{title:<{width}}{'n':>5}" + "".join(f"{c:>7}" for c, _ in MEANS)
    head += "".join(f"  {c + ' [95% CI]':<{CELL}}" for c, _ in WITH_CI)
    out = [head.rstrip()]
    for name, row in rows.items():
        cells = "".join(f"{_num(row.get(k)):>7}" for _, k in MEANS)
        cells += "".join(f"  {_with_ci(row, k):<{CELL}}" for _, k in WITH_CI)
        undecided = f"  ({row['undecided']} undecided)" if row.get("undecided") else ""
        out.append(f"{name:<{width}}{row['n']:>5}{cells}".rstrip() + undecided)
    return "\n".join(out)


def _model_table(by_model: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Per model that wrote the replies: the human mean and each hybrid's MSE and agreement."""
    width = max(len("by model"), *(len(m) for m in by_model)) + 2
    methods = [k for k in next(iter(by_model.values())) if k != "Human"]
    head = f"{'by model':<{width}}{'n':>5}{'human':>7}"
    head += "".join(f"  {f'{m[8:-1]} {c} [95% CI]':<{CELL + 6}}" for m in methods for c in ("MSE", "agree"))
    out = [head.rstrip()]
    for model, rows in by_model.items():
        cells = "".join(
            f"  {_with_ci(rows[m], k):<{CELL + 6}}" for m in methods for k in ("mse", "agreement")
        )
        line = f"{model:<{width}}{rows['Human']['n']:>5}{_num(rows['Human']['mean_all']):>7}{cells}".rstrip()
        left = [f"{m[8:-1]} {rows[m]['undecided']}" for m in methods if rows[m].get("undecided")]
        out.append(line + (f"  (undecided: {', '.join(left)})" if left else ""))
    return "\n".join(out)


def _ablation_table(rows: dict[str, dict[str, Any]]) -> str:
    """One row per rule set: MSE and agreement, and their paired difference to the paper's hybrid."""
    width = max(len(k) for k in rows) + 2
    out = [f"{'ablation':<{width}}{'n':>5}{'MSE':>8}{'agree':>8}   {'MSE - paper':<24}agree - paper"]
    for name, row in rows.items():
        comp = row["vs_paper"]
        out.append(f"{name:<{width}}{row['n']:>5}{_num(row['mse']):>8}{_num(row['agreement']):>8}   "
                   f"{_delta(comp['mse']):<24}{_delta(comp['agreement']):<24}".rstrip())  # fmt: skip
    return "\n".join(out)


def _with_ci(row: dict[str, Any], key: str) -> str:
    value, ci = row.get(key), row.get(f"{key}_ci")
    if value is None:
        return "-"
    return f"{value:.3f}" + ("" if ci is None else f" [{ci[0]:.3f},{ci[1]:.3f}]")


def _delta(d: dict[str, Any]) -> str:
    if d["delta"] is None:
        return "-"
    ci = "" if d["ci_low"] is None else f" [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]"
    return f"{d['delta']:+.3f}{ci}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _diff_line(name: str, comp: dict[str, Any]) -> str:
    parts = [f"{label} {_delta(comp[key])}" for key, label in (("mse", "MSE"), ("agreement", "agreement"))]
    return f"{name} (paired bootstrap 95% CI, n={comp['n']}): " + ", ".join(parts)
