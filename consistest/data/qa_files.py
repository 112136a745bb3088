"""Readers of the curated ConsisTest QA files (persona QAs by sentence, history QAs by dialogue id)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_json
from consistest.core.records import QA, QTYPES, SOURCES


def read_persona_qas(path: str | Path) -> dict[str, list[QA]]:
    """``{persona_sentence: [{"q","a","source","type","c"}]}`` as QA records."""
    data = _read_mapping(path, "{persona_sentence: [qa, ...]}")
    return {
        key: [_qa(qa, path, f"{key!r}[{i}]", persona=True) for i, qa in enumerate(_qa_list(v, path, key))]
        for key, v in data.items()
    }


def read_history_qas(path: str | Path) -> dict[str, list[QA]]:
    """``{dialog_id: [{"c","q","a","turn","source","type","dialog","alt_c"}]}`` as QA records."""
    data = _read_mapping(path, "{dialog_id: [qa, ...]}")
    return {
        str(key): [_qa(qa, path, f"{key}[{i}]", persona=False) for i, qa in enumerate(_qa_list(v, path, key))]
        for key, v in data.items()
    }


def _read_mapping(path: str | Path, shape: str) -> dict[str, Any]:
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object {shape}", path=str(path))
    return data


def _qa_list(value: Any, path: str | Path, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError("expected a list of QAs", path=str(path), record=key)
    return value


def _qa(d: Any, path: str | Path, record: str, persona: bool) -> QA:
    """Validate one QA record; every problem names file, record and field."""
    if not isinstance(d, dict):
        raise InputError("expected a QA object", path=str(path), record=record)
    for name in ("q", "a", "type", "c"):
        if not isinstance(d.get(name), str) or (name != "c" and not d[name].strip()):
            raise InputError("missing or not a non-empty string", path=str(path), record=record, field=name)
    if d["type"] not in QTYPES:
        raise InputError(
            f"unknown type {d['type']!r}, expected wh or yn", path=str(path), record=record, field="type"
        )
    source = d.get("source", "pers" if persona else "hist")
    allowed = ("pers",) if persona else ("hist", "hist_ext")
    if source not in allowed or source not in SOURCES:
        raise InputError(
            f"source {source!r} not one of {', '.join(allowed)}",
            path=str(path),
            record=record,
            field="source",
        )
    turn = d.get("turn", -1)
    if not persona and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 0):
        raise InputError("turn must be an integer >= 0", path=str(path), record=record, field="turn")
    alt_c = d.get("alt_c") or ""
    return QA(
        q=d["q"],
        a=d["a"],
        c=d["c"],
        source=source,
        type=d["type"],
        turn=turn if not persona else -1,
        dialog=str(d.get("dialog", "")),
        alt_c=alt_c if isinstance(alt_c, str) else "",
        generator=str(d.get("generator", "curated")),
        template=str(d.get("template", "")),
    )


def iter_qas(qas: dict[str, list[QA]]) -> Iterator[QA]:
    for lst in qas.values():
        yield from lst
