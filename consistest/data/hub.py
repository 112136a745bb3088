"""Is the Hugging Face hub usable from here? Answered at once, so offline runs fail in a second, not after
minutes of retries: a spec that looks like a local path is never sent to the hub."""

from __future__ import annotations

import functools
import os
import socket
from pathlib import Path
from urllib.parse import urlparse


def looks_local(spec: str) -> bool:
    """A folder spec: ``./x``, ``/x``, ``~/x``, ``a/b/c``, or ``models/x`` when ``models/`` exists."""
    if spec.startswith((".", "/", "~")) or spec.count("/") > 1 or spec.endswith("/"):
        return True
    head, sep, _ = spec.partition("/")
    return bool(sep) and Path(head).is_dir()


def hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


@functools.lru_cache(maxsize=1)
def hub_unreachable() -> str | None:
    """Why the hub cannot be reached (one TCP connect, 5 s at most), or None when it can."""
    url = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host, port = url.hostname or "huggingface.co", url.port or (443 if url.scheme != "http" else 80)
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as e:
        return f"{host}: {e.strerror or e}"
    return None
