"""`consistest score --model`: generate into RUNDIR, then score, with the generation in the signature."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_cli


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "ds"
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    return out


def test_score_model_baseline_end_to_end(demo: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    r = run_cli("score", "--dataset", demo, "--model", "baseline:oracle", "--nli", "none", "--out", run, "-q")
    assert r.exit_code == 0, r.output
    assert "model:baseline:oracle|input:standard|dec:none" in r.stdout
    lines = (run / "responses.jsonl").read_text().splitlines()
    scores = [json.loads(x) for x in (run / "scores.jsonl").read_text().splitlines()]
    assert len(lines) == len(scores) == 37
    summary = json.loads((run / "summary.json").read_text())
    assert summary["signature"].endswith("|v:0.1.0") and summary["signature"] in r.stdout
    # Re-running resumes: nothing is generated again and the scores are identical.
    again = run_cli(
        "score", "--dataset", demo, "--model", "baseline:oracle", "--nli", "none", "--out", run, "-q"
    )
    assert again.exit_code == 0 and again.stdout == r.stdout


def test_score_model_limit_scores_the_first_n(demo: Path, tmp_path: Path) -> None:
    r = run_cli("score", "--dataset", demo, "--model", "baseline:generic", "--limit", "5", "--nli", "none",
                "--out", tmp_path / "r", "--format", "json", "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert len((tmp_path / "r" / "scores.jsonl").read_text().splitlines()) == 5
    # `generate` into the same run resumes it (same dataset, same settings) and completes it.
    g = run_cli("generate", "--dataset", demo, "--model", "baseline:generic", "--out", tmp_path / "r", "-q")
    assert g.exit_code == 0, g.output
    assert len((tmp_path / "r" / "responses.jsonl").read_text().splitlines()) == 37


@pytest.mark.parametrize("extra", [[], ["--responses", "x.jsonl", "--model", "baseline:oracle"]])
def test_exactly_one_of_responses_or_model(demo: Path, tmp_path: Path, extra: list[str]) -> None:
    r = run_cli("score", "--dataset", demo, "--nli", "none", "--out", tmp_path / "r", *extra)
    assert r.exit_code == 2 and "exactly one of --responses FILE or --model MODEL" in r.stderr
