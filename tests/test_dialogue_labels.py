"""The labelled dialogue set (tests/data/dialogues): what the detector's dialogue figures are read on."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(
    ("folder", "contexts", "contradictions"),
    [
        ("round2", 150, 74),
        ("round3", 150, 61),
        ("round4", 150, 59),
        ("round5", 114, 51),
        ("round6", 106, 36),
        ("round7", 139, 54),
        ("round8", 150, 36),
        ("round9", 104, 39),
        ("round10", 200, 49),
        ("round11", 200, 64),
        ("round12", 200, 67),
        ("round13", 200, 56),
        ("round14", 200, 84),
        ("round15", 200, 60),
        ("round16", 200, 67),
        ("round17", 125, 68),
        ("round18", 161, 74),
        ("round19", 150, 42),
        ("round20", 150, 49),
        ("round21", 150, 63),
        ("round22", 100, 39),
        ("round23", 150, 73),
        ("round24", 150, 52),
        ("round25", 25, 6),
        ("round26", 125, 44),
    ],
)
def test_the_fresh_rounds_are_new_dialogues_labelled_as_their_items(
    folder: str, contexts: int, contradictions: int
) -> None:
    """Each fresh round: two test turns (one per model) of each of its new contexts, no dialogue of an
    earlier round (rounds 19-26: the people's turns of earlier rounds' dialogues, each model's own agent
    turns), every item labelled once, what was labelled being what the annotators saw."""
    items = {r["item"]: r for r in _rows(f"{folder}/items.jsonl")}
    key = _rows(f"{folder}/key.jsonl")
    test = read_dialogues(HERE / folder / "test.jsonl")
    rows = {r["item"]: r for r in _rows(f"{folder}/test.jsonl")}
    assert len(test) == len(items) == len(rows) == 2 * contexts and set(rows) == set(items)
    assert {k["split"] for k in key} == {"test"} and len({k["context"] for k in key}) == contexts
    assert sum(ex.label != "none" for ex in test) == contradictions
    number = int(folder.removeprefix("round"))
    before = ["key.jsonl", *(f"round{n}/key.jsonl" for n in range(2, number))]
    earlier = {k["dialog_id"] for name in before for k in _rows(name)}
    if number >= 19:  # earlier rounds' dialogues, each agent turn the model's
        by_context: dict[str, list[list[str]]] = {}
        for k in key:
            by_context.setdefault(k["context"], []).append(items[k["item"]]["turns"])
        assert all(a[0::2] == b[0::2] and a[1::2] != b[1::2] for a, b in by_context.values())
    else:
        assert not {k["dialog_id"] for k in key} & earlier
    for i, row in rows.items():
        assert row["turns"] == [*items[i]["turns"], items[i]["reply"]]
