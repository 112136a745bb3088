"""The model judge behind a real OpenAI-compatible server (``transformers serve`` with a tiny chat model):
``score --method judge --judge openai:...`` end to end, and a scoring process killed with SIGKILL while it
judges, resumed to the same scores as an uninterrupted run."""

from __future__ import annotations

import json
import signal
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


def _args(demo: Path, chat_dir: Path, api_base: str, out: Path) -> list[str]:
    judge = f"openai:{chat_dir},api_base={api_base},concurrency=2,max_retries=1,max_new_tokens=6"
    return ["score", "--dataset", str(demo), "--model", "baseline:retrieval", "--nli", "none",
            "--n-boot", "0", "--method", "judge", "--judge", judge, "--judge-when", "all",
            "--out", str(out), "-q"]  # fmt: skip


def test_a_served_judge_scores_and_a_killed_run_resumes_identically(
    tiny_chat_server: Server, tiny_chat_dir: Path, demo_dataset: Path, tmp_path: Path
) -> None:
    demo, chat_dir, server = demo_dataset, tiny_chat_dir, tiny_chat_server
    ref = run_cli(*_args(demo, chat_dir, server.api_base, tmp_path / "ref"))
    assert ref.exit_code == 0, ref.output
    assert f"method:judge-1[openai:{chat_dir}@consistest-v1,greedy-6,all]" in ref.stdout
    rows = [json.loads(x) for x in (tmp_path / "ref" / "scores.jsonl").read_text().splitlines()]
    assert len(rows) == 37 and all(r["judge"]["stage"] == "judge" and r["judge"]["judge_raw"] for r in rows)
    calls = (tmp_path / "ref" / "judge.jsonl").read_text().splitlines()
    assert len(calls) == 37 + sum(len(r["judge"]["judge_raw"]) == 2 for r in rows)

    out = tmp_path / "killed"
    cli = "from consistest.cli.main import main; main()"
    proc = subprocess.Popen([sys.executable, "-c", cli, *_args(demo, chat_dir, server.api_base, out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    log = out / "judge.jsonl"
    deadline = time.monotonic() + 120
    while (not log.exists() or log.read_bytes().count(b"\n") < 5) and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert not (out / "scores.jsonl").exists() and 5 <= log.read_bytes().count(b"\n") < len(calls)
    again = run_cli(*_args(demo, chat_dir, server.api_base, out))
    assert again.exit_code == 0, again.output
    assert (out / "scores.jsonl").read_bytes() == (tmp_path / "ref" / "scores.jsonl").read_bytes()
    assert sorted(log.read_text().splitlines()) == sorted(calls)
