"""Facts to ask about: normalised persona sentences and the agent's statements in its history turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core.records import Dialogue
from consistest.text.sentences import (
    about_agent,
    ends_with_question_mark,
    normalise,
    split_clauses,
    split_sentences,
    strip_markers,
)


@dataclass(frozen=True)
class Fact:
    """One thing the agent said or is: ``c`` raw (as in the data), ``norm`` normalised for the rules."""

    c: str
    norm: str
    source: str  # "pers" or "hist"
    turn: int = -1
    dialog: str = ""


def persona_facts(dialogues: Sequence[Dialogue]) -> dict[str, Fact]:
    """Unique persona sentences, keyed by their exact text, in order of first appearance."""
    out: dict[str, Fact] = {}
    for d in dialogues:
        for s in d.persona:
            if s not in out:
                out[s] = Fact(c=s, norm=normalise(s), source="pers")
    return out


def history_facts(dialogue: Dialogue) -> list[Fact]:
    """Agent statements about itself: agent utterance 2k+1 -> sentences -> clauses, questions dropped."""
    facts: list[Fact] = []
    for idx in range(1, len(dialogue.utterances), 2):
        turn = (idx - 1) // 2
        for sent in split_sentences(dialogue.utterances[idx]):
            if ends_with_question_mark(sent):
                continue
            for clause in split_clauses(sent):
                if about_agent(clause) and len(strip_markers(normalise(clause)).split()) >= 2:
                    facts.append(Fact(clause, normalise(clause), "hist", turn, dialogue.dialog_id))
    return facts
