"""A chat model's scored ConsisTest replies as detector training data ("silver" labels), with every QA,
fact, dialogue and persona of the held-out label files left out.

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
when it shares with any sample of an ``--exclude`` file its QA, its fact, its PersonaChat dialogue (by id,
or by any two consecutive turns: the same dialogue text appears under several ids with other personas) or
``--persona-overlap`` persona sentences (default 1: any). PersonaChat's validation personas overlap so much
that with held-out sets spread over 409 of its 1,000 dialogues a strict split keeps almost nothing (4 of
2,500 SmolLM2 replies at the default, 207 at ``--persona-overlap 4``). The output is a labelled-replies
file (``consistest train-detector --data FILE --dataset DIR``); counts go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from consistest.core.io import read_jsonl
from consistest.core.records import Sample
from consistest.data.dataset_dir import load_samples

JUDGED = ("consistent", "uninformative", "intra", "role", "history")


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def keys_of(sample: Sample) -> set[str]:
    """What a training sample may not share with a held-out one: its QA and dialogue ids, its fact (the
    same persona sentence is asked about in many dialogues, each with its own QA id) and each pair of
    consecutive turns before the question (PersonaChat repeats a dialogue's text under other ids with other
    personas). Personas, which recur with a sentence added, dropped or reworded, are compared in
    ``shares``."""
    turns = [_norm(t) for t in sample.history[:-1]]
    return {
        f"qa:{sample.qa_id}", f"dialog:{sample.dialog_id}", f"fact:{_norm(sample.fact)}",
        *(f"turns:{a}\n{b}" for a, b in zip(turns, turns[1:], strict=False)),
    }  # fmt: skip


def held_out(files: list[Path], samples: dict[str, Sample]) -> tuple[set[str], list[set[str]]]:
    """The ``keys_of`` and the personas (as sets of sentences) of every sample in the held-out files."""
    keys: set[str] = set()
    personas: list[set[str]] = []
    for path in files:
        for _, row in read_jsonl(path):
            sample = samples[row["id"]]
            keys |= keys_of(sample)
            personas.append({_norm(p) for p in sample.persona})
    return keys, personas


def shares(sample: Sample, keys: set[str], personas: list[set[str]], overlap: int) -> bool:
    """The sample shares a key with a held-out sample, or ``overlap`` persona sentences or more."""
    mine = {_norm(p) for p in sample.persona}
    return bool(keys & keys_of(sample)) or any(len(mine & p) >= overlap for p in personas)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", type=Path, required=True, help="a scored run directory (scores.jsonl)")
    ap.add_argument("--dataset", type=Path, required=True)
    ap.add_argument("--exclude", type=Path, action="append", default=[], help="held-out labels; repeatable")
    ap.add_argument("--model", default="silver", help="the model name written with each reply")
    ap.add_argument(
        "--persona-overlap",
        type=int,
        default=1,
        help="leave out a reply whose persona shares this many sentences with a held-out one",
    )
    args = ap.parse_args()
    samples = {s.id: s for s in load_samples(args.dataset)}
    keys, personas = held_out(args.exclude, samples)
    counts: Counter[str] = Counter()
    for _, row in read_jsonl(args.run / "scores.jsonl"):
        sample = samples[row["id"]]
        if shares(sample, keys, personas, args.persona_overlap):
            counts["shares a held-out QA, fact, dialogue or persona"] += 1
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
