"""ConsisTest input variants as conversations, and their rendering for models, on hand-computable cases."""

from __future__ import annotations

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Sample, Turn
from consistest.models.rendering import (
    SYSTEM_PROMPTS,
    chat_messages,
    encode_ids,
    parse_speakers,
    system_message,
)
from consistest.tasks.consistest.prompts import conversation, fact_sentence_index, speaker_roles

USER, AGENT = "user", "assistant"


def Context(persona: tuple[str, ...], turns: tuple[tuple[str, str], ...]) -> Conversation:  # noqa: N802
    """A Conversation from (role, text) pairs, to keep the tables short."""
    return Conversation(tuple(persona), tuple(Turn(r, t) for r, t in turns))  # type: ignore[arg-type]


PERSONA = ["i have a dog .", "i like tea ."]


def sample(source: str = "hist", history: list[str] | None = None, fact_index: int = 1, **kw) -> Sample:
    history = history or ["hi there", "i am a nurse .", "cool", "i live in texas .", "what do you do ?"]
    base = dict(
        id="s1", qa_id="q1", dialog_id="d", persona=list(PERSONA), history=history, question=history[-1],
        answer="nurse", fact="i am a nurse .", nli_premise="i am a nurse .", source=source, type="wh",
        distance=0, turn=0, fact_index=fact_index,
    )  # fmt: skip
    base.update(kw)
    return Sample(**base)


@pytest.mark.parametrize("n, roles", [(1, [USER]), (2, [AGENT, USER]), (3, [USER, AGENT, USER]), (0, [])])
def test_speakers_are_counted_from_the_end(n: int, roles: list[str]) -> None:
    assert speaker_roles(n) == roles


H = ("hi there", "i am a nurse .", "cool", "i live in texas .", "what do you do ?")
ROLES = (USER, AGENT, USER, AGENT, USER)
ALL = list(zip(ROLES, H, strict=True))
MASKED = [ALL[0], *ALL[2:]]  # the fact's agent utterance (index 1) removed, the others keep their speakers
FACT = "i am a nurse ."


@pytest.mark.parametrize(
    "variant, kw, persona, turns",
    [
        ("standard", {}, PERSONA, ALL),
        ("fact-question", {}, [FACT], [(USER, H[-1])]),
        ("persona-fact-history", {}, PERSONA + [FACT], MASKED),
        ("fact-persona-history", {}, [FACT] + PERSONA, MASKED),
        # fact outside the window (-1): nothing to mask
        ("persona-fact-history", {"fact_index": -1}, PERSONA + [FACT], ALL),
        # persona question: the fact sentence moves (never duplicated)
        (
            "persona-fact-history",
            {"source": "pers", "fact": "i have a dog ."},
            ["i like tea .", "i have a dog ."],
            ALL,
        ),
        (
            "fact-persona-history",
            {"source": "pers", "fact": "i like tea ."},
            ["i like tea .", "i have a dog ."],
            ALL,
        ),
    ],
)
def test_variants(variant: str, kw: dict, persona: list[str], turns: list[tuple[str, str]]) -> None:
    ctx = conversation(sample(**kw), variant)
    assert ctx == Context(tuple(persona), tuple(turns))


def test_unknown_variant_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown input variant"):
        conversation(sample(), "fact-first")


@pytest.mark.parametrize(
    "persona, fact, index",
    [
        (["i have a dog .", "i like tea ."], "I like  tea .", 1),
        # the curated fact is a cleaned rewrite of the persona sentence
        (
            ["i like tea .", "whats up i am a 46 year old single dad 46 a kids ."],
            "i am a 46 year old single dad .",
            1,
        ),
        (["i like tea ."], "my car is red .", -1),
    ],
)
def test_fact_sentence_index(persona: list[str], fact: str, index: int) -> None:
    assert fact_sentence_index(persona, fact) == index


# A whitespace "tokenizer" over a fixed vocabulary, so every id below is computed by hand.
VOCAB = {
    w: i
    for i, w in enumerate(
        [
            "<user>",
            "<agent>",
            "i",
            "have",
            "a",
            "dog",
            ".",
            "like",
            "tea",
            "hi",
            "there",
            "what",
            "do",
            "you",
            "?",
        ],
        start=10,
    )
}


def ws(text: str) -> list[int]:
    return [VOCAB[w] for w in text.split()]


def test_encode_ids_by_hand() -> None:
    ctx = Context(("i have a dog .", "i like tea ."), ((AGENT, "hi there"), (USER, "what do you have ?")))
    ids = encode_ids(ctx, ws, utterance_max_tokens=4, prefix=[1], suffix=[2])
    # <s> <agent> i have a dog . i like tea . | <agent> hi there | <user> what do you (cut at 4) | </s>
    assert ids == [1, 11, 12, 13, 14, 15, 16, 12, 17, 18, 16, 11, 19, 20, 10, 21, 22, 23, 2]


def test_encode_ids_no_cut_and_custom_speakers() -> None:
    ctx = Context(("i like tea .",), ((USER, "what do you have ?"),))
    ids = encode_ids(ctx, ws, speakers=("hi", "there"), utterance_max_tokens=0)
    assert ids == [
        VOCAB[w] for w in ["there", "i", "like", "tea", ".", "hi", "what", "do", "you", "have", "?"]
    ]


def test_chat_messages_persona_as_system_and_cut_turns() -> None:
    ctx = conversation(sample(history=["i am a nurse .", "what do you do ?"], fact_index=0), "standard")
    msgs = chat_messages(ctx, truncate=lambda s: s[:4], system_prompt="persona")
    assert msgs == [
        {"role": "system", "content": "i have a dog . i like tea ."},
        {"role": "assistant", "content": "i am"},
        {"role": "user", "content": "what"},
    ]


def test_default_system_message_asks_to_stay_in_character() -> None:
    ctx = conversation(sample(history=["what do you do ?"]), "standard")
    assert chat_messages(ctx)[0] == {"role": "system", "content": system_message(ctx.persona, "persona-v1")}
    assert system_message(["i have a dog .", "i like tea ."]) == (
        "You are chatting with someone you just met. Stay in character as the person described below and "
        "answer briefly, in one or two short sentences.\nYour persona: i have a dog . i like tea ."
    )
    # a system message is always sent, so templates never inject their own default one
    assert all(chat_messages(Context((), ((USER, "hi"),)), system_prompt=p)[0]["role"] == "system"
               for p in SYSTEM_PROMPTS)  # fmt: skip
    with pytest.raises(InputError, match="unknown system prompt"):
        system_message(["x ."], "persona-v9")


@pytest.mark.parametrize("spec, out", [("<user>,<agent>", ("<user>", "<agent>")), (" A , B ", ("A", "B"))])
def test_parse_speakers(spec: str, out: tuple[str, str]) -> None:
    assert parse_speakers(spec) == out


@pytest.mark.parametrize("spec", ["<user>", "a,b,c", ",b"])
def test_parse_speakers_rejects(spec: str) -> None:
    with pytest.raises(InputError):
        parse_speakers(spec)


@pytest.mark.parametrize(
    "spec, options, prompt",
    [
        ("some/bart", {}, "speakers"),
        ("some/chat-model", {"chat_template": True}, "chat-persona-v1"),
        ("some/chat-model", {"chat_template": True, "system_prompt": "persona"}, "chat-persona"),
        ("openai:gpt-x", {"chat_template": False}, "chat-persona-v1"),  # endpoints always take messages
        ("baseline:retrieval", {}, None),
    ],
)
def test_rendering_is_named_in_the_signature(spec: str, options: dict, prompt: str | None) -> None:
    from consistest.models.registry import ModelSpec

    model = ModelSpec(spec, options=options)
    assert model.prompt_value() == prompt
    if spec.startswith("some/"):  # the HF settings store the system prompt only when it is used
        assert ("system_prompt" in model.settings()) == bool(options.get("chat_template"))
