"""Run directories: the names of their files in one place, one reader of their manifests, a lock per
directory, and a kill-safe JSONL log of records keyed by id (appended and fsynced batch by batch; a line cut
by a kill is dropped on reopen)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import dumps_line, naming, read_json

RESPONSES_FILE = "responses.jsonl"  # {"id", "response"} per item, in completion order until complete
GENERATION_FILE = "generation.json"  # the settings that change a response, the data hash, the signature
SCORES_FILE = "scores.jsonl"  # one scored item per line
SUMMARY_FILE = "summary.json"  # figures and signature
JUDGE_FILE = "judge.jsonl"  # a model judge's raw replies by call key (score --method judge), appended
LOCK_FILE = ".lock"
# settings that runs stored before them lack, or that cannot always be known (``weights``: a local model
# folder's fingerprint, None when the folder is not there): compared only where both sides have a value,
# so a run in progress resumes after an upgrade and a finished run rescores without its model
LATER_SETTINGS = frozenset({"weights"})


def resumed_settings(stored: dict[str, Any], new: dict[str, Any], path: str | Path) -> dict[str, Any]:
    """The settings a resumed run stores (``kept_settings``), after refusing settings that differ from the
    ``stored`` ones (InputError naming each change) and warning about those it could not compare."""
    changes, skipped = settings_changes(stored, new)
    if skipped:
        what = ", ".join(sorted(set(skipped)))
        why = "the run predates that check, or the model folder is not there"
        log.warning(f"{path}: resuming without checking the model's {what} ({why})")
    if changes:
        raise InputError(
            f"settings differ from the stored run ({changes}); use --overwrite or another --out",
            path=str(path),
        )
    return kept_settings(stored, new)


def settings_changes(old: Any, new: Any) -> tuple[str, list[str]]:
    """("key: old -> new; ..." for the stored settings ``old`` that ``new`` changes, or ""; the
    ``LATER_SETTINGS`` keys left uncompared because the stored run predates them or their value is not
    known now), nested dicts (a conversation run's bots) included."""
    skipped: list[str] = []
    new = _resolve(old, new, skipped)[0]
    old, new = old or {}, new or {}
    diff = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return "; ".join(f"{k}: {old.get(k)!r} -> {new.get(k)!r}" for k in diff), skipped


def kept_settings(old: Any, new: Any) -> Any:
    """The settings to store on resume: ``new``, except a ``LATER_SETTINGS`` value not known now (None)
    keeps what the run stored, so a resume without the model folder does not erase its fingerprint."""
    return _resolve(old, new, [])[1]


def _resolve(old: Any, new: Any, skipped: list[str]) -> tuple[Any, Any]:
    """(``new`` as compared with ``old``, ``new`` as stored): a ``LATER_SETTINGS`` value that one side
    lacks (absent or None) is not compared (it takes ``old``'s place) and is stored where it is known."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return new, new
    compared, stored = {}, {}
    for k, v in new.items():
        if k in LATER_SETTINGS and (old.get(k) is None or v is None):
            skipped.append(k)
            if k in old:
                compared[k] = old[k]
            stored[k] = old.get(k) if v is None else v
        else:
            compared[k], stored[k] = _resolve(old.get(k), v, skipped)
    return compared, stored


def read_manifest(path: str | Path, required: Sequence[str] = ()) -> dict[str, Any]:
    """The manifest of a run or output folder (summary.json, generation.json, aih.json, training.json,
    detector.json, build_info.json): a JSON object holding the ``required`` fields. Every command reads
    them here, so a damaged or foreign manifest is reported alike: one line naming the file and field."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object", path=str(path))
    for key in required:
        if key not in data:
            raise InputError("missing field", path=str(path), field=key)
    return data


_HELD: set[str] = set()


@contextlib.contextmanager
def run_lock(run_dir: str | Path) -> Iterator[Path]:
    """Hold ``RUNDIR/.lock`` (an flock, with our pid inside) while writing a run directory.

    A second process is refused with one line naming the holder; the kernel drops the lock when its
    holder dies, so the lock of a killed run is simply taken over."""
    import fcntl

    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise InputError("exists and is not a directory; choose another --out", path=str(run_dir))
    created = not run_dir.exists()
    run_dir.mkdir(parents=True, exist_ok=True)
    key = str(run_dir.resolve())
    if key in _HELD:  # this process holds it already (score --model generates, then scores)
        yield run_dir
        return
    path = run_dir / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    _HELD.add(key)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise InputError(
                f"another consistest process (pid {holder}) is writing this run directory; wait for it to "
                "finish or use another --out",
                path=str(run_dir),
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield run_dir
    finally:
        _HELD.discard(key)
        if created and {p.name for p in run_dir.iterdir()} == {LOCK_FILE}:
            path.unlink(missing_ok=True)  # a start that failed leaves no folder behind
            with contextlib.suppress(OSError):
                run_dir.rmdir()
        os.close(fd)  # closing releases the lock; a kept file's pid is stale once we exit


def read_log(path: Path, known: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
    """Records of a JSONL log keyed by ``id``; a last line cut by a kill is dropped (and cut from the file).
    Unknown (when ``known`` is given) or repeated ids are InputErrors naming the line."""
    if not path.exists():
        return {}
    raw = path.read_bytes()
    end = raw.rfind(b"\n") + 1  # everything after the last newline is a partial line
    if end < len(raw):
        with open(path, "r+b") as f:
            f.truncate(end)
    allowed = set(known) if known is not None else None
    done: dict[str, dict[str, Any]] = {}
    for lineno, line in enumerate(raw[:end].decode("utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        where = {"path": str(path), "record": f"line {lineno}"}
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"invalid JSON: {e.msg}; use --overwrite", **where) from None
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object", **where)
        key = obj.get("id")
        if allowed is not None and key not in allowed:
            raise InputError(f"id {key!r} is not in the dataset; use --overwrite", field="id", **where)
        if key in done:
            raise InputError(f"duplicate id {key!r}; use --overwrite", field="id", **where)
        done[key] = obj
    return done


class AppendLog:
    """Append records to a JSONL file, each batch flushed and fsynced before the next is produced.

    The file is opened at the first record: a run that wrote nothing (a server that refused every request)
    leaves no empty log behind to block the corrected command."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._f: Any = None

    def append(self, records: Iterable[dict[str, Any]]) -> None:
        text = "".join(dumps_line(r) + "\n" for r in records)
        if not text:
            return
        with naming(self.path):
            if self._f is None:
                self._f = open(self.path, "a", encoding="utf-8", newline="\n")  # noqa: SIM115 (close())
            self._f.write(text)
            self._f.flush()
            os.fsync(self._f.fileno())

    def close(self) -> None:
        if self._f is not None:
            self._f.close()

    def __enter__(self) -> AppendLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
