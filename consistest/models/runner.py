"""Run a responder over the benchmark, resumably: ``generate_responses(cfg, samples, run_dir)``.

RUNDIR/responses.jsonl gets one ``{"id", "response"}`` line per sample, appended and flushed as each
batch finishes; RUNDIR/generation.json stores the settings that change a response (with the dataset's
hash and a signature). Re-running skips finished ids; a run killed at any moment (even mid-line) and
resumed ends with exactly one response per sample, the same as an uninterrupted run under deterministic
decoding, because batches are planned over the whole sample list. Resuming with other settings is an
InputError unless ``overwrite``. When every sample is done the file is rewritten in dataset order.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl, dumps_line, progress, read_json, run_lock
from consistest.models.base import Responder
from consistest.core.records import Sample, content_hash
from consistest.models.decoding import BASELINE_PREFIX, GenerationConfig

RESPONSES_FILE = "responses.jsonl"
INFO_FILE = "generation.json"


def make_responder(cfg: GenerationConfig, quiet: bool = False) -> Responder:
    """A baseline for ``baseline:NAME``, else a Hugging Face model (hub id or local directory)."""
    if cfg.is_baseline:
        from consistest.models.baselines import BaselineResponder

        return BaselineResponder(cfg.model[len(BASELINE_PREFIX) :])
    from consistest.models.hf_chat import HFResponder

    return HFResponder(cfg, quiet=quiet)


def dataset_hash(samples: Sequence[Sample]) -> str:
    """A hash of the full sample content: responses belong to exactly this dataset."""
    return content_hash(*[s.to_dict() for s in samples])


def generate_responses(
    cfg: GenerationConfig,
    samples: Sequence[Sample],
    run_dir: str | Path,
    quiet: bool = False,
    responder: Responder | None = None,
) -> Path:
    """Write RUNDIR/responses.jsonl for ``samples`` (the first ``cfg.limit`` of them); return its path.

    The run's settings (generation.json) are written with its first response, so a start that fails
    (a mistyped model path, no CUDA) leaves nothing that would block the corrected command."""
    run_dir = Path(run_dir)
    with run_lock(run_dir):
        out, info_path = run_dir / RESPONSES_FILE, run_dir / INFO_FILE
        data = dataset_hash(samples)
        info = {"settings": cfg.settings(), "data": data, "signature": cfg.signature(data)}
        _check_resume(cfg, info, out, info_path)
        known = {s.id: i for i, s in enumerate(samples)}
        if len(known) != len(samples):
            raise InputError("the dataset has duplicate sample ids")
        done = read_done(out, known)
        todo = list(samples if cfg.limit is None else samples[: cfg.limit])
        stored = {**info, "samples": len(todo)}
        if any(s.id not in done for s in todo):
            responder = responder or make_responder(cfg, quiet)
            _run(
                responder,
                todo,
                done,
                out,
                cfg.batch_size,
                quiet,
                lambda: _write_info(info_path, stored, False),
            )
        complete = all(s.id in done for s in todo)
        if complete:
            order = sorted(done, key=known.__getitem__)
            atomic_write_jsonl(out, [{"id": sid, "response": done[sid]} for sid in order])
        _write_info(info_path, stored, complete)
    return out


def _write_info(path: Path, info: dict[str, Any], complete: bool) -> None:
    atomic_write_json(path, {**info, "complete": complete})


def _check_resume(cfg: GenerationConfig, info: dict[str, Any], out: Path, info_path: Path) -> None:
    if cfg.overwrite:
        for p in (out, info_path):
            p.unlink(missing_ok=True)
        return
    if info_path.exists():
        stored = read_json(info_path)
        if not isinstance(stored, dict):
            raise InputError("expected a JSON object", path=str(info_path))
        if stored.get("data") != info["data"]:
            raise InputError(
                "this run was generated on a different dataset; use --overwrite or another --out",
                path=str(info_path),
            )
        old = stored.get("settings") or {}
        diff = sorted(k for k in set(old) | set(info["settings"]) if old.get(k) != info["settings"].get(k))
        if diff:
            changes = "; ".join(f"{k}: {old.get(k)!r} -> {info['settings'].get(k)!r}" for k in diff)
            raise InputError(
                f"settings differ from the stored run ({changes}); use --overwrite or another --out",
                path=str(info_path),
            )
    elif out.exists():
        raise InputError(f"{RESPONSES_FILE} exists without {INFO_FILE}; use --overwrite", path=str(out))


def read_done(path: Path, known: dict[str, int]) -> dict[str, str]:
    """Responses already in ``path``; a last line cut by a kill is dropped (and cut from the file)."""
    if not path.exists():
        return {}
    raw = path.read_bytes()
    end = raw.rfind(b"\n") + 1  # everything after the last newline is a partial line
    if end < len(raw):
        with open(path, "r+b") as f:
            f.truncate(end)
    done: dict[str, str] = {}
    for lineno, line in enumerate(raw[:end].decode("utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        where = {"path": str(path), "record": f"line {lineno}"}
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"invalid JSON: {e.msg}; use --overwrite", **where) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("response"), str):
            raise InputError("expected {'id': ..., 'response': str}", **where)
        sid = obj.get("id")
        if sid not in known:
            raise InputError(f"id {sid!r} is not in the dataset; use --overwrite", field="id", **where)
        if sid in done:
            raise InputError(f"duplicate id {sid!r}; use --overwrite", field="id", **where)
        done[sid] = obj["response"]
    return done


def _run(
    responder: Responder,
    todo: list[Sample],
    done: dict[str, str],
    out: Path,
    size: int,
    quiet: bool,
    on_first_write: Callable[[], None],
) -> None:
    """Append each chunk's new responses to ``out`` (flushed) while a bar shows samples/s."""
    wanted = {s.id for s in todo}
    bar = progress(
        total=len(todo), initial=len(wanted & done.keys()), unit="sample", desc="generate", quiet=quiet
    )
    first = True
    try:
        with open(out, "a", encoding="utf-8", newline="\n") as f:
            for chunk in _chunks(responder, todo, frozenset(done), size):
                new = [(sid, r) for sid, r in chunk if sid in wanted and sid not in done]
                if first:
                    _check_not_all_empty(responder, new, done)
                    on_first_write()
                    first = False
                f.write("".join(dumps_line({"id": sid, "response": r}) + "\n" for sid, r in new))
                f.flush()
                os.fsync(f.fileno())
                done.update(new)
                bar.update(len(new))
    finally:
        bar.close()


def _check_not_all_empty(responder: Responder, new: list[tuple[str, str]], done: dict[str, str]) -> None:
    """A first batch of only empty replies means a broken model (no tokenizer, wrong stop tokens)."""
    if len(new) >= 2 and not done and not any(r.strip() for _, r in new):
        raise InputError(
            f"model {responder.name!r} replied with empty text to all of its first {len(new)} inputs; check "
            "its tokenizer files, special tokens and --max-new-tokens (nothing was written)"
        )


def _chunks(
    responder: Responder, todo: list[Sample], skip: frozenset[str], size: int
) -> Iterator[list[tuple[str, str]]]:
    """The responder's own planned stream when it has one, else fixed-order chunks of ``respond``."""
    stream = getattr(responder, "stream", None)
    if callable(stream):
        yield from stream(todo, skip)
        return
    rest = [s for s in todo if s.id not in skip]
    for i in range(0, len(rest), size):
        part = rest[i : i + size]
        texts = responder.respond(part)
        if len(texts) != len(part):
            raise InputError(
                f"responder {responder.name!r} returned {len(texts)} responses for {len(part)} samples"
            )
        yield [(s.id, t) for s, t in zip(part, texts, strict=True)]
