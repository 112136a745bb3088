"""PNG plots of a ranking report: the C_ij heatmap and the stability curve, one panel per judge
(matplotlib, from the ``aih`` extra, imported when a plot is drawn)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from consistest.core import plotting
from consistest.tasks.aih.report import full_data_note

HEATMAP_FILE = "cij.png"
STABILITY_FILE = "stability.png"
DELAY_FILE = "delay.png"


def _pyplot() -> Any:
    return plotting.pyplot("drawing plots", " (or --no-plots)")


def _judges(report: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    return [(name, j) for name, j in report["judges"].items() if "matrix" in j]


def plot_heatmap(report: Mapping[str, Any], path: Path) -> None:
    """C_ij in % (rows = partner, columns = evaluated bot) with C_j under each column."""
    import numpy as np

    plt = _pyplot()
    judges, bots = _judges(report), report["bots"]
    size = (1.2 + 1.3 * len(bots) * len(judges), 1.6 + 1.1 * len(bots))
    fig, axes = plt.subplots(1, len(judges), figsize=size, squeeze=False)
    for ax, (name, j) in zip(axes[0], judges, strict=True):
        m = np.array([[np.nan if j["matrix"][i][b] is None else 100 * j["matrix"][i][b] for b in bots]
                      for i in bots])  # fmt: skip
        vmax = max(1.0, float(np.nanmax(m)) if np.isfinite(m).any() else 1.0)
        im = ax.imshow(m, cmap="Reds", vmin=0, vmax=vmax)
        for (r, c), v in np.ndenumerate(m):
            ax.text(c, r, "-" if np.isnan(v) else f"{v:.0f}", ha="center", va="center", fontsize=9,
                    color=text_colour(v, vmax))  # fmt: skip
        ax.set_xticks(range(len(bots)), [f"{b}\nC={100 * (j['bots'][b]['C'] or 0):.0f}" for b in bots])
        ax.set_yticks(range(len(bots)), bots)
        ax.set_xlabel("evaluated bot (C_j in %)")
        ax.set_ylabel("partner")
        ax.set_title(f"{name}: contradictions per inquiry, %")
        fig.colorbar(im, ax=ax, shrink=0.8)
    _save(fig, plt, path)


def text_colour(value: float, vmax: float) -> str:
    """White on the dark half of the colour scale (black text is unreadable on dark red), else black."""
    return "white" if value == value and value > 0.5 * vmax else "black"


def plot_stability(report: Mapping[str, Any], path: Path) -> None:
    """Share of subsamples ranked as the reference against S (log axis); dashed: one bot left out."""
    plt = _pyplot()
    judges = _judges(report)
    fig, axes = plt.subplots(1, len(judges), figsize=(5.5 * len(judges), 4), squeeze=False)
    for ax, (name, j) in zip(axes[0], judges, strict=True):
        s = j["stability"]
        ax.plot(s["grid"], [100 * x for x in s["share"]], marker="o", label="all bots")
        for bot, shares in s["leave_one_out"].items():
            ax.plot(s["grid"], [100 * x for x in shares], linestyle="--", marker=".", label=f"without {bot}")
        ax.set_xscale("log")
        ax.set_xticks(s["grid"], [f"{x}\n(all)" if x == s.get("all") else str(x) for x in s["grid"]])
        ax.minorticks_off()
        ax.set_ylim(-2, 102)
        ax.set_xlabel("S, conversations per ordered pair")
        ax.set_ylabel(f"% of {s['repetitions']} subsamples ranked as reference")
        ax.set_title(f"{name}: {' > '.join(s['reference'])}", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.text(0.5, 0.01, full_data_note(judges[0][1]["stability"]), ha="center", va="bottom", fontsize=7,
             wrap=True)  # fmt: skip
    _save(fig, plt, path, bottom=0.08)


def plot_delays(report: Mapping[str, Any], path: Path) -> None:
    """C_j in % against the inquiry delay, one line per bot with its 95% interval, one panel per judge."""
    plt = _pyplot()
    judges = [(n, j) for n, j in _judges(report) if "by_delay" in j]
    fig, axes = plt.subplots(1, len(judges), figsize=(5.5 * len(judges), 4), squeeze=False)
    for ax, (name, j) in zip(axes[0], judges, strict=True):
        by = j["by_delay"]["delays"]
        delays = [int(d) for d in by]
        for bot in by[next(iter(by))]:
            pts = [(d, by[str(d)][bot]) for d in delays if by[str(d)][bot]["C"] is not None]
            if not pts:
                continue
            ys = [100 * f["C"] for _, f in pts]
            err = [[100 * (f["C"] - f["ci"][0]) if f["ci"] else 0 for _, f in pts],
                   [100 * (f["ci"][1] - f["C"]) if f["ci"] else 0 for _, f in pts]]  # fmt: skip
            ax.errorbar([d for d, _ in pts], ys, yerr=err, marker="o", capsize=3, label=bot)
        ax.set_xticks(delays, [str(d) for d in delays])
        ax.set_xlabel("inquiry delay (bot turns after the utterance)")
        ax.set_ylabel("contradictions per inquiry, %")
        ax.set_title(f"{name}: contradiction rate by delay", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    _save(fig, plt, path)


def _save(fig: Any, plt: Any, path: Path, bottom: float = 0.0) -> None:
    """Save as PNG (callers write into a temp folder that replaces the output whole); ``bottom`` keeps a
    strip free for a note under the panels."""
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig.savefig(path, format="png", dpi=120)
    plt.close(fig)
