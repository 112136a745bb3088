"""Guards on where an output goes: a command writes only to a new folder or file, or over an earlier output
of its own, and never over one of its inputs or the working directory (``--overwrite`` for the rest)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from consistest.core.errors import InputError

__all__ = ["guard_output_dir", "guard_output_file"]


def _refuse_inputs(real: Path, inputs: Iterable[str | Path], shown: Path) -> None:
    """An output at ``real`` that is one of ``inputs`` or holds one would destroy it: always refused."""
    for inp in inputs:
        ip = Path(os.path.abspath(inp)).resolve()
        if ip == real or real in ip.parents:
            raise InputError(
                f"holds the input {ip}, which replacing it would delete; choose another --out",
                path=str(shown),
            )


def guard_output_dir(
    path: str | Path,
    *,
    marker: str,
    overwrite: bool = False,
    inputs: Iterable[str | Path] = (),
    what: str = "consistest build",
) -> Path:
    """Refuse to replace anything but an earlier output: ``path`` may be missing, empty, or a directory
    holding ``marker`` (e.g. build_info.json); any other directory needs ``overwrite``. A file, the working
    directory (or a parent of it) and a directory holding one of ``inputs`` are always refused."""
    path = Path(os.path.abspath(path))
    cwd = Path.cwd().resolve()
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        raise InputError("exists and is not a directory; choose another --out", path=str(path))
    if not path.exists():
        return path
    real = path.resolve()
    if real == cwd or real in cwd.parents:
        raise InputError(
            "is the working directory or contains it; choose a new folder for --out", path=str(path)
        )
    _refuse_inputs(real, inputs, path)
    if (path / marker).is_file() or not any(path.iterdir()) or overwrite:
        return path
    raise InputError(
        f"exists and is not a {what} output (no {marker}); choose another --out, or pass --overwrite to "
        "replace it",
        path=str(path),
    )


def guard_output_file(
    path: str | Path,
    *,
    earlier: Callable[[Path], bool],
    overwrite: bool = False,
    inputs: Iterable[str | Path] = (),
    what: str,
) -> Path:
    """The file counterpart of :func:`guard_output_dir`: ``path`` may be missing or an earlier output
    (``earlier(path)`` says so); any other file needs ``overwrite``. A directory, one of ``inputs``, and a
    file inside an input directory (part of that input) are always refused."""
    path = Path(os.path.abspath(path))
    if path.is_dir():
        raise InputError("is a directory; --out names a file", path=str(path))
    if not path.exists():
        return path
    real = path.resolve()
    for inp in inputs:
        ip = Path(os.path.abspath(inp)).resolve()
        if ip == real or ip in real.parents:
            what_of = "the input" if ip == real else "part of the input"
            raise InputError(
                f"is {what_of} {inp}, which writing here would replace; choose another --out", path=str(path)
            )
    if overwrite or earlier(path):
        return path
    raise InputError(
        f"exists and is not a {what} output; choose another --out, or pass --overwrite to replace it",
        path=str(path),
    )
