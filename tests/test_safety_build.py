"""`consistest build` never loses a user's files and never builds a misleading dataset with exit 0."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from consistest.core import io as cio
from tests.helpers import run_cli, write_json


def _one_line(stderr: str) -> bool:
    return stderr.startswith("consistest: error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr


def test_out_that_is_not_a_build_is_refused_unless_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    r = run_cli("build", "--demo", "--out", out, "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "--overwrite" in r.stderr
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]
    assert run_cli("build", "--demo", "--out", out, "-q", "--overwrite").exit_code == 0
    assert (out / "build_info.json").is_file() and not (out / "thesis.tex").exists()


def test_an_earlier_build_and_an_empty_folder_are_replaced(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli("build", "--demo", "--out", empty, "-q").exit_code == 0


def test_out_that_is_a_file_is_never_touched(tmp_path: Path) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("keep me")
    for extra in ((), ("--overwrite",)):
        r = run_cli("build", "--demo", "--out", f, "-q", *extra)
        assert r.exit_code == 2 and _one_line(r.stderr) and "not a directory" in r.stderr
    assert f.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_out_dot_is_refused_without_stray_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "code.py").write_text("x = 1")
    for extra in ((), ("--overwrite",)):
        r = run_cli("build", "--demo", "--out", ".", "-q", *extra)
        assert r.exit_code == 2 and _one_line(r.stderr) and "working directory" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["code.py"]


def test_out_holding_an_input_is_refused(tmp_path: Path, consistest_json: Path) -> None:
    out = tmp_path / "built"
    out.mkdir()
    (out / "build_info.json").write_text("{}")
    d = out / "dialogues.json"
    d.write_bytes(consistest_json.read_bytes())
    r = run_cli("build", "--dialogues", d, "--wh-generator", "rules", "--out", out, "-q")
    assert r.exit_code == 2 and "holds the input" in r.stderr and d.is_file()


def test_temp_dirs_of_killed_builds_are_cleaned(tmp_path: Path) -> None:
    dead = tmp_path / ".demo.tmp-999999999-abc"  # no such pid
    live = tmp_path / f".demo.tmp-{os.getppid()}-xyz"  # a running process: maybe a build in progress
    for p in (dead, live):
        p.mkdir()
        (p / "data").mkdir()
    assert run_cli("build", "--demo", "--out", tmp_path / "demo", "-q").exit_code == 0
    assert not dead.exists() and live.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["demo", live.name])


@pytest.mark.parametrize(
    "err",
    [
        OSError(errno.ENOSPC, "No space left on device", "data/test.parquet"),
        PermissionError(errno.EACCES, "Permission denied", "/read-only/out"),
    ],
)
def test_environment_faults_are_one_line_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: OSError
) -> None:
    def fail(*_a, **_k):
        raise err

    monkeypatch.setattr(cio.tempfile, "mkdtemp", fail)
    r = run_cli("build", "--demo", "--out", tmp_path / "demo", "-q")
    assert r.exit_code == 1 and _one_line(r.stderr) and err.strerror in r.stderr and err.filename in r.stderr
    assert not (tmp_path / "demo").exists()
    with pytest.raises(OSError):  # --debug shows the real exception (and its traceback)
        run_cli("build", "--demo", "--out", tmp_path / "demo", "-q", "--debug")


def test_duplicate_distances_are_an_input_error(tmp_path: Path) -> None:
    r = run_cli("build", "--demo", "--distances", "0,0", "--out", tmp_path / "d", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "repeat" in r.stderr
    assert not (tmp_path / "d").exists()


def test_repeated_dialogue_id_is_detected(tmp_path: Path) -> None:
    d = tmp_path / "d.json"
    one = '{"persona": ["i like cats ."], "utterances": ["hi", "hello"]}'
    d.write_text(f'{{"7": {one}, "7": {one}}}')
    p, h = write_json(tmp_path / "p.json", {}), write_json(tmp_path / "h.json", {})
    r = run_cli(
        "build", "--dialogues", d, "--persona-qas", p, "--history-qas", h, "--out", tmp_path / "o", "-q"
    )
    assert r.exit_code == 2 and _one_line(r.stderr) and "'7' appears twice" in r.stderr


@pytest.mark.slow
def test_curated_qas_on_the_wrong_layout_fail_unless_allow_partial(
    tmp_path: Path, convai2_txt: Path, persona_qas_json: Path, history_qas_json: Path
) -> None:
    args = ["build", "--dialogues", convai2_txt, "--persona-qas", persona_qas_json]
    args += ["--history-qas", history_qas_json, "-q", "--out", tmp_path / "o"]
    r = run_cli(*args)
    assert r.exit_code == 2 and _one_line(r.stderr)
    assert "only 0 of 1,136 persona QAs" in r.stderr and "consistest_valid.json" in r.stderr
    assert not (tmp_path / "o").exists()
    r = run_cli(*args, "--allow-partial")
    assert r.exit_code == 0 and "qa:curated-partial" in r.output
    info = json.loads((tmp_path / "o" / "build_info.json").read_text())
    assert info["qa_match"]["persona_matched"] == 0 and info["qa_match"]["persona_qas"] == 1136


@pytest.mark.slow
def test_matching_build_records_its_match_counts(
    tmp_path: Path, consistest_json: Path, persona_qas_json: Path, history_qas_json: Path
) -> None:
    r = run_cli(
        "build", "--dialogues", consistest_json, "--persona-qas", persona_qas_json,
        "--history-qas", history_qas_json, "--out", tmp_path / "o", "-q",
    )  # fmt: skip
    assert r.exit_code == 0 and "qa:curated|" in r.output
    info = json.loads((tmp_path / "o" / "build_info.json").read_text())
    assert info["qa_match"] == {
        "persona_qas": 1136, "persona_matched": 1136, "history_qas": 1953, "history_matched": 1953
    }  # fmt: skip
