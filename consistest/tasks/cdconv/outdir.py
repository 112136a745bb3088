"""The folders and files ``train-detector`` and ``detect`` write, guarded like ``score``'s run directories.

``train-detector --out DIR`` takes a missing or empty folder, or one it trained before (``training.json``
names what: settings and data). It resumes only the same training: other data or settings, or a folder
that is not its own, need ``--overwrite``, which empties the folder first (an old vocabulary, checkpoints
or a user's ``metrics.json`` never survive into a new detector). The folder is locked while training, so
a second run is refused. ``training.json`` also keeps a hash of every training dialogue, so ``detect`` can
say when the dialogues it judges were trained on.

``detect --out FILE`` replaces only its own earlier predictions (``FILE`` and ``<FILE>.metrics.json``), never
an input, unless ``--overwrite``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, read_json
from consistest.core.output_guards import guard_output_dir, guard_output_file
from consistest.core.records import DialogueExample, content_hash
from consistest.core.rundir import LOCK_FILE, run_lock

TRAINING_FILE = "training.json"
DETECT_MARK = "consistest detect"  # the metrics file's "written_by"


def dialogue_key(ex: DialogueExample) -> str:
    """The same dialogue (its turns) read from any layout."""
    return content_hash("dialogue-turns", ex.turns, n=12)


@contextmanager
def training_dir(
    out: str | Path,
    identity: dict[str, Any],
    train: Sequence[DialogueExample],
    *,
    inputs: Iterable[str | Path],
    overwrite: bool,
) -> Iterator[Path]:
    """Guard and lock ``out`` for a training run of ``identity``; yield it with ``training.json`` written."""
    path = guard_output_dir(
        out, marker=TRAINING_FILE, overwrite=overwrite, inputs=inputs, what="consistest train-detector"
    )
    identity = json.loads(json.dumps(identity))  # as stored: tuples become lists
    with run_lock(path):
        stored = path / TRAINING_FILE
        if overwrite:
            _empty(path)
        elif stored.is_file():
            _check_same(stored, identity)
        atomic_write_json(
            stored, {"identity": identity, "train_dialogues": sorted({dialogue_key(e) for e in train})}
        )
        try:
            yield path
        except BaseException:
            if {p.name for p in path.iterdir()} <= {TRAINING_FILE, LOCK_FILE}:
                stored.unlink(missing_ok=True)  # nothing trained: a corrected command starts afresh
            raise


def _check_same(stored: Path, identity: dict[str, Any]) -> None:
    old = read_json(stored)
    old = old.get("identity") if isinstance(old, dict) else None
    if not isinstance(old, dict):
        raise InputError("expected {'identity': {...}}; pass --overwrite to train afresh", path=str(stored))
    diff = sorted(k for k in set(old) | set(identity) if old.get(k) != identity.get(k))
    if diff:
        raise InputError(
            f"this folder holds a detector trained with other {', '.join(diff)}; resuming would mix them "
            "(an old vocabulary, old checkpoints): choose another --out, or pass --overwrite to train afresh",
            path=str(stored.parent),
        )


def _empty(path: Path) -> None:
    """Remove everything in ``path`` but our lock."""
    for p in path.iterdir():
        if p.name == LOCK_FILE:
            continue
        shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()


def metrics_path(out: str | Path) -> Path:
    """``preds.jsonl`` -> ``preds.metrics.json``."""
    return Path(str(Path(out).with_suffix("")) + ".metrics.json")


def _detect_metrics(path: Path) -> bool:
    try:
        obj = read_json(path)
    except InputError:
        return False
    return isinstance(obj, dict) and obj.get("written_by") == DETECT_MARK


def guard_predictions(out: str | Path, inputs: Iterable[str | Path], overwrite: bool) -> tuple[Path, Path]:
    """(predictions, metrics) paths ``detect --out`` may write: missing, or its own earlier output."""
    inputs = list(inputs)
    metrics = metrics_path(out)
    preds = guard_output_file(
        out, earlier=lambda _p: _detect_metrics(metrics), overwrite=overwrite, inputs=inputs,
        what="consistest detect",
    )  # fmt: skip
    guard_output_file(metrics, earlier=_detect_metrics, overwrite=overwrite, inputs=inputs,
                      what="consistest detect")  # fmt: skip
    return preds, metrics


def trained_on(detector: str | Path, examples: Sequence[DialogueExample]) -> int:
    """How many of ``examples`` the detector was trained on (0 when its folder does not say)."""
    path = Path(detector) / TRAINING_FILE
    if not path.is_file():
        return 0
    seen = set((read_json(path) or {}).get("train_dialogues") or ())
    return sum(dialogue_key(e) in seen for e in examples)


def warn_training_overlap(detector: str | Path, examples: Sequence[DialogueExample]) -> None:
    n = trained_on(detector, examples)
    if n:
        log.warning(
            f"{n:,} of the {len(examples):,} dialogues were in the detector's training data: its figures on "
            "them are not test figures"
        )
