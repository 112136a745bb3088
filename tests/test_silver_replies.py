"""benchmarks/silver_replies.py: a scored run as detector training data, held-out material left out."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from consistest.core.records import Sample
from consistest.data.dataset_dir import load_samples

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "silver_replies.py"


def _module():
    spec = importlib.util.spec_from_file_location("silver_replies", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(args: list[str | Path]) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, check=True)


def _held(demo_dataset: Path) -> Sample:
    """A distance-2 sample of demo-1: its history has turns before the question."""
    return next(s for s in load_samples(demo_dataset) if s.dialog_id == "demo-1" and s.distance == 2)


def test_held_out_dialogues_personas_and_unjudged_replies_are_left_out(
    demo_dataset: Path, tmp_path: Path
) -> None:
    samples = load_samples(demo_dataset)
    run = tmp_path / "run"
    run.mkdir()
    cats = ["consistent", "history", "not_judged", "uninformative"]
    rows = [{"id": s.id, "response": f"reply {k}", "category": cats[k % 4]} for k, s in enumerate(samples)]
    (run / "scores.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    held = _held(demo_dataset)
    (tmp_path / "test.jsonl").write_text(json.dumps({"id": held.id, "response": "x", "category": "history"}))

    def kept(*extra: str) -> set[str]:
        args = ["--run", run, "--dataset", demo_dataset, "--exclude", tmp_path / "test.jsonl", *extra]
        return {json.loads(line)["id"] for line in _run(args).stdout.splitlines()}

    judged = {r["id"] for r in rows if r["category"] != "not_judged"}
    by_dialog = {s.id: s.dialog_id for s in samples}
    # demo-1 is held out; demo-0 and demo-2 share no persona sentence with it
    assert kept() == {i for i in judged if by_dialog[i] != "demo-1"}
    out = _run(["--run", run, "--dataset", demo_dataset, "--model", "m"]).stdout.splitlines()
    assert {json.loads(o)["id"] for o in out} == judged  # nothing held out: every judged reply
    assert all(json.loads(o)["model"] == "m:rules" for o in out)


@pytest.mark.parametrize(
    ("change", "overlap", "held_out"),
    [
        ({}, 1, True),  # the sample itself
        ({"id": "t", "qa_id": "q", "dialog_id": "o", "persona": ["x ."], "fact": "f ."}, 1, True),  # turns
        (
            {"id": "t", "qa_id": "q", "dialog_id": "o", "persona": ["x ."], "history": ["a", "b", "?"]},
            1,
            True,
        ),
        ({"id": "t", "qa_id": "q", "dialog_id": "o", "history": ["a", "b", "?"], "fact": "f ."}, 1, True),
        ({"id": "t", "qa_id": "q", "dialog_id": "o", "history": ["a", "b", "?"], "fact": "f ."}, 99, False),
        (
            {
                "id": "t",
                "qa_id": "q",
                "dialog_id": "o",
                "history": ["a", "b", "?"],
                "fact": "f .",
                "persona": ["x ."],
            },
            1,
            False,
        ),  # fmt: skip
    ],
    ids=["itself", "same-turns", "same-fact", "shared-persona-sentence", "overlap-threshold", "stranger"],
)
def test_what_a_held_out_sample_shares(
    demo_dataset: Path, change: dict, overlap: int, held_out: bool
) -> None:
    """Same turns under another dialogue id and persona, the same fact under another QA id, one persona
    sentence in common (at --persona-overlap 1), or nothing at all."""
    mod = _module()
    held = _held(demo_dataset)
    keys, personas = set(mod.keys_of(held)), [set(held.persona)]
    other = dataclasses.replace(held, **change)
    assert mod.shares(other, keys, personas, overlap) is held_out


def test_the_output_is_a_labelled_replies_file_the_detectors_read(demo_dataset: Path, tmp_path: Path) -> None:
    from consistest.tasks.cdconv.inputs import read_dialogues

    samples = load_samples(demo_dataset)[:4]
    run = tmp_path / "run"
    run.mkdir()
    rows = [{"id": s.id, "response": "i drive a bmw .", "category": "history"} for s in samples]
    (run / "scores.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "silver.jsonl"
    out.write_text(_run(["--run", run, "--dataset", demo_dataset]).stdout)
    examples = read_dialogues(out, demo_dataset)
    assert [e.label for e in examples] == ["history"] * 4
    assert [e.turns[-1] for e in examples] == ["i drive a bmw ."] * 4
