"""The plot of consistency against distance (the numbers: :func:`.report.distance_curve`), for one run
(RUNDIR/curve.png) or several on one figure (``consistest compare --plot``).

The unpaired points at long distances hold only the QAs that reach them (facts early in long streams), so
the paired line (QAs present at every distance) is the one that compares like with like; both are drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from consistest.core import plotting

CURVE_FILE = "curve.png"


def model_label(name: str) -> str:
    """A model's name for a plot: a local folder by its last part (no machine paths in figures)."""
    return Path(name).name if Path(name).is_dir() else name


def plot_curves(curves: Sequence[tuple[str, Mapping[str, Any]]], path: Path, title: str = "") -> Path:
    """One panel per group, one line per run (solid: all items; dashed: paired subset) with its 95%
    interval as error bars; distances on a symlog axis. Written atomically to ``path``."""
    plt = plotting.pyplot("the distance curve")
    keys = list(dict.fromkeys(k for _, c in curves for k in c["groups"]))
    cols = min(3, len(keys))
    rows = -(-len(keys) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows), squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, key in zip(axes.flat, keys, strict=False):
        for k, (label, c) in enumerate(curves):
            if key not in c["groups"]:
                continue
            g = c["groups"][key]
            ch = g.get("change") or {}
            note = ""
            if len(curves) == 1 and ch.get("delta") is not None and ch.get("p") is not None:
                delta = f"{100 * ch['delta']:+.1f} (p={ch['p']:.2f}, n={ch['n']})"
                note = f"\nd={ch['to']} - d={ch['from']}: {delta}"
            ax.set_title(g["label"] + note, fontsize=9)
            for part, style in (("all", "-"), ("paired", "--")):
                _line(ax, c["distances"], g[part], style, colors[k % len(colors)],
                      f"{label} ({part})" if len(curves) > 1 or part == "paired" else label)  # fmt: skip
        ax.set_xscale("symlog", linthresh=2)
        ticks = sorted({d for _, c in curves for d in c["distances"]})
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_ylim(-2, 102)
        ax.set_xlabel("distance (agent turns after the fact)", fontsize=8)
        ax.set_ylabel("consistency %", fontsize=8)
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(keys) :]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(4, len(labels)), fontsize=8, frameon=False)
    fig.suptitle(
        title or "consistency against distance (95% CI over QAs; dashed: paired subset)", fontsize=10
    )
    fig.tight_layout(rect=(0, 0.06 + 0.02 * (len(labels) // 4), 1, 0.95))
    return plotting.save_png(fig, plt, path)


def _line(ax: Any, distances: Sequence[int], figs: Sequence[Mapping[str, Any]], style: str, color: str,
          label: str) -> None:  # fmt: skip
    pts = [(d, f) for d, f in zip(distances, figs, strict=True) if f["mean"] is not None]
    if not pts:
        return
    xs = [d for d, _ in pts]
    ys = [100 * f["mean"] for _, f in pts]
    lo = [100 * (f["mean"] - f["ci"][0]) if f["ci"] else 0.0 for _, f in pts]
    hi = [100 * (f["ci"][1] - f["mean"]) if f["ci"] else 0.0 for _, f in pts]
    ax.errorbar(xs, ys, yerr=[lo, hi], linestyle=style, marker="o", markersize=3, capsize=2, color=color,
                label=label, alpha=0.9 if style == "-" else 0.6)  # fmt: skip


def plot_run_curve(
    summary: Mapping[str, Any], out: Path | None, plot: bool | None, model: str | None, *, quiet: bool = False
) -> None:
    """RUNDIR/curve.png when the summary has a curve (``plot`` False: never); without matplotlib only a
    warning, unless ``plot`` is True (asked for)."""
    from consistest.core import log

    if "curve" not in summary or plot is False or out is None:
        return
    if plot is None and not plotting.plot_available():
        log.warning("the distance curve is in summary.json; install matplotlib to draw curve.png")
        return
    name = model_label(model) if model is not None else "responses"
    plot_curves([(name, summary["curve"])], out / CURVE_FILE, title=f"{name}: consistency against distance")
    log.info(f"distance curve written to {out / CURVE_FILE}", quiet=quiet)
