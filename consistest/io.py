"""File helpers: atomic writes (temp + rename), JSON/JSONL with one-line errors, progress bars."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from consistest.errors import InputError


def read_json(path: str | Path) -> Any:
    """Parse a JSON file; any failure is an InputError naming the file (and line/column)."""
    path = Path(path)
    text = read_text(path)
    if not text.strip():
        raise InputError("file is empty", path=str(path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(
            f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}", path=str(path)
        ) from None


def read_text(path: str | Path, limit: int | None = None) -> str:
    """Read UTF-8 text (the first ``limit`` characters when given); a missing or unreadable path is an
    InputError."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as f:
            return f.read(-1 if limit is None else limit)
    except FileNotFoundError:
        raise InputError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read: {e}", path=str(path)) from None


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) from a JSONL file, skipping blank lines."""
    path = Path(path)
    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"invalid JSON: {e.msg}", path=str(path), record=f"line {lineno}") from None
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object", path=str(path), record=f"line {lineno}")
        yield lineno, obj


def dumps_line(obj: Any) -> str:
    """One canonical JSON line (stable key order, UTF-8 kept)."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def _umask_mode(base: int) -> int:
    """``base`` filtered by the process umask (mkstemp/mkdtemp create private files otherwise)."""
    mask = os.umask(0)
    os.umask(mask)
    return base & ~mask


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write a file via a temp file in the same directory, then rename (no half-written output)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, _umask_mode(0o666))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_json(path: str | Path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def atomic_write_jsonl(path: str | Path, rows: Iterable[Any]) -> None:
    atomic_write_text(path, "".join(dumps_line(r) + "\n" for r in rows))


@contextlib.contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Yield a temp dir beside ``path``; on success it replaces ``path`` whole, on error it is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.tmp-", dir=path.parent))
    os.chmod(tmp, _umask_mode(0o777))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = path.with_name(f".{path.name}.old-{os.getpid()}")
    if path.exists():
        os.replace(path, old)
    os.replace(tmp, path)
    shutil.rmtree(old, ignore_errors=True)


def progress(iterable: Iterable[Any] | None = None, *, quiet: bool = False, **kwargs: Any) -> Any:
    """A tqdm bar on stderr, silenced by ``quiet`` (the CLI's --quiet)."""
    from tqdm.auto import tqdm

    return tqdm(iterable, disable=quiet, file=sys.stderr, dynamic_ncols=True, **kwargs)
