"""Two detectors' predictions on the same labelled dialogues: balanced accuracy of each and of the
difference, with a paired bootstrap that resamples contexts (every reply to one context together).

    python benchmarks/detector_paired.py --data tests/data/dialogues/test.jsonl \
        runs/dialogues/qa6-test.jsonl runs/dialogues/qa8-dialogues-test.jsonl

Each predictions file is what ``consistest detect --out`` writes for ``--data`` (every row decided);
``--dataset`` is needed when ``--data`` holds labelled ConsisTest replies; unlabelled dialogues are left
out. Printed: each file's balanced accuracy (the mean of the recalls of contradictions and of ``none``)
with a 95% interval, and the second minus the first.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from consistest.tasks.cdconv.inputs import read_dialogues
from consistest.tasks.cdconv.report import point_figures


def balanced(gold: list[str], pred: list[str]) -> float:
    """Balanced accuracy in %, as ``consistest detect`` reports it (nan without both classes)."""
    got = point_figures(gold, pred)["balanced2"]
    return float("nan") if got is None else got


def _interval(values: list[float]) -> tuple[float, float]:
    v = sorted(x for x in values if x == x)  # draws without both classes have no balanced accuracy
    if not v:
        return float("nan"), float("nan")
    return v[int(0.025 * len(v))], v[max(int(0.975 * len(v)) - 1, 0)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--dataset")
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("predictions", nargs=2)
    a = ap.parse_args()
    examples = [ex for ex in read_dialogues(a.data, a.dataset) if ex.label is not None]  # labelled only
    predicted = []
    for path in a.predictions:
        rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
        if undecided := sum(not r.get("category") for r in rows):
            raise SystemExit(f"{path}: {undecided} predictions without a category (undecided)")
        by_id = {r["id"]: r["category"] for r in rows}
        if len(by_id) != len(rows):
            raise SystemExit(f"{path}: {len(rows) - len(by_id)} dialogue ids predicted twice")
        if missing := [ex.id for ex in examples if ex.id not in by_id]:
            raise SystemExit(f"{path}: no prediction for {len(missing)} dialogues of {a.data} ({missing[0]})")
        predicted.append([by_id[ex.id] for ex in examples])
    gold = [str(ex.label) for ex in examples]
    groups: dict[str, list[int]] = {}
    for i, ex in enumerate(examples):
        groups.setdefault(ex.context, []).append(i)
    keys = sorted(groups)
    rng = random.Random(a.seed)
    draws: list[list[float]] = [[], [], []]
    for _ in range(a.resamples):
        idx = [i for k in rng.choices(keys, k=len(keys)) for i in groups[k]]
        x, y = (balanced([gold[i] for i in idx], [f[i] for i in idx]) for f in predicted)
        for d, v in zip(draws, (x, y, y - x), strict=True):
            d.append(v)
    point = [balanced(gold, f) for f in predicted]
    names = [Path(p).name for p in a.predictions]
    n_contra = sum(g != "none" for g in gold)
    print(f"{len(examples)} dialogues, {n_contra} contradictions, {len(keys)} contexts, {a.resamples} draws")
    labels = [*names, f"{names[1]} - {names[0]}"]
    for name, p, d in zip(labels, [*point, point[1] - point[0]], draws, strict=True):
        lo, hi = _interval(d)
        print(f"{name:50s} {p:+6.1f}  [{lo:+.1f}, {hi:+.1f}]")


if __name__ == "__main__":
    main()
