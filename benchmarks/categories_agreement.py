"""How often the failure categories match a human's failure class, on hand-labelled replies.

    python benchmarks/categories_agreement.py --labels dev_labels.jsonl --dataset data/built/consistest-02 \
        --nli models/nli-minilm

``--labels``: JSONL of ``{"id", "response", "human", "class"}`` (sample id, the reply, the human score, the
labeller's failure class). Each reply is scored and categorised as ``consistest score`` does; the table
shows, per human class, how its replies were categorised, and the agreement on the classes that name a
category (role confusion -> role, yes/no word vs long answer -> intra, contradiction or a wrong yes/no ->
history, generic or evasive/off-topic -> uninformative, human score 1 -> consistent).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from consistest.core.records import CATEGORIES
from consistest.core.table import format_table
from consistest.data.dataset_dir import load_samples
from consistest.models.nli import nli_from_option
from consistest.tasks.consistest.categories import categorise
from consistest.tasks.consistest.score import score_items

EXPECTED = {
    "role_confusion": "role",
    "yn_word_vs_long": "intra",
    "contradiction": "history",
    "yn_wrong": "history",
    "generic": "uninformative",
    "evasive_offtopic": "uninformative",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--labels", required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--nli", default="none")
    ap.add_argument("--format", default="table", choices=("table", "markdown"))
    a = ap.parse_args()
    labels = [json.loads(x) for x in Path(a.labels).read_text().splitlines() if x.strip()]
    by_id = {s.id: s for s in load_samples(a.dataset)}
    samples = [by_id[r["id"]] for r in labels]
    nli = nli_from_option(a.nli, quiet=True)
    items = score_items(samples, {r["id"]: r["response"] for r in labels}, nli)
    items = categorise(items, samples, nli)
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
    print("\n".join(format_table(header, rows, a.format)))
    print(f"\nagreement on the classes that name a category: {hits}/{total} = {100 * hits / total:.1f}%")
    print(f"NLI: {a.nli}")


if __name__ == "__main__":
    main()
