"""How often the failure categories match a human's, on labelled replies to ConsisTest samples.

    python benchmarks/categories_agreement.py --labels labels.jsonl --dataset data/built/consistest-02 \\
        --nli models/nli-minilm [--method paper|plus]

``--labels``: JSONL, one reply per line, in one of two layouts:

- **human categories** ``{"item", "id", "model", "response", "human", "category", "note"}``: ``category`` is
  the annotators' (consistent, intra, role, history, uninformative); several replies may share a sample
  ``id`` (one per model). Printed: the confusion table (human rows, our columns, ``not_judged`` included),
  agreement over all replies and over the judged ones, contradiction-vs-not agreement, and each human
  category's recall, with 95% bootstrap intervals that resample the replies to one sample together.
- **failure classes** ``{"id", "response", "human", "class"}`` (the hand-written dev set): the table per
  class and the agreement on the classes that name a category (role confusion -> role, yes/no word vs long
  answer -> intra, contradiction or a wrong yes/no -> history, generic or evasive/off-topic ->
  uninformative, human score 1 -> consistent).

Each reply is scored and categorised as ``consistest score`` does (``--method``, ``--nli``).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

from consistest.core.records import CATEGORIES
from consistest.core.stats import bootstrap_ci
from consistest.core.table import format_table
from consistest.data.dataset_dir import load_samples
from consistest.models.nli import nli_from_option, nli_signature
from consistest.tasks.consistest.categories import CATEGORIES_VERSION, categorise
from consistest.tasks.consistest.scoring import score_items

EXPECTED = {
    "role_confusion": "role",
    "yn_word_vs_long": "intra",
    "contradiction": "history",
    "yn_wrong": "history",
    "generic": "uninformative",
    "evasive_offtopic": "uninformative",
}
HUMAN = ("consistent", "intra", "role", "history", "uninformative")
CONTRADICTION = frozenset({"intra", "role", "history"})


def categorised(labels: list[dict], dataset: str, nli, method: str) -> list:
    """One categorised item per label row (replies to one sample kept apart by a per-row sample id)."""
    by_id = {s.id: s for s in load_samples(dataset)}
    missing = [r.get("id") for r in labels if r.get("id") not in by_id]
    if missing:
        raise SystemExit(f"{len(missing)} id(s) are not samples of {dataset}, e.g. {missing[0]!r}")
    samples = [replace(by_id[r["id"]], id=f"{r['id']}#{k}") for k, r in enumerate(labels)]
    items = score_items(samples, {s.id: r["response"] for s, r in zip(samples, labels, strict=True)}, nli,
                        method=method)  # fmt: skip
    return categorise(items, samples, nli)


def rate(hits: list[float], clusters: list[str], name: str) -> str:
    """``n/N = p% [lo, hi]`` with a bootstrap interval over clusters."""
    if not hits:
        return "-"
    ci = bootstrap_ci(hits, name=name, clusters=clusters)
    mean = 100 * sum(hits) / len(hits)
    interval = f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""
    return f"{int(sum(hits))}/{len(hits)} = {mean:.1f}%{interval}"


def human_categories(labels: list[dict], items: list, fmt: str) -> dict:
    """Confusion table and agreement figures against the annotators' categories."""
    rows = [(r, it) for r, it in zip(labels, items, strict=True) if r.get("category") in HUMAN]
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r, it in rows:
        table[r["category"]][it.category or ""] += 1
    header = ["human \\ ours", "n", *CATEGORIES]
    body = [[h, str(sum(table[h].values())), *(str(table[h][c]) for c in CATEGORIES)] for h in HUMAN]
    print("\n".join(format_table(header, body, fmt)))
    clusters = [r["id"] for r, _ in rows]
    same = [float(it.category == r["category"]) for r, it in rows]
    judged = [(r, it) for r, it in rows if it.category != "not_judged"]
    out = {
        "agreement": rate(same, clusters, "all"),
        "agreement on judged replies": rate(
            [float(it.category == r["category"]) for r, it in judged], [r["id"] for r, _ in judged], "judged"
        ),
        "contradiction vs not": rate(
            [float((it.category in CONTRADICTION) == (r["category"] in CONTRADICTION)) for r, it in judged],
            [r["id"] for r, _ in judged],
            "binary",
        ),
    }
    for h in HUMAN:
        sub = [(r, it) for r, it in rows if r["category"] == h]
        out[f"recall {h}"] = rate(
            [float(it.category == h) for _, it in sub], [r["id"] for r, _ in sub], f"recall:{h}"
        )
    print()
    for k, v in out.items():
        print(f"{k:<28} {v}")
    return {"table": {h: dict(table[h]) for h in HUMAN}, **out}


def failure_classes(labels: list[dict], items: list, fmt: str) -> dict:
    """The dev set's layout: categories per human failure class, agreement where a class names one."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    hits = total = 0
    for r, it in zip(labels, items, strict=True):
        group = "human 1 (any class)" if r["human"] == 1 else r["class"]
        table[group][it.category or ""] += 1
        want = "consistent" if r["human"] == 1 else EXPECTED.get(r["class"])
        if want is not None:
            total += 1
            hits += it.category == want
    header = ["human class (score 0 unless said)", "n", *CATEGORIES]
    rows = [[g, str(sum(c.values())), *(str(c[k]) for k in CATEGORIES)] for g, c in sorted(table.items())]
    print("\n".join(format_table(header, rows, fmt)))
    print(
        f"\nagreement on the classes that name a category: {hits}/{total} = {100 * hits / max(1, total):.1f}%"
    )
    return {"table": {g: dict(c) for g, c in table.items()}, "hits": hits, "total": total}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--labels", required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--nli", default="none")
    ap.add_argument("--method", default="paper", choices=("paper", "plus"))
    ap.add_argument("--format", default="table", choices=("table", "markdown"))
    ap.add_argument("--json", default=None, help="Also write the figures to this JSON file.")
    a = ap.parse_args()
    labels = [json.loads(x) for x in Path(a.labels).read_text().splitlines() if x.strip()]
    nli = nli_from_option(a.nli, quiet=True)
    items = categorised(labels, a.dataset, nli, a.method)
    if any("category" in r for r in labels):
        figures = human_categories(labels, items, a.format)
    else:
        figures = failure_classes(labels, items, a.format)
    print(f"NLI: {nli_signature(nli)}  method: {a.method}  categories: cat:{CATEGORIES_VERSION}")
    print(f"labels: {a.labels}")
    if a.json:
        Path(a.json).write_text(json.dumps(figures, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
