"""A chat model's scored ConsisTest replies as detector training data ("silver" labels), with every
dialogue and persona of the held-out label files left out.

    consistest generate --dataset data/built/consistest-02 --model ct2:models/smollm2-ct2 --chat-template \\
        --sample 2500 --sample-seed 21 --max-new-tokens 40 --out runs/silver/smollm2
    consistest score --dataset data/built/consistest-02 --responses runs/silver/smollm2/responses.jsonl \\
        --nli none --method plus --out runs/silver/smollm2-scored
    python benchmarks/silver_replies.py --run runs/silver/smollm2-scored --dataset data/built/consistest-02 \\
        --exclude tests/data/heldout/dev.jsonl --exclude tests/data/heldout/test.jsonl \\
        --exclude tests/data/agree_dev.jsonl --model smollm2 > models/detector-en/silver-smollm2.jsonl

Each reply keeps the failure category the rules gave it (``--nli none``: no NLI model decides a label;
``not_judged`` replies are dropped), so the labels are the scorer's, not people's: on the frozen test
the rules-only categories agree with the annotators on 92% of the replies they judge. A reply is left out
when its sample's QA, its PersonaChat dialogue (by id or by its opening turn: the same dialogue text
appears under several ids with other personas) or its bot's persona (as a set of sentences) appears in
any ``--exclude`` file, so no held-out question, dialogue or persona reaches training. The output is a
labelled-replies file (``consistest train-detector --data FILE --dataset DIR``); counts go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from consistest.core.records import Sample
from consistest.data.dataset_dir import load_samples

JUDGED = ("consistent", "uninformative", "intra", "role", "history")


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def held_out(files: list[Path], samples: dict[str, Sample]) -> set[str | frozenset[str]]:
    """``keys_of`` every sample named in the held-out label files."""
    keys: set[str | frozenset[str]] = set()
    for path in files:
        for row in read_jsonl(path):
            keys.update(keys_of(samples[row["id"]]))
    return keys


def keys_of(sample: Sample) -> tuple[str | frozenset[str], ...]:
    """What a held-out sample shares with a training one that it must not: its QA, its dialogue (by id, and
    by its opening turn: PersonaChat repeats a dialogue's text under other ids with other personas), and
    its bot's persona."""
    return (
        f"qa:{sample.qa_id}", f"dialog:{sample.dialog_id}", f"opening:{sample.history[0]}",
        frozenset(sample.persona),
    )  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", type=Path, required=True, help="a scored run directory (scores.jsonl)")
    ap.add_argument("--dataset", type=Path, required=True)
    ap.add_argument("--exclude", type=Path, action="append", default=[], help="held-out labels; repeatable")
    ap.add_argument("--model", default="silver", help="the model name written with each reply")
    args = ap.parse_args()
    samples = {s.id: s for s in load_samples(args.dataset)}
    excluded = held_out(args.exclude, samples)
    counts: Counter[str] = Counter()
    for row in read_jsonl(args.run / "scores.jsonl"):
        sample = samples[row["id"]]
        if excluded.intersection(keys_of(sample)):
            counts["held-out QA, dialogue or persona"] += 1
            continue
        category = row.get("category")
        if category not in JUDGED:
            counts[f"category {category}"] += 1
            continue
        counts[category] += 1
        out = {"item": f"silver-{args.model}-{sample.id}", "id": sample.id, "model": f"{args.model}:rules",
               "response": row["response"], "category": category}  # fmt: skip
        sys.stdout.write(json.dumps(out) + "\n")
    print(json.dumps(dict(counts), sort_keys=True), file=sys.stderr)


if __name__ == "__main__":
    main()
