"""The held-out labels (tests/data/heldout): what the judges' test figures are read on. Each split file is
the passes merged as the protocol says, each label what the annotators saw, and no QA on two sides."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "data" / "heldout"
BATCHES = {
    "a": 420,
    "g": 300,
    "c": 596,
    "d": 828,
    "e": 780,
    "f": 762,
    "h": 772,
    "i": 682,
    "j": 710,
    "k": 700,
    "l": 668,
    "m": 662,
    "n": 670,
    "o": 646,
    "p": 660,
    "q": 640,
    "r": 586,
    "s": 570,
    "t": 626,
    "u": 586,
    "v": 540,
    "w": 498,
    "x": 606,
    "y": 546,
    "z": 520,
    "aa": 488,
    "ab": 512,
    "ac": 432,
    "ad": 500,
}
FRESH = {
    "c": "test2",
    "d": "test3",
    "e": "test4",
    "f": "test5",
    "h": "test6",
    "i": "test7",
    "j": "test8",
    "k": "test9",
    "l": "test10",
    "m": "test11",
    "n": "test12",
    "o": "test13",
    "p": "test14",
    "q": "test15",
    "r": "test16",
    "s": "test17",
    "t": "test18",
    "u": "test19",
    "v": "test20",
    "w": "test21",
    "x": "test22",
    "y": "test23",
    "z": "test24",
    "aa": "test25",
    "ab": "test26",
    "ac": "test27",
    "ad": "test28",
}
ALLOWED = {"yn": {0.0, 1.0}, "wh": {0.0, 0.5, 1.0}}


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []


@pytest.mark.parametrize(("batch", "n"), BATCHES.items())
def test_each_label_is_the_passes_merged_on_what_the_annotators_saw(batch: str, n: int) -> None:
    d = HERE / f"batch-{batch}"
    items = {r["item"]: r for r in _rows(d / "items.jsonl")}
    key = {r["item"]: r for r in _rows(d / "key.jsonl")}
    a, b = ({r["item"]: r for r in _rows(d / f"pass_{p}.jsonl")} for p in "ab")
    adj = {r["item"]: r for r in _rows(d / "adjudicated.jsonl")}
    labelled = {r["item"]: r for split in ("dev", "test") for r in _rows(d / f"{split}.jsonl")}
    assert len(items) == n and set(items) == set(key) == set(a) == set(b) == set(labelled)
    for i, row in labelled.items():
        assert row["response"] == items[i]["reply"] and row["id"] == key[i]["id"]
        assert row in _rows(d / f"{key[i]['split']}.jsonl")
        for field in ("human", "category"):
            agreed = a[i][field] == b[i][field]
            assert row[field] == (a[i][field] if agreed else adj[i][field]), (i, field)
        assert float(row["human"]) in ALLOWED[items[i]["type"]]
    assert set(adj) == {
        i for i in items if (a[i]["human"], a[i]["category"]) != (b[i]["human"], b[i]["category"])
    }


def test_the_split_files_are_the_batches_and_no_qa_is_on_two_sides() -> None:
    def rows(split: str, batches: tuple[str, ...]) -> list[dict]:
        return [r for x in batches for r in _rows(HERE / f"batch-{x}" / f"{split}.jsonl")]

    assert _rows(HERE / "dev.jsonl") == rows("dev", ("a", "g"))
    assert _rows(HERE / "test.jsonl") == rows("test", ("a", "g"))
    for batch, name in FRESH.items():
        assert _rows(HERE / f"{name}.jsonl") == rows("test", (batch,)) and not rows("dev", (batch,)), name
    qas = {}
    for x in BATCHES:
        for k in _rows(HERE / f"batch-{x}" / "key.jsonl"):
            qas.setdefault(k["qa_id"], set()).add(FRESH.get(x, k["split"]))
    assert all(len(sides) == 1 for sides in qas.values())
    assert Counter(r["model"] for r in _rows(HERE / "test2.jsonl")) == {
        "smollm2": 273,
        "gemma3-270m": 273,
        "retrieval": 50,
    }
    assert Counter(r["model"] for r in _rows(HERE / "test3.jsonl")) == {
        "smollm2": 389,
        "gemma3-270m": 389,
        "retrieval": 50,
    }
