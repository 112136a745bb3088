"""``transformers serve`` (Hugging Face's OpenAI-compatible server) in a child process, for tests and
benchmarks: started on 127.0.0.1 in its own process group, killed as a group, never left behind."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

SERVE_MODULES = ("fastapi", "uvicorn", "openai")


def serve_available() -> bool:
    """``transformers serve`` needs the serving extra (fastapi, uvicorn) and our backend the openai client."""
    return all(importlib.util.find_spec(m) is not None for m in SERVE_MODULES)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``transformers serve MODEL_DIR`` pinned to one local model folder (requests name it by that path).

    ``start()`` waits for ``/health``; ``kill()`` SIGKILLs the process group (a crash mid-request);
    ``stop()`` asks politely first. Use as a context manager so the server dies with the test."""

    def __init__(self, model_dir: str | Path, *, threads: int = 1, extra: tuple[str, ...] = ()) -> None:
        self.model = str(model_dir)
        self.threads, self.extra = threads, extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self._log: IO[str] | None = None
        self._cache = tempfile.TemporaryDirectory(prefix="consistest-hf-cache-")

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout: float = 180.0) -> Server:
        import httpx

        self.port = free_port()
        env = {
            **os.environ,
            "HF_HUB_OFFLINE": "1",
            "HF_HUB_CACHE": self._cache.name,  # an existing cache dir, else /v1/models answers 500
            "OMP_NUM_THREADS": str(self.threads),
            "TOKENIZERS_PARALLELISM": "false",
        }
        self._log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed in stop/kill)
        exe = Path(sys.executable).with_name("transformers")
        cmd = [str(exe), "serve", self.model, "--host", "127.0.0.1", "--port", str(self.port), *self.extra]
        self.proc = subprocess.Popen(
            cmd, stdout=self._log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"transformers serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"transformers serve not healthy after {timeout:.0f} s")
            time.sleep(0.1)

    def log(self) -> str:
        if self._log is None or self._log.closed:
            return ""
        self._log.seek(0)
        return self._log.read()[-3000:]

    def kill(self) -> None:
        """SIGKILL the whole process group at once (in-flight requests break)."""
        self._signal(signal.SIGKILL, wait=10)

    def stop(self) -> None:
        """SIGTERM (uvicorn drains in-flight requests), SIGKILL after 10 s."""
        if not self._signal(signal.SIGTERM, wait=10):
            self.kill()

    def _signal(self, sig: int, wait: float) -> bool:
        if self.proc is None:
            return True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)
        try:
            self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return False
        self.proc = None
        if self._log is not None:
            self._log.close()
        return True

    def __enter__(self) -> Server:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            if self.proc is not None:
                self.kill()
            self._cache.cleanup()
