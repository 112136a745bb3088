"""The answer rules of ``--qa-rules``: a reply read with the user's question it answers."""

from __future__ import annotations

import pytest

from consistest.metrics.answers import (
    answer_polarity,
    answer_statement,
    on_topic,
    qa_evidence,
    returns_question,
)


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("do you have a dog ?", "yes .", "yes"),
        ("do you have a dog ?", "oh , no , i have a cat .", "no"),
        ("do you have a dog ?", "nope", "no"),
        ("do you have a dog ?", "i do .", "yes"),  # a bare short form
        ("do you have a dog ?", "i don't .", "no"),
        ("do you have a dog ?", "i do like dogs .", None),  # the short form does not stand alone
        ("are you married ?", "i am not sure what you mean", None),
        ("do you have a dog ?", "no idea , sorry", None),  # "no idea" answers nothing
        ("what is your name ?", "yes .", "yes"),  # the word is read whatever the question
        ("what is your name ?", "i do .", None),  # a WH question has no short forms
    ],
)
def test_answer_polarity(question: str, reply: str, expected: str | None) -> None:
    assert answer_polarity(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("do you have kids ?", "yes i do . i have two", "i have kids . i have two"),
        ("do you have a dog ?", "no , i have a cat .", "i don't have a dog . i have a cat"),
        ("are you married ?", "i am .", "i am married ."),
        ("have you been to paris ?", "yes i have , twice", "i have been to paris . twice"),
        ("do you like pizza ?", "nope", "i don't like pizza ."),
        ("what is your name ?", "yes .", "yes ."),  # no Y/N question: the reply unchanged
        ("do you have a dog ?", "i love cats .", "i love cats ."),  # no yes/no answer: unchanged
    ],
)
def test_answer_statement(question: str, reply: str, expected: str) -> None:
    assert answer_statement(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("how old are you ?", "how old are you ?", True),
        ("what does your wife do ?", "hi ! what does your wife do ?", True),
        ("are you vegan ?", "are you vegan ? i love vegan cheese .", True),
        ("do you like to grill ?", "yes i love to grill . what do you like to grill ?", False),  # a follow-up
        ("how old are you ?", "i am 32 . how old are you ?", True),
        ("how old are you ?", "i am 32 years old .", False),
        ("i like dogs .", "i like dogs ?", False),  # the user asked nothing
    ],
)
def test_returns_question(question: str, reply: str, expected: bool) -> None:
    assert returns_question(question, reply) is expected


def test_on_topic_keeps_premises_sharing_a_content_word() -> None:
    premises = ["i live in alabama .", "i love dogs .", "my home is in the country ."]
    assert on_topic("where do you live ?", premises) == ["i live in alabama ."]
    assert on_topic("how are you ?", premises) == []


PERSONA = ["i have blue eyes and red hair that comes to my waist .", "i have three sisters .", "i love tea ."]


@pytest.mark.parametrize(
    ("question", "reply", "premises", "verdict", "rule"),
    [
        # the user's question returned
        ("how old are you ?", "how old are you ?", PERSONA, "contradiction", "role"),
        # a yes/no word its own long part contradicts
        ("do you like math ?", "yes , i hate math .", [], "contradiction", "intra"),
        (
            "do you play any instruments ?",
            "yes , i don't play any instruments .",
            [],
            "contradiction",
            "intra",
        ),
        # the other stand than the persona on a Y/N question
        ("do you have blue eyes ?", "no , i have brown eyes .", PERSONA, "contradiction", "yn"),
        ("do you have blue eyes ?", "yes .", PERSONA, "consistent", "yn"),
        ("do you have blue eyes ?", "i have blue eyes !", PERSONA, "consistent", "yn"),  # no yes/no word
        ("do you like tea ?", "no .", PERSONA, "contradiction", "yn"),
        # another value than an earlier statement on the question's topic (any question)
        ("how many sisters do you have ?", "i have five sisters .", PERSONA, "contradiction", "fact"),
        ("how many sisters do you have ?", "i have three sisters .", PERSONA, "consistent", "fact"),
    ],
)
def test_qa_evidence(question: str, reply: str, premises: list[str], verdict: str, rule: str) -> None:
    got = qa_evidence(question, reply, premises)
    assert got is not None
    assert (got.verdict, got.rule) == (verdict, rule)
    assert got.category == (
        {"role": "role", "intra": "intra"}.get(rule, "history") if verdict != "consistent" else None
    )


@pytest.mark.parametrize(
    ("question", "reply", "premises"),
    [
        ("do you have a dog ?", "yes .", PERSONA),  # the persona says nothing about dogs
        ("what do you do for fun ?", "i like to swim .", PERSONA),  # nothing on topic
        ("do you have blue eyes ?", "i'm not sure what you mean .", PERSONA),  # no answer
    ],
)
def test_qa_evidence_leaves_the_rest_to_nli(question: str, reply: str, premises: list[str]) -> None:
    assert qa_evidence(question, reply, premises) is None
