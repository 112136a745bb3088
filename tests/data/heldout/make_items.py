"""Draw the held-out labelling items from real replies (step 1 of the protocol in README.md beside this file).

    python tests/data/heldout/make_items.py DATASET_DIR OUT_DIR PREFIX [--fresh] NAME=RUN_DIR[:N] [...]

DATASET_DIR is ConsisTest-02 (``consistest build``); each RUN_DIR holds the ``responses.jsonl`` of a
``consistest generate`` run (on the same ``--sample``); ``:N`` keeps N of that run's replies, drawn by a
hash of (model, sample id); item ids are PREFIX + a number (one prefix per labelling batch). Writes
OUT_DIR/items.jsonl, what annotators see (item, type, question, truth, fact, persona, history, reply;
models shuffled together, no model names), and OUT_DIR/key.jsonl (item -> sample id, model, split).
The split is by QA, fixed before any label exists: a QA whose samples are in
``tests/data/agree_dev.jsonl`` (replies we wrote while designing rules) goes to dev, the rest by a hash of
the QA id (one third dev, two thirds test); all replies to one QA share a split.

``--fresh`` (right after PREFIX) makes a fresh test set: replies to a QA that any earlier batch
(``batch-*/key.jsonl``) or ``agree_dev.jsonl`` holds are left out, and every remaining reply is test (batches
``c`` to ``f``: ``test2.jsonl`` ...).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from consistest.data.dataset_dir import load_samples

SEED = "heldout-2026-11"
AGREE_DEV = Path(__file__).parents[1] / "agree_dev.jsonl"


def _h(*parts: str) -> int:
    return int(hashlib.sha256(":".join((SEED, *parts)).encode()).hexdigest(), 16)


def _responses(run: Path) -> dict[str, str]:
    rows = [json.loads(line) for line in (run / "responses.jsonl").read_text().splitlines() if line.strip()]
    return {r["id"]: r["response"] for r in rows}


def _seen_qas(out: str) -> set[str]:
    """QA ids of every earlier labelling batch beside this file (not OUT_DIR's own)."""
    keys = [
        k
        for k in Path(__file__).parent.glob("batch-*/key.jsonl")
        if k.parent.resolve() != Path(out).resolve()
    ]
    return {json.loads(x)["qa_id"] for k in keys for x in k.read_text().splitlines() if x.strip()}


def main(dataset: str, out: str, prefix: str, *runs: str) -> None:
    samples = {s.id: s for s in load_samples(dataset)}
    dev_qas = {samples[json.loads(x)["id"]].qa_id for x in AGREE_DEV.read_text().splitlines() if x.strip()}
    fresh = bool(runs) and runs[0] == "--fresh"
    runs = runs[1:] if fresh else runs
    drop = dev_qas | _seen_qas(out) if fresh else set()
    rows = []
    for arg in runs:
        name, _, where = arg.partition("=")
        path, _, n = where.partition(":")
        kept = {sid: r for sid, r in _responses(Path(path)).items() if samples[sid].qa_id not in drop}
        got = sorted(kept.items(), key=lambda kv: _h(name, kv[0]))
        rows += [(name, sid, reply) for sid, reply in got[: int(n) if n else None]]
    rows.sort(key=lambda r: _h("order", r[0], r[1]))
    items, key = [], []
    for k, (model, sid, reply) in enumerate(rows, 1):
        s = samples[sid]
        split = "test" if fresh else "dev" if s.qa_id in dev_qas or _h("split", s.qa_id) % 3 == 0 else "test"
        item = f"{prefix}{k:04d}"
        items.append({"item": item, "type": s.type, "question": s.question, "truth": s.answer,
                      "fact": s.fact, "persona": list(s.persona), "history": list(s.history[:-1]),
                      "reply": reply})  # fmt: skip
        key.append({"item": item, "id": sid, "qa_id": s.qa_id, "model": model, "split": split})
    Path(out).mkdir(parents=True, exist_ok=True)
    for name, data in (("items.jsonl", items), ("key.jsonl", key)):
        Path(out, name).write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in data))
    n_dev = sum(k["split"] == "dev" for k in key)
    print(f"{len(items)} items ({n_dev} dev, {len(items) - n_dev} test) -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
