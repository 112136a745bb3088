"""One error type for bad user input, rendered as a single line naming file, record and field."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class InputError(Exception):
    """Bad input: the CLI prints ``str(err)`` on one line and exits with code 2."""

    message: str
    path: str | None = None
    record: str | int | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = []
        if self.path is not None:
            where.append(str(self.path))
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.field is not None:
            where.append(f"field {self.field!r}")
        prefix = ": ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message
