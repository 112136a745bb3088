"""Dialogue contradiction examples: the CDConv JSONL, our own example layout, and one entry point that
detects which of them (or DECODE's layout) a file holds.

CDConv (Zheng et al., 2022; CC BY-NC 4.0, never committed) is one JSON per line: ``{file, model, method,
u1, b1, u2, b2, label}`` with label 0 none, 1 intra, 2 role, 3 history and ``method`` the trigger in
Chinese. Every reader returns ``DialogueExample`` records whose ``context`` hashes the turns before the
judged one, so a split by context keeps every reply to one (u1, b1, u2) on one side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.records import DialogueExample
from consistest.data.decode_reader import make_example, parse_detector_label, read_decode

# CDConv's trigger methods (``method``) in English.
CDCONV_TRIGGERS: dict[str, str] = {
    "短句": "short",
    "设问-bot": "inquire-bot",
    "设问-user": "inquire-user",
    "设问-user-v2": "inquire-user-v2",
    "同义-回译": "paraphrase",
    "同义-同义词": "synonym",
    "反义-反义词": "antonym",
    "反义-否定词": "negation",
}
LAYOUTS = ("cdconv", "examples", "decode")


def _text(obj: dict[str, Any], key: str, path: Path, lineno: int) -> str:
    v = obj.get(key)
    if not isinstance(v, str):
        raise InputError("missing or not a string", path=str(path), record=f"line {lineno}", field=key)
    return v


def read_cdconv(path: str | Path) -> list[DialogueExample]:
    """CDConv rows as examples (turns u1, b1, u2, b2; trigger in English; origin = the bot model)."""
    path = Path(path)
    out = []
    for lineno, obj in read_jsonl(path):
        turns = [_text(obj, k, path, lineno) for k in ("u1", "b1", "u2", "b2")]
        method = str(obj.get("method", ""))
        label = parse_detector_label(obj.get("label"), path, f"line {lineno}")
        out.append(
            make_example(
                turns, label, trigger=CDCONV_TRIGGERS.get(method, method), origin=str(obj.get("model", ""))
            )
        )
    if not out:
        raise InputError("no examples", path=str(path))
    return out


def read_example_file(path: str | Path) -> list[DialogueExample]:
    """Our own layout (``consistest detector-pairs`` writes it): DialogueExample objects, one per line."""
    path = Path(path)
    out = []
    for lineno, obj in read_jsonl(path):
        turns = obj.get("turns")
        if not isinstance(turns, list) or len(turns) < 2 or not all(isinstance(t, str) for t in turns):
            raise InputError(
                "expected a list of at least 2 strings",
                path=str(path),
                record=f"line {lineno}",
                field="turns",
            )
        label = parse_detector_label(obj.get("label"), path, f"line {lineno}")
        persona = obj.get("persona", [])
        if not isinstance(persona, list) or not all(isinstance(t, str) for t in persona):
            raise InputError(
                "expected a list of strings", path=str(path), record=f"line {lineno}", field="persona"
            )
        ex = make_example(
            turns, label, trigger=str(obj.get("trigger", "")), origin=str(obj.get("origin", "")),
            persona=persona,
        )  # fmt: skip
        out.append(DialogueExample(**{**ex.to_dict(), "split": str(obj.get("split", ""))}))
    if not out:
        raise InputError("no examples", path=str(path))
    return out


def detect_layout(path: str | Path) -> str:
    """The layout of a JSONL file, by its first record's keys."""
    path = Path(path)
    if path.is_dir():
        raise InputError("a directory, not a CDConv, DECODE or detector-pairs JSONL file", path=str(path))
    for _, obj in read_jsonl(path):
        if {"u1", "b1", "u2", "b2"} <= obj.keys():
            return "cdconv"
        turns = obj.get("turns")
        if isinstance(turns, list) and turns and isinstance(turns[0], dict):
            return "decode"
        if isinstance(turns, list):
            return "examples"
        break
    raise InputError(
        "not a CDConv, DECODE or detector-pairs JSONL file (no u1/b1/u2/b2 or turns)", path=str(path)
    )


def read_examples(path: str | Path, layout: str | None = None) -> list[DialogueExample]:
    """Examples from any supported layout (auto-detected unless ``layout`` is given). ConsisTest outputs
    (scored runs, labelled replies) are read by ``consistest.tasks.cdconv.inputs``."""
    layout = layout or detect_layout(path)
    if layout == "cdconv":
        return read_cdconv(path)
    if layout == "examples":
        return read_example_file(path)
    if layout == "decode":
        return read_decode(path)
    raise InputError(f"unknown layout {layout!r}, expected one of {', '.join(LAYOUTS)}", path=str(path))
