"""Errors the CLI renders on one line: bad input (exit 2) and faults of the environment (exit 1)."""

from __future__ import annotations

from dataclasses import dataclass


def _where(path: object, record: object, field: str | None) -> str:
    parts = []
    if path is not None:
        parts.append(str(path))
    if record is not None:
        parts.append(f"record {record}")
    if field is not None:
        parts.append(f"field {field!r}")
    return ": ".join(parts)


@dataclass
class InputError(Exception):
    """Bad input: the CLI prints ``str(err)`` on one line and exits with code 2."""

    message: str
    path: str | None = None
    record: str | int | None = None
    field: str | None = None

    def __str__(self) -> str:
        prefix = _where(self.path, self.record, self.field)
        return f"{prefix}: {self.message}" if prefix else self.message


@dataclass
class EnvironmentFault(Exception):
    """The machine failed us (disk full, read-only folder, a server that never answers): exit code 1."""

    message: str
    path: str | None = None

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path is not None else self.message


def describe_os_error(err: OSError) -> str:
    """``<path>: <cause>`` for an OSError (``No space left on device``, ``Permission denied``...)."""
    cause = err.strerror or str(err) or type(err).__name__
    paths = [str(p) for p in (err.filename, err.filename2) if p is not None]
    return f"{' -> '.join(paths)}: {cause}" if paths else cause
