"""The ``consistest`` command: a thin click group; each command lives in its own module."""

from __future__ import annotations

from consistest.cli.main import main

__all__ = ["main"]
