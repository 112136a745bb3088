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


def balanced(rows: list[tuple[bool, bool]]) -> float:
    """Balanced accuracy in % of (gold contradiction, flagged) pairs (nan without both classes)."""
    pos = [f for g, f in rows if g]
    neg = [not f for g, f in rows if not g]
    if not pos or not neg:
        return float("nan")
    return 50 * (sum(pos) / len(pos) + sum(neg) / len(neg))


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
    flagged = []
    for path in a.predictions:
        rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
        if undecided := sum(not r.get("category") for r in rows):
            raise SystemExit(f"{path}: {undecided} predictions without a category (undecided)")
        by_id = {r["id"]: r["category"] != "none" for r in rows}
        if len(by_id) != len(rows):
            raise SystemExit(f"{path}: {len(rows) - len(by_id)} dialogue ids predicted twice")
        if missing := [ex.id for ex in examples if ex.id not in by_id]:
            raise SystemExit(f"{path}: no prediction for {len(missing)} dialogues of {a.data} ({missing[0]})")
        flagged.append([by_id[ex.id] for ex in examples])
    gold = [ex.label != "none" for ex in examples]
    groups: dict[str, list[int]] = {}
    for i, ex in enumerate(examples):
        groups.setdefault(ex.context, []).append(i)
    keys = sorted(groups)
    rng = random.Random(a.seed)
    draws: list[list[float]] = [[], [], []]
    for _ in range(a.resamples):
        idx = [i for k in rng.choices(keys, k=len(keys)) for i in groups[k]]
        x, y = (balanced([(gold[i], f[i]) for i in idx]) for f in flagged)
        for d, v in zip(draws, (x, y, y - x), strict=True):
            d.append(v)
    point = [balanced(list(zip(gold, f, strict=True))) for f in flagged]
    names = [Path(p).name for p in a.predictions]
    print(f"{len(examples)} dialogues, {sum(gold)} contradictions, {len(keys)} contexts, {a.resamples} draws")
    labels = [*names, f"{names[1]} - {names[0]}"]
    for name, p, d in zip(labels, [*point, point[1] - point[0]], draws, strict=True):
        lo, hi = _interval(d)
        print(f"{name:50s} {p:+6.1f}  [{lo:+.1f}, {hi:+.1f}]")


if __name__ == "__main__":
    main()
