"""Turn dialogues + QAs into benchmark samples, exactly as the published ConsisTest code does.

Order follows the original code (so its CSVs line up row by row): per dialogue, each persona QA at every
distance, then each history QA at every distance where the insert position exists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from consistest.core.errors import InputError
from consistest.core.records import QA, SOURCES, Dialogue, Sample, content_hash

S = TypeVar("S", bound=Sample)


@dataclass(frozen=True)
class AssemblyConfig:
    """Memory M in turns (2M utterances kept; None = all) and the question distances in turns after the
    fact; ``sessions`` continues past a dialogue's end with further sessions of its agent (see .sessions)."""

    memory: int | None = 3
    distances: tuple[int, ...] = (0, 2)
    paired: bool = False  # keep only history QAs that exist at every distance
    sessions: bool = False

    def __post_init__(self) -> None:
        if self.memory is not None and self.memory < 1:
            raise InputError(f"memory must be >= 1 or all, got {self.memory}")
        if not self.distances or any(d < 0 for d in self.distances):
            raise InputError(f"distances must be >= 0, got {self.distances}")
        if self.memory is not None and any(d >= self.memory for d in self.distances):
            raise InputError(
                f"distances must be in 0..{self.memory - 1} (memory {self.memory}: the fact must stay in "
                f"memory), got {self.distances}; use --memory all for longer distances"
            )
        if len(set(self.distances)) != len(self.distances):
            raise InputError(
                f"distances must not repeat (each would double its samples), got {self.distances}"
            )

    @property
    def memory_value(self) -> int | str:
        """The memory as settings and signatures name it: turns, or ``all``."""
        return "all" if self.memory is None else self.memory


def persona_history(utterances: Sequence[str], question: str, distance: int) -> list[str]:
    """Persona QA: d=0 asks cold; d>0 follows the dialogue's last 2d utterances."""
    tail = list(utterances[-2 * distance :]) if distance > 0 else []
    return tail + [question]


def history_window(n_utterances: int, turn: int, distance: int, memory: int | None) -> tuple[int, int] | None:
    """(start, stop) of the utterances kept before the question, or None when the sample does not exist.

    The fact is agent utterance 2*turn+1; the question goes in at p = 2*(turn+distance+1) and exists only
    if p <= n+1 (the original code's bound); the last 2*memory utterances before it are kept (all of them
    when memory is None).
    """
    p = 2 * (turn + distance + 1)
    if p > n_utterances + 1:
        return None
    stop = min(p, n_utterances)
    return (0 if memory is None else max(0, stop - 2 * memory)), stop


def _check_turn(d: Dialogue, qa: QA, path: str | None) -> None:
    if 2 * qa.turn + 1 >= len(d.utterances):
        raise InputError(
            f"turn {qa.turn} is beyond the dialogue ({len(d.utterances)} utterances)",
            path=path,
            record=f"dialog {d.dialog_id}: {qa.q!r}",
            field="turn",
        )


def assemble(
    dialogues: Sequence[Dialogue],
    persona_qas: Mapping[str, Sequence[QA]],
    history_qas: Mapping[str, Sequence[QA]],
    cfg: AssemblyConfig = AssemblyConfig(),
    history_path: str | None = None,
) -> list[Sample]:
    """All samples in the original order, with content-derived ids (duplicates get an occurrence suffix).
    Session builds (``cfg.sessions``) are assembled by :mod:`.assemble_sessions`, which checks the filler."""
    if cfg.sessions:
        raise ValueError("session builds are assembled by assemble_sessions.assemble_sessions")
    samples = [
        s for d in dialogues for s in _dialogue_samples(d, persona_qas, history_qas, cfg, history_path)
    ]
    return _dedupe_ids(samples)


def _dialogue_samples(
    d: Dialogue,
    persona_qas: Mapping[str, Sequence[QA]],
    history_qas: Mapping[str, Sequence[QA]],
    cfg: AssemblyConfig,
    history_path: str | None,
) -> Iterator[Sample]:
    persona = list(d.persona)
    for sentence in d.persona:
        for qa in persona_qas.get(sentence, ()):
            qa_id = qa_identity(d, qa, persona=True)
            for dist in cfg.distances:
                hist = persona_history(d.utterances, qa.q, dist)
                yield _sample(d, qa, qa_id, persona, hist, dist, -1)
    for qa in history_qas.get(d.dialog_id, ()):
        _check_turn(d, qa, history_path)
        windows = {
            dist: history_window(len(d.utterances), qa.turn, dist, cfg.memory) for dist in cfg.distances
        }
        if cfg.paired and any(w is None for w in windows.values()):
            continue
        qa_id = qa_identity(d, qa, persona=False)
        for dist, window in windows.items():
            if window is None:
                continue
            start, stop = window
            fact_pos = 2 * qa.turn + 1
            fact_index = fact_pos - start if start <= fact_pos < stop else -1
            hist = list(d.utterances[start:stop]) + [qa.q]
            yield _sample(d, qa, qa_id, persona, hist, dist, fact_index)


def qa_identity(d: Dialogue, qa: QA, persona: bool) -> str:
    """The qa_id: a hash of the dialogue id and the QA (history QAs: with alt_c and turn)."""
    if persona:
        return content_hash(d.dialog_id, qa.source, qa.type, qa.q, qa.a, qa.c)
    return content_hash(d.dialog_id, qa.source, qa.type, qa.q, qa.a, qa.c, qa.alt_c, qa.turn)


def _sample(
    d: Dialogue, qa: QA, qa_id: str, persona: list[str], history: list[str], distance: int, fact_index: int
) -> Sample:
    return Sample(
        id=content_hash(qa_id, distance, history),
        qa_id=qa_id,
        dialog_id=d.dialog_id,
        persona=persona,
        history=history,
        question=qa.q,
        answer=qa.a,
        fact=qa.c,
        nli_premise=qa.alt_c or qa.c,
        source=qa.source,
        type=qa.type,
        distance=distance,
        turn=qa.turn if qa.source != "pers" else -1,
        fact_index=fact_index,
        generator=qa.generator,
    )


def _dedupe_ids(samples: list[S]) -> list[S]:
    """Identical QAs listed twice for one dialogue keep both samples, told apart by ``-2``, ``-3``..."""
    from dataclasses import replace

    seen: Counter[str] = Counter()
    out = []
    for s in samples:
        seen[s.id] += 1
        n = seen[s.id]
        out.append(s if n == 1 else replace(s, id=f"{s.id}-{n}", qa_id=f"{s.qa_id}-{n}"))
    return out


@dataclass(frozen=True)
class MatchCounts:
    """How many QAs found their fact's home: persona QAs a persona sentence, history QAs a dialogue."""

    persona_qas: int
    persona_matched: int
    history_qas: int
    history_matched: int

    @property
    def unmatched(self) -> int:
        return self.persona_qas - self.persona_matched + self.history_qas - self.history_matched

    def to_dict(self) -> dict[str, int]:
        return {
            "persona_qas": self.persona_qas,
            "persona_matched": self.persona_matched,
            "history_qas": self.history_qas,
            "history_matched": self.history_matched,
        }


def match_counts(
    dialogues: Sequence[Dialogue],
    persona_qas: Mapping[str, Sequence[QA]],
    history_qas: Mapping[str, Sequence[QA]],
) -> MatchCounts:
    """Count the QAs whose persona sentence or dialogue id occurs in ``dialogues``."""
    sentences = {s for d in dialogues for s in d.persona}
    ids = {d.dialog_id for d in dialogues}
    return MatchCounts(
        persona_qas=sum(len(v) for v in persona_qas.values()),
        persona_matched=sum(len(v) for k, v in persona_qas.items() if k in sentences),
        history_qas=sum(len(v) for v in history_qas.values()),
        history_matched=sum(len(v) for k, v in history_qas.items() if k in ids),
    )


def count_samples(samples: Sequence[Sample]) -> dict[str, int]:
    """Counts keyed ``source/type/d<distance>``, ordered pers, hist, hist_ext; wh, yn; by distance."""
    c = Counter((SOURCES.index(s.source), s.type, s.distance) for s in samples)
    return {f"{SOURCES[src]}/{t}/d{d}": n for (src, t, d), n in sorted(c.items())}
