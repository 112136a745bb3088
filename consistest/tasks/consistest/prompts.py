"""What the model under test sees for a ConsisTest sample: its input variant as a Conversation.

Speakers are counted from the end, so the question (always the last utterance) is the user's, the
utterance before it the assistant's, and so on.

Input variants (the paper's fact-injection ablations, Table 6):

- ``standard``: persona + history + question, as in the dataset.
- ``fact-question``: the persona is replaced by the sample's fact alone and the history by the question.
- ``persona-fact-history``: the fact is appended to the end of the persona. For history questions the
  agent utterance holding the fact (``Sample.fact_index``) is removed from the history (after the speakers
  are assigned, so every other utterance keeps its speaker). For persona questions the persona sentence
  stating the fact is removed first, so the fact moves to the end rather than appearing twice.
- ``fact-persona-history``: the same, with the fact placed before the persona (for persona questions the
  fact sentence moves to the front).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, get_args

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Role, Sample, SessionSample, Turn

Variant = Literal["standard", "fact-question", "persona-fact-history", "fact-persona-history"]
VARIANTS: tuple[Variant, ...] = get_args(Variant)
_WORD = re.compile(r"\w+")


def speaker_roles(n: int) -> list[Role]:
    """Roles of ``n`` history utterances counted from the end: the last one is the user's."""
    return ["user" if (n - 1 - i) % 2 == 0 else "assistant" for i in range(n)]


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise InputError(f"unknown input variant {variant!r}, expected one of {', '.join(VARIANTS)}")
    return variant


def conversation(sample: Sample, variant: str = "standard") -> Conversation:
    """Apply ``variant`` to a sample and assign speakers (see the module docstring for each variant)."""
    check_variant(variant)
    history = list(sample.history)
    turns = [Turn(role, text) for role, text in zip(speaker_roles(len(history)), history, strict=True)]
    persona = list(sample.persona)
    starts = tuple(sample.session_starts) if isinstance(sample, SessionSample) else ()
    if variant == "standard":
        return Conversation(tuple(persona), tuple(turns), starts)
    if variant == "fact-question":
        return Conversation((sample.fact,), (Turn("user", history[-1] if history else sample.question),))
    if sample.source == "pers":
        hit = fact_sentence_index(persona, sample.fact)
        if hit >= 0:
            del persona[hit]
    elif 0 <= sample.fact_index < len(turns) - 1:
        del turns[sample.fact_index]
        starts = removed_turn_starts(starts, sample.fact_index)
    persona = persona + [sample.fact] if variant == "persona-fact-history" else [sample.fact] + persona
    return Conversation(tuple(persona), tuple(turns), starts)


def removed_turn_starts(starts: Sequence[int], removed: int) -> tuple[int, ...]:
    """Session starts after turn ``removed`` is deleted: later starts move up one; a session it opened is
    opened by the turn that follows it (a start at 0 is no break)."""
    moved = (s - 1 if s > removed else s for s in starts)
    return tuple(dict.fromkeys(s for s in moved if s > 0))


def fact_sentence_index(persona: Sequence[str], fact: str) -> int:
    """Index of the persona sentence stating ``fact``: an exact (case/space-insensitive) match, else the
    sentence covering most of the fact's words (at least half), else -1."""
    norm = _norm(fact)
    for i, sentence in enumerate(persona):
        if _norm(sentence) == norm:
            return i
    words = set(_WORD.findall(norm))
    if not words:
        return -1
    best, best_cover = -1, 0.5
    for i, sentence in enumerate(persona):
        cover = len(words & set(_WORD.findall(_norm(sentence)))) / len(words)
        if cover > best_cover:
            best, best_cover = i, cover
    return best


def _norm(text: str) -> str:
    return " ".join(text.lower().split())
