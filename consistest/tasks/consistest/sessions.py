"""Session builds: questions asked past the end of a dialogue, in further sessions of the same agent.

PersonaChat reuses persona sets: several dialogues give the agent the same persona sentences (198 of the 680
persona sets of the validation dialogues have 2-7 dialogues). A dialogue's **stream** is the dialogue
itself followed by the other dialogues of its persona set (the same sentences, compared without
punctuation, in any order), ordered by a hash of the two dialogues' utterances, so the continuation
depends on content, never on file order. A dialogue with an odd number of utterances is neither continued
nor used as a continuation (speakers would no longer alternate).

Where a question goes (positions count utterances of the stream; ``M`` = memory in turns, None = all):

- **history QA** (fact in agent utterance ``f = 2*turn+1`` of the first session): the question goes in at
  ``p = 2*(turn+d+1)``, as in the published code, but ``p`` may lie in a later session; the sample exists
  while ``p`` is within the stream. History = ``stream[max(0, p-2M):p]`` (everything with memory all).
- **persona QA**: asked after whole sessions, as the published d=2 rule asks at the end of the dialogue:
  at the end of the first session that brings the stream to at least ``2d`` utterances, after the last
  ``2d`` of them (d=0: asked cold).

A question continues the session of the utterance before it (it never opens one). ``sessions`` = session
breaks between the fact and the question (persona: from the agent's first session); ``session_starts`` =
indices in the history that open a session. A question beyond the last session does not exist and is
counted (``no_session_left``).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from consistest.core.records import Dialogue, content_hash
from consistest.text.sentences import strip_punct

SESSIONS_VERSION = 1  # how streams are chained and where questions go; in the build signature (sess:)


@dataclass(frozen=True)
class Stream:
    """A dialogue and its continuation sessions: ids, all utterances, and where each session starts."""

    dialog_ids: tuple[str, ...]
    utterances: tuple[str, ...]
    starts: tuple[int, ...]  # starts[0] == 0

    @property
    def ends(self) -> tuple[int, ...]:
        return (*self.starts[1:], len(self.utterances))

    def session_of(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) - 1

    def is_agent(self, pos: int) -> bool:
        """Odd positions inside their session are the agent's (utterance 0 of a session is the user's)."""
        return (pos - self.starts[self.session_of(pos)]) % 2 == 1


@dataclass(frozen=True)
class Place:
    """Where a question sits in a stream: history = ``stream[start:stop]``, then the question."""

    start: int
    stop: int
    fact: int  # stream position of the fact's utterance; -1 for persona facts
    sessions: int
    session_starts: tuple[int, ...]  # indices in the history

    @property
    def fact_index(self) -> int:
        return self.fact - self.start if self.start <= self.fact < self.stop else -1

    def filler(self, stream: Stream) -> list[int]:
        """Agent utterances of continuation sessions between the fact and the question: what the check
        reads (the first session is the published dialogue)."""
        first = max(self.fact + 1, self.start, stream.ends[0])
        return [q for q in range(first, self.stop) if stream.is_agent(q)]


def persona_key(persona: Sequence[str]) -> frozenset[str]:
    """A persona set: its sentences without punctuation, in any order."""
    return frozenset(strip_punct(s) for s in persona)


def streams(dialogues: Sequence[Dialogue]) -> dict[str, Stream]:
    """Each dialogue's stream: itself, then the other even-length dialogues of its persona set in order of
    ``content_hash(its utterances, theirs)``."""
    groups: dict[frozenset[str], list[Dialogue]] = {}
    for d in dialogues:
        groups.setdefault(persona_key(d.persona), []).append(d)
    out = {}
    for d in dialogues:
        chain = [d]
        if len(d.utterances) % 2 == 0:
            others = [o for o in groups[persona_key(d.persona)] if o is not d and len(o.utterances) % 2 == 0]
            chain += sorted(others, key=lambda o: content_hash(list(d.utterances), list(o.utterances)))
        starts, utts = [], []
        for c in chain:
            starts.append(len(utts))
            utts.extend(c.utterances)
        out[d.dialog_id] = Stream(tuple(c.dialog_id for c in chain), tuple(utts), tuple(starts))
    return out


def _window_starts(stream: Stream, start: int, stop: int) -> tuple[int, ...]:
    return tuple(s - start for s in stream.starts if start < s < stop)


def history_place(stream: Stream, turn: int, distance: int, memory: int | None) -> Place | None:
    """The place of a history question, or None past the last session (one session: the published bound
    ``p <= n+1``, so a single dialogue gives exactly the published samples)."""
    p = 2 * (turn + distance + 1)
    n = len(stream.utterances)
    if p > (n + 1 if len(stream.starts) == 1 else n):
        return None
    stop = min(p, n)
    start = 0 if memory is None else max(0, stop - 2 * memory)
    fact = 2 * turn + 1
    sessions = stream.session_of(max(stop - 1, 0)) - stream.session_of(fact)
    return Place(start, stop, fact, sessions, _window_starts(stream, start, stop))


def persona_place(stream: Stream, distance: int, memory: int | None) -> Place | None:
    """The place of a persona question: cold at d=0, else after the last 2d utterances of the first
    sessions that hold them; None when the stream is too short."""
    if distance == 0:
        return Place(0, 0, -1, 0, ())
    need = 2 * distance
    stop = next((e for e in stream.ends if e >= need), None)
    if stop is None:
        return None
    start = stop - need if memory is None else stop - min(need, 2 * memory)
    return Place(start, stop, -1, stream.session_of(stop - 1), _window_starts(stream, start, stop))


def missing_key(source: str, qtype: str, distance: int) -> str:
    return f"{source}/{qtype}/d{distance}"


def stream_counts(all_streams: Mapping[str, Stream]) -> dict[str, int]:
    """How many dialogues have 1, 2, ... sessions in their stream (for build_info)."""
    counts: dict[int, int] = {}
    for s in all_streams.values():
        counts[len(s.starts)] = counts.get(len(s.starts), 0) + 1
    return {str(k): v for k, v in sorted(counts.items())}
