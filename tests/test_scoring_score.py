"""`consistest score --responses` and `consistest compare` end to end on a small in-memory dataset."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from consistest.core.io import atomic_write_json
from consistest.core.records import Sample
from consistest.data.dataset_dir import samples_hash, write_samples
from consistest.tasks.consistest.categories import CATEGORIES_VERSION
from consistest.tasks.consistest.score import ScoreConfig, run_score
from tests.helpers import run_cli


def score_responses(dataset: Path, responses, nli, **kw):
    """Score in memory (nothing written) through the one entry point."""
    return run_score(ScoreConfig(dataset, None, responses=responses, nli=nli, quiet=True, **kw))


def _sample(i: int, source: str, qtype: str, q: str, a: str, fact: str, distance: int) -> Sample:
    return Sample(
        id=f"s{i}d{distance}",
        qa_id=f"q{i}",
        dialog_id="0",
        persona=["p"],
        history=[q],
        question=q,
        answer=a,
        fact=fact,
        nli_premise=fact,
        source=source,
        type=qtype,
        distance=distance,
        turn=-1 if source == "pers" else 0,
    )


QAS = [
    ("pers", "yn", "do you have pets ?", "yes", "i have a dog ."),
    ("pers", "wh", "what do you do ?", "teacher", "i am a teacher ."),
    ("hist", "wh", "where do you live ?", "texas", "i live in texas ."),
    ("hist_ext", "yn", "are you married ?", "no", "i'm single ."),
]


@pytest.fixture()
def dataset(tmp_path: Path) -> Path:
    samples = [_sample(i, *qa, d) for d in (0, 2) for i, qa in enumerate(QAS)]
    samples = [s for s in samples if not (s.qa_id == "q2" and s.distance == 2)]  # q2 only at d=0: unpaired
    d = tmp_path / "ds"
    write_samples(d, samples, "jsonl")
    atomic_write_json(
        d / "build_info.json",
        {
            "content_hash": samples_hash(samples),
            "counts": {},
            "settings": {"memory": 3, "distances": [0, 2], "paired": False},
        },
    )
    return d


def _responses(path: Path, mapping: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in mapping.items()))
    return path


GOOD = {
    "s0d0": "yes i do",
    "s1d0": "i'm a teacher",
    "s2d0": "texas !",
    "s3d0": "no , are you ?",
    "s0d2": "i don't .",
    "s1d2": "i teach math",
    "s3d2": "i am single",
}


def test_score_writes_rows_summary_and_signature(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = run_cli(
        "score",
        "--dataset",
        dataset,
        "--responses",
        _responses(tmp_path / "r.jsonl", GOOD),
        "--nli",
        "none",
        "--out",
        out,
        "--n-boot",
        "100",
        "--method",
        "paper",
    )
    assert res.exit_code == 0, res.output
    rows = {r["id"]: r for r in map(json.loads, (out / "scores.jsonl").read_text().splitlines())}
    assert rows["s0d0"]["score"] == 1.0 and rows["s0d0"]["outcome"] == "correct_short_answer"
    assert rows["s0d2"]["score"] == 0.0 and rows["s0d2"]["outcome"] == "wrong_short_form"
    assert rows["s3d2"]["score"] is None and rows["s3d2"]["outcome"] == "no_short_form"
    assert rows["s3d0"]["cleaned"] == "no"
    summary = json.loads((out / "summary.json").read_text())
    figs = summary["figures"]
    assert figs["overall"]["n"] == 7 and figs["overall"]["undecided"] == 1
    assert figs["overall"]["mean"] == pytest.approx(4 / 6)
    assert figs["persona_yn"]["mean"] == 0.5 and figs["history_wh"]["mean"] == 1.0
    assert figs["history_yn"]["n"] == 2 and figs["source=hist_ext"]["n"] == 2
    assert figs["paired_d=0"]["n"] == 3 and figs["d=0"]["n"] == 4
    sig = summary["signature"]
    digest = json.loads((dataset / "build_info.json").read_text())["content_hash"][:12]
    assert sig == (
        f"consistest:v1|data:{digest}|nli:none|rules:3|method:paper|cat:{CATEGORIES_VERSION}|mem:3|d:0,2|paired:no|v:0.1.0"
    )
    assert sig in res.output and "Persona Y/N" in res.output and "undecided" in res.output


def test_bootstrap_is_seeded(dataset: Path, tmp_path: Path) -> None:
    a = score_responses(dataset, GOOD, None, seed=1, n_boot=200).summary
    b = score_responses(dataset, dict(reversed(GOOD.items())), None, seed=1, n_boot=200).summary
    assert a == b
    assert a["figures"]["overall"]["ci"] is None  # 6 decided items: too few for an interval (MIN_ITEMS)


def test_fake_nli_guards_and_decides(dataset: Path) -> None:
    class Fake:
        name = signature = "fake"

        def predict(self, pairs):  # entailment when the response repeats the premise's last word
            return ["entailment" if p.split()[-2] in h else "contradiction" for p, h in pairs]

    rows = {r.id: r for r in score_responses(dataset, GOOD, Fake(), method="paper").items}
    assert rows["s3d2"].score == 1.0 and rows["s3d2"].nli_label == "entailment"
    assert rows["s0d0"].score == 0.0  # "yes i do" vs "i have a dog ." -> fake contradiction vetoes
    assert rows["s0d2"].nli_label is None  # wrong answers never reach NLI


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda m: m.update(zzz="hi"), "unknown sample id"),  # a missing one is a subset (test_safety_newer)
    ],
)
def test_bad_ids_are_one_line_errors(dataset: Path, tmp_path: Path, edit, message: str) -> None:
    m = dict(GOOD)
    edit(m)
    res = run_cli(
        "score",
        "--dataset",
        dataset,
        "--responses",
        _responses(tmp_path / "r.jsonl", m),
        "--nli",
        "none",
        "--out",
        tmp_path / "run",
    )
    assert res.exit_code == 2 and message in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run" / "scores.jsonl").exists()


def test_duplicate_id_is_an_error(dataset: Path, tmp_path: Path) -> None:
    p = _responses(tmp_path / "r.jsonl", GOOD)
    p.write_text(p.read_text() + json.dumps({"id": "s0d0", "response": "no"}) + "\n")
    res = run_cli("score", "--dataset", dataset, "--responses", p, "--nli", "none", "--out", tmp_path / "run")
    assert res.exit_code == 2 and "duplicate id 's0d0'" in res.stderr and "line 8" in res.stderr


def test_original_csv_matched_by_order(dataset: Path, tmp_path: Path) -> None:
    from consistest.data.dataset_dir import load_samples

    samples = load_samples(dataset)
    path = tmp_path / "r.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Question", "Response", "Reference", "NLI_Ref", "Source", "Type", "Distance"])
        for s in samples:
            w.writerow([s.question, GOOD[s.id], s.answer, s.nli_premise, s.source, s.type, s.distance])
    a = score_responses(dataset, path, None).items
    assert [r.response for r in a] == [GOOD[s.id] for s in samples]
    rows = path.read_text().splitlines()
    path.write_text("\n".join([rows[0], rows[2], rows[1], *rows[3:]]) + "\n")
    res = run_cli(
        "score", "--dataset", dataset, "--responses", path, "--nli", "none", "--out", tmp_path / "x"
    )
    assert res.exit_code == 2 and "does not match sample" in res.stderr


def test_score_with_tiny_nli_model_and_compare(dataset: Path, tmp_path: Path) -> None:
    from tests.tiny_models import tiny_roberta_classifier

    model = tiny_roberta_classifier(tmp_path / "nli")
    r1, r2 = tmp_path / "run1", tmp_path / "run2"
    res = run_cli(
        "score",
        "--dataset",
        dataset,
        "--responses",
        _responses(tmp_path / "a.jsonl", GOOD),
        "--nli",
        model,
        "--out",
        r1,
        "--format",
        "markdown",
        "--quiet",
    )
    assert res.exit_code == 0, res.output
    assert res.output.startswith("| figure")
    assert re.search(rf"nli:{model.name}@[0-9a-f]{{8}}\[c,n,e\]", res.output)
    bad = {k: "" for k in GOOD}
    assert (
        run_cli(
            "score",
            "--dataset",
            dataset,
            "--responses",
            _responses(tmp_path / "b.jsonl", bad),
            "--nli",
            "none",
            "--out",
            r2,
        ).exit_code
        == 0
    )
    res = run_cli("compare", r1, r2, "--n-boot", "100", "--format", "json")
    assert res.exit_code == 0, res.output
    overall = json.loads(res.output)["figures"][0]
    assert overall["key"] == "overall" and overall["runs"][1]["mean"] == 0.0
    assert overall["diffs"][0]["delta"] <= 0
    assert overall["too_few"] and overall["diffs"][0]["p"] is None  # 7 items: no p-value (MIN_ITEMS)
    assert "run2-run1 (p)" in run_cli("compare", r1, r2, "--n-boot", "100").output
