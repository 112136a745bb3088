"""Model inputs for a benchmark sample, as the paper's PersonaChat-finetuned models expect them.

Pure functions (no torch, no transformers): :func:`arrange` applies an ``--input-variant`` and tags each
history utterance with its speaker, :func:`encode_ids` turns that into token ids with any tokenizer-like
callable, :func:`chat_messages` into chat-template messages.

Layout (the ConsisTest reference encoding)::

    prefix + tok("<agent> " + " ".join(persona)) + tok("<x> " + utt)[:32] for each utterance + suffix

Speakers are counted from the end, so the question (always the last utterance) carries the user token,
the utterance before it the agent token, and so on. Each utterance, speaker token and question included,
is cut to ``utterance_max_tokens`` tokens; the persona is never cut. ``prefix`` is what the tokenizer puts
before a text (BART's ``<s>``), ``suffix`` is EOS for encoder-decoder models and the agent token for
decoder-only models, which generate the reply after it.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from consistest.core.errors import InputError
from consistest.core.records import Sample

VARIANTS: tuple[str, ...] = ("standard", "fact-question", "persona-fact-history", "fact-persona-history")
DEFAULT_SPEAKERS: tuple[str, str] = ("<user>", "<agent>")
USER, AGENT = "user", "agent"
_WORD = re.compile(r"\w+")

Tokenize = Callable[[str], list[int]]


@dataclass(frozen=True)
class Context:
    """What the responder sees: persona sentences and (speaker, text) turns; the last turn is the question."""

    persona: tuple[str, ...]
    turns: tuple[tuple[str, str], ...]


def speaker_roles(n: int) -> list[str]:
    """Roles of ``n`` history utterances counted from the end: the last one is the user's."""
    return [USER if (n - 1 - i) % 2 == 0 else AGENT for i in range(n)]


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise InputError(f"unknown input variant {variant!r}, expected one of {', '.join(VARIANTS)}")
    return variant


def arrange(sample: Sample, variant: str = "standard") -> Context:
    """Apply ``variant`` to a sample and assign speakers (see the module docstring for each variant)."""
    check_variant(variant)
    history = list(sample.history)
    turns = list(zip(speaker_roles(len(history)), history, strict=True))
    persona = list(sample.persona)
    if variant == "standard":
        return Context(tuple(persona), tuple(turns))
    if variant == "fact-question":
        return Context((sample.fact,), ((USER, history[-1] if history else sample.question),))
    if sample.source == "pers":
        hit = fact_sentence_index(persona, sample.fact)
        if hit >= 0:
            del persona[hit]
    elif 0 <= sample.fact_index < len(turns) - 1:
        del turns[sample.fact_index]
    persona = persona + [sample.fact] if variant == "persona-fact-history" else [sample.fact] + persona
    return Context(tuple(persona), tuple(turns))


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


def encode_ids(
    ctx: Context,
    tokenize: Tokenize,
    *,
    speakers: Sequence[str] = DEFAULT_SPEAKERS,
    utterance_max_tokens: int | None = 32,
    prefix: Sequence[int] = (),
    suffix: Sequence[int] = (),
) -> list[int]:
    """Token ids for ``ctx``: prefix, agent token + persona, speaker-tagged truncated turns, suffix.

    ``tokenize`` maps a text to ids without special tokens; ``speakers`` is (user token, agent token);
    ``utterance_max_tokens`` of None or 0 disables the per-utterance cut.
    """
    user, agent = speakers
    ids = list(prefix)
    ids += tokenize(f"{agent} {' '.join(ctx.persona)}".strip())
    for role, text in ctx.turns:
        tagged = tokenize(f"{user if role == USER else agent} {text}".strip())
        ids += tagged[:utterance_max_tokens] if utterance_max_tokens else tagged
    ids += list(suffix)
    return ids


def chat_messages(ctx: Context, truncate: Callable[[str], str] | None = None) -> list[dict[str, str]]:
    """Chat-template messages: the persona as the system message, then alternating user/assistant turns.

    ``truncate`` (e.g. keep the first 32 tokens) is applied to each turn, never to the persona.
    """
    cut = truncate or (lambda s: s)
    messages = [{"role": "system", "content": " ".join(ctx.persona)}]
    for role, text in ctx.turns:
        messages.append({"role": "user" if role == USER else "assistant", "content": cut(text)})
    return messages


def parse_speakers(spec: str | Sequence[str]) -> tuple[str, str]:
    """``"<user>,<agent>"`` (the CLI's --speaker-tokens) -> ("<user>", "<agent>")."""
    parts = [p.strip() for p in spec.split(",")] if isinstance(spec, str) else [str(p).strip() for p in spec]
    if len(parts) != 2 or not all(parts):
        raise InputError(f"expected two speaker tokens 'USER,AGENT', got {spec!r}", field="speaker-tokens")
    return parts[0], parts[1]
