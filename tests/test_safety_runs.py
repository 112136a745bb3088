"""`consistest score/generate/compare` never print a misleading figure and never block themselves."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import run_cli


def _one_line(stderr: str) -> bool:
    return stderr.startswith("consistest: error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr


@pytest.fixture()
def demo(tmp_path: Path) -> Path:
    out = tmp_path / "consistest-demo"
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    return out


@pytest.fixture(scope="module")
def no_tokenizer_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.tiny_models import tiny_generator

    d = tiny_generator(tmp_path_factory.mktemp("m") / "bart", "bart")
    for p in d.iterdir():
        if p.name.startswith(("tokenizer", "special_tokens", "vocab", "merges")):
            p.unlink()
    return d


def _score(*args: str | Path):
    return run_cli("score", "--nli", "none", "-q", *args)


def test_limit_is_named_in_the_signature(demo: Path, tmp_path: Path) -> None:
    r = _score("--dataset", demo, "--model", "baseline:oracle", "--limit", "5", "--out", tmp_path / "r")
    assert r.exit_code == 0 and "|subset:first-5|" in r.output
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert "subset:first-5" in summary["signature"] and summary["n"] == 5
    full = _score("--dataset", demo, "--model", "baseline:oracle", "--out", tmp_path / "r")
    assert full.exit_code == 0 and "subset:" not in full.output  # the smoke run extends to the full run


def test_data_changed_after_the_build_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    assert run_cli("build", "--demo", "--format", "jsonl", "--out", out, "-q").exit_code == 0
    data = out / "data" / "test.jsonl"
    rows = [json.loads(x) for x in data.read_text().splitlines()]
    rows[0]["answer"] = "something else"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = _score("--dataset", out, "--model", "baseline:oracle", "--out", tmp_path / "r")
    assert r.exit_code == 2 and _one_line(r.stderr) and "changed after the build" in r.stderr


def test_corrupt_parquet_is_one_line(demo: Path, tmp_path: Path) -> None:
    (demo / "data" / "test.parquet").write_bytes(b"PAR1 not really")
    r = _score("--dataset", demo, "--model", "baseline:oracle", "--out", tmp_path / "r")
    assert r.exit_code == 2 and _one_line(r.stderr) and "Parquet" in r.stderr


@pytest.mark.parametrize("option", ["--limit", "--sample"])
def test_an_empty_subset_is_refused(demo: Path, tmp_path: Path, option: str) -> None:
    r = _score("--dataset", demo, "--model", "baseline:oracle", option, "0", "--out", tmp_path / "r")
    assert r.exit_code == 2 and _one_line(r.stderr) and "at least 1" in r.stderr
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("n_boot, ok", [("5", False), ("99", False), ("0", True), ("100", True)])
def test_n_boot_is_zero_or_enough(demo: Path, tmp_path: Path, n_boot: str, ok: bool) -> None:
    r = _score("--dataset", demo, "--model", "baseline:oracle", "--n-boot", n_boot, "--out", tmp_path / "r")
    assert (r.exit_code == 0) is ok
    if not ok:
        assert _one_line(r.stderr) and "--n-boot" in r.stderr
    elif n_boot == "0":
        overall = json.loads((tmp_path / "r" / "summary.json").read_text())["figures"]["overall"]
        assert overall["ci"] is None and "[" not in r.output.splitlines()[1]


def test_model_without_tokenizer_fails_and_leaves_nothing(
    demo: Path, tmp_path: Path, no_tokenizer_model: Path
) -> None:
    out = tmp_path / "r"
    r = _score("--dataset", demo, "--model", no_tokenizer_model, "--out", out)
    assert (
        r.exit_code == 2
        and _one_line(r.stderr)
        and "tokenizer" in r.stderr
        and "no tokenizer files" in r.stderr
    )
    assert not out.exists()


def test_failed_start_does_not_block_the_corrected_command(demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    bad = _score("--dataset", demo, "--model", tmp_path / "typo", "--out", out)
    assert bad.exit_code == 2 and _one_line(bad.stderr) and "not found" in bad.stderr
    assert not (out / "generation.json").exists()
    assert _score("--dataset", demo, "--model", "baseline:oracle", "--out", out).exit_code == 0


def test_truncated_weights_are_one_line(demo: Path, tmp_path: Path) -> None:
    from tests.tiny_models import tiny_generator

    d = tiny_generator(tmp_path / "bart", "bart")
    with open(d / "model.safetensors", "r+b") as f:
        f.truncate(5000)
    r = _score("--dataset", demo, "--model", d, "--out", tmp_path / "r")
    assert r.exit_code == 2 and _one_line(r.stderr) and "model.safetensors" not in r.stderr.split(":")[0]
    assert "cannot load model" in r.stderr


def test_default_run_dirs_include_the_dataset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("consistest-demo", "other-demo"):
        assert run_cli("build", "--demo", "--out", f"data/built/{name}", "-q").exit_code == 0
        r = run_cli(
            "score", "--dataset", f"data/built/{name}", "--model", "baseline:oracle", "--nli", "none", "-q"
        )
        assert r.exit_code == 0, r.stderr
    assert (tmp_path / "runs/consistest-demo/baseline-oracle/summary.json").is_file()
    assert (tmp_path / "runs/other-demo/baseline-oracle/summary.json").is_file()


def test_a_second_writer_is_refused_and_a_dead_ones_lock_is_taken_over(demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from consistest.core.rundir import run_lock\n"
         "with run_lock(sys.argv[1]):\n    print('locked', flush=True); time.sleep(60)", str(out)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "locked"
        r = _score("--dataset", demo, "--model", "baseline:oracle", "--out", out)
        assert r.exit_code == 2 and _one_line(r.stderr) and f"pid {holder.pid}" in r.stderr
        assert not (out / "responses.jsonl").exists()
    finally:
        holder.kill()
        holder.wait()
    assert (out / ".lock").read_text().strip() == str(holder.pid)  # stale: its process is gone
    assert _score("--dataset", demo, "--model", "baseline:oracle", "--out", out).exit_code == 0


def test_offline_hub_ids_and_local_looking_paths_fail_fast(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models").mkdir()
    start = time.monotonic()
    r = _score("--dataset", demo, "--model", "models/smollm3", "--out", tmp_path / "a")
    assert r.exit_code == 2 and "models/smollm3: model folder not found" in r.stderr
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    r = _score("--dataset", demo, "--model", "facebook/bart-base", "--out", tmp_path / "b")
    assert r.exit_code == 2 and _one_line(r.stderr) and "HF_HUB_OFFLINE" in r.stderr
    monkeypatch.delenv("HF_HUB_OFFLINE")
    from consistest.data import hub as hf_loading

    hf_loading.hub_unreachable.cache_clear()
    monkeypatch.setattr(hf_loading.socket, "create_connection", _refuse)
    r = _score("--dataset", demo, "--model", "facebook/bart-base", "--out", tmp_path / "c")
    assert r.exit_code == 2 and _one_line(r.stderr) and "hub cannot be reached" in r.stderr
    hf_loading.hub_unreachable.cache_clear()
    assert time.monotonic() - start < 30  # no minutes of retries


def _refuse(*_a, **_k):
    raise OSError(111, "Connection refused")


def test_nli_model_is_resolved_before_generation(demo: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "r"
    r = run_cli("score", "--dataset", demo, "--model", "baseline:oracle", "--out", out, "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "NLI model 'Ehsanl/Roberta-DNLI'" in r.stderr
    assert not (out / "responses.jsonl").exists()


def _runs(demo: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Two paper runs without NLI: each leaves its own Y/N replies without a short form undecided."""
    a, b = tmp_path / "oracle", tmp_path / "generic"
    for model, out in (("oracle", a), ("generic", b)):
        r = _score("--dataset", demo, "--model", f"baseline:{model}", "--out", out, "--method", "paper")
        assert r.exit_code == 0
    return a, b


def test_compare_uses_the_items_both_runs_decided(demo: Path, tmp_path: Path) -> None:
    a, b = _runs(demo, tmp_path)
    r = run_cli("compare", a, b, "--format", "json")
    cmp = json.loads(r.output)
    rows = {}
    for run in (a, b):
        rows[run] = {
            x["id"]: x["score"] for x in map(json.loads, (run / "scores.jsonl").read_text().splitlines())
        }
    common = [i for i in rows[a] if rows[a][i] is not None and rows[b][i] is not None]
    assert 0 < cmp["common_items"] == len(common) < len(rows[a])
    overall = cmp["figures"][0]
    assert overall["n"] == len(common)
    for k, run in enumerate((a, b)):
        assert overall["runs"][k]["mean"] == pytest.approx(sum(rows[run][i] for i in common) / len(common))
    assert overall["diffs"][0]["delta"] == pytest.approx(
        overall["runs"][1]["mean"] - overall["runs"][0]["mean"]
    )
    assert f"means over the {len(common)} items every run decided" in run_cli("compare", a, b).output


def test_compare_warns_on_signature_differences_and_refuses_other_data(demo: Path, tmp_path: Path) -> None:
    a, _ = _runs(demo, tmp_path)
    limited = tmp_path / "limited"
    assert (
        _score("--dataset", demo, "--model", "baseline:oracle", "--limit", "9", "--out", limited).exit_code
        == 0
    )
    r = run_cli("compare", a, limited)
    assert r.exit_code == 0 and "warning: runs differ in subset: run1 (absent), run2 first-9" in r.output
    other = tmp_path / "other-ds"
    assert (
        run_cli("build", "--demo", "--memory", "2", "--distances", "0,1", "--out", other, "-q").exit_code == 0
    )
    c = tmp_path / "c"
    assert _score("--dataset", other, "--model", "baseline:oracle", "--out", c).exit_code == 0
    r = run_cli("compare", a, c)
    assert r.exit_code == 2 and _one_line(r.stderr) and "different datasets" in r.stderr
    r = run_cli("compare", a, c, "--allow-different-data")
    assert r.exit_code == 0 and "warning: runs differ in data" in r.output and "differ in d:" in r.output
