"""The figure of ``consistest agree --plot``: every labels file side by side, so a dev set and a test set (or
several fresh sets) can be seen at once. Left: MSE of ``paper``, ``plus`` (and the judge, when one is
configured) against the human labels; right: the share of Y/N replies without a yes/no word or short form
that each decides right (undecided ones count as wrong). 95% intervals resample whole QAs, as in the
table; a scorer that leaves replies undecided has its MSE over those it decides, marked "decided/n"; the
signature is printed under the panels. A set can be drawn hollow (``hollow``), e.g. one the rules were
designed on.
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from consistest.core import plotting
from consistest.tasks.consistest.agree import IMPROVED, JUDGE_ROW, REFERENCE, AgreeResult

COLOURS = {REFERENCE: "tab:gray", IMPROVED: "tab:blue", JUDGE_ROW: "tab:green"}


def require_matplotlib() -> None:
    """Fail now (EnvironmentFault, exit 1) when matplotlib is missing, before any reply is scored."""
    plotting.pyplot("agree --plot")


def agreement_points(result: AgreeResult) -> list[dict[str, Any]]:
    """Per labels file: its name, size, and for each scorer drawn its MSE and Y/N-without-short-form share,
    each with its interval (plain data: ``benchmarks/judges_by_set.py`` saves and redraws it)."""
    out = []
    for name, sp in result.splits.items():
        methods = {}
        for m in (REFERENCE, IMPROVED, JUDGE_ROW):
            row = sp.rows.get(m)
            if row is None:
                continue
            methods[m] = {
                "decided": row["n"], "mse": row["mse"], "mse_ci": row["mse_ci"],
                "no_short_n": row["yn_no_short"]["n"], "no_short_right": row["yn_no_short_right"],
                "no_short_right_ci": row["yn_no_short_right_ci"],
            }  # fmt: skip
        out.append({"set": name, "n": sp.counts["all"], "methods": methods})
    return out


SIDE_BY_SIDE = 6  # up to this many labels files the two panels sit side by side


def plot_agreement(
    points: Sequence[Mapping[str, Any]],
    path: Path,
    signature: str,
    *,
    hollow: Collection[str] = (),
    target: float | None = None,
    title: str = "",
) -> Path:
    """Two panels, one column of points per labels file (``hollow`` ones drawn hollow); ``target`` draws a
    line on the right panel (a share, e.g. 0.85). Written atomically to ``path``."""
    plt = plotting.pyplot("agree --plot")
    from matplotlib.lines import Line2D

    if len(points) > SIDE_BY_SIDE:  # many sets: the panels one above the other, each as wide as the page
        width = max(7.0, 0.75 * len(points) + 1.5)
        fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(width, 7.6))
    else:
        width = max(7.0, 1.6 * len(points) + 2)
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(width, 4.2))
    methods = list(dict.fromkeys(m for p in points for m in p["methods"]))
    step = 0.24 / max(1, len(methods) - 1)
    for j, m in enumerate(methods):
        dx, colour = (j - (len(methods) - 1) / 2) * step, COLOURS[m]
        for x, p in enumerate(points):
            f = p["methods"].get(m)
            if f is None or f["mse"] is None:
                continue
            face = "white" if p["set"] in hollow else colour
            _point(ax1, x + dx, f["mse"], f["mse_ci"], colour, face, 1.0)
            if f["decided"] < p["n"]:  # MSE over the replies it decides: say how many
                ax1.annotate(f"{f['decided']}/{p['n']}", (x + dx, f["mse"]), xytext=(5, -3),
                             textcoords="offset points", fontsize=6, color=colour)  # fmt: skip
            if f["no_short_right"] is not None:
                _point(ax2, x + dx, f["no_short_right"], f["no_short_right_ci"], colour, face, 100.0)
    # the highest bar (or point, without intervals: --n-boot 0)
    tops = [
        (f["mse_ci"] or (f["mse"],))[-1]
        for p in points
        for f in p["methods"].values()
        if f["mse"] is not None
    ]
    worst = max(tops, default=0.1)
    ax1.set_ylim(0, worst * 1.2)  # room for the legend above the bars
    ax1.set_ylabel("MSE against the human labels (lower is better)", fontsize=8)
    ax2.set_ylabel("Y/N replies without a short form decided right (%)", fontsize=8)
    if target is not None:
        ax2.axhline(100 * target, color="tab:red", ls="--", lw=1, label=f"target {100 * target:.0f}%")
        ax2.legend(loc="lower left", fontsize=8)
    handles = [Line2D([], [], marker="o", ls="", color=COLOURS[m], label=m) for m in methods]
    ax1.legend(handles=handles, loc="upper left", ncol=len(methods), fontsize=8)
    names = [f"{p['set']}\n{p['n']}" for p in points]
    for ax in (ax1, ax2):
        ax.set_xticks(list(range(len(points))), names, fontsize=8)
        ax.set_xlim(-0.5, len(points) - 0.5)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(
        title or "each scorer against the human labels, per labels file (95% CI over QAs)", fontsize=9
    )
    cut = signature.find("|nli:")
    parts = [signature] if cut < 0 else [signature[:cut], signature[cut:]]
    lines = [w for part in parts for w in textwrap.wrap(part, int(width * 21), break_on_hyphens=False)]
    fig.text(0.01, 0.005, "\n".join(lines), fontsize=5.5, family="monospace")
    bottom = (len(lines) * 7.5 / 72 + 0.05) / fig.get_figheight()  # 7.5 points a line of 5.5-point type
    fig.tight_layout(rect=(0, bottom, 1, 0.95))
    return plotting.save_png(fig, plt, path)


def _point(
    ax: Any, x: float, y: float, ci: Sequence[float] | None, colour: str, face: str, scale: float
) -> None:
    lo, hi = ci if ci else (y, y)
    ax.errorbar(x, scale * y, yerr=[[scale * (y - lo)], [scale * (hi - y)]], fmt="o", color=colour, mfc=face,
                capsize=3)  # fmt: skip
