"""Records every layer shares: dialogues, QAs, benchmark samples (with their ``datasets.Features``),
conversations as chat models see them, and scored items."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, TypeVar, get_args

Source = Literal["pers", "hist", "hist_ext"]
QType = Literal["wh", "yn"]
Role = Literal["user", "assistant"]
# Why a ConsisTest reply fails, decided in this order (first match wins; see metrics/categories.py).
Category = Literal["consistent", "intra", "role", "history", "uninformative", "not_judged"]
# What a dialogue contradiction detector says about a last bot turn (CDConv's labels 0..3, in order).
DetectorLabel = Literal["none", "intra", "role", "history"]
R = TypeVar("R", bound="Record")
SOURCES: tuple[Source, ...] = get_args(Source)
QTYPES: tuple[QType, ...] = get_args(QType)
CATEGORIES: tuple[Category, ...] = get_args(Category)
DETECTOR_LABELS: tuple[DetectorLabel, ...] = get_args(DetectorLabel)


class Record:
    """A flat dataclass record that round-trips through a JSON object (unknown keys are ignored)."""

    def to_dict(self) -> dict[str, Any]:
        """Field name -> value, lists copied (what ``dataclasses.asdict`` gives for flat records, without its
        recursive deep copy, which dominated writing 18k scored items)."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()}

    @classmethod
    def from_dict(cls: type[R], d: dict[str, Any]) -> R:
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in d.items() if k in names})


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
    source: Source
    type: QType
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
class Sample(Record):
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
    source: Source
    type: QType
    distance: int
    turn: int
    fact_index: int = -1  # index in ``history`` of the agent utterance holding the fact, -1 if absent
    generator: str = "curated"


@dataclass(frozen=True)
class SessionSample(Sample):
    """A sample of a session build (``consistest build --memory all``): its history may run past the end
    of its dialogue into further sessions of the same agent. A separate record so that builds without
    sessions keep their columns, bytes and content hash."""

    sessions: int = 0  # session breaks between the fact (persona: the agent's first session) and the question
    session_starts: list[int] = field(default_factory=list)  # indices in ``history`` that open a new session


SAMPLE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Sample))
SESSION_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(SessionSample))


def sample_columns(sessions: bool = False) -> tuple[str, ...]:
    """A built dataset's columns: a Sample's, plus ``sessions`` and ``session_starts`` in session builds."""
    return SESSION_COLUMNS if sessions else SAMPLE_COLUMNS


def sample_features(sessions: bool = False) -> Any:
    """The ``datasets.Features`` of a Sample, or of a SessionSample (datasets imported lazily)."""
    from datasets import Features, List, Value

    string, int32 = Value("string"), Value("int32")
    extra = {"sessions": int32, "session_starts": List(int32)} if sessions else {}
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
            **extra,
        }
    )


@dataclass(frozen=True)
class Turn:
    """One utterance of a conversation and who said it (``assistant`` is the model under test)."""

    role: Role
    text: str


@dataclass(frozen=True)
class Conversation:
    """What a chat model replies to: its persona sentences (empty for none) and the turns so far; the last
    turn is the user's. Benchmarks build these; models render them (speaker tokens, chat templates).
    ``session_starts`` are the indices of turns that open a new session (a break renderings can show);
    empty for one session."""

    persona: tuple[str, ...]
    turns: tuple[Turn, ...]
    session_starts: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScoredItem(Record):
    """One scored ConsisTest reply: what the rules saw and decided, what NLI said, the final score."""

    id: str
    qa_id: str
    question: str
    truth: str
    response: str
    cleaned: str
    outcome: str
    rule_score: float | None
    nli_use: str
    nli_label: str | None
    score: float | None
    source: Source
    type: QType
    distance: int
    # Why it failed (or "consistent"), and the rule or NLI evidence that decided it.
    category: Category | None = None
    category_why: str = ""
    # The trigger variant of the question ("" for the benchmark's own questions).
    trigger: str = ""
    # What a model judge did (score --method judge): the stage that decided, the judge's raw replies; None
    # (and left out of scores.jsonl) for the rule methods.
    judge: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        if d.get("judge") is None:
            d.pop("judge", None)
        return d


@dataclass(frozen=True)
class DialogueExample(Record):
    """A dialogue whose last turn (a bot's) is judged for contradiction: CDConv's u1 b1 u2 b2, a DECODE
    dialogue, a ConsisTest item (history + reply) or a synthetic example. Turns alternate speakers.

    ``context`` identifies the turns before the last (splits by context keep every reply to one context on
    one side); ``label`` is None when unlabelled; ``persona`` holds the judged speaker's persona sentences
    (empty when the data has none), which the persona-aware detectors read before the dialogue."""

    id: str
    turns: list[str]
    label: DetectorLabel | None
    context: str
    trigger: str = ""
    origin: str = ""  # where it came from: the bot model, the synthesis rule, the run
    split: str = ""  # a split assigned by the data itself ("train"/"dev"/"test"), else ""
    persona: list[str] = field(default_factory=list)


def content_hash(*parts: Any, n: int = 16) -> str:
    """A stable short hex id from JSON-serialisable content (never from order or memory)."""
    blob = json.dumps(parts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:n]
