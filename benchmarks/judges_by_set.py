"""The scorer against the annotators on every labelled set, in one figure: dev sets beside fresh test sets.

    python benchmarks/judges_by_set.py --dataset data/built/consistest-02 --nli models/guard-v3 \\
        --labels "dev=tests/data/heldout/dev.jsonl" --labels "test6*=tests/data/heldout/test6.jsonl" ... \\
        --out docs/img/judges-by-set.png [--json judges-by-set.json]
    python benchmarks/judges_by_set.py --from-json --json judges-by-set.json --out judges-by-set.png

A name ending in ``*`` marks a set read for the first time by the scorer as it is now (a test figure, drawn
filled); the others are dev (the rules were designed, or changed, after reading them; drawn hollow). The
figure is ``consistest agree --plot``'s (``consistest/tasks/consistest/agree_plot.py``) with the 85% target
of issue 20 on the right panel; one ``run_agree`` call scores every set, so the signature under it is the
one ``consistest agree`` prints for the same files.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.tasks.consistest.agree import AgreeConfig, run_agree
from consistest.tasks.consistest.agree_plot import agreement_points, plot_agreement

TARGET_NO_SHORT = 0.85
TITLE = "filled: test (first read by today's scorer); hollow: dev (read before, rules changed since)"


def figures(labels: list[str], dataset: Path, nli: str) -> tuple[str, list[dict[str, Any]], list[str]]:
    """One ``run_agree`` over every set: its signature, the points to draw, the names of the dev sets."""
    specs = [(s.split("=", 1)[0], s.split("=", 1)[1]) for s in labels]
    cfg = AgreeConfig(dataset=dataset, labels=[f"{n.rstrip('*')}={p}" for n, p in specs], nli=nli, quiet=True)
    res = run_agree(cfg)
    return res.signature, agreement_points(res), [n for n, _ in specs if not n.endswith("*")]


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
        signature, points, dev = saved["signature"], saved["sets"], saved["dev"]
    elif not (args.dataset and args.nli and args.labels):
        ap.error("--dataset, --nli and --labels are needed unless --from-json")
    else:
        try:
            signature, points, dev = figures(args.labels, args.dataset, args.nli)
        except InputError as err:  # a missing dataset or a bad labels file: one line, not a traceback
            raise SystemExit(f"judges_by_set.py: error: {err}") from None
    plot_agreement(points, args.out, signature, hollow=dev, target=TARGET_NO_SHORT, title=TITLE)
    if args.json and not args.from_json:
        args.json.write_text(
            json.dumps({"signature": signature, "sets": points, "dev": dev}, indent=1) + "\n"
        )
    for p in points:
        kind = "dev" if p["set"] in dev else "test"
        figs = "  ".join(
            f"{m[8:-1]} MSE {f['mse']:.3f}, no-short {100 * f['no_short_right']:.1f}% of {f['no_short_n']}"
            for m, f in p["methods"].items()
        )
        print(f"{p['set']:<8} n={p['n']:<4} {kind:<5} {figs}")
    print(signature)


if __name__ == "__main__":
    main()
