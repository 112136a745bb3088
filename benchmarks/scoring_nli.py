"""Pairs/s of the NLI stage: sorted + deduplicated batching (HFNLI) vs plain unsorted batching.

    .venv/bin/python benchmarks/scoring_nli.py                     # tiny config-built RoBERTa
    .venv/bin/python benchmarks/scoring_nli.py --nli DIR --dataset data/built/consistest-02 --responses FILE

Pairs come from a built dataset + responses (the premise/cleaned-response pairs the scorer would send),
or, without them, synthetic pairs with realistic length spread and ~30% repeats.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def synthetic_pairs(n: int, seed: int = 0) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    words = [
        "i",
        "have",
        "a",
        "dog",
        "cat",
        "two",
        "three",
        "love",
        "like",
        "work",
        "teacher",
        "nurse",
        "texas",
        "music",
        "read",
        "books",
        "swim",
    ]
    base = [
        (
            " ".join(rng.choices(words, k=rng.randint(4, 40))),
            " ".join(rng.choices(words, k=rng.randint(1, 25))),
        )
        for _ in range(int(n * 0.7))
    ]
    return base + [rng.choice(base) for _ in range(n - len(base))]


def dataset_pairs(dataset: str, responses: str, limit: int) -> list[tuple[str, str]]:
    from consistest.data.dataset_dir import load_samples
    from consistest.metrics.rules import Need, judge
    from consistest.tasks.consistest.responses_file import read_responses

    samples = load_samples(dataset)
    resp = read_responses(responses, samples)
    pairs = []
    for s in samples:
        v = judge(s.question, s.answer, s.type, resp[s.id])
        if v.need is not Need.NONE:
            pairs.append((s.nli_premise, v.cleaned))
    return pairs[:limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nli", help="local NLI model dir (default: a tiny RoBERTa built from a config)")
    ap.add_argument("--nli-labels")
    ap.add_argument("--dataset")
    ap.add_argument("--responses")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    from consistest.models.nli import HFNLI, load_nli

    spec = args.nli
    if spec is None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from tiny_models import tiny_roberta_classifier

        spec = str(
            tiny_roberta_classifier(Path(tempfile.mkdtemp()) / "tiny", layers=2, hidden=64, max_positions=130)
        )
    fast = load_nli(spec, args.nli_labels, batch_size=args.batch_size, device=args.device)
    assert isinstance(fast, HFNLI)
    plain = HFNLI(
        fast.model,
        fast.tokenizer,
        fast.label_map,
        name="plain",
        batch_size=args.batch_size,
        device=args.device,
        sort=False,
        dedup=False,
    )
    if args.dataset and args.responses:
        pairs = dataset_pairs(args.dataset, args.responses, args.pairs)
    else:
        pairs = synthetic_pairs(args.pairs)
    random.Random(1).shuffle(pairs)
    fast.predict(pairs[:64])  # warm-up
    results = {}
    for name, nli in (("sorted+dedup", fast), ("plain unsorted", plain)):
        t = time.perf_counter()
        labels = nli.predict(pairs)
        dt = time.perf_counter() - t
        results[name] = labels
        print(
            f"{name:>15}: {len(pairs)} pairs ({len(set(pairs))} distinct) in {dt:.2f}s"
            f" = {len(pairs) / dt:,.0f} pairs/s"
        )
    agree = sum(a == b for a, b in zip(results["sorted+dedup"], results["plain unsorted"], strict=True))
    print(
        f"label agreement: {agree}/{len(pairs)}  model: {spec}  batch {args.batch_size}  device {args.device}"
    )


if __name__ == "__main__":
    main()
