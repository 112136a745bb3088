"""The ``openai:`` backend against a scripted test-only endpoint: retries on 429/5xx/timeouts, one-line
errors, concurrency, request fields, and a key that never reaches an output. (The happy path against a
real server is in test_openai_serve.py.)"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from consistest.core.errors import EnvironmentFault, InputError
from consistest.core.records import Conversation, Turn
from consistest.models.decoding import Decoding
from consistest.models.openai_chat import (
    EndpointSettings,
    OpenAIChatModel,
    display_url,
    request_params,
    settings,
)
from consistest.models.registry import ModelSpec
from tests.helpers import run_cli

pytest.importorskip("openai")

CONV = Conversation(
    ("i have two dogs .",), (Turn("user", "hi"), Turn("assistant", "hello"), Turn("user", "pets ?"))
)


class Endpoint:
    """A scripted /v1/chat/completions: each request pops the next action (``200``, ``429``, ``500``,
    ``400``, ``sleep``); when the script is empty it answers 200. A 200 reply echoes the last user turn."""

    def __init__(self) -> None:
        self.script: list[str] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = self.max_in_flight = 0
        self.delay = 0.0
        self.lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with endpoint.lock:
                    endpoint.requests.append(body)
                    endpoint.headers.append({k.lower(): v for k, v in self.headers.items()})
                    action = endpoint.script.pop(0) if endpoint.script else "200"
                    endpoint.in_flight += 1
                    endpoint.max_in_flight = max(endpoint.max_in_flight, endpoint.in_flight)
                try:
                    time.sleep(endpoint.delay)
                    self._answer(action, body)
                finally:
                    with endpoint.lock:
                        endpoint.in_flight -= 1

            def _answer(self, action: str, body: dict[str, Any]) -> None:
                if action == "sleep":
                    time.sleep(1.5)  # longer than the client's timeout
                    return self._send(200, _completion(body))
                if action == "200":
                    return self._send(200, _completion(body))
                headers = {"retry-after-ms": "10"} if action == "429" else {}
                self._send(int(action), {"error": {"message": f"scripted {action}"}}, headers)

            def _send(self, code: int, obj: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(obj).encode()
                try:
                    self.send_response(code)
                    for k, v in {"Content-Type": "application/json", **(headers or {})}.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.api_base = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _completion(body: dict[str, Any]) -> dict[str, Any]:
    last = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": body["model"],
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": f" re:  {last}\n"},
            }
        ],
    }


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    ep = Endpoint()
    yield ep
    ep.close()


def model(ep: Endpoint, decoding: Decoding | None = None, **kw: Any) -> OpenAIChatModel:
    cfg = EndpointSettings(**{"api_base": ep.api_base, "max_retries": 2, "request_timeout": 1.0, **kw})
    return OpenAIChatModel("tiny", decoding or Decoding(max_new_tokens=7), cfg)


def test_request_carries_messages_and_decoding(endpoint: Endpoint) -> None:
    assert model(endpoint).complete(
        model(endpoint).messages(CONV), request_params(Decoding(max_new_tokens=7))
    ) == ("re: pets ?")  # whitespace runs collapsed
    body = endpoint.requests[0]
    assert body["model"] == "tiny" and body["max_tokens"] == 7 and body["temperature"] == 0
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
    assert "Stay in character" in body["messages"][0]["content"]
    assert body["messages"][0]["content"].endswith("Your persona: i have two dogs .")


@pytest.mark.parametrize(
    "decoding, expected",
    [
        (Decoding(max_new_tokens=9), {"max_tokens": 9, "temperature": 0.0}),
        (
            Decoding(do_sample=True, temperature=0.7, top_p=0.9),
            {"max_tokens": 25, "temperature": 0.7, "top_p": 0.9},
        ),
    ],
)
def test_request_params(decoding: Decoding, expected: dict[str, Any]) -> None:
    params = request_params(decoding, "item-1")
    assert {k: v for k, v in params.items() if k != "seed"} == expected
    if decoding.do_sample:  # a per-item seed, the same on every run, different across items and seeds
        assert params["seed"] == request_params(decoding, "item-1")["seed"]
        assert params["seed"] != request_params(decoding, "item-2")["seed"]
        assert params["seed"] != request_params(Decoding(do_sample=True, seed=1), "item-1")["seed"]


@pytest.mark.slow
@pytest.mark.parametrize("script", [["429", "429"], ["500", "503"], ["sleep"], ["500", "sleep"]])
def test_transient_failures_are_retried(endpoint: Endpoint, script: list[str]) -> None:
    endpoint.script = list(script)
    assert model(endpoint).complete(model(endpoint).messages(CONV), {"max_tokens": 5}) == "re: pets ?"
    assert len(endpoint.requests) == len(script) + 1
    assert [h.get("x-stainless-retry-count") for h in endpoint.headers] == [
        str(i) for i in range(len(script) + 1)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("code", ["429", "500"])
def test_giving_up_after_the_retries_is_one_environment_fault(endpoint: Endpoint, code: str) -> None:
    endpoint.script = [code] * 3
    with pytest.raises(EnvironmentFault, match=f"HTTP {code}: scripted {code}, still after 2 retries"):
        model(endpoint).complete(model(endpoint).messages(CONV), {"max_tokens": 5})
    assert len(endpoint.requests) == 3


def test_a_refused_request_is_an_input_error_without_retries(endpoint: Endpoint) -> None:
    endpoint.script = ["400"]
    with pytest.raises(InputError, match="refused the request: HTTP 400: scripted 400"):
        model(endpoint).complete(model(endpoint).messages(CONV), {"max_tokens": 5})
    assert len(endpoint.requests) == 1


@pytest.mark.slow
def test_concurrency_bounds_requests_in_flight(endpoint: Endpoint) -> None:
    endpoint.delay = 0.1
    items = [(f"i{k}", Conversation((f"fact {k} .",), (Turn("user", f"q{k}"),))) for k in range(12)]
    chunks = list(model(endpoint, concurrency=4).stream(items, skip={"i0"}))
    assert all(len(c) == 1 for c in chunks)
    assert sorted(i for c in chunks for i, _ in c) == sorted(f"i{k}" for k in range(1, 12))
    assert dict(p for c in chunks for p in c)["i5"] == "re: q5"
    assert endpoint.max_in_flight == 4
    endpoint.max_in_flight = 0
    list(model(endpoint, concurrency=1).stream(items[:4]))
    assert endpoint.max_in_flight == 1


def test_greedy_asks_once_per_distinct_conversation(endpoint: Endpoint) -> None:
    items = [("a", CONV), ("b", CONV), ("c", Conversation((), (Turn("user", "x"),)))]
    got = dict(p for c in model(endpoint).stream(items) for p in c)
    assert got == {"a": "re: pets ?", "b": "re: pets ?", "c": "re: x"} and len(endpoint.requests) == 2
    endpoint.requests.clear()
    list(model(endpoint, decoding=Decoding(do_sample=True)).stream(items))
    assert len(endpoint.requests) == 3 and len({r["seed"] for r in endpoint.requests}) == 3


def test_a_failure_stops_new_requests_and_keeps_finished_replies(endpoint: Endpoint) -> None:
    endpoint.script = ["200", "400"]
    items = [(f"i{k}", Conversation((), (Turn("user", f"q{k}"),))) for k in range(6)]
    got: list[str] = []
    with pytest.raises(InputError):
        for chunk in model(endpoint, concurrency=1).stream(items):
            got += [i for i, _ in chunk]
    assert got == ["i0"] and len(endpoint.requests) == 2


def test_settings_and_signature_name_the_model_never_the_endpoint(
    endpoint: Endpoint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-test-key")
    demo = tmp_path / "demo"
    assert run_cli("build", "--demo", "--out", demo, "-q").exit_code == 0
    run = tmp_path / "run"
    r = run_cli("score", "--dataset", demo, "--model", "openai:tiny", "--api-base", endpoint.api_base,
                "--nli", "none", "--out", run, "--limit", "6", "--max-new-tokens", "9", "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "model:openai:tiny|input:standard|prompt:chat-persona-v1|dec:greedy-9" in r.stdout
    assert endpoint.headers[0]["authorization"] == "Bearer sk-secret-test-key"
    port = endpoint.api_base.split(":")[-1].split("/")[0]
    for f in run.iterdir():
        text = f.read_text()
        assert "sk-secret" not in text and port not in text and "127.0.0.1" not in text, f.name
    stored = json.loads((run / "generation.json").read_text())["settings"]
    assert stored == {"model": "openai:tiny", "input_variant": "standard", "system_prompt": "persona-v1",
                      "decoding": "greedy", "max_new_tokens": 9}  # fmt: skip
    assert settings("tiny", Decoding(), {"api_base": "http://u:p@h/v1"}) == settings("tiny", Decoding(), {})


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    assert run_cli("build", "--demo", "--out", demo, "-q").exit_code == 0
    from tests.serving import free_port

    dead = f"http://127.0.0.1:{free_port()}/v1"
    r = run_cli("generate", "--dataset", demo, "--out", tmp_path / "r", "--model", "openai:m",
                "--api-base", dead, "--max-retries", "0", "-q")  # fmt: skip
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "connection failed" in r.stderr and "after 0 retries" in r.stderr
    assert not (tmp_path / "r" / "generation.json").exists()  # nothing claimed a run
    r = run_cli(
        "generate", "--dataset", demo, "--out", tmp_path / "r", "--model", "openai:m", "--num-beams", "2"
    )
    assert r.exit_code == 2 and "no beam search" in r.stderr
    r = run_cli(
        "generate", "--dataset", demo, "--out", tmp_path / "r", "--model", "openai:m", "--concurrency", "0"
    )
    assert r.exit_code == 2 and "concurrency" in r.stderr


def test_display_url_drops_credentials() -> None:
    assert display_url("https://user:pw@api.example.com:8443/v1") == "https://api.example.com:8443/v1"
    assert display_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"


def test_api_base_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert EndpointSettings().base_url == "http://127.0.0.1:8000/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://example:1/v1")
    assert EndpointSettings().base_url == "http://example:1/v1"
    assert EndpointSettings(api_base="http://x/v1").base_url == "http://x/v1"
    assert (
        ModelSpec("openai:m").name == "openai:m" and ModelSpec("openai:m").prompt_value() == "chat-persona-v1"
    )
