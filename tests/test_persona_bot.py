"""baseline:persona-bot:P: states its facts, answers from what it said, contradicts itself at rate P."""

from __future__ import annotations

import random

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Turn
from consistest.models.persona_bot import PersonaBot, lie_by_negation, lie_by_swapping, persona_bot_reply
from consistest.models.registry import ModelSpec

PERSONA = ("i have 2 dogs .", "my name is Anna .", "i live in Paris .")


def conv(*turns: tuple[str, str]) -> Conversation:
    return Conversation(PERSONA, tuple(Turn(role, text) for role, text in turns))  # type: ignore[arg-type]


def test_it_states_its_facts_in_order_and_asks_back() -> None:
    first = persona_bot_reply(conv(("user", "hello")), 0.0)
    assert first.startswith("i have 2 dogs . ") and first.endswith("?")
    second = persona_bot_reply(conv(("user", "hello"), ("assistant", first), ("user", "i like cats .")), 0.0)
    assert second.startswith("my name is Anna . ")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("how many dogs do you have?", "i have 2 dogs ."),
        ("what is your name?", "my name is Anna ."),
        ("where do you live?", "i live in Paris ."),  # from its persona: not said yet, still its fact
    ],
)
def test_it_answers_from_what_it_said(question: str, answer: str) -> None:
    said = conv(("user", "hello"), ("assistant", "i have 2 dogs . and you ?"), ("user", "my name is Sam ."),
                ("assistant", "my name is Anna . and you ?"), ("user", question))  # fmt: skip
    assert persona_bot_reply(said, 0.0) == answer


def test_at_rate_one_every_answer_contradicts() -> None:
    said = conv(
        ("user", "hello"), ("assistant", "i have 2 dogs . and you ?"), ("user", "how many dogs do you have?")
    )
    answer = persona_bot_reply(said, 1.0)
    assert answer != "i have 2 dogs ." and answer.startswith("i have ") and answer.endswith(" dogs .")
    assert persona_bot_reply(said, 1.0) == answer  # seeded by the conversation's content


def test_the_contradiction_rate_is_about_p() -> None:
    bot = PersonaBot("persona-bot:0.3")
    convs = [
        conv(
            ("user", f"hi {k}"),
            ("assistant", "i have 2 dogs . and you ?"),
            ("user", "how many dogs do you have?"),
        )
        for k in range(400)
    ]
    answers = bot.reply(convs)
    assert 0.22 < sum(a != "i have 2 dogs ." for a in answers) / 400 < 0.38


@pytest.mark.parametrize(
    ("sentence", "negated"),
    [
        ("i am a nurse .", "i am not a nurse ."),
        ("i have a cat .", "i do not have a cat ."),
        ("i did go there .", "i did not go there ."),
        ("my car is red .", "my car is not red ."),
        ("i do not like cats .", "i do like cats ."),
        ("we went home .", "it is not true that we went home ."),
        ("i'm getting married .", "i'm not getting married ."),
        ("i've one brother .", "i do not have one brother ."),
        ("i won a medal .", "it is not true that i won a medal ."),
        ("i have been to paris .", "i have not been to paris ."),
    ],
)
def test_negate(sentence: str, negated: str) -> None:
    assert lie_by_negation(sentence) == negated


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("i have 2 dogs .", "i have {} dogs ."),
        ("my name is Anna .", "my name is {} ."),
        ("i like red cars .", "i like {} cars ."),
        ("i work on monday .", "i work on {} ."),
    ],
)
def test_swap_value_keeps_the_kind(sentence: str, kept: str) -> None:
    for seed in range(5):
        out = lie_by_swapping(sentence, random.Random(seed), asked={"dogs", "cars", "name"})
        assert out is not None and out != sentence
        prefix, suffix = kept.split("{}")
        assert out.startswith(prefix) and out.endswith(suffix)
    assert lie_by_swapping("i am a nurse .", random.Random(0)) is None


@pytest.mark.parametrize(
    "spec", ["baseline:persona-bot", "baseline:persona-bot:x", "baseline:persona-bot:1.5"]
)
def test_bad_rates_are_input_errors(spec: str) -> None:
    with pytest.raises(InputError, match="persona-bot:P"):
        ModelSpec(spec).load()


def test_spec_and_settings() -> None:
    spec = ModelSpec("baseline:persona-bot:0.25")
    assert spec.settings() == {"persona_bot": 1, "contradiction_rate": 0.25}
    assert spec.signature_value() == "none" and spec.load().name == "baseline:persona-bot:0.25"
