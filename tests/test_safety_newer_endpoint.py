"""Endpoint faults through the CLI: empty or malformed answers, Ctrl-C against a server that hangs, and
failed starts that must leave nothing behind (score and converse)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_cli

pytest.importorskip("openai")


def _one_line(stderr: str) -> bool:
    return stderr.startswith("consistest: error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr


def _completion(content: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": content}
    return {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": message}]}  # fmt: skip


class Server:
    """A /v1/chat/completions answering every request with one fixed (status, content type, body), or
    hanging (``hang``: it reads the request and never answers)."""

    def __init__(self) -> None:
        self.answer: tuple[int, str, bytes] = (
            200,
            "application/json",
            json.dumps(_completion("hi")).encode(),
        )
        self.hang = False
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                server.requests += 1
                if server.hang:
                    time.sleep(120)
                    return
                code, ctype, body = server.answer
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.api_base = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def json(self, obj: Any, code: int = 200) -> None:
        self.answer = (code, "application/json", json.dumps(obj).encode())


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "demo"
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    return out


def _score(demo: Path, server: Server, out: Path, *extra: str):
    return run_cli("score", "--dataset", demo, "--model", "openai:m", "--api-base", server.api_base,
                   "--max-retries", "0", "--nli", "none", "--out", out, "-q", *extra)  # fmt: skip


@pytest.mark.parametrize("content", [None, "", "  "])
def test_an_endpoint_answering_nothing_is_refused_before_writing(
    demo: Path, server: Server, tmp_path: Path, content: Any
) -> None:
    server.json(_completion(content))
    r = _score(demo, server, tmp_path / "r")
    assert r.exit_code == 2 and _one_line(r.stderr), r.stderr
    assert (
        "replied with empty text to all of its first 8 inputs" in r.stderr
        and "nothing was written" in r.stderr
    )
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("ctype", "body", "why"),
    [
        ("application/json", b'{"choices": [', "invalid JSON"),
        ("text/html", b"<html><body>Welcome to nginx!</body></html>", "it starts '<html>"),
        ("application/json", b"[1, 2]", "expected a JSON object, got a list"),
        ("application/json", json.dumps({"id": "x", "choices": [{"index": 0}]}).encode(), "has no message"),
        ("application/json", json.dumps({"id": "x"}).encode(), "no choices"),
        (
            "application/json",
            json.dumps(_completion([{"type": "text", "text": "hi"}])).encode(),
            "content is a list, expected a string",
        ),
    ],
)
def test_malformed_answers_are_one_line_naming_the_endpoint(
    demo: Path, server: Server, tmp_path: Path, ctype: str, body: bytes, why: str
) -> None:
    server.answer = (200, ctype, body)
    r = _score(demo, server, tmp_path / "r")
    assert r.exit_code == 1 and _one_line(r.stderr), r.stderr
    assert (
        f"endpoint {server.api_base} (model 'm') answered HTTP 200 but not as /chat/completions" in r.stderr
    )
    assert why in r.stderr and "unexpected" not in r.stderr
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("fault", ["refused", "404", "500"])
def test_a_failed_start_leaves_nothing_and_the_corrected_command_runs(
    demo: Path, server: Server, tmp_path: Path, fault: str
) -> None:
    out = tmp_path / "r"
    if fault == "refused":
        server.httpd.shutdown()
        server.httpd.server_close()
    else:
        server.json({"error": {"message": f"scripted {fault}"}}, code=int(fault))
    r = _score(demo, server, out)
    assert r.exit_code in (1, 2) and _one_line(r.stderr), r.stderr
    assert not out.exists()  # no empty responses.jsonl to block the next command
    r = run_cli("score", "--dataset", demo, "--model", "baseline:oracle", "--nli", "none", "--out", out, "-q")
    assert r.exit_code == 0, r.stderr


def test_a_failed_converse_start_leaves_nothing(tmp_path: Path) -> None:
    pytest.importorskip("spacy")
    from tests.serving import free_port

    dead = f"http://127.0.0.1:{free_port()}/v1"
    common = ["converse", "--no-persona", "--conversations", "1", "--turns", "2", "--nli", "none", "-q"]
    out = tmp_path / "run"
    r = run_cli(*common, "--bot", "a=openai:m,max_retries=0", "--bot", "b=openai:m,max_retries=0",
                "--api-base", dead, "--out", out)  # fmt: skip
    assert r.exit_code == 1 and _one_line(r.stderr) and "connection failed" in r.stderr, r.stderr
    assert not out.exists()
    r = run_cli(*common, "--bot", "a=baseline:persona-bot:0", "--bot", "b=baseline:generic", "--out", out)
    assert r.exit_code == 0, r.stderr


def _as_from_a_terminal() -> None:
    """The child takes Ctrl-C as a command started from a terminal does, whatever the test runner ignores or
    blocks (a runner started in the background ignores SIGINT, and its children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.slow
def test_ctrl_c_against_a_hanging_endpoint_exits_at_once(demo: Path, server: Server, tmp_path: Path) -> None:
    server.hang = True
    cmd = [sys.executable, "-c", "from consistest.cli.main import main; main()", "generate", "--dataset",
           str(demo), "--model", "openai:m", "--api-base", server.api_base, "--request-timeout", "600",
           "--max-retries", "5", "--out", str(tmp_path / "r"), "-q"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_from_a_terminal)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while server.requests < 8 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)  # every request in flight, none answered
        assert server.requests == 8, "the requests never arrived"
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        rc = proc.wait(timeout=60)  # before: up to 12 minutes of timeouts and retries
        waited = time.monotonic() - start
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    assert rc == 130 and "consistest: error: interrupted" in proc.stderr.read()
    assert waited < 15, f"the process lived on for {waited:.0f} s after Ctrl-C"
    assert not (tmp_path / "r").exists()
