"""Chat models behind an OpenAI-compatible endpoint (``openai:NAME``): vLLM, llama.cpp, Ollama, TGI,
``transformers serve`` or a hosted API, through ``/chat/completions``.

A conversation becomes chat messages (:func:`~consistest.models.rendering.chat_messages`: the system
message is a versioned prompt plus the persona, then the turns as user/assistant); the server applies the
model's chat template. Up to ``concurrency`` requests are in flight; each reply is yielded as soon as its
request completes, so the runner appends it at once and a killed run resumes where it stopped. Under
greedy decoding identical conversations are asked once. The official ``openai`` client does the HTTP:
timeouts, retries with exponential backoff and jitter on connection errors, timeouts, 408/409/429 and 5xx
(honouring ``Retry-After``), and typed errors; when the retries run out the run stops with one line. The
key comes from ``$OPENAI_API_KEY`` (local servers need none) and, like the URL, is never stored: settings
and signature name only the endpoint's model name, the rendering and the decoding.
"""

from __future__ import annotations

import json
import os
import queue
import random
import threading
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from consistest.core.errors import EnvironmentFault, InputError
from consistest.core.records import Conversation
from consistest.models.base import Chunk, Item
from consistest.models.decoding import Decoding
from consistest.models.options import ModelOption
from consistest.models.rendering import (
    DEFAULT_SYSTEM_PROMPT,
    SYSTEM_PROMPT_OPTION,
    chat_messages,
    check_system_prompt,
)

USES_DECODING = True
DEFAULT_API_BASE = "http://127.0.0.1:8000/v1"
DEFAULT_CONCURRENCY = 8
DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_RETRIES = 5
NO_KEY = "none"  # the client wants a non-empty key; local servers ignore it


@dataclass(frozen=True)
class EndpointSettings:
    """Where and how requests go (none of it changes a reply), and the system prompt (which does)."""

    api_base: str | None = None  # None: $OPENAI_BASE_URL, else DEFAULT_API_BASE
    concurrency: int = DEFAULT_CONCURRENCY
    request_timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    system_prompt: str = DEFAULT_SYSTEM_PROMPT

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise InputError(f"must be at least 1, got {self.concurrency}", field="concurrency")
        if not self.request_timeout > 0:
            raise InputError(f"must be > 0 seconds, got {self.request_timeout}", field="request-timeout")
        if self.max_retries < 0:
            raise InputError(f"must be >= 0, got {self.max_retries}", field="max-retries")
        check_system_prompt(self.system_prompt)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> EndpointSettings:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in options.items() if k in names and v is not None})

    @property
    def base_url(self) -> str:
        return self.api_base or os.environ.get("OPENAI_BASE_URL") or DEFAULT_API_BASE


OPTIONS = frozenset(f.name for f in fields(EndpointSettings))  # what a bot spec may set
CLI_OPTIONS: tuple[ModelOption, ...] = (
    ModelOption("api_base", str, None, "Endpoint URL for openai:NAME [default: $OPENAI_BASE_URL, else "
                "http://127.0.0.1:8000/v1]; the key is read from $OPENAI_API_KEY.", show_default=False),
    ModelOption("concurrency", int, DEFAULT_CONCURRENCY, "Requests in flight (openai:)."),
    ModelOption("request_timeout", float, DEFAULT_TIMEOUT,
                "Seconds per request before it is retried (openai:)."),
    ModelOption("max_retries", int, DEFAULT_MAX_RETRIES,
                "Retries with exponential backoff on connection errors, timeouts, 429 and 5xx (openai:)."),
    SYSTEM_PROMPT_OPTION,
)  # fmt: skip


def settings(name: str, decoding: Decoding, options: Mapping[str, Any]) -> dict[str, Any]:
    """What changes a reply: the system prompt and the decoding (never the URL or the key)."""
    _check(name, decoding)
    return {"system_prompt": EndpointSettings.from_options(options).system_prompt, **decoding.settings()}


def prompt_tag(name: str, options: Mapping[str, Any]) -> str:
    return f"chat-{EndpointSettings.from_options(options).system_prompt}"


def engine_tag(name: str, options: Mapping[str, Any]) -> None:
    """The server's engine is not ours to know (see ``registry``)."""
    return None


def load(name: str, decoding: Decoding, options: Mapping[str, Any], quiet: bool = False) -> OpenAIChatModel:
    return OpenAIChatModel(name, decoding, EndpointSettings.from_options(options))


def _check(name: str, decoding: Decoding) -> None:
    if not name:
        raise InputError("openai: needs the endpoint's model name, e.g. openai:gpt-4o-mini", field="model")
    if decoding.num_beams > 1:
        raise InputError("OpenAI-compatible endpoints have no beam search", field="num-beams")


def request_params(decoding: Decoding, item_id: str | None = None) -> dict[str, Any]:
    """Decoding as request fields. Greedy is temperature 0; sampling sends temperature, top_p and a seed
    derived from (seed, item id), so an item's request is the same whenever it runs."""
    params: dict[str, Any] = {"max_tokens": decoding.max_new_tokens}
    if not decoding.do_sample:
        return {**params, "temperature": 0.0}
    seed = random.Random(f"{decoding.seed}:{item_id}").getrandbits(31)
    return {**params, "temperature": decoding.temperature, "top_p": decoding.top_p, "seed": seed}


def display_url(url: str) -> str:
    """The URL without user:password, for messages."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    return urlunsplit(parts._replace(netloc=host + (f":{parts.port}" if parts.port else "")))


@dataclass(frozen=True)
class _Job:
    ids: tuple[str, ...]  # items sharing this request
    messages: list[dict[str, str]]
    params: dict[str, Any]


class OpenAIChatModel:
    """A model served behind ``/chat/completions`` as a ChatModel."""

    def __init__(
        self, model: str, decoding: Decoding | None = None, settings: EndpointSettings | None = None
    ) -> None:
        try:
            import openai
        except ImportError:
            raise EnvironmentFault(
                'openai: models need the openai client: pip install "consistest[openai]"'
            ) from None

        self.model, self.decoding, self.cfg = model, decoding or Decoding(), settings or EndpointSettings()
        _check(model, self.decoding)
        self.name = f"openai:{model}"
        self.client = openai.OpenAI(
            base_url=self.cfg.base_url,
            api_key=os.environ.get("OPENAI_API_KEY") or NO_KEY,
            max_retries=self.cfg.max_retries,
            timeout=self.cfg.request_timeout,
        )

    def messages(self, conv: Conversation) -> list[dict[str, str]]:
        return chat_messages(conv, system_prompt=self.cfg.system_prompt)

    def jobs(self, items: Sequence[Item], skip: Set[str]) -> list[_Job]:
        """One request per item not in ``skip``; under greedy decoding one per distinct conversation."""
        if self.decoding.do_sample:
            todo = [(i, c) for i, c in items if i not in skip]
            return [_Job((i,), self.messages(c), request_params(self.decoding, i)) for i, c in todo]
        groups: dict[str, tuple[list[str], list[dict[str, str]]]] = {}
        for i, c in items:
            if i not in skip:
                msgs = self.messages(c)
                groups.setdefault(json.dumps(msgs), ([], msgs))[0].append(i)
        params = request_params(self.decoding)
        return [_Job(tuple(ids), msgs, params) for ids, msgs in groups.values()]

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        """Replies as requests complete (``concurrency`` in flight). After a failure no new request is
        sent; replies still in flight are yielded, then the first error is raised. Requests run in daemon
        threads: on Ctrl-C (or any other exit) the ones in flight are abandoned and the client closed, so
        a hanging endpoint cannot keep the process alive through its timeouts and retries."""
        todo = iter(self.jobs(items, skip))
        results: queue.SimpleQueue[tuple[_Job, str | None, BaseException | None]] = queue.SimpleQueue()
        running, error = 0, None
        try:
            while True:
                while error is None and running < self.cfg.concurrency:
                    job = next(todo, None)
                    if job is None:
                        break
                    threading.Thread(
                        target=self._work, args=(job, results), daemon=True, name="consistest-openai"
                    ).start()
                    running += 1
                if not running:
                    break
                job, text, exc = _next_result(results)
                running -= 1
                if exc is not None:
                    error = error or exc
                    continue
                yield [(i, text or "") for i in job.ids]
            if error is not None:
                raise error
        finally:
            if running:  # interrupted: cancel what is in flight
                self.client.close()

    def _work(self, job: _Job, results: queue.SimpleQueue) -> None:
        try:
            results.put((job, self.complete(job.messages, job.params), None))
        except BaseException as e:  # handed to the consuming thread
            results.put((job, None, e))

    def complete(self, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
        """One request (retried by the client); the reply text with whitespace runs collapsed."""
        import openai

        where = f"endpoint {display_url(self.cfg.base_url)} (model {self.model!r})"
        try:
            raw = self.client.chat.completions.with_raw_response.create(
                model=self.model, messages=messages, **params
            )
            body = raw.http_response.text
        except openai.APIConnectionError as e:  # includes timeouts
            raise EnvironmentFault(
                f"endpoint {display_url(self.cfg.base_url)}: {_reason(e)} after {self.cfg.max_retries} "
                "retries (is the server running? --api-base, --request-timeout, --max-retries)"
            ) from None
        except openai.APIStatusError as e:
            detail = f"HTTP {e.status_code}: {_message(e)}"
            if e.status_code in (408, 409, 429) or e.status_code >= 500:
                retries = self.cfg.max_retries
                raise EnvironmentFault(f"{where}: {detail}, still after {retries} retries") from None
            hint = " (check $OPENAI_API_KEY)" if e.status_code in (401, 403) else ""
            raise InputError(f"{where} refused the request: {detail}{hint}") from None
        try:
            content = reply_content(body)
        except ValueError as e:
            raise EnvironmentFault(
                f"{where} answered HTTP 200 but not as /chat/completions does: {e} (is --api-base an "
                "OpenAI-compatible /v1 endpoint?)"
            ) from None
        return " ".join(content.split())


def reply_content(body: str) -> str:
    """The first choice's message content of a ``/chat/completions`` answer (``null`` is empty text); a
    ValueError says what is wrong with anything else (not JSON, HTML, a list, no message, parts)."""
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as e:
        start = " ".join(body.split())[:40]
        raise ValueError(f"invalid JSON ({e.msg} at char {e.pos}; it starts {start!r})") from None
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got a {_json_type(obj)}")
    choices = obj.get("choices")
    if not isinstance(choices, list) or not choices:
        raise ValueError("no choices")
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    if not isinstance(message, dict):
        raise ValueError("choices[0] has no message")
    content = message.get("content")
    if content is None:
        return ""
    if not isinstance(content, str):
        raise ValueError(f"choices[0].message.content is a {_json_type(content)}, expected a string")
    return content


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "list", str: "string", bool: "boolean", int: "number", float: "number"}
    return names.get(type(value), "null" if value is None else type(value).__name__)


def _reason(e: Exception) -> str:
    import openai

    if isinstance(e, openai.APITimeoutError):
        return "no answer within the request timeout"
    cause = e.__cause__ or e.__context__
    return f"connection failed ({type(cause).__name__ if cause else type(e).__name__})"


def _message(e: Any) -> str:
    body = e.body
    if isinstance(body, dict):
        body = body.get("message") or body.get("detail") or body.get("error") or body
    text = body if isinstance(body, str) else json.dumps(body) if body is not None else e.message
    return " ".join(str(text).split())[:300]


def _next_result(results: queue.SimpleQueue) -> Any:
    """The next finished request, waiting in short slices: a Ctrl-C that the kernel hands to one of the
    request threads only sets Python's flag, and the main thread runs the handler (KeyboardInterrupt) at
    its next bytecode, not while blocked in one long wait."""
    while True:
        try:
            return results.get(timeout=0.2)
        except queue.Empty:
            continue
