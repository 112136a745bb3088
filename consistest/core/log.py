"""One logger for every layer: ``consistest: <message>`` lines on stderr (results go to stdout and files).

Built on the standard ``logging`` module under the name ``consistest``, so a program embedding consistest
can route or silence it; ``info(..., quiet=True)`` (the CLI's --quiet) drops progress chatter, warnings
always show.
"""

from __future__ import annotations

import logging
import sys

LOGGER = logging.getLogger("consistest")


class _StderrHandler(logging.Handler):
    """Writes to the current ``sys.stderr`` (not the one at import time, which test runners replace)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"consistest: {self.format(record)}", file=sys.stderr, flush=True)


def _logger() -> logging.Logger:
    if not LOGGER.handlers:
        LOGGER.addHandler(_StderrHandler())
        LOGGER.setLevel(logging.INFO)
        LOGGER.propagate = False
    return LOGGER


def info(message: str, *, quiet: bool = False) -> None:
    """Progress and facts about a run; silenced by --quiet."""
    if not quiet:
        _logger().info(message)


def warning(message: str) -> None:
    """Something the user should know even under --quiet (a fallback, a likely mistake)."""
    _logger().warning(f"warning: {message}")
