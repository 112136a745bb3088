"""File helpers: atomic writes (temp + rename), JSON/JSONL with one-line errors, progress bars."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError


def folder_hash(
    directory: str | Path, suffixes: tuple[str, ...], skip: Callable[[str], bool] | None = None
) -> str:
    """sha256 (hex) of the names and bytes of a folder's files with these suffixes (hidden files and those
    ``skip`` names skipped), in name order: the same files hash the same on every machine, a model saved
    again into the folder does not. Cached per process while the files' sizes and times stay the same."""
    directory = Path(directory).resolve()
    files = tuple(
        (p.name, (st := p.stat()).st_size, st.st_mtime_ns)
        for p in sorted(directory.iterdir())
        if p.is_file() and p.suffix in suffixes and not p.name.startswith(".") and not (skip and skip(p.name))
    )
    return _folder_hash(directory, files)


@functools.lru_cache(maxsize=32)
def _folder_hash(directory: Path, files: tuple[tuple[str, int, int], ...]) -> str:
    h = hashlib.sha256()
    for name, _, _ in files:
        h.update(name.encode())
        with (directory / name).open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def read_json(path: str | Path) -> Any:
    """Parse a JSON file; any failure is an InputError naming the file (and line/column). A key repeated
    in one object is an error too (plain ``json`` would silently keep the last copy)."""
    path = Path(path)
    text = read_text(path)
    if not text.strip():
        raise InputError("file is empty", path=str(path))
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs)
    except json.JSONDecodeError as e:
        raise InputError(
            f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}", path=str(path)
        ) from None
    except _DuplicateKey as e:
        raise InputError(
            f"key {e.key!r} appears twice in one object (JSON keeps only the last copy); make keys unique",
            path=str(path),
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


@contextlib.contextmanager
def naming(path: str | Path) -> Iterator[None]:
    """An OSError raised without a file name inside (a write on a full disk: ``No space left on device``)
    is raised again naming ``path``, so its one-line message says where."""
    try:
        yield
    except OSError as e:
        if e.filename is not None or e.errno is None:
            raise
        raise OSError(e.errno, e.strerror or str(e), str(path)) from e


@contextlib.contextmanager
def atomic_path(path: str | Path, suffix: str = "") -> Iterator[Path]:
    """A temp file beside ``path`` to write; it replaces ``path`` whole, with a new file's mode, when the
    block ends, and is removed when the block raises (no half-written output)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, _umask_mode(0o666))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write a file via a temp file in the same directory, then rename (no half-written output)."""
    with (
        atomic_path(path) as tmp,
        naming(path),
        os.fdopen(os.open(tmp, os.O_WRONLY), "w", encoding="utf-8", newline="\n") as f,
    ):
        f.write(text)


def atomic_write_json(path: str | Path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def atomic_write_jsonl(path: str | Path, rows: Iterable[Any]) -> None:
    atomic_write_text(path, "".join(dumps_line(r) + "\n" for r in rows))


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this machine."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_STALE = re.compile(r"^\.(?P<name>.+)\.(?:tmp|old)-(?P<pid>\d+)(?:-.*)?$")


def clean_stale_siblings(path: Path) -> list[Path]:
    """Remove ``.NAME.tmp-<pid>-*`` / ``.NAME.old-<pid>`` beside ``path`` left by killed processes."""
    removed = []
    if not path.parent.is_dir():
        return removed
    for p in path.parent.iterdir():
        m = _STALE.match(p.name)
        if m and m["name"] == path.name and not pid_alive(int(m["pid"])):
            shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
            removed.append(p)
    return removed


@contextlib.contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Yield a temp dir beside ``path``; on success it replaces ``path`` whole, on error it is removed.

    Temp names carry the pid, so leftovers of a killed run are recognised and removed by the next one."""
    path = Path(os.path.abspath(path))
    if path.exists() and not path.is_dir():
        raise InputError("exists and is not a directory", path=str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    clean_stale_siblings(path)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.tmp-{os.getpid()}-", dir=path.parent))
    os.chmod(tmp, _umask_mode(0o777))
    try:
        with naming(path):
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


def distinct_names(paths: Sequence[str | Path], field: str) -> list[str]:
    """A short name per file, for reports and stored figures: its file name, with as many parent folders as
    it takes to tell it from the others' ("round10/test.jsonl", "round11/test.jsonl"). Keyed by the name
    alone, files of one name overwrote each other; a file given twice is refused."""
    parts = [Path(p).resolve().parts for p in paths]
    for i, (p, r) in enumerate(zip(paths, parts, strict=True)):
        if r in parts[:i]:
            raise InputError(f"{p} is given twice", field=field)
    names = []
    for r in parts:
        k = 1
        while sum(q[-k:] == r[-k:] for q in parts) > 1:
            k += 1
        names.append("/".join(r[-k:]))
    return names
