"""benchmarks/silver_replies.py: a scored run as detector training data, held-out material left out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from consistest.data.dataset_dir import load_samples

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "silver_replies.py"


def _run(args: list[str | Path]) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, check=True)


def test_held_out_dialogues_and_unjudged_replies_are_left_out(demo_dataset: Path, tmp_path: Path) -> None:
    samples = load_samples(demo_dataset)
    run = tmp_path / "run"
    run.mkdir()
    cats = ["consistent", "history", "not_judged", "uninformative"]
    rows = [{"id": s.id, "response": f"reply {k}", "category": cats[k % 4]} for k, s in enumerate(samples)]
    (run / "scores.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    held = next(s for s in samples if s.dialog_id == "demo-1")  # one reply of one dialogue held out
    (tmp_path / "test.jsonl").write_text(json.dumps({"id": held.id, "response": "x", "category": "history"}))

    r = _run(["--run", run, "--dataset", demo_dataset, "--exclude", tmp_path / "test.jsonl", "--model", "m"])
    out = [json.loads(line) for line in r.stdout.splitlines()]
    by_id = {s.id: s for s in samples}
    kept = {o["id"] for o in out}
    held_persona = frozenset(held.persona)
    assert kept and all(by_id[i].dialog_id != "demo-1" for i in kept)
    assert all(frozenset(by_id[i].persona) != held_persona for i in kept)
    assert {o["category"] for o in out} <= {"consistent", "history", "uninformative"}
    expected = {
        r["id"] for r in rows
        if r["category"] != "not_judged" and frozenset(by_id[r["id"]].persona) != held_persona
    }  # fmt: skip
    assert kept == expected
    assert all(o["model"] == "m:rules" and o["response"].startswith("reply ") for o in out)
    counts = json.loads(r.stderr.strip().splitlines()[-1])
    assert counts["category not_judged"] > 0 and counts["held-out QA, dialogue or persona"] > 0


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


def test_the_same_dialogue_text_under_another_id_and_persona_is_held_out(demo_dataset: Path) -> None:
    """PersonaChat repeats a dialogue's turns under other ids with other personas: the opening turn
    catches it where the id and the persona do not."""
    import dataclasses
    import importlib.util

    spec = importlib.util.spec_from_file_location("silver_replies", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    held = load_samples(demo_dataset)[0]
    twin = dataclasses.replace(held, id="twin", qa_id="other-qa", dialog_id="other", persona=["i am new ."])
    stranger = dataclasses.replace(twin, history=["a different opening .", *twin.history[1:]])
    keys = set(mod.keys_of(held))
    assert keys & set(mod.keys_of(twin)) and not keys & set(mod.keys_of(stranger))
