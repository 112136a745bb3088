"""Dialogues from a Hugging Face dataset (hub id or local directory), mapped onto ``Dialogue``.

Two row shapes are understood:
- one row per dialogue with a persona list and an utterance list (``persona``/``personality`` and
  ``utterances``/``dialogue``/``dialog``/``history``), e.g. a JSON/Parquet export of PersonaChat;
- one row per turn as in ``bavard/personachat_truecased`` (``conv_id``, ``utterance_idx``, ``history``,
  ``candidates`` whose last item is the gold reply): the last turn of each conversation is kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.records import Dialogue

PERSONA_KEYS = ("persona", "personality", "your_persona")
UTTERANCE_KEYS = ("utterances", "dialogue", "dialog", "history")
ID_KEYS = ("dialog_id", "conv_id", "id")
DEFAULT_SPLIT = "validation"


def read_hf_dialogues(source: str) -> list[Dialogue]:
    """Load ``source`` (``id``, ``id:split``, or a directory) and map its rows to dialogues."""
    rows = _load_rows(source)
    if not rows:
        raise InputError("dataset has no rows", path=source)
    cols = set(rows[0])
    pkey = _pick(cols, PERSONA_KEYS, source, "persona")
    if {"conv_id", "utterance_idx", "candidates", "history"} <= cols:
        rows = _last_turns(rows)
    ukey = _pick(cols, UTTERANCE_KEYS, source, "utterances")
    ikey = next((k for k in ID_KEYS if k in cols), None)
    out = []
    for i, row in enumerate(rows):
        did = str(row[ikey]) if ikey else str(i)
        persona, utts = row[pkey], list(row[ukey])
        if "candidates" in row and ukey == "history":
            utts.append(row["candidates"][-1])
        if not persona:
            raise InputError("dialogue has no persona", path=source, record=did, field=pkey)
        out.append(Dialogue(dialog_id=did, persona=tuple(persona), utterances=tuple(utts)))
    return out


def _load_rows(source: str) -> list[dict[str, Any]]:
    import datasets

    name, _, split = source.partition(":") if not Path(source).exists() else (source, "", "")
    split = split or DEFAULT_SPLIT
    if not Path(name).exists():
        _check_hub(name)
    try:
        if Path(name).is_dir() and (Path(name) / "dataset_info.json").exists():
            ds = datasets.load_from_disk(name)
        else:
            ds = datasets.load_dataset(name)
    except Exception as e:  # datasets raises many types (offline, not found, bad files)
        raise InputError(
            f"cannot load dataset: {type(e).__name__}: {str(e).splitlines()[0][:200]}", path=source
        ) from None
    if isinstance(ds, datasets.DatasetDict):
        if split not in ds:
            split = "test" if "test" in ds else next(iter(ds))
        ds = ds[split]
    return ds.to_list()


def _check_hub(name: str) -> None:
    """Fail at once (not after minutes of retries) when a dataset id cannot be fetched."""
    from consistest.data.hub import hub_offline, hub_unreachable, looks_local

    if looks_local(name):
        raise InputError("no such file or directory", path=name)
    why = "HF_HUB_OFFLINE is set" if hub_offline() else hub_unreachable()
    if why:
        raise InputError(f"not a local file or folder, and the dataset cannot be fetched ({why})", path=name)


def _pick(cols: set[str], keys: tuple[str, ...], source: str, what: str) -> str:
    for k in keys:
        if k in cols:
            return k
    raise InputError(f"no {what} column (expected one of {', '.join(keys)})", path=source)


def _last_turns(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep, per conversation, the row with the highest utterance_idx (it holds the full history)."""
    best: dict[Any, dict[str, Any]] = {}
    for row in rows:
        cur = best.get(row["conv_id"])
        if cur is None or row["utterance_idx"] > cur["utterance_idx"]:
            best[row["conv_id"]] = row
    return list(best.values())
