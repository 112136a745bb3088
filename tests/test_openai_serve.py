"""``openai:`` end to end against a real OpenAI-compatible server (``transformers serve`` with a tiny chat
model): scoring, agreement with the HF backend, and a run whose server is killed mid-run and restarted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.serving import Server, serve_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not serve_available(), reason='needs pip install -e ".[serve]" (transformers serve)'),
]


def _responses(run: Path) -> list[dict[str, str]]:
    return [json.loads(x) for x in (run / "responses.jsonl").read_text().splitlines()]


def test_score_against_a_served_model_matches_the_hf_backend(
    tiny_chat_server: Server, tiny_chat_dir: Path, demo_dataset: Path, tmp_path: Path
) -> None:
    demo, chat_dir, server = demo_dataset, tiny_chat_dir, tiny_chat_server
    common = (
        "--dataset",
        demo,
        "--nli",
        "none",
        "--max-new-tokens",
        "12",
        "--utterance-max-tokens",
        "0",
        "-q",
    )
    served = run_cli("score", "--model", f"openai:{chat_dir}", "--api-base", server.api_base,
                     "--out", tmp_path / "served", *common)  # fmt: skip
    assert served.exit_code == 0, served.output
    assert f"model:openai:{chat_dir}|input:standard|prompt:chat-persona-v1|dec:greedy-12" in served.stdout
    replies = _responses(tmp_path / "served")
    assert len(replies) == 37 and sum(bool(r["response"]) for r in replies) >= 30
    local = run_cli("score", "--model", chat_dir, "--chat-template", "--device", "cpu",
                    "--out", tmp_path / "local", *common)  # fmt: skip
    assert local.exit_code == 0, local.output
    assert "prompt:chat-persona-v1|dec:greedy-12" in local.stdout
    # The server applies the same chat template to the same messages: greedy replies agree.
    assert replies == _responses(tmp_path / "local")


def _generate(demo: Path, model: Path, api_base: str, out: Path) -> subprocess.Popen[str]:
    cli = "from consistest.cli.main import main; main()"
    cmd = [sys.executable, "-c", cli, "generate", "--dataset", str(demo), "--out", str(out),
           "--model", f"openai:{model}", "--api-base", api_base, "--max-new-tokens", "48",
           "--concurrency", "2", "--max-retries", "1", "--request-timeout", "10", "-q"]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_server_killed_mid_run_then_restarted_resumes_to_the_same_file(
    tiny_chat_server: Server, tiny_chat_dir: Path, demo_dataset: Path, tmp_path: Path
) -> None:
    demo, chat_dir, server = demo_dataset, tiny_chat_dir, tiny_chat_server
    reference = _generate(demo, chat_dir, server.api_base, tmp_path / "reference")
    assert reference.wait(timeout=300) == 0, reference.stderr.read() if reference.stderr else ""
    out = tmp_path / "killed"
    run = _generate(demo, chat_dir, server.api_base, out)
    deadline = time.monotonic() + 120
    while _lines(out / "responses.jsonl") < 4 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    group = server.proc.pid if server.proc else 0
    server.kill()
    with pytest.raises(ProcessLookupError):  # the whole process group is gone
        os.killpg(group, 0)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 1, err
    assert err.count("\n") == 1 and "connection failed" in err, err
    assert 4 <= _lines(out / "responses.jsonl") < 37
    server.start()  # on another port: the URL is not part of the run's settings
    again = _generate(demo, chat_dir, server.api_base, out)
    assert again.wait(timeout=300) == 0, again.stderr.read() if again.stderr else ""
    assert (out / "responses.jsonl").read_bytes() == (tmp_path / "reference" / "responses.jsonl").read_bytes()
    assert json.loads((out / "generation.json").read_text())["complete"] is True
