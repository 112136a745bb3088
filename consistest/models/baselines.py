"""Chat models without a model, for sanity checks and offline demos (``--model baseline:NAME``).

- ``retrieval``: the persona or earlier-turn sentence sharing most content words with the last turn;
  ties go to the earliest sentence, persona first.
- ``generic``: ``i don't know .`` for everything.
- ``persona-bot:P``: talks from its persona and contradicts itself with probability P
  (:mod:`consistest.models.persona_bot`), for bot-bot conversations.

Benchmarks add their own (ConsisTest's ``baseline:oracle`` answers with the gold fact).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from consistest.core.errors import InputError
from consistest.core.records import Conversation
from consistest.models.base import BatchedChatModel
from consistest.models.decoding import Decoding

USES_DECODING = False
OPTIONS: frozenset[str] = frozenset()  # baselines read no backend options
CLI_OPTIONS: tuple = ()
GENERIC_RESPONSE = "i don't know ."
_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# Function words that say nothing about a fact (question words, pronouns, auxiliaries, articles).
_STOP = """a an the and or but of to in on at for with from by about as is am are was were be been being
do does did have has had having i you he she it we they me my your his her its our their mine yours what who
whom whose which when where why how that this these those there here can could will would shall should may
might must not no yes so if then than too very just any some s t m re ve ll d"""
STOPWORDS = frozenset(_STOP.split())


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


def candidate_sentences(conv: Conversation) -> list[str]:
    """Persona sentences, then the sentences of every turn before the last."""
    out = [p.strip() for p in conv.persona if p.strip()]
    for turn in conv.turns[:-1]:
        out += [s.strip() for s in _SENTENCE_END.split(turn.text) if s.strip()]
    return out


def retrieval_response(conv: Conversation) -> str:
    """The candidate sentence with the largest content-word overlap with the last turn ("" if none)."""
    question = content_words(conv.turns[-1].text if conv.turns else "")
    best, best_overlap = "", -1
    for sentence in candidate_sentences(conv):
        overlap = len(question & content_words(sentence))
        if overlap > best_overlap:
            best, best_overlap = sentence, overlap
    return best


_RULES = {"retrieval": retrieval_response, "generic": lambda _c: GENERIC_RESPONSE}
BASELINES: tuple[str, ...] = tuple(sorted(_RULES))


class BaselineModel(BatchedChatModel):
    """A rule-based ChatModel."""

    def __init__(self, kind: str) -> None:
        if kind not in _RULES:
            known = ", ".join(f"baseline:{b}" for b in (*BASELINES, "persona-bot:P"))
            raise InputError(
                f"unknown baseline {kind!r}, expected one of {known} or a benchmark's own (baseline:oracle)",
                field="model",
            )
        self.kind, self.name, self._rule = kind, f"baseline:{kind}", _RULES[kind]

    def reply(self, conversations: Sequence[Conversation]) -> list[str]:
        return [self._rule(c) for c in conversations]


def _is_persona_bot(name: str) -> bool:
    return name.partition(":")[0] == "persona-bot"


def settings(name: str, decoding: Decoding, options: Mapping[str, Any]) -> dict[str, Any]:
    if _is_persona_bot(name):
        from consistest.models import persona_bot

        return persona_bot.settings(name)
    return {}


def prompt_tag(name: str, options: Mapping[str, Any]) -> None:
    """Baselines read conversations directly: no rendering to name in the signature."""
    return None


def engine_tag(name: str, options: Mapping[str, Any]) -> None:
    """Baselines are no engine (see ``registry``)."""
    return None


def load(name: str, decoding: Decoding, options: Mapping[str, Any], quiet: bool = False) -> BatchedChatModel:
    if _is_persona_bot(name):
        from consistest.models.persona_bot import PersonaBot

        return PersonaBot(name)
    return BaselineModel(name)
