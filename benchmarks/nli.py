"""Pairs/s of the scorer's NLI stage (``load_nli(...).predict``) on a trained model, e.g. models/nli-minilm.

    .venv/bin/python benchmarks/nli.py models/nli-minilm --pairs 2000 [--data FILE] [--unsorted] [--threads 1]

Pairs are the first N distinct (premise, hypothesis) pairs of the data file (NLI or DNLI JSONL; default the
shared SNLI dev), so deduplication does not flatter the figure. Prints one JSON line: pairs/s length-sorted
(the scorer's default), with --unsorted also plain unsorted batching, and the agreement with the file's
labels (a sanity check, not a held-out score: the pairs may include training data).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "nli" / "snli_dev.jsonl"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="NLI model directory (e.g. models/nli-minilm)")
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="NLI/DNLI JSONL to take pairs from")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--unsorted", action="store_true", help="also time plain unsorted batching")
    args = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    import torch

    from consistest.models.nli import load_nli
    from consistest.training.nli_data import ID2LABEL, read_nli_file

    if args.threads:
        torch.set_num_threads(args.threads)
    examples = list({(e.premise, e.hypothesis): e for e in read_nli_file(args.data)}.values())[: args.pairs]
    pairs = [(e.premise, e.hypothesis) for e in examples]
    nli = load_nli(args.model, batch_size=args.batch_size)
    nli.predict(pairs[: args.batch_size])  # warm-up
    result = {
        "model": args.model,
        "pairs": len(pairs),
        "batch_size": args.batch_size,
        "threads": torch.get_num_threads(),
    }
    t = time.perf_counter()
    preds = nli.predict(pairs)
    result["sorted_pairs_per_s"] = round(len(pairs) / (time.perf_counter() - t), 1)
    result["agreement_with_labels"] = round(
        sum(p == ID2LABEL[e.label] for p, e in zip(preds, examples, strict=True)) / len(pairs), 4
    )
    if args.unsorted:
        nli.sort = False
        t = time.perf_counter()
        nli.predict(pairs)
        result["unsorted_pairs_per_s"] = round(len(pairs) / (time.perf_counter() - t), 1)
    print(json.dumps(result), flush=True)
    print(f"NLI stage: {result['sorted_pairs_per_s']} pairs/s on {len(pairs)} pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
