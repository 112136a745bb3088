"""The DECODE layout (Nie et al., 2021): one dialogue per line, ``turns`` as ``{text, agent_id, ...}`` and
``is_contradiction`` (the last turn contradicts an earlier turn of the same speaker, i.e. a history
contradiction). An optional ``category`` (none/intra/role/history) refines the label; our hand-written
test dialogues carry one. The helpers every dialogue-example reader shares live here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.records import DETECTOR_LABELS, DetectorLabel, DialogueExample, content_hash


def make_example(
    turns: Sequence[str],
    label: DetectorLabel | None,
    *,
    trigger: str = "",
    origin: str = "",
    split: str = "",
    persona: Sequence[str] = (),
) -> DialogueExample:
    """An example whose id and context come from its content (never from its position in a file); the
    persona is not part of the id, so ids stay those of the dialogue alone."""
    turns = [str(t) for t in turns]
    return DialogueExample(
        id=content_hash("dialogue", turns, trigger, origin),
        turns=turns,
        label=label,
        context=content_hash("context", turns[:-1]),
        trigger=trigger,
        origin=origin,
        split=split,
        persona=[str(p) for p in persona],
    )


def parse_detector_label(value: Any, path: Path, record: str) -> DetectorLabel | None:
    """0..3 (CDConv ids) or a label name; None/absent = unlabelled; anything else is an InputError."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(DETECTOR_LABELS):
        return DETECTOR_LABELS[value]
    if isinstance(value, str) and value in DETECTOR_LABELS:
        return value  # type: ignore[return-value]
    names = ", ".join(DETECTOR_LABELS)
    raise InputError(
        f"unknown label {value!r} (0-3 or {names})", path=str(path), record=record, field="label"
    )


def decode_persona(obj: dict[str, Any], last: dict[str, Any], where: dict[str, str]) -> list[str]:
    """The persona lines of the agent who says the last turn (``agents[agent_id].persona_lines``), if any;
    DECODE writes an empty string for an agent without persona."""
    agents = obj.get("agents")
    if not isinstance(agents, dict):
        return []
    agent = agents.get(str(last.get("agent_id")))
    lines = agent.get("persona_lines") or [] if isinstance(agent, dict) else []
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise InputError("persona_lines must be a list of strings", field="agents", **where)
    return lines


def read_decode(path: str | Path) -> list[DialogueExample]:
    """DECODE dialogues as examples (label history when ``is_contradiction``, else none)."""
    path = Path(path)
    out = []
    for lineno, obj in read_jsonl(path):
        where = {"path": str(path), "record": f"line {lineno}"}
        turns = obj.get("turns")
        if not isinstance(turns, list) or len(turns) < 2:
            raise InputError("expected a list of at least 2 turns", field="turns", **where)
        texts = []
        for i, t in enumerate(turns):
            text = t.get("text") if isinstance(t, dict) else None
            if not isinstance(text, str):
                raise InputError(f"turn {i} has no text", field="turns", **where)
            texts.append(text)
        if "category" in obj:
            label = parse_detector_label(obj["category"], path, f"line {lineno}")
        elif "is_contradiction" in obj:
            if not isinstance(obj["is_contradiction"], bool):
                raise InputError("must be true or false", field="is_contradiction", **where)
            label = "history" if obj["is_contradiction"] else "none"
        else:
            label = None
        origin = str(obj.get("source", obj.get("origin", "decode")))
        out.append(make_example(texts, label, origin=origin, persona=decode_persona(obj, turns[-1], where)))
    if not out:
        raise InputError("no dialogues", path=str(path))
    return out
