"""Responders without a model, for sanity checks and the offline demo (``--model baseline:NAME``).

- ``oracle``: the gold answer; Y/N: ``yes .`` / ``no .`` then the fact, WH: the fact itself.
- ``retrieval``: the persona or history sentence sharing most content words with the question
  (the question itself excluded); ties go to the earliest sentence, persona first.
- ``generic``: ``i don't know .`` for everything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.core.errors import InputError
from consistest.core.records import Sample
from consistest.metrics.rules import truth_polarity

GENERIC_RESPONSE = "i don't know ."
_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# Function words that say nothing about a fact (question words, pronouns, auxiliaries, articles).
_STOP = """a an the and or but of to in on at for with from by about as is am are was were be been being
do does did have has had having i you he she it we they me my your his her its our their mine yours what who
whom whose which when where why how that this these those there here can could will would shall should may
might must not no yes so if then than too very just any some s t m re ve ll d"""
STOPWORDS = frozenset(_STOP.split())


def oracle_response(sample: Sample) -> str:
    """The gold answer in words: Y/N -> ``yes . <fact>`` / ``no . <fact>``, WH -> the fact."""
    if sample.type == "yn":
        word = truth_polarity(sample.answer) or "yes"  # "i do not like people | no" -> no
        return f"{word} . {sample.fact}".strip()
    return sample.fact.strip()


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


def candidate_sentences(sample: Sample) -> list[str]:
    """Persona sentences, then the sentences of every history utterance except the question."""
    out = [p.strip() for p in sample.persona if p.strip()]
    for utterance in sample.history[:-1]:
        out += [s.strip() for s in _SENTENCE_END.split(utterance) if s.strip()]
    return out


def retrieval_response(sample: Sample) -> str:
    """The candidate sentence with the largest content-word overlap with the question ("" if none)."""
    question = content_words(sample.history[-1] if sample.history else sample.question)
    best, best_overlap = "", -1
    for sentence in candidate_sentences(sample):
        overlap = len(question & content_words(sentence))
        if overlap > best_overlap:
            best, best_overlap = sentence, overlap
    return best


_RULES = {"oracle": oracle_response, "retrieval": retrieval_response, "generic": lambda _s: GENERIC_RESPONSE}
BASELINES: tuple[str, ...] = tuple(sorted(_RULES))


class BaselineResponder:
    """A rule-based ``consistest.models.base.Responder``."""

    def __init__(self, kind: str) -> None:
        if kind not in _RULES:
            raise InputError(
                f"unknown baseline {kind!r}, expected one of {', '.join('baseline:' + b for b in BASELINES)}",
                field="model",
            )
        self.kind = kind
        self.name = f"baseline:{kind}"
        self._rule = _RULES[kind]

    def respond(self, samples: Sequence[Sample]) -> list[str]:
        return [self._rule(s) for s in samples]
