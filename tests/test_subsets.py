"""``--sample N``: a seeded stratified subset of whole QAs (both distances together), in the signature."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from consistest.core.records import Sample
from consistest.models.registry import ModelSpec
from consistest.tasks.consistest.generation import RespondConfig
from consistest.tasks.consistest.subsets import allocate, stratified_sample
from tests.helpers import run_cli

A, B, C = ("pers", "wh", (0, 2)), ("hist", "wh", (0,)), ("hist", "yn", (0, 2))


@pytest.mark.parametrize(
    "sizes, n, expected",
    [
        ({A: (10, 2), B: (5, 1)}, 10, {A: 4, B: 2}),  # quotas 8 + 2 samples: exact
        ({A: (10, 2), B: (5, 1)}, 5, {A: 2, B: 1}),  # quotas 4 + 1
        ({A: (10, 2), B: (5, 1)}, 3, {A: 1, B: 1}),  # quotas 2.4 + 0.6: the leftover 1 goes to B
        ({A: (10, 2), B: (5, 1)}, 1, {A: 0, B: 1}),  # A's remainder is larger but a pair does not fit
        ({A: (10, 2), C: (10, 2)}, 5, {A: 1, C: 1}),  # only pairs: N-1 samples
        ({A: (2, 2), B: (30, 1)}, 30, {A: 2, B: 26}),  # never more QAs than a stratum has
    ],
)
def test_allocate(sizes: dict, n: int, expected: dict) -> None:
    assert allocate(sizes, n) == expected


def toy(n_pers: int = 30, n_hist_pairs: int = 8, n_hist_single: int = 6) -> list[Sample]:
    """Persona WH pairs, history WH pairs and history WH QAs that exist at d=0 only."""
    out = []

    def add(qa: str, source: str, distances: tuple[int, ...]) -> None:
        for d in distances:
            out.append(Sample(f"{qa}-d{d}", qa, "dlg", ["p ."], [f"q {qa} ?"], f"q {qa} ?", "x", "x .", "x .",
                              source, "wh", d, -1))  # fmt: skip

    for i in range(n_pers):
        add(f"p{i}", "pers", (0, 2))
    for i in range(n_hist_pairs):
        add(f"h{i}", "hist", (0, 2))
    for i in range(n_hist_single):
        add(f"s{i}", "hist", (0,))
    return out


@pytest.mark.parametrize("n", [1, 2, 7, 20, 41, 81])
def test_sample_keeps_whole_qas_and_strata_proportions(n: int) -> None:
    samples = toy()  # 60 + 16 + 6 = 82 samples
    got = stratified_sample(samples, n, seed=3)
    assert len(got) in (n, n - 1)
    by_qa = Counter(s.qa_id for s in got)
    assert all(by_qa[q] == (1 if q.startswith("s") else 2) for q in by_qa)  # both distances together
    assert got == [s for s in samples if s.qa_id in by_qa]  # dataset order
    pers = sum(s.source == "pers" for s in got)
    assert abs(pers - n * 60 / 82) <= 2  # proportional, within one pair


def test_sample_depends_on_content_and_seed_not_order() -> None:
    samples = toy()
    shuffled = samples[:]
    random.Random(0).shuffle(shuffled)
    ids = {s.id for s in stratified_sample(samples, 20, seed=0)}
    assert ids == {s.id for s in stratified_sample(shuffled, 20, seed=0)}
    assert ids == {s.id for s in stratified_sample(samples, 20, seed=0)}
    assert ids != {s.id for s in stratified_sample(samples, 20, seed=1)}
    assert stratified_sample(samples, 500) == samples


@pytest.mark.slow
def test_sample_on_consistest_02_keeps_pairs(consistest_json: Path, persona_qas_json: Path,
                                             history_qas_json: Path, tmp_path: Path) -> None:  # fmt: skip
    out = tmp_path / "cz02"
    r = run_cli("build", "--dialogues", consistest_json, "--persona-qas", persona_qas_json,
                "--history-qas", history_qas_json, "--out", out, "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    from consistest.data.dataset_dir import load_samples

    samples = load_samples(out)
    got = stratified_sample(samples, 400, seed=0)
    assert len(got) == 400
    full = Counter(s.qa_id for s in samples)
    assert all(full[q] == c for q, c in Counter(s.qa_id for s in got).items())
    strata = Counter((s.source, s.type, s.distance) for s in got)
    assert strata[("pers", "yn", 0)] == strata[("pers", "yn", 2)] == 87  # 8,080 of 18,635 -> 173.4


def test_sample_is_named_in_the_signature(tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    assert run_cli("build", "--demo", "--out", demo, "-q").exit_code == 0
    r = run_cli("score", "--dataset", demo, "--model", "baseline:oracle", "--sample", "10",
                "--sample-seed", "2", "--nli", "none", "--out", tmp_path / "r", "--format", "json",
                "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert "|subset:sample-10-s2|" in summary["signature"] and summary["n"] in (9, 10)
    assert len((tmp_path / "r" / "responses.jsonl").read_text().splitlines()) == summary["n"]
    both = run_cli("score", "--dataset", demo, "--model", "baseline:oracle", "--sample", "10", "--limit", "3",
                   "--nli", "none", "--out", tmp_path / "r2", "-q")  # fmt: skip
    assert both.exit_code == 2 and "--limit or --sample" in both.stderr
    assert RespondConfig(ModelSpec("baseline:oracle"), sample=50).subset_tag(37) is None  # all of them
