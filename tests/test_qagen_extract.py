"""hist_ext: user question + agent answer -> QA, on hand cases and on real dialogues from ../shared."""

from __future__ import annotations

from pathlib import Path

import pytest

from consistest.core.records import Dialogue
from consistest.data.dialogues import read_dialogues
from consistest.tasks.consistest.qagen.extract import (
    agent_answer,
    explicit_yes_no,
    extract_qas,
    qtype,
    short_answer,
    statement_of,
    user_question,
)


@pytest.mark.parametrize(
    ("utterance", "question"),
    [
        ("oh cool . do you have any pets ?", "do you have any pets ?"),
        ("nice , what do you do for work ?", "what do you do for work ?"),
        ("i love dogs .", None),
        ("is it raining ?", None),  # not addressed to the agent
    ],
)
def test_user_question(utterance: str, question: str | None) -> None:
    assert user_question(utterance) == question


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("do you have pets ?", "yn"),
        ("are you a male or female ?", "wh"),
        ("how old are you ?", "wh"),
        ("how are you doing today ?", None),
        ("why do you like it ?", None),
        ("have you ?", None),
    ],
)
def test_qtype(question: str, kind: str | None) -> None:
    assert qtype(question) == kind


@pytest.mark.parametrize(
    ("question", "answer", "short"),
    [
        ("how old are you ?", "i'm 33 . and you ?", "33"),
        ("what do you do for a living ?", "i am a nurse .", "nurse"),
        ("where do you live ?", "i live in texas , it is hot", "texas"),
        ("what is your favorite food ?", "my favorite is pizza .", "pizza"),
        ("what do you do ?", "well i do many things that you would not believe at all", None),
    ],
)
def test_short_answer(question: str, answer: str, short: str | None) -> None:
    assert short_answer(question, answer) == short


def test_statement_of() -> None:
    assert statement_of("are you rich ?", "no") == "i am not rich"
    assert statement_of("do you have a cat ?", "no") == "i do not have a cat"
    assert statement_of("can you swim ?", "yes") == "i can swim"


@pytest.mark.parametrize(
    ("answer", "explicit"),
    [
        ("yes , i teach math .", True),
        ("absolutely , i teach math .", True),  # longer than 4 characters
        ("oh yes , i teach math .", True),  # a filler first
        ("i do not teach .", False),  # mirrored form: the reply states the fact itself
        ("i teach math .", False),
    ],
)
def test_explicit_yes_no(answer: str, explicit: bool) -> None:
    assert explicit_yes_no(answer) is explicit


def test_extract_on_hand_dialogue() -> None:
    d = Dialogue("x", ("i like cats .",), ("hi ! are you rich ?", "no . i spend all my money on hats .",
                                           "how old are you ?", "i'm 33 . you ?"))  # fmt: skip
    qas = list(extract_qas(d))
    assert [(q.q, q.a, q.type, q.turn, q.alt_c) for q in qas] == [
        ("are you rich ?", "no", "yn", 0, "i am not rich"),
        ("how old are you ?", "33", "wh", 1, ""),
    ]
    assert qas[0].c == agent_answer(d.utterances[1]) and all(q.source == "hist_ext" for q in qas)


def test_extract_on_real_dialogues(consistest_json: Path) -> None:
    """Dialogues 5 and 6 of the shared file hold curated hist_ext QAs the extractor must find."""
    dialogues = {d.dialog_id: d for d in read_dialogues(consistest_json)[:10]}
    got = {(q.dialog, q.turn, q.q, q.a) for k in ("5", "6") for q in extract_qas(dialogues[k])}
    assert ("5", 5, "are you rich ?", "no") in got
    assert ("6", 4, "do you like the holidays ?", "yes") in got
    for d in dialogues.values():
        for qa in extract_qas(d):  # the fact is the agent's reply right after the question
            assert qa.c.split()[0] in d.utterances[2 * qa.turn + 1]
            assert qa.q.rstrip().endswith("?")
