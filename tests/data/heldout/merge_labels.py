"""Merge the two independent labelling passes (steps 2-4 of the labelling protocol).

    python tests/data/heldout/merge_labels.py DIR disagreements   # agreement figures + items to adjudicate
    python tests/data/heldout/merge_labels.py DIR final           # write dev.jsonl and test.jsonl

DIR holds items.jsonl and key.jsonl (``make_items.py``), pass_a.jsonl and pass_b.jsonl (two annotators,
each seeing only items.jsonl and the guidelines), and for ``final`` adjudicated.jsonl (a third annotator's
labels of the disagreement items, again seeing only those items and the guidelines). A field on which the
two passes agree keeps their label; a field on which they disagree takes the adjudicator's. Output rows are
what ``consistest agree`` reads: ``{item, id, model, response, human, category, note}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from consistest.metrics.agreement import cohen_kappa

CATEGORIES = ("consistent", "intra", "role", "history", "uninformative")
ALLOWED = {"yn": (0.0, 1.0), "wh": (0.0, 0.5, 1.0)}


def _read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def _labels(path: Path, items: dict[str, dict]) -> dict[str, dict]:
    """One pass's labels by item, checked: every item once, allowed values only."""
    out: dict[str, dict] = {}
    for n, row in enumerate(_read(path), 1):
        item = row.get("item")
        where = f"{path}: line {n}"
        if item not in items:
            sys.exit(f"{where}: unknown item {item!r}")
        if item in out:
            sys.exit(f"{where}: item {item} labelled twice")
        if row.get("category") not in CATEGORIES:
            sys.exit(f"{where}: category {row.get('category')!r} not one of {CATEGORIES}")
        if float(row.get("human", -1)) not in ALLOWED[items[item]["type"]]:
            sys.exit(f"{where}: human {row.get('human')!r} not allowed for {items[item]['type']}")
        out[item] = {"human": float(row["human"]), "category": row["category"], "note": row.get("note", "")}
    if missing := sorted(set(items) - set(out)):
        sys.exit(f"{path}: {len(missing)} items unlabelled, e.g. {missing[:3]}")
    return out


def _report(items: dict[str, dict], a: dict[str, dict], b: dict[str, dict]) -> list[str]:
    """Agreement per type (percent, Cohen's kappa) and on categories; returns the disagreement items."""
    for qtype in ("yn", "wh"):
        ids = [i for i in items if items[i]["type"] == qtype]
        x, y = [a[i]["human"] for i in ids], [b[i]["human"] for i in ids]
        same = sum(p == q for p, q in zip(x, y, strict=True))
        print(f"human {qtype}: n={len(ids)} agreement {same / len(ids):.3f} kappa {cohen_kappa(x, y):.3f}")
    ids = list(items)
    x, y = [a[i]["category"] for i in ids], [b[i]["category"] for i in ids]
    same = sum(p == q for p, q in zip(x, y, strict=True))
    print(f"category: n={len(ids)} agreement {same / len(ids):.3f} kappa {cohen_kappa(x, y):.3f}")
    return [i for i in ids if a[i]["human"] != b[i]["human"] or a[i]["category"] != b[i]["category"]]


def main(folder: str, step: str) -> None:
    d = Path(folder)
    items = {x["item"]: x for x in _read(d / "items.jsonl")}
    a, b = _labels(d / "pass_a.jsonl", items), _labels(d / "pass_b.jsonl", items)
    todo = _report(items, a, b)
    print(f"{len(todo)} of {len(items)} items disagree (score or category)")
    if step == "disagreements":
        (d / "disagreements.jsonl").write_text("".join(json.dumps(items[i]) + "\n" for i in todo))
        return
    adj = _labels_partial(d / "adjudicated.jsonl", {i: items[i] for i in todo})
    rows = {"dev": [], "test": []}
    for k in _read(d / "key.jsonl"):
        i = k["item"]
        final = {f: a[i][f] if a[i][f] == b[i][f] else adj[i][f] for f in ("human", "category")}
        note = adj[i]["note"] if i in adj else a[i]["note"]
        rows[k["split"]].append({"item": i, "id": k["id"], "model": k["model"], "response": items[i]["reply"],
                                 **final, "note": note})  # fmt: skip
    for split, data in rows.items():
        (d / f"{split}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data))
        print(f"{split}: {len(data)} labelled replies -> {d / f'{split}.jsonl'}")


def _labels_partial(path: Path, items: dict[str, dict]) -> dict[str, dict]:
    return _labels(path, items) if items else {}


if __name__ == "__main__":
    main(*sys.argv[1:3])
