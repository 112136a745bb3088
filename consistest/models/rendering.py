"""Two ways to show a conversation to a model, as pure functions (no torch, no transformers).

Speaker tokens, for models fine-tuned on PersonaChat like the paper's (the ConsisTest reference
encoding)::

    prefix + tok("<agent> " + " ".join(persona)) + tok("<x> " + turn)[:32] for each turn + suffix

Each turn, speaker token included, is cut to ``utterance_max_tokens`` tokens; the persona is never cut.
``prefix`` is what the tokenizer puts before a text (BART's ``<s>``), ``suffix`` is EOS for
encoder-decoder models and the agent token for decoder-only models, which generate the reply after it.

Chat messages, for chat models (their own chat template, or an OpenAI-compatible endpoint): a system
message built from a versioned prompt and the persona, then alternating user/assistant turns ending with
the question. A system message is always sent, so templates that inject a default one when there is none
(SmolLM2: "You are a helpful AI assistant named SmolLM") never do. The prompt's name is its version: a new
wording gets a new name, and the name goes into the signature (``prompt:chat-persona-v1``).

A plain-text transcript, for base models without a chat template (Gemma-3-270M base): a versioned opening
line, the persona as the agent's first line, then ``User:``/``Me:`` lines ending with ``Me:``; the model
continues the line, and the reply ends at the first line break (``prompt:transcript-v1``).

Session breaks (``Conversation.session_starts``, from session builds): the chat rendering opens the first
message of each new session with a versioned note on its own line, the transcript puts a note line between
the sessions. A conversation without breaks renders exactly as before; with breaks the signature's prompt
gains ``+sessions-v1`` (:func:`session_prompt_tag`). Speaker tokens show no break (PersonaChat-fine-tuned
models never saw one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, get_args

from consistest.core.errors import InputError
from consistest.core.records import Conversation
from consistest.models.options import ModelOption

DEFAULT_SPEAKERS: tuple[str, str] = ("<user>", "<agent>")

# System prompts for chat rendering, by name; never edit one in place (add persona-v2 instead).
SystemPrompt = Literal["persona-v1", "persona"]
SYSTEM_PROMPTS: tuple[SystemPrompt, ...] = get_args(SystemPrompt)
DEFAULT_SYSTEM_PROMPT: SystemPrompt = "persona-v1"
_SYSTEM_TEMPLATES: dict[SystemPrompt, str] = {
    "persona-v1": (
        "You are chatting with someone you just met. Stay in character as the person described below and "
        "answer briefly, in one or two short sentences.\nYour persona: {persona}"
    ),
    "persona": "{persona}",  # the persona sentences alone (the rendering before persona-v1)
}

# Transcript renderings for base models, by name; never edit one in place (add transcript-v2 instead).
Transcript = Literal["transcript-v1"]
TRANSCRIPTS: tuple[Transcript, ...] = get_args(Transcript)
DEFAULT_TRANSCRIPT: Transcript = "transcript-v1"
_TRANSCRIPT_OPENINGS: dict[Transcript, str] = {
    "transcript-v1": "The following is a chat between two people who just met. Me describes themself first.",
}
TRANSCRIPT_SPEAKERS = {"user": "User", "assistant": "Me"}

# How a session break is shown, by name; never edit one in place (add sessions-v2 instead).
SessionBreak = Literal["sessions-v1"]
SESSION_BREAK: SessionBreak = "sessions-v1"
_SESSION_NOTES: dict[SessionBreak, dict[str, str]] = {
    "sessions-v1": {
        "chat": "[A new chat, some days later.]",
        "transcript": "(Some days later, a new chat.)",
    },
}

Tokenize = Callable[[str], list[int]]


def encode_ids(
    conv: Conversation,
    tokenize: Tokenize,
    *,
    speakers: Sequence[str] = DEFAULT_SPEAKERS,
    utterance_max_tokens: int | None = 32,
    prefix: Sequence[int] = (),
    suffix: Sequence[int] = (),
) -> list[int]:
    """Token ids for ``conv``: prefix, agent token + persona, speaker-tagged truncated turns, suffix.

    ``tokenize`` maps a text to ids without special tokens; ``speakers`` is (user token, agent token);
    ``utterance_max_tokens`` of None or 0 disables the per-turn cut.
    """
    user, agent = speakers
    ids = list(prefix)
    ids += tokenize(f"{agent} {' '.join(conv.persona)}".strip())
    for turn in conv.turns:
        tagged = tokenize(f"{user if turn.role == 'user' else agent} {turn.text}".strip())
        ids += tagged[:utterance_max_tokens] if utterance_max_tokens else tagged
    ids += list(suffix)
    return ids


def check_system_prompt(name: str) -> SystemPrompt:
    if name not in SYSTEM_PROMPTS:
        known = ", ".join(SYSTEM_PROMPTS)
        raise InputError(f"unknown system prompt {name!r}, expected one of {known}", field="system-prompt")
    return name  # type: ignore[return-value]


def check_rendering(
    *, chat_template: bool, transcript: bool, system_prompt: str, utterance_max_tokens: int
) -> None:
    """The rendering settings every local backend shares, checked when its settings are made (not at the
    first batch, after the model has loaded)."""
    if utterance_max_tokens < 0:
        raise InputError("must be >= 0 (0 = no cut)", field="utterance-max-tokens")
    check_system_prompt(system_prompt)
    if transcript and chat_template:
        raise InputError("--transcript and --chat-template exclude each other", field="transcript")


def system_message(persona: Sequence[str], prompt: str = DEFAULT_SYSTEM_PROMPT) -> str:
    """The system message: the named prompt with the persona sentences joined by spaces."""
    return _SYSTEM_TEMPLATES[check_system_prompt(prompt)].format(persona=" ".join(persona))


def chat_messages(
    conv: Conversation,
    truncate: Callable[[str], str] | None = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
) -> list[dict[str, str]]:
    """Chat messages: the system message (prompt + persona), then the turns by role.

    ``truncate`` (e.g. keep the first 32 tokens) is applied to each turn, never to the persona.
    """
    cut = truncate or (lambda s: s)
    note = _SESSION_NOTES[SESSION_BREAK]["chat"]
    starts = set(conv.session_starts)
    messages = [{"role": "system", "content": system_message(conv.persona, system_prompt)}]
    messages += [
        {"role": t.role, "content": f"{note}\n{cut(t.text)}" if k in starts else cut(t.text)}
        for k, t in enumerate(conv.turns)
    ]
    return messages


def transcript_text(
    conv: Conversation, truncate: Callable[[str], str] | None = None, name: str = DEFAULT_TRANSCRIPT
) -> str:
    """The transcript of ``conv`` for a base model, ending with ``Me:`` (the reply continues that line).

    Line breaks inside turns become spaces, so a line break can only end the reply; ``truncate`` is
    applied to each turn, never to the persona.
    """
    if name not in TRANSCRIPTS:
        raise InputError(f"unknown transcript {name!r}, expected one of {', '.join(TRANSCRIPTS)}")
    cut = truncate or (lambda s: s)
    lines = [_TRANSCRIPT_OPENINGS[name]]  # type: ignore[index]
    if conv.persona:
        lines.append(f"Me: {_one_line(' '.join(conv.persona))}")
    starts = set(conv.session_starts)
    for k, t in enumerate(conv.turns):
        if k in starts:
            lines.append(_SESSION_NOTES[SESSION_BREAK]["transcript"])
        lines.append(f"{TRANSCRIPT_SPEAKERS[t.role]}: {_one_line(cut(t.text))}")
    return "\n".join(lines) + "\nMe:"


def session_prompt_tag(tag: str | None) -> str | None:
    """The signature's ``prompt:`` value for conversations with session breaks: the rendering's tag plus the
    break's version (``chat-persona-v1+sessions-v1``); speaker tokens (``speakers``) show no break and stay
    as they are, and a model without a rendering (None) has none."""
    return tag if tag in (None, "speakers") else f"{tag}+{SESSION_BREAK}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def parse_speakers(spec: str | Sequence[str]) -> tuple[str, str]:
    """``"<user>,<agent>"`` (the CLI's --speaker-tokens) -> ("<user>", "<agent>")."""
    parts = [p.strip() for p in spec.split(",")] if isinstance(spec, str) else [str(p).strip() for p in spec]
    if len(parts) != 2 or not all(parts):
        raise InputError(f"expected two speaker tokens 'USER,AGENT', got {spec!r}", field="speaker-tokens")
    return parts[0], parts[1]


# Rendering options, read by every backend that renders conversations itself (hf:, ct2:; openai: reads the
# system prompt); declared here once.
SYSTEM_PROMPT_OPTION = ModelOption(
    "system_prompt", SYSTEM_PROMPTS, DEFAULT_SYSTEM_PROMPT,
    "Chat rendering (--chat-template, openai:): a versioned instruction to stay in character and answer "
    "briefly, then the persona; 'persona' = the persona alone.",
)  # fmt: skip
RENDER_OPTIONS: tuple[ModelOption, ...] = (
    ModelOption("speaker_tokens", str, ",".join(DEFAULT_SPEAKERS),
                "USER,AGENT tokens the model was fine-tuned with.", convert=lambda v: parse_speakers(v)),
    ModelOption("utterance_max_tokens", int, 32, "Cut each history utterance (question included) to this "
                "many tokens; 0 = no cut."),
    ModelOption("chat_template", bool, False, "Render with the tokenizer's chat template (system message = "
                "--system-prompt).", flag=True, show_default=False),
    SYSTEM_PROMPT_OPTION,
    ModelOption("transcript", bool, False, "Render as a plain-text transcript for base models without a "
                "chat template (persona as the first 'Me:' line; the reply ends at the line break).",
                flag=True, show_default=False),
)  # fmt: skip
