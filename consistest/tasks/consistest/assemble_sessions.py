"""Assemble a session build: every QA at every distance in its dialogue's stream (see .sessions), filler
sessions checked against the fact (see .filler), missing and dropped samples counted.

Order follows the published assembly (per dialogue: persona QAs at every distance, then history QAs), so a
session build lines up with the default one where they overlap; a sample's id is the hash of its QA,
distance and history (and its session starts, when it has any), so a sample both builds share keeps its id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from consistest.core.records import QA, Dialogue, SessionSample, content_hash
from consistest.tasks.consistest.assemble import AssemblyConfig, _check_turn, _dedupe_ids, qa_identity
from consistest.tasks.consistest.filler import FillerCheck
from consistest.tasks.consistest.sessions import (
    SESSIONS_VERSION,
    Place,
    Stream,
    history_place,
    missing_key,
    persona_place,
    stream_counts,
    streams,
)

MISSING_REASONS = ("no_session_left", "contradicted")


@dataclass(frozen=True)
class Planned:
    """A QA at one distance, and where its question goes (None: past the last session)."""

    dialogue: Dialogue
    qa: QA
    qa_id: str
    distance: int
    place: Place | None
    stream: Stream

    @property
    def key(self) -> str:
        return missing_key(self.qa.source, self.qa.type, self.distance)


@dataclass
class SessionBuild:
    """The samples, the paired subset (QAs present at every distance), and what did not make it."""

    samples: list[SessionSample]
    paired: list[SessionSample]
    missing: dict[str, dict[str, int]] = field(default_factory=dict)  # reason -> source/type/dN -> count
    info: dict[str, Any] = field(default_factory=dict)


def assemble_sessions(
    dialogues: Sequence[Dialogue],
    persona_qas: Mapping[str, Sequence[QA]],
    history_qas: Mapping[str, Sequence[QA]],
    cfg: AssemblyConfig,
    check: FillerCheck | None = None,
    history_path: str | None = None,
) -> SessionBuild:
    """Plan every (QA, distance), check the filler of the placed ones, build the samples that remain."""
    check = check or FillerCheck()
    all_streams = streams(dialogues)
    planned = [p for d in dialogues for p in _plan(d, all_streams[d.dialog_id], persona_qas, history_qas,
                                                   cfg, history_path)]  # fmt: skip
    placed = [p for p in planned if p.place is not None]
    verdicts = check.run([_request(p) for p in placed]) if check.enabled else [None] * len(placed)
    dropped = {id(p): v for p, v in zip(placed, verdicts, strict=True) if v is not None}
    missing: dict[str, Counter[str]] = {r: Counter() for r in MISSING_REASONS}
    by_check: Counter[str] = Counter()
    kept = []
    for p in planned:
        if p.place is None:
            missing["no_session_left"][p.key] += 1
        elif id(p) in dropped:
            missing["contradicted"][p.key] += 1
            by_check[dropped[id(p)]] += 1
        else:
            kept.append(p)
    present: dict[str, set[int]] = {}
    for p in kept:
        present.setdefault(p.qa_id, set()).add(p.distance)
    paired = _dedupe_ids([_sample(p) for p in kept if present[p.qa_id] == set(cfg.distances)])
    samples = paired if cfg.paired else _dedupe_ids([_sample(p) for p in kept])
    info = {
        "version": SESSIONS_VERSION,
        "streams": stream_counts(all_streams),
        "check": check.tag(),
        "check_stats": dict(sorted(check.stats.items())),
        "contradicted_by": dict(sorted(by_check.items())),
    }
    return SessionBuild(samples, paired, {r: dict(sorted(c.items())) for r, c in missing.items()}, info)


def _plan(
    d: Dialogue,
    stream: Stream,
    persona_qas: Mapping[str, Sequence[QA]],
    history_qas: Mapping[str, Sequence[QA]],
    cfg: AssemblyConfig,
    history_path: str | None,
) -> list[Planned]:
    out = []
    for sentence in d.persona:
        for qa in persona_qas.get(sentence, ()):
            qa_id = qa_identity(d, qa, persona=True)
            places = [persona_place(stream, k, cfg.memory) for k in cfg.distances]
            out += [Planned(d, qa, qa_id, k, pl, stream) for k, pl in zip(cfg.distances, places, strict=True)]
    for qa in history_qas.get(d.dialog_id, ()):
        _check_turn(d, qa, history_path)
        qa_id = qa_identity(d, qa, persona=False)
        places = [history_place(stream, qa.turn, k, cfg.memory) for k in cfg.distances]
        out += [Planned(d, qa, qa_id, k, pl, stream) for k, pl in zip(cfg.distances, places, strict=True)]
    return out


def _request(p: Planned) -> tuple[str, str, list[str]]:
    """(fact text for the triples, NLI premise, the filler utterances to check)."""
    assert p.place is not None
    fact = p.qa.c if p.qa.source == "pers" else p.stream.utterances[p.place.fact]
    return fact, p.qa.alt_c or p.qa.c, [p.stream.utterances[q] for q in p.place.filler(p.stream)]


def _sample(p: Planned) -> SessionSample:
    assert p.place is not None
    pl, qa = p.place, p.qa
    history = [*p.stream.utterances[pl.start : pl.stop], qa.q]
    starts = list(pl.session_starts)
    return SessionSample(
        id=content_hash(p.qa_id, p.distance, history, *([starts] if starts else [])),
        qa_id=p.qa_id,
        dialog_id=p.dialogue.dialog_id,
        persona=list(p.dialogue.persona),
        history=history,
        question=qa.q,
        answer=qa.a,
        fact=qa.c,
        nli_premise=qa.alt_c or qa.c,
        source=qa.source,
        type=qa.type,
        distance=p.distance,
        turn=qa.turn if qa.source != "pers" else -1,
        fact_index=pl.fact_index if qa.source != "pers" else -1,
        generator=qa.generator,
        sessions=pl.sessions,
        session_starts=starts,
    )
