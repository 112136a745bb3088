"""``consistest rank`` end to end: rank a run, add human agreement, write the report folder and exports.

The report folder (default RUNDIR/rank) holds ``rank.json``, ``rank.md`` and the PNGs; it is built in a
temp folder and replaces an earlier report whole (any other folder is refused).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.io import atomic_dir, atomic_write_json, atomic_write_text
from consistest.core.output_guards import guard_output_dir
from consistest.tasks.aih.human import agreement, export_for_judges, read_labels
from consistest.tasks.aih.plots import (
    DELAY_FILE,
    HEATMAP_FILE,
    STABILITY_FILE,
    plot_delays,
    plot_heatmap,
    plot_stability,
)
from consistest.tasks.aih.rank import RankConfig, load_converse_run, rank
from consistest.tasks.aih.report import render

REPORT_FILE = "rank.json"
MARKDOWN_FILE = "rank.md"


@dataclass(frozen=True)
class RankOutputs:
    """Where the report goes (None: nothing written), plots or not, the human-judging files."""

    out: Path | None = None
    plots: bool = True
    export_for_judges: Path | None = None
    judged: Path | None = None
    overwrite: bool = False  # replace an --out folder that is not an earlier report
    quiet: bool = False


def run_rank(cfg: RankConfig, outputs: RankOutputs) -> dict[str, Any]:
    """Rank ``cfg.run``; write the report folder and the export; return the report."""
    run = load_converse_run(cfg.run)
    report = rank(cfg, run)
    if outputs.judged is not None:
        labels = read_labels(outputs.judged, run.inquiries)
        report["human"] = agreement(run.inquiries, labels, cfg.taus, cfg.tau)
    if outputs.out is not None:
        inputs = [cfg.run, *([outputs.judged] if outputs.judged is not None else [])]
        out = guard_output_dir(
            outputs.out,
            marker=REPORT_FILE,
            overwrite=outputs.overwrite,
            inputs=inputs,
            what="consistest rank",
        )
        with atomic_dir(out) as tmp:
            atomic_write_json(tmp / REPORT_FILE, report)
            atomic_write_text(tmp / MARKDOWN_FILE, render(report, "markdown") + "\n")
            if outputs.plots and any("matrix" in j for j in report["judges"].values()):
                plot_heatmap(report, tmp / HEATMAP_FILE)
                plot_stability(report, tmp / STABILITY_FILE)
                if any("by_delay" in j for j in report["judges"].values()):
                    plot_delays(report, tmp / DELAY_FILE)
        log.info(f"aih: report written to {out}", quiet=outputs.quiet)
    if outputs.export_for_judges is not None:
        n = export_for_judges(run.inquiries, outputs.export_for_judges, cfg.seed)
        log.info(
            f"aih: {n} inquiries written to {outputs.export_for_judges} for labelling", quiet=outputs.quiet
        )
    return report
