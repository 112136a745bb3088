"""Records shared by builders and scoring, with their explicit ``datasets.Features`` schema."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

Source = Literal["pers", "hist", "hist_ext"]
QType = Literal["wh", "yn"]
SOURCES: tuple[str, ...] = ("pers", "hist", "hist_ext")
QTYPES: tuple[str, ...] = ("wh", "yn")


@dataclass(frozen=True)
class Dialogue:
    """A PersonaChat dialogue: the agent's persona and the utterances (0 = user, odd = agent)."""

    dialog_id: str
    persona: tuple[str, ...]
    utterances: tuple[str, ...]
    # Optional DNLI triples, aligned with persona / utterances (empty when the layout has none).
    persona_triples: tuple[tuple[tuple[str, str, str], ...], ...] = ()
    utterance_triples: tuple[tuple[tuple[str, str, str], ...], ...] = ()
    partner_persona: tuple[str, ...] = ()


@dataclass(frozen=True)
class QA:
    """A question about one fact, in the curated ConsisTest format (plus provenance)."""

    q: str
    a: str
    c: str
    source: str
    type: str
    turn: int = -1
    dialog: str = ""
    alt_c: str = ""
    generator: str = "curated"
    template: str = ""

    def to_json(self) -> dict[str, Any]:
        """The curated file layout: persona QAs omit turn/dialog/alt_c."""
        d = asdict(self)
        if self.source == "pers":
            for k in ("turn", "dialog", "alt_c"):
                d.pop(k)
        if self.generator == "curated":
            d.pop("generator")
            d.pop("template")
        return d


@dataclass(frozen=True)
class Sample:
    """One benchmark item: the responder sees persona + history; history[-1] is the question."""

    id: str
    qa_id: str
    dialog_id: str
    persona: list[str]
    history: list[str]
    question: str
    answer: str
    fact: str
    nli_premise: str
    source: str
    type: str
    distance: int
    turn: int
    fact_index: int = -1  # index in ``history`` of the agent utterance holding the fact, -1 if absent
    generator: str = "curated"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Sample:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


SAMPLE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Sample))


def sample_features() -> Any:
    """The ``datasets.Features`` of a Sample (datasets imported lazily)."""
    from datasets import Features, List, Value

    string, int32 = Value("string"), Value("int32")
    return Features(
        {
            "id": string,
            "qa_id": string,
            "dialog_id": string,
            "persona": List(string),
            "history": List(string),
            "question": string,
            "answer": string,
            "fact": string,
            "nli_premise": string,
            "source": string,
            "type": string,
            "distance": int32,
            "turn": int32,
            "fact_index": int32,
            "generator": string,
        }
    )


def content_hash(*parts: Any, n: int = 16) -> str:
    """A stable short hex id from JSON-serialisable content (never from order or memory)."""
    blob = json.dumps(parts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:n]
