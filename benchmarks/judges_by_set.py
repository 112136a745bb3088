"""The scorer against the annotators on every labelled set, in one figure: dev sets beside fresh test sets.

    python benchmarks/judges_by_set.py --dataset data/built/consistest-02 --nli models/guard-v3 \\
        --labels "dev=tests/data/heldout/dev.jsonl" --labels "test6*=tests/data/heldout/test6.jsonl" ... \\
        --out docs/img/judges-by-set.png [--json judges-by-set.json]
    python benchmarks/judges_by_set.py --from-json --json judges-by-set.json --out judges-by-set.png

A name ending in ``*`` marks a set read for the first time by the scorer as it is now (a test figure);
the others are dev (the rules were designed, or changed, after reading them). Two panels: MSE of ``paper``
and ``plus`` with 95% intervals (QAs resampled whole), and the share of Y/N replies without a yes/no word or
short form that ``plus`` decides right, against the 85% target of issue 20. One ``run_agree`` call scores
every set, so the figure's signature is the one ``consistest agree`` prints for the same files.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.tasks.consistest.agree import IMPROVED, REFERENCE, AgreeConfig, run_agree

TARGET_NO_SHORT = 0.85


def figures(labels: list[str], dataset: Path, nli: str) -> tuple[str, list[dict[str, Any]]]:
    """Per set: name, whether it is a first read, n, paper and plus MSE with intervals, Y/N without a short
    form decided right with its interval."""
    specs = [(s.split("=", 1)[0], s.split("=", 1)[1]) for s in labels]
    res = run_agree(
        AgreeConfig(dataset=dataset, labels=[f"{n.rstrip('*')}={p}" for n, p in specs], nli=nli, quiet=True)
    )
    out = []
    for name, _ in specs:
        sp = res.splits[name.rstrip("*")]
        paper, plus = sp.rows[REFERENCE], sp.rows[IMPROVED]
        out.append(
            {
                "set": name.rstrip("*"),
                "first_read": name.endswith("*"),
                "n": sp.counts["all"],
                "paper_mse": paper["mse"],
                "paper_mse_ci": paper["mse_ci"],
                "plus_mse": plus["mse"],
                "plus_mse_ci": plus["mse_ci"],
                "no_short_n": plus["yn_no_short"]["n"],
                "no_short_right": plus["yn_no_short_right"],
                "no_short_right_ci": plus["yn_no_short_right_ci"],
            }
        )
    return res.signature, out


def draw(signature: str, rows: list[dict[str, Any]], out: Path) -> None:
    """Two panels, one point per set; test sets (first reads) filled, dev sets hollow."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    xs = range(len(rows))
    for key, colour, dx in (("paper", "tab:gray", -0.12), ("plus", "tab:blue", 0.12)):
        for x, r in zip(xs, rows, strict=True):
            lo, hi = r[f"{key}_mse_ci"]
            face = colour if r["first_read"] else "white"
            ax1.errorbar(
                x + dx,
                r[f"{key}_mse"],
                yerr=[[r[f"{key}_mse"] - lo], [hi - r[f"{key}_mse"]]],
                fmt="o",
                color=colour,
                mfc=face,
                capsize=3,
            )
    ax1.set_ylabel("MSE against the annotators (lower is better)")
    ax1.set_ylim(0, max(r["paper_mse_ci"][1] for r in rows) * 1.2)  # room for the legend above the bars
    ax1.legend(
        handles=[
            Line2D([], [], marker="o", ls="", color=c, label=k)
            for k, c in (("paper", "tab:gray"), ("plus", "tab:blue"))
        ],
        loc="upper left",
        ncol=2,
    )
    for x, r in zip(xs, rows, strict=True):
        v, (lo, hi) = r["no_short_right"], r["no_short_right_ci"]
        face = "tab:blue" if r["first_read"] else "white"
        ax2.errorbar(
            x,
            100 * v,
            yerr=[[100 * (v - lo)], [100 * (hi - v)]],
            fmt="o",
            color="tab:blue",
            mfc=face,
            capsize=3,
        )
    ax2.axhline(100 * TARGET_NO_SHORT, color="tab:red", ls="--", lw=1, label="target 85%")
    ax2.set_ylabel("plus: Y/N without a short form decided right (%)")
    ax2.legend(loc="lower left")
    names = [f"{r['set']}\n{r['n']}" for r in rows]
    for ax in (ax1, ax2):
        ax.set_xticks(list(xs), names, fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    title = "filled: test (first read by today's scorer); hollow: dev (read before, rules changed since)"
    fig.suptitle(title, fontsize=9)
    cut = signature.find("|nli:")
    fig.text(0.01, 0.005, f"{signature[:cut]}\n{signature[cut:]}", fontsize=5.5, family="monospace")
    fig.tight_layout(rect=(0, 0.05, 1, 0.95))
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=130)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path)
    ap.add_argument("--nli")
    ap.add_argument("--labels", action="append", help="NAME=FILE; NAME* for a first read")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--json", type=Path, help="the figures saved (read with --from-json)")
    ap.add_argument("--from-json", action="store_true", help="draw the figures saved by an earlier run")
    args = ap.parse_args()
    if args.from_json:
        saved = json.loads(args.json.read_text())
        signature, rows = saved["signature"], saved["sets"]
    elif not (args.dataset and args.nli and args.labels):
        ap.error("--dataset, --nli and --labels are needed unless --from-json")
    else:
        try:
            signature, rows = figures(args.labels, args.dataset, args.nli)
        except InputError as err:  # a missing dataset or a bad labels file: one line, not a traceback
            raise SystemExit(f"judges_by_set.py: error: {err}") from None
    draw(signature, rows, args.out)
    if args.json and not args.from_json:
        args.json.write_text(json.dumps({"signature": signature, "sets": rows}, indent=1) + "\n")
    for r in rows:
        kind = "test" if r["first_read"] else "dev"
        print(
            f"{r['set']:<8} n={r['n']:<4} {kind:<5} paper {r['paper_mse']:.3f} plus {r['plus_mse']:.3f} "
            f"no-short {100 * r['no_short_right']:.1f}% of {r['no_short_n']}"
        )
    print(signature)


if __name__ == "__main__":
    main()
