"""The labelled dialogue set (tests/data/dialogues): what the detector's dialogue figures are read on."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from consistest.tasks.cdconv.inputs import read_dialogues

HERE = Path(__file__).parent / "data" / "dialogues"


def _rows(name: str) -> list[dict]:
    return [json.loads(x) for x in (HERE / name).read_text().splitlines() if x.strip()]


def test_the_splits_read_as_detector_examples_with_the_bots_persona() -> None:
    dev, test = read_dialogues(HERE / "dev.jsonl"), read_dialogues(HERE / "test.jsonl")
    assert (len(dev), len(test)) == (104, 196)
    assert all(ex.persona and ex.label in ("none", "intra", "role", "history") for ex in [*dev, *test])
    assert Counter(ex.label != "none" for ex in test) == Counter({False: 140, True: 56})
    assert not {ex.context for ex in dev} & {ex.context for ex in test}  # no context on both sides


def test_every_item_is_labelled_once_and_the_split_follows_the_key() -> None:
    items = {r["item"]: r for r in _rows("items.jsonl")}
    key = {r["item"]: r for r in _rows("key.jsonl")}
    labelled = {r["item"]: r for name in ("dev.jsonl", "test.jsonl") for r in _rows(name)}
    assert set(items) == set(key) == set(labelled)
    for name in ("dev", "test"):
        wanted = {i for i, k in key.items() if k["split"] == name}
        assert {r["item"] for r in _rows(f"{name}.jsonl")} == wanted
    by_dialogue: dict[str, set[str]] = {}
    for k in key.values():
        by_dialogue.setdefault(k["dialog_id"], set()).add(k["split"])
    assert all(len(s) == 1 for s in by_dialogue.values())  # split by dialogue
    for i, row in labelled.items():  # what was labelled is what the annotators saw, the reply last
        assert row["turns"] == [*items[i]["turns"], items[i]["reply"]]
