"""Run a chat model over items resumably: RUNDIR/responses.jsonl gets a ``{"id", "response"}`` line per item.

Replies are appended, flushed and fsynced chunk by chunk; RUNDIR/generation.json stores the settings that
change a reply, the data hash and a signature, written with the first reply (a start that fails leaves
nothing behind). Re-running skips finished ids; a run killed at any moment (even mid-line) and resumed
ends with exactly one reply per item, the same as an uninterrupted run under deterministic decoding,
because deterministic backends plan their batches over all items. Resuming with other settings is an
InputError unless ``overwrite``. When every item is done the file is rewritten in item order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl, progress
from consistest.core.rundir import (
    GENERATION_FILE,
    RESPONSES_FILE,
    AppendLog,
    read_log,
    read_manifest,
    resumed_settings,
    run_lock,
)
from consistest.models.base import ChatModel, Item


@dataclass(frozen=True)
class RunInfo:
    """What a run is: the settings that change a reply, the hash of the data it belongs to, its signature."""

    settings: dict[str, Any]
    data: str
    signature: str

    def to_json(self, items: int, complete: bool) -> dict[str, Any]:
        return {"settings": self.settings, "data": self.data, "signature": self.signature,
                "samples": items, "complete": complete}  # fmt: skip


def run_responses(
    load_model: Callable[[], ChatModel],
    items: Sequence[Item],
    run_dir: str | Path,
    info: RunInfo,
    *,
    known_ids: Sequence[str] | None = None,
    overwrite: bool = False,
    quiet: bool = False,
) -> Path:
    """Write RUNDIR/responses.jsonl for ``items``; return its path. ``known_ids`` (default: the items' ids)
    are the ids a resumed file may hold, in their final order (a smoke run's file extends to the full run).
    ``load_model`` is called only when some item still needs a reply."""
    run_dir = Path(run_dir)
    with run_lock(run_dir):
        out, info_path = run_dir / RESPONSES_FILE, run_dir / GENERATION_FILE
        info = _check_resume(info, out, info_path, overwrite)
        order = {k: i for i, k in enumerate(known_ids if known_ids is not None else [i for i, _ in items])}
        if len(order) != len(known_ids if known_ids is not None else items):
            raise InputError("the dataset has duplicate item ids")
        done = {k: _response(v, out) for k, v in read_log(out, order).items()}
        if any(i not in done for i, _ in items):
            model = load_model()
            _run(
                model,
                items,
                done,
                out,
                quiet,
                lambda: atomic_write_json(info_path, info.to_json(len(items), False)),
            )
        complete = all(i in done for i, _ in items)
        if complete:
            atomic_write_jsonl(
                out, [{"id": k, "response": done[k]} for k in sorted(done, key=order.__getitem__)]
            )
        atomic_write_json(info_path, info.to_json(len(items), complete))
    return out


def _response(obj: dict[str, Any], path: Path) -> str:
    if not isinstance(obj.get("response"), str):
        raise InputError(
            "expected {'id': ..., 'response': str}", path=str(path), record=f"id {obj.get('id')!r}"
        )
    return obj["response"]


def _check_resume(info: RunInfo, out: Path, info_path: Path, overwrite: bool) -> RunInfo:
    """``info`` as the run will store it, after refusing a resume with other data or settings."""
    if overwrite:
        for p in (out, info_path):
            p.unlink(missing_ok=True)
        return info
    if info_path.exists():
        stored = read_manifest(info_path)
        if stored.get("data") != info.data:
            raise InputError(
                "this run was generated on a different dataset; use --overwrite or another --out",
                path=str(info_path),
            )
        return replace(
            info, settings=resumed_settings(stored.get("settings") or {}, info.settings, info_path)
        )
    if out.exists():
        raise InputError(f"{RESPONSES_FILE} exists without {GENERATION_FILE}; use --overwrite", path=str(out))
    return info


FIRST_REPLIES = 8  # replies held back and looked at before the first write (all empty: a broken model)


def _run(
    model: ChatModel,
    items: Sequence[Item],
    done: dict[str, str],
    out: Path,
    quiet: bool,
    on_first_write: Callable[[], None],
) -> None:
    """Append each chunk's new replies to ``out`` (fsynced) while a bar shows items/s. On a fresh run the
    first replies are held back until ``FIRST_REPLIES`` of them (or all there are) show that the model
    does not answer everything with empty text, whatever its chunk size (an endpoint yields one reply at
    a time)."""
    wanted = {i for i, _ in items}
    bar = progress(
        total=len(items), initial=len(wanted & done.keys()), unit="sample", desc="generate", quiet=quiet
    )
    hold = 0 if done else min(FIRST_REPLIES, len(wanted))
    held: list[tuple[str, str]] = []
    first = [True]
    try:
        with AppendLog(out) as log:

            def write(new: list[tuple[str, str]]) -> None:
                if new and first[0]:
                    on_first_write()
                    first[0] = False
                log.append({"id": i, "response": r} for i, r in new)
                done.update(new)
                bar.update(len(new))

            try:
                for chunk in model.stream(items, frozenset(done)):
                    seen = {i for i, _ in held}
                    new = [(i, r) for i, r in chunk if i in wanted and i not in done and i not in seen]
                    if len(held) + len(new) < hold:
                        held += new
                        continue
                    if hold:
                        new, held, hold = held + new, [], 0
                        _check_not_all_empty(model, new)
                    write(new)
                if held:  # fewer items than FIRST_REPLIES
                    _check_not_all_empty(model, held)
                    write(held)
            except BaseException:
                if any(r.strip() for _, r in held):  # keep what came before a failure or Ctrl-C
                    write(held)
                raise
    finally:
        bar.close()


def _check_not_all_empty(model: ChatModel, new: list[tuple[str, str]]) -> None:
    """First replies that are all empty mean a broken model (no tokenizer, wrong stop tokens) or an
    endpoint answering ``content: null`` or ``""``: refused before anything is written."""
    if len(new) >= 2 and not any(r.strip() for _, r in new):
        raise InputError(
            f"model {model.name!r} replied with empty text to all of its first {len(new)} inputs; check "
            "its tokenizer files, special tokens and --max-new-tokens, or what the endpoint returns "
            "(nothing was written)"
        )
