"""Our hand-labelled dev replies (``tests/data/agree_dev.jsonl``) as a labelled-replies file with categories,
a dev set of the test's kind for the detectors (``consistest detect --dataset``) and ``nli-pairs``' tau.

    python benchmarks/agree_dev_categories.py > runs/agree_dev_categories.jsonl

A reply with human score 1 is ``consistent``; a reply scored 0 whose writer's failure class names a
category keeps it (role confusion -> role, yes/no word vs long answer -> intra, contradiction or a wrong
yes/no -> history, generic or evasive/off-topic -> uninformative); the other replies (partial credit,
hallucinated extras, function-word traps, ...) have no single category and are left out.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CLASS_TO_CATEGORY = {
    "role_confusion": "role",
    "yn_word_vs_long": "intra",
    "contradiction": "history",
    "yn_wrong": "history",
    "generic": "uninformative",
    "evasive_offtopic": "uninformative",
}
SOURCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "agree_dev.jsonl"


def main() -> None:
    for k, line in enumerate(SOURCE.read_text().splitlines()):
        r = json.loads(line)
        category = "consistent" if r["human"] == 1 else CLASS_TO_CATEGORY.get(r["class"])
        if category is not None:
            row = {"item": f"agree-dev-{k}", "id": r["id"], "model": r["style"], "response": r["response"],
                   "human": r["human"], "category": category, "note": r.get("note", "")}  # fmt: skip
            sys.stdout.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
