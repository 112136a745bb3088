"""CDConv's Table 4 on our machines: the three detector methods, several seeds, split by context.

    python benchmarks/cdconv_detectors.py --data ../shared/data/cdconv/cdconv.jsonl --out runs/cdconv \
        --base scratch --seeds 0,1,2,3 --epochs 5 --lr 3e-4 --threads 1

trains (or resumes) ``OUT/<method>-s<seed>`` with ``consistest train-detector`` for each method and seed,
then prints the mean and standard deviation over seeds of every Table 4 figure on the test split, beside
the paper's figures (RoBERTa after Chinese NLI, random row split). ``--report-only`` prints what is there.
On a GPU with a hub Chinese encoder the same script runs the paper's setting:
``--base hfl/chinese-roberta-wwm-ext --lr 5e-5 --epochs 5 --split-by row --device cuda``.

    python benchmarks/cdconv_detectors.py --compare models/det/nli-pairs,models/det/flatten \
        --sets heldout-dev.jsonl,tests/data/decode_style.jsonl --dataset data/built/consistest-02

compares trained or calibrated detectors on labelled sets (any layout ``detect`` reads): per detector and
set, 2-class accuracy, the recall of contradictions and of ``none``, 4-class accuracy and macro F1, with 95%
bootstrap intervals (the replies to one context resampled together), as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from consistest.tasks.cdconv.report import PAPER_TABLE4, by_group, detector_metrics, mean_sd, render_metrics
from consistest.tasks.cdconv.train import TrainDetectorConfig, train_detector

METHODS = ("pair", "flatten", "hierarchical")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--base", default="scratch")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--seeds", default="0,1,2,3")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--max-length", type=int, default=96)
    ap.add_argument("--split-by", default="context", choices=("context", "row"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--format", default="table", choices=("table", "markdown", "json"))
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--compare", default="", help="Detector folders, comma-separated (with --sets).")
    ap.add_argument("--sets", default="", help="Labelled sets, comma-separated (with --compare).")
    ap.add_argument("--dataset", default=None, help="Built dataset of labelled-replies sets.")
    ap.add_argument("--n-boot", type=int, default=1000)
    a = ap.parse_args()
    if a.compare:
        compare(a.compare.split(","), a.sets.split(","), a.dataset, a.n_boot, a.threads)
        return
    root = Path(a.out)
    methods = [m for m in a.methods.split(",") if m]
    seeds = [int(s) for s in a.seeds.split(",") if s]
    for seed in [] if a.report_only else seeds:  # seeds outside: an early stop leaves whole seeds
        for method in methods:
            t0 = time.time()
            cfg = TrainDetectorConfig(
                architecture=method, data=(a.data,), out=str(root / f"{method}-s{seed}"), base=a.base,
                split_by=a.split_by, epochs=a.epochs, lr=a.lr, batch_size=a.batch_size,
                max_length=a.max_length, seed=seed, threads=a.threads, device=a.device, quiet=True,
            )  # fmt: skip
            m = train_detector(cfg)["results"]["test"]
            print(
                f"{method} seed {seed}: 4-F1 {m['f1_4']:.1f} 2-acc {m['acc2']:.1f} ({time.time() - t0:.0f} s)"
            )
    report(root, methods, a.format)


def compare(detectors: list[str], sets: list[str], dataset: str | None, n_boot: int, threads: int) -> None:
    """Each detector on each labelled set: the figures with intervals, one Markdown row per pair."""
    import torch

    from consistest.tasks.cdconv.detect import evaluate_sets
    from consistest.tasks.cdconv.inputs import read_dialogues

    if threads > 0:
        torch.set_num_threads(threads)
    data = {Path(p).name: read_dialogues(p, dataset) for p in sets if p}
    cols = ["acc2", "recall_contradiction", "recall_none", "acc4", "f1_4"]
    print(
        "| detector | set | n | 2-class acc | recall contradiction | recall none | 4-class acc | 4-class F1 |"
    )
    print("| --- | --- | ---: | --- | --- | --- | --- | --- |")
    for folder in detectors:
        results, _ = evaluate_sets(folder, data, n_boot=n_boot)
        for name, m in results.items():
            figs = m["intervals"]
            cells = [_cell(figs[c]) for c in cols]
            print(f"| {Path(folder).name} | {name} | {m['n']} | " + " | ".join(cells) + " |")


def _cell(f: dict) -> str:
    if f["value"] is None:
        return "-"
    ci = f["ci"]
    return f"{f['value']:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else f"{f['value']:.1f}"


def report(root: Path, methods: list[str], fmt: str) -> None:
    """Mean±sd over the seeds found for each method, the paper's rows, and 2-class accuracy by trigger."""
    rows, triggers, signature = {}, {}, ""
    for method in methods:
        runs = [json.loads(p.read_text()) for p in sorted(root.glob(f"{method}-s*/metrics.json"))]
        if not runs:
            continue
        tests = [r["results"]["test"] for r in runs]
        rows[f"{method} (ours, {len(runs)} seeds)"] = {**mean_sd(tests), "n": tests[0]["n"]}
        rows[f"{method} (paper)"] = {**PAPER_TABLE4[method], "n": ""}
        signature = runs[0]["signature"]
        gold_pred = _trigger_acc(root, method)
        if gold_pred:
            triggers[method] = gold_pred
    gold = _gold(root, methods)
    if gold:
        rows["majority class (none)"] = detector_metrics(gold, ["none"] * len(gold))
    print(render_metrics(rows, fmt, signature))
    if triggers:
        names = sorted({t for v in triggers.values() for t in v})
        print("\n2-class accuracy by trigger (all seeds pooled): " + ", ".join(names))
        for method, accs in triggers.items():
            print(f"  {method:<13}" + " ".join(f"{accs.get(t, float('nan')):6.1f}" for t in names))


def _gold(root: Path, methods: list[str]) -> list[str]:
    """The test split's gold labels (the same for every run: the split depends on --split-seed only)."""
    for method in methods:
        for p in sorted(root.glob(f"{method}-s*/predictions-test.jsonl")):
            return [json.loads(line)["gold"] for line in p.read_text().splitlines()]
    return []


def _trigger_acc(root: Path, method: str) -> dict[str, float]:
    gold, pred, groups = [], [], []
    for p in sorted(root.glob(f"{method}-s*/predictions-test.jsonl")):
        for line in p.read_text().splitlines():
            r = json.loads(line)
            gold.append(r["gold"])
            pred.append(r["category"])
            groups.append(r["trigger"])
    return {t: m["acc2"] for t, m in by_group(gold, pred, groups).items()} if gold else {}


if __name__ == "__main__":
    main()
