"""How well ``--sample N`` estimates the full benchmark: for many seeds, the subset's figures and 95%
bootstrap intervals against the full-benchmark figure, for a model-free responder (seconds, rules only).

    .venv/bin/python benchmarks/sample_coverage.py [--n 400] [--seeds 50] [--model baseline:retrieval]
        [--nli models/nli-minilm]

Prints, per Table-5 figure: the full value, the mean number of decided items in a subset, the mean
subset estimate and its spread over seeds, the mean width of the report's interval, and how often it
contains the full value (about 95% when the intervals are honest); the report resamples whole QAs (both
distances of a QA together); the last two columns are an interval that resamples samples one by one, for
comparison. Rules only unless
--nli names a guard (scored once over all samples; a subset reuses the verdicts of its samples). Needs
the real data (../shared or $CONSISTEST_SHARED).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIGURES = ("overall", "persona_wh", "persona_yn", "history_wh", "history_yn")


def item_bootstrap_ci(rows: list, seed: int, n_boot: int) -> tuple[float, float] | None:
    """95% percentile interval of the mean over decided rows, resampling samples one by one (what the
    report did before it resampled whole QAs), for comparison."""
    from consistest.core.stats import bootstrap_ci

    return bootstrap_ci([float(r.score) for r in rows if r.score is not None], seed=seed, n_boot=n_boot)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument(
        "--model", default="baseline:retrieval", choices=["baseline:retrieval", "baseline:generic"]
    )
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--nli", default=None, help="NLI guard folder (default: rules only).")
    args = ap.parse_args()

    from consistest.data.dataset_dir import load_samples
    from consistest.models.base import replies
    from consistest.models.nli import nli_from_option
    from consistest.models.registry import ModelSpec
    from consistest.tasks.consistest.build import BuildConfig, build_dataset
    from consistest.tasks.consistest.prompts import conversation
    from consistest.tasks.consistest.report import figure_groups, summarize
    from consistest.tasks.consistest.scoring import score_items
    from consistest.tasks.consistest.subsets import stratified_sample

    shared = Path(os.environ.get("CONSISTEST_SHARED", ROOT.parent / "shared")) / "data"
    out = Path(tempfile.mkdtemp(prefix="sample-coverage-")) / "ds"
    qas = shared / "consistest"
    build_dataset(BuildConfig(out=out, dialogues=shared / "personachat" / "consistest_valid.json",
                              persona_qas=qas / "persona_qas.json", history_qas=qas / "history_qas.json",
                              quiet=True))  # fmt: skip
    samples = load_samples(out)
    bot = ModelSpec(args.model).load(quiet=True)
    responses = replies(bot, [(s.id, conversation(s, "standard")) for s in samples])
    nli = nli_from_option(args.nli, None, batch_size=32, device="cpu", quiet=True) if args.nli else None
    items = score_items(samples, responses, nli, method="paper")
    full = summarize(items, signature="", n_boot=0)["figures"]
    by_id = {it.id: it for it in items}
    stats: dict[str, list[tuple[float, float, float, int]]] = {f: [] for f in FIGURES}
    item_cis: dict[str, list[tuple[float, float]]] = {f: [] for f in FIGURES}
    for seed in range(args.seeds):
        sub = [by_id[s.id] for s in stratified_sample(samples, args.n, seed)]
        figs = summarize(sub, signature="", seed=seed, n_boot=args.n_boot)["figures"]
        preds = {key: pred for key, _, pred in figure_groups(sub)}
        for f in FIGURES:
            if f in figs and figs[f]["ci"]:
                stats[f].append((figs[f]["mean"], *figs[f]["ci"], figs[f]["decided"]))
                ci = item_bootstrap_ci([r for r in sub if preds[f](r)], seed, args.n_boot)
                if ci:
                    item_cis[f].append(ci)
    guard = f"--nli {args.nli}" if args.nli else "rules only (--nli none)"
    print(f"{args.model}, {guard}, --sample {args.n}, {args.seeds} seeds, "
          f"{args.n_boot} bootstrap resamples")  # fmt: skip
    head = ("figure", "full", "decided", "mean est", "sd est", "CI width", "covers", "item width", "covers")
    widths = (6, 8, 9, 7, 9, 7, 11, 7)
    print(f"{head[0]:<12} " + " ".join(f"{h:>{w}}" for h, w in zip(head[1:], widths, strict=True)))
    for f in FIGURES:
        rows = stats[f]
        if not rows:
            continue
        means = [m for m, *_ in rows]
        avg = sum(means) / len(means)
        sd = (sum((m - avg) ** 2 for m in means) / max(len(means) - 1, 1)) ** 0.5
        width = sum(hi - lo for _, lo, hi, _ in rows) / len(rows)
        covers = sum(lo <= full[f]["mean"] <= hi for _, lo, hi, _ in rows) / len(rows)
        n_sub = round(sum(n for *_, n in rows) / len(rows))
        qa = item_cis[f]
        qa_width = sum(hi - lo for lo, hi in qa) / max(len(qa), 1)
        qa_covers = sum(lo <= full[f]["mean"] <= hi for lo, hi in qa) / max(len(qa), 1)
        print(f"{f:<12} {100 * full[f]['mean']:>6.1f} {n_sub:>8} {100 * avg:>9.1f} {100 * sd:>7.1f} "
              f"{100 * width:>9.1f} {covers:>7.0%} {100 * qa_width:>11.1f} {qa_covers:>7.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
