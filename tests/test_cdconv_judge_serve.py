"""The CDConv judge behind a real OpenAI-compatible server (``transformers serve`` with a tiny chat model):
``detect --judge openai:...`` end to end, and a detect process killed with SIGKILL while it judges, resumed
to the same predictions and metrics as an uninterrupted run."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.serving import Server, serve_available
from tests.test_cdconv_judge import DIALOGUES, write_dialogues
from tests.tiny_models import tiny_chat_model

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not serve_available(), reason='needs pip install -e ".[serve]" (transformers serve)'),
]


@pytest.fixture(scope="module")
def chat_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_chat_model(tmp_path_factory.mktemp("cdconv-judge-serve") / "tiny-chat")


@pytest.fixture(scope="module")
def server(chat_dir: Path) -> Iterator[Server]:
    with Server(chat_dir) as s:
        yield s


def _args(data: Path, chat_dir: Path, api_base: str, out: Path) -> list[str]:
    judge = f"openai:{chat_dir},api_base={api_base},concurrency=2,max_retries=1,max_new_tokens=6"
    return ["detect", "--judge", judge, "--data", str(data), "--out", str(out), "--n-boot", "50", "-q"]


def test_a_served_judge_detects_and_a_killed_run_resumes_identically(
    server: Server, chat_dir: Path, tmp_path: Path
) -> None:
    more = [([*t[:-1], f"{t[-1]} ({k})"], lab, p) for k in range(3) for t, lab, p in DIALOGUES]
    data = write_dialogues(tmp_path / "d.jsonl", more)  # 18 distinct dialogues
    ref = run_cli(*_args(data, chat_dir, server.api_base, tmp_path / "ref" / "p.jsonl"))
    assert ref.exit_code == 0, ref.output
    assert f"method:judge-1[openai:{chat_dir}@cdconv-v1,greedy-6]" in ref.stdout
    rows = [json.loads(x) for x in (tmp_path / "ref" / "p.jsonl").read_text().splitlines()]
    assert len(rows) == 18 and all(r["judge_raw"] for r in rows)
    assert all(r["category"] is None or r["category"] in ("none", "intra", "role", "history") for r in rows)
    calls = (tmp_path / "ref" / "p.judge.jsonl").read_text().splitlines()
    assert len(calls) == 18 + sum(len(r["judge_raw"]) == 2 for r in rows)

    out = tmp_path / "killed" / "p.jsonl"
    cli = "from consistest.cli.main import main; main()"
    proc = subprocess.Popen([sys.executable, "-c", cli, *_args(data, chat_dir, server.api_base, out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    log = tmp_path / "killed" / "p.judge.jsonl"
    deadline = time.monotonic() + 120
    while (not log.exists() or log.read_bytes().count(b"\n") < 5) and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert not out.exists() and 5 <= log.read_bytes().count(b"\n") < len(calls)
    again = run_cli(*_args(data, chat_dir, server.api_base, out))
    assert again.exit_code == 0, again.output
    assert out.read_bytes() == (tmp_path / "ref" / "p.jsonl").read_bytes()
    ref_metrics = (tmp_path / "ref" / "p.metrics.json").read_bytes()
    assert (tmp_path / "killed" / "p.metrics.json").read_bytes() == ref_metrics
    assert sorted(log.read_text().splitlines()) == sorted(calls)
