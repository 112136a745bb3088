"""An NLI guard on hand-written sentence pairs of the kinds dialogue contradictions take: a negation in other
words, a changed number, another value (job, place, name), and, as controls, restatements and unrelated
facts. A dev diagnostic of what a guard recipe misses, not a test figure.

    python benchmarks/guard_kinds.py --nli models/guard-v3 [--pairs tests/data/guard_kinds.jsonl]

Printed per kind: the pairs, the mean P(contradiction), the share above the guard's own contradiction
threshold (``nli_threshold.json`` beside its weights; argmax where it has none) and the share the guard
reads as entailment.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from consistest.models.nli import load_nli


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nli", required=True, help="a guard folder (or hub id)")
    ap.add_argument("--pairs", default="tests/data/guard_kinds.jsonl")
    args = ap.parse_args()
    rows = [json.loads(x) for x in Path(args.pairs).read_text(encoding="utf-8").splitlines() if x.strip()]
    stored = Path(args.nli) / "nli_threshold.json"
    tau = json.loads(stored.read_text())["contradiction"] if stored.exists() else None
    nli = load_nli(args.nli, batch_size=16, device="cpu", quiet=True)
    probs = nli.predict_proba([(r["premise"], r["hypothesis"]) for r in rows])
    by_kind: dict[str, list[dict[str, float]]] = defaultdict(list)
    for r, p in zip(rows, probs, strict=True):
        by_kind[f"{r['kind']} ({r['label']})"].append(p)
    shown = "argmax" if tau is None else f"P(c) > {tau:.3f}"
    print(f"{'kind':28} {'n':>3} {'P(c)':>6} {'c read':>7} {'e read':>7}   contradiction: {shown}")
    for kind, ps in by_kind.items():
        read = [max(p, key=p.get) for p in ps]
        pairs = zip(ps, read, strict=True)
        contra = [p["contradiction"] > tau if tau is not None else r == "contradiction" for p, r in pairs]
        mean = sum(p["contradiction"] for p in ps) / len(ps)
        share_c, share_e = sum(contra) / len(ps), read.count("entailment") / len(ps)
        print(f"{kind:28} {len(ps):>3} {mean:>6.2f} {share_c:>7.0%} {share_e:>7.0%}")


if __name__ == "__main__":
    main()
