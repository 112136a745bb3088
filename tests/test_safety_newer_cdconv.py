"""`consistest train-detector` and `consistest detect` never lose a user's files, never mix two trainings in
one folder, learn the same vocabulary twice, and say when their input is one they cannot judge."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

DECODE_STYLE = Path(__file__).parent / "data" / "decode_style.jsonl"  # English, hand-written
U1, B1, U2, B2 = "你喜欢狗吗？", "喜欢，我养了一只狗", "你不喜欢狗吗？", "我从来没养过狗"
TINY = ["--architecture", "pair", "--base", "scratch-1x32", "--epochs", "1", "--batch-size", "8",
        "--max-length", "48", "--threads", "1", "-q"]  # fmt: skip


def _one_line(stderr: str) -> bool:
    return stderr.startswith("consistest: error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr


def _rows(n: int, text: str = "") -> list[dict]:
    """Made-up CDConv-layout rows (no CDConv text), four replies per context, labels cycling."""
    return [{"file": "t", "model": "m", "method": "短句", "u1": f"{U1}{text}{i // 4}", "b1": B1, "u2": U2,
             "b2": f"{B2}{text}{i}", "label": i % 4} for i in range(n)]  # fmt: skip


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _train(data: Path, out: Path, *extra: str):
    return run_cli("train-detector", "--data", data, "--out", out, *TINY, *extra)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(training data, detector folder) of a tiny Chinese detector."""
    root = tmp_path_factory.mktemp("det")
    data = _write(root / "train.jsonl", _rows(48))
    r = _train(data, root / "detector")
    assert r.exit_code == 0, r.stderr
    return data, root / "detector"


def _detect(detector: Path, data: Path, *extra: str | Path):
    return run_cli("detect", "--detector", detector, "--data", data, "-q", *extra)


# ---------------------------------------------------------------- detect --out
def test_detect_never_replaces_a_users_file_unless_overwrite(
    trained: tuple[Path, Path], tmp_path: Path
) -> None:
    data, det = trained
    mine = tmp_path / "thesis.jsonl"
    mine.write_text("years of work\n")
    r = _detect(det, data, "--out", mine)
    assert r.exit_code == 2 and _one_line(r.stderr) and "--overwrite" in r.stderr
    assert mine.read_text() == "years of work\n" and not (tmp_path / "thesis.metrics.json").exists()
    assert _detect(det, data, "--out", mine, "--overwrite").exit_code == 0
    assert json.loads(mine.read_text().splitlines()[0])["category"] in ("none", "intra", "role", "history")


@pytest.mark.slow
def test_detect_replaces_its_own_earlier_output(trained: tuple[Path, Path], tmp_path: Path) -> None:
    data, det = trained
    out = tmp_path / "preds.jsonl"
    assert _detect(det, data, "--out", out).exit_code == 0
    assert json.loads((tmp_path / "preds.metrics.json").read_text())["written_by"] == "consistest detect"
    assert _detect(det, data, "--out", out).exit_code == 0


def test_detect_never_replaces_its_input(trained: tuple[Path, Path], tmp_path: Path) -> None:
    _, det = trained
    data = _write(tmp_path / "dialogues.jsonl", _rows(8))
    before = data.read_bytes()
    for extra in ((), ("--overwrite",)):
        r = _detect(det, data, "--out", data, *extra)
        assert r.exit_code == 2 and _one_line(r.stderr) and "is the input" in r.stderr
        r = _detect(det, data, "--out", det / "detector.json", *extra)
        assert r.exit_code == 2 and _one_line(r.stderr) and "part of the input" in r.stderr
    assert data.read_bytes() == before


def test_detect_never_replaces_a_users_metrics_file(trained: tuple[Path, Path], tmp_path: Path) -> None:
    data, det = trained
    (tmp_path / "preds.metrics.json").write_text('{"mine": true}')
    r = _detect(det, data, "--out", tmp_path / "preds.jsonl")
    assert r.exit_code == 2 and _one_line(r.stderr) and "preds.metrics.json" in r.stderr
    assert (tmp_path / "preds.metrics.json").read_text() == '{"mine": true}'
    assert not (tmp_path / "preds.jsonl").exists()


# ---------------------------------------------------------------- detect on what it cannot read
def test_a_missing_stage_or_architecture_is_one_line(trained: tuple[Path, Path], tmp_path: Path) -> None:
    data, det = trained
    broken = Path(__import__("shutil").copytree(det, tmp_path / "det"))
    (broken / "pair" / "config.json").unlink()
    r = _detect(broken, data)
    assert r.exit_code == 2 and _one_line(r.stderr) and "stage 'pair' is missing" in r.stderr
    info = json.loads((det / "detector.json").read_text())
    del info["architecture"]
    (broken / "detector.json").write_text(json.dumps(info))
    r = _detect(broken, data)
    assert r.exit_code == 2 and _one_line(r.stderr) and "field 'architecture'" in r.stderr


def test_detect_warns_on_text_it_cannot_read_and_on_its_training_data(trained: tuple[Path, Path]) -> None:
    data, det = trained
    r = _detect(det, DECODE_STYLE)  # English dialogues, a Chinese vocabulary
    assert r.exit_code == 0 and "not in the detector's vocabulary" in r.stderr
    assert "training data" not in r.stderr
    r = _detect(det, data)
    assert r.exit_code == 0 and "vocabulary" not in r.stderr
    assert "dialogues were in the detector's training data" in r.stderr


# ---------------------------------------------------------------- train-detector --out
def test_train_detector_refuses_a_folder_that_is_not_its_own(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "metrics.json").write_text('{"my": "figures"}')
    data = _write(tmp_path / "t.jsonl", _rows(24))
    r = _train(data, out)
    assert r.exit_code == 2 and _one_line(r.stderr) and "--overwrite" in r.stderr
    assert [p.name for p in out.iterdir()] == ["metrics.json"]


def test_train_detector_refuses_other_data_in_its_folder_unless_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "det"
    assert _train(_write(tmp_path / "a.jsonl", _rows(24)), out).exit_code == 0
    other = _write(tmp_path / "b.jsonl", _rows(24, text="猫"))
    r = _train(other, out)
    assert r.exit_code == 2 and _one_line(r.stderr) and "trained with other data" in r.stderr
    assert "猫" not in (out / "tokenizer" / "tokenizer.json").read_text(encoding="utf-8")
    assert _train(other, out, "--overwrite").exit_code == 0
    assert "猫" in (out / "tokenizer" / "tokenizer.json").read_text(encoding="utf-8")  # a fresh vocabulary


def test_a_second_training_in_one_folder_is_refused(tmp_path: Path) -> None:
    out, data = tmp_path / "det", _write(tmp_path / "a.jsonl", _rows(24))
    assert _train(data, out).exit_code == 0
    before = sorted(p.name for p in out.iterdir())
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from consistest.core.rundir import run_lock\n"
         "with run_lock(sys.argv[1]):\n    print('locked', flush=True); time.sleep(60)", str(out)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "locked"
        r = _train(data, out)  # the same training, resumed while another process still writes it
        assert r.exit_code == 2 and _one_line(r.stderr) and f"pid {holder.pid}" in r.stderr
        assert sorted(p.name for p in out.iterdir()) == before
    finally:
        holder.kill()
        holder.wait()


def test_two_identical_trainings_learn_the_same_vocabulary(tmp_path: Path) -> None:
    rng = random.Random(0)
    words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(3, 7))) for _ in range(300)]
    say = lambda: " ".join(rng.choice(words) for _ in range(8))  # noqa: E731
    rows = [{"file": "t", "model": "m", "method": "短句", "u1": say(), "b1": say(), "u2": say(), "b2": say(),
             "label": i % 4} for i in range(100)]  # fmt: skip
    data = _write(tmp_path / "t.jsonl", rows)
    vocabs = []
    for name in ("a", "b"):
        r = _train(data, tmp_path / name, "--max-steps", "1")
        assert r.exit_code == 0, r.stderr
        tok = json.loads((tmp_path / name / "tokenizer" / "tokenizer.json").read_text())
        vocabs.append(tok["model"]["vocab"])
    assert vocabs[0] == vocabs[1] and len(vocabs[0]) > 100
