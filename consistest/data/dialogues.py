"""Readers for dialogues in the auto-detected layouts: ConsisTest JSON, ConvAI2/ParlAI text, HF datasets."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_json, read_text
from consistest.core.records import Dialogue

Triple = tuple[str, str, str]
LAYOUTS = ("consistest-json", "convai2-text", "hf")
_NUMBERED = re.compile(r"^(\d+)[ \t](.*)$")
_PERSONA = re.compile(r"^(your|partner's) persona:\s*(.*)$")


def detect_layout(source: str | Path) -> str:
    """consistest-json for ``.json``, convai2-text for other files, hf for directories or hub ids."""
    path = Path(source)
    if path.is_dir():
        return "hf"
    if path.is_file():
        if path.suffix in (".json", ".txt"):
            return "consistest-json" if path.suffix == ".json" else "convai2-text"
        return "consistest-json" if read_text(path).lstrip()[:1] in ("{", "[") else "convai2-text"
    if re.fullmatch(r"[\w.-]+/[\w.-]+", str(source)) and not str(source).endswith((".json", ".txt")):
        return "hf"
    raise InputError("no such file or directory", path=str(source))


def read_dialogues(source: str | Path, layout: str | None = None) -> list[Dialogue]:
    """Read dialogues from a ConsisTest JSON, a ConvAI2/ParlAI text file, or a HF dataset (id or dir)."""
    layout = layout or detect_layout(source)
    if layout == "consistest-json":
        dialogues = read_consistest_json(source)
    elif layout == "convai2-text":
        dialogues = read_convai2_text(source)
    elif layout == "hf":
        from consistest.data.hf_datasets import read_hf_dialogues

        dialogues = read_hf_dialogues(str(source))
    else:
        raise InputError(f"unknown layout {layout!r}, expected one of {', '.join(LAYOUTS)}", path=str(source))
    check_unique_ids(dialogues, str(source))
    return dialogues


def check_unique_ids(dialogues: list[Dialogue], path: str) -> None:
    """A dialogue id given twice would silently merge two dialogues' questions: refuse it."""
    seen: set[str] = set()
    for d in dialogues:
        if d.dialog_id in seen:
            raise InputError("dialogue id appears twice; ids must be unique", path=path, record=d.dialog_id)
        seen.add(d.dialog_id)


def read_consistest_json(path: str | Path) -> list[Dialogue]:
    """``{dialog_id: {"persona": [str], "utterances": [str]}}`` in file order."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object {dialog_id: {persona, utterances}}", path=str(path))
    out = []
    for did, d in data.items():
        if not isinstance(d, dict):
            raise InputError("expected an object with persona and utterances", path=str(path), record=did)
        persona = _str_list(d.get("persona"), path, did, "persona")
        utterances = _str_list(d.get("utterances"), path, did, "utterances", allow_empty=True)
        out.append(Dialogue(dialog_id=str(did), persona=tuple(persona), utterances=tuple(utterances)))
    if not out:
        raise InputError("no dialogues", path=str(path))
    return out


def _str_list(value: Any, path: Any, record: Any, field: str, allow_empty: bool = False) -> list[str]:
    if value is None:
        raise InputError("missing", path=str(path), record=record, field=field)
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise InputError("expected a list of strings", path=str(path), record=record, field=field)
    if not value and not allow_empty:
        raise InputError("is empty", path=str(path), record=record, field=field)
    return value


class _Builder:
    """Accumulates one dialogue of the text layout."""

    def __init__(self) -> None:
        self.persona: list[str] = []
        self.persona_triples: list[tuple[Triple, ...]] = []
        self.partner: list[str] = []
        self.utterances: list[str] = []
        self.utterance_triples: list[tuple[Triple, ...]] = []
        self.start_line = 0

    def build(self, did: str, path: Path) -> Dialogue:
        if not self.persona:
            raise InputError(
                "dialogue has no 'your persona:' lines", path=str(path), record=f"line {self.start_line}"
            )
        has_triples = any(self.persona_triples) or any(self.utterance_triples)
        return Dialogue(
            dialog_id=did,
            persona=tuple(self.persona),
            utterances=tuple(self.utterances),
            persona_triples=tuple(self.persona_triples) if has_triples else (),
            utterance_triples=tuple(self.utterance_triples) if has_triples else (),
            partner_persona=tuple(self.partner),
        )


def read_convai2_text(path: str | Path) -> list[Dialogue]:
    """ConvAI2 "both" text (one utterance per numbered line, optional DNLI triples) or ParlAI self_original.

    A new dialogue starts when persona lines follow utterances or the line numbering restarts.
    """
    path = Path(path)
    text = read_text(path)
    dialogues: list[Dialogue] = []
    cur: _Builder | None = None
    last_num = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        num, body = _split_number(raw)
        head, _, rest = body.partition("\t")
        persona = _PERSONA.match(head.strip())
        renumbered = num is not None and num <= last_num
        if cur is None or renumbered or (persona and cur.utterances):
            if cur is not None:
                dialogues.append(cur.build(str(len(dialogues)), path))
            cur, last_num = _Builder(), 0
            cur.start_line = lineno
        last_num = num if num is not None else last_num
        assert cur is not None
        if persona:
            triples = _triples(rest, path, lineno)
            if persona.group(1) == "your":
                cur.persona.append(persona.group(2).strip())
                cur.persona_triples.append(tuple(triples))
            else:
                cur.partner.append(persona.group(2).strip())
            continue
        _add_turn(cur, body, path, lineno)
    if cur is not None:
        dialogues.append(cur.build(str(len(dialogues)), path))
    if not dialogues:
        raise InputError("no dialogues", path=str(path))
    return dialogues


def _split_number(raw: str) -> tuple[int | None, str]:
    m = _NUMBERED.match(raw)
    return (int(m.group(1)), m.group(2)) if m else (None, raw)


def _add_turn(cur: _Builder, body: str, path: Path, lineno: int) -> None:
    """``utt\\t[triple]...`` (ConvAI2 both) or ``user\\tagent[\\t\\tcandidates]`` (ParlAI self_original)."""
    cells = body.split("\t")
    if len(cells) >= 2 and not cells[1].lstrip().startswith("["):
        # self_original: user, agent, then '' and candidates (or reward) which we ignore.
        cur.utterances.extend([cells[0].strip(), cells[1].strip()])
        cur.utterance_triples.extend([(), ()])
        return
    cur.utterances.append(cells[0].strip())
    triples = tuple(t for cell in cells[1:] if cell.strip() for t in _triples(cell, path, lineno))
    cur.utterance_triples.append(triples)


def _triples(cell: str, path: Path, lineno: int) -> list[Triple]:
    """Parse Python-literal triples like ``['i', 'has_hobby', 'reading']`` (one per cell)."""
    out = []
    for part in (c for c in cell.split("\t") if c.strip()):
        try:
            value = ast.literal_eval(part.strip())
        except (ValueError, SyntaxError):
            raise InputError(
                f"bad DNLI triple {part.strip()[:40]!r}", path=str(path), record=f"line {lineno}"
            ) from None
        if not (isinstance(value, list) and len(value) == 3 and all(isinstance(x, str) for x in value)):
            raise InputError(
                "a DNLI triple must be a list of 3 strings", path=str(path), record=f"line {lineno}"
            )
        out.append((value[0], value[1], value[2]))
    return out
