"""Merge the two independent labelling passes of the dialogue items (steps 2-4 of the protocol in README.md).

    python tests/data/dialogues/merge_labels.py DIR disagreements   # agreement + items to adjudicate
    python tests/data/dialogues/merge_labels.py DIR final           # write dev.jsonl and test.jsonl

DIR holds items.jsonl and key.jsonl (``make_items.py``), pass_a.jsonl and pass_b.jsonl (two annotators,
each seeing only items.jsonl and GUIDELINES.md), and for ``final`` adjudicated.jsonl (a third annotator's
labels of the disagreement items, seeing only those and the guidelines). A label both passes gave stays;
otherwise the adjudicator's counts. Output rows are detector examples (``consistest detect --data``): the
turns with the reply last, the bot's persona, the label, the model as ``origin``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from consistest.metrics.agreement import cohen_kappa

CATEGORIES = ("none", "intra", "role", "history")


def _read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def _labels(path: Path, items: dict[str, dict], every: bool = True) -> dict[str, dict]:
    """One pass's labels by item, checked: each item once, a known category; every item with ``every``."""
    out: dict[str, dict] = {}
    for n, row in enumerate(_read(path), 1):
        item, where = row.get("item"), f"{path}: line {n}"
        if item not in items:
            sys.exit(f"{where}: unknown item {item!r}")
        if item in out:
            sys.exit(f"{where}: item {item} labelled twice")
        if row.get("category") not in CATEGORIES:
            sys.exit(f"{where}: category {row.get('category')!r} not one of {CATEGORIES}")
        out[item] = {"category": row["category"], "note": row.get("note", "")}
    if every and (missing := sorted(set(items) - set(out))):
        sys.exit(f"{path}: {len(missing)} items unlabelled, e.g. {missing[:3]}")
    return out


def _report(items: dict[str, dict], a: dict[str, dict], b: dict[str, dict]) -> list[str]:
    """Agreement on the category and on contradiction vs none (percent, Cohen's kappa); the disagreements."""
    ids = list(items)
    for name, f in (("category", lambda c: c), ("contradiction", lambda c: c != "none")):
        x, y = [f(a[i]["category"]) for i in ids], [f(b[i]["category"]) for i in ids]
        same = sum(p == q for p, q in zip(x, y, strict=True))
        print(f"{name}: n={len(ids)} agreement {same / len(ids):.3f} kappa {cohen_kappa(x, y):.3f}")
    return [i for i in ids if a[i]["category"] != b[i]["category"]]


def main(folder: str, step: str) -> None:
    d = Path(folder)
    items = {x["item"]: x for x in _read(d / "items.jsonl")}
    a, b = _labels(d / "pass_a.jsonl", items), _labels(d / "pass_b.jsonl", items)
    todo = _report(items, a, b)
    print(f"{len(todo)} of {len(items)} items disagree")
    if step == "disagreements":
        (d / "disagreements.jsonl").write_text("".join(json.dumps(items[i]) + "\n" for i in todo))
        return
    adj = _labels(d / "adjudicated.jsonl", {i: items[i] for i in todo})
    rows: dict[str, list[dict]] = {"dev": [], "test": []}
    for k in _read(d / "key.jsonl"):
        i, x = k["item"], items[k["item"]]
        label = a[i] if i not in adj else adj[i]
        rows[k["split"]].append({"item": i, "turns": [*x["turns"], x["reply"]], "persona": x["persona"],
                                 "label": label["category"], "origin": k["model"],
                                 "note": label["note"]})  # fmt: skip
    for split, data in ((s, data) for s, data in rows.items() if data):  # round 2 has no dev split
        (d / f"{split}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data))
        print(f"{split}: {len(data)} items -> {d / f'{split}.jsonl'}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
