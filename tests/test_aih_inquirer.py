"""The AIH inquirer: utterance -> declarative sentences -> entities -> questions answered by the entity."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from consistest.models.questions import highlight
from consistest.tasks.aih.inquirer import Inquirer, declarative_sentences
from consistest.text.entities import Entity, entities
from consistest.text.parse import Tok
from consistest.text.questions.wh_entity import fits


@pytest.mark.parametrize(
    ("utterance", "sentences"),
    [
        ("i have 2 dogs . what about you ?", ["i have 2 dogs ."]),
        ("i love hiking , do you ?", ["i love hiking"]),
        ("I work at Google. Do you like your job?", ["I work at Google."]),
        ("how are you ?", []),
        ("what a day. i am tired.", ["i am tired."]),
        ("", []),
    ],
)
def test_questions_are_dropped(utterance: str, sentences: list[str]) -> None:
    assert declarative_sentences(utterance) == sentences


def tok(i: int, text: str, tag: str, ent: str = "", iob: str = "") -> Tok:
    return Tok(i, text, text.lower(), tag, "dep", 0, ent, iob)


def test_entities_from_tokens() -> None:
    toks = [tok(0, "I", "PRP"), tok(1, "met", "VBD"), tok(2, "the", "DT", "PERSON", "B"),
            tok(3, "Stephen", "NNP", "PERSON", "I"), tok(4, "King", "NNP", "PERSON", "I"),
            tok(5, "and", "CC"), tok(6, "two", "CD"), tok(7, "fans", "NNS"), tok(8, "in", "IN"),
            tok(9, "Zork", "NNP"), tok(10, "Ville", "NNP"), tok(11, "lol", "NNP")]  # fmt: skip
    assert entities(toks) == [
        Entity("Stephen King", "PERSON", "named", 3, 5),  # the article trimmed
        Entity("two", "NUMBER", "number", 6, 7),
        Entity("Zork Ville", "PROPN", "proper_noun", 9, 11),  # "lol" is no entity
    ]


def test_adjacent_entities_stay_apart() -> None:
    toks = [tok(0, "Alex", "NNP", "PERSON", "B"), tok(1, "Ben", "NNP", "PERSON", "B")]
    assert [e.text for e in entities(toks)] == ["Alex", "Ben"]


@pytest.mark.parametrize(
    ("question", "label", "ok"),
    [
        ("where were you born?", "DATE", False),
        ("where were you born?", "GPE", True),
        ("when were you born?", "DATE", True),
        ("when were you born?", "PERSON", False),
        ("how many dogs do you have?", "CARDINAL", True),
        ("how many dogs do you have?", "ORG", False),
        ("what is your name?", "PERSON", True),
    ],
)
def test_question_fits_the_entity_type(question: str, label: str, ok: bool) -> None:
    assert fits(question, label) is ok


RULE_CASES = [
    # utterance, {(entity, question, truth)} the inquirer may pick from
    ("i have 2 dogs . what about you ?", {("2", "how many dogs do you have?", "2")}),
    ("My name is Anna and I'm 33 years old.",
     {("Anna", "what is your name?", "anna"), ("33 years old", "how old are you?", "33")}),
    ("I work at Google. Do you like your job?", {("Google", "where do you work?", "google")}),
    ("i was born in 1990 .", {("1990", "when were you born?", "1990")}),
    ("i live with my husband John .", {("John", "who do you live with?", "john")}),
    ("I'm Sarah, a graphic designer.", {("Sarah", "what is your name?", "sarah")}),
    ("I have three kids, Alex, Ben and Carl.", {("three", "how many kids do you have?", "three")}),
    ("i have been a nurse for 10 years .", {("10 years", "how long have you been a nurse?", "10 years")}),
    ("my dog's name is Max.", {("Max", "what is your dog's name?", "max")}),
    ("i moved to Chicago in 2015 .",
     {("Chicago", "where did you move in 2015?", "chicago"),
      ("2015", "when did you move to chicago?", "2015")}),
    ("i like pizza . do you ?", set()),
    ("how old are you ?", set()),
]  # fmt: skip


@pytest.mark.parametrize(("utterance", "expected"), RULE_CASES)
def test_rule_inquiries(utterance: str, expected: set[tuple[str, str, str]]) -> None:
    pytest.importorskip("spacy")
    inquirer = Inquirer("rules", seed=0)
    picks = {k: inquirer.ask([(f"c#{k}:q3", utterance)])[f"c#{k}:q3"] for k in range(12)}
    found = {(q.entity, q.question, q.truth) for q in picks.values() if q is not None}
    assert found == expected  # twelve seeds pick every candidate of these short utterances
    assert all(q is None or q.candidates == len(expected) for q in picks.values())


def test_the_pick_is_seeded_by_item_id() -> None:
    pytest.importorskip("spacy")
    utterance = "My name is Anna and I'm 33 years old."
    one = Inquirer("rules", seed=0).ask([("a:q3", utterance), ("b:q3", utterance)])
    assert one == Inquirer("rules", seed=0).ask([("b:q3", utterance), ("a:q3", utterance)])
    assert one["a:q3"].sentence == utterance


class FakeQG:
    name = "fake-qg"

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def generate(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        self.seen += pairs
        return [f"what is it about {answer}?" for _, answer in pairs]


def test_neural_inquirer_asks_in_the_second_person() -> None:
    pytest.importorskip("spacy")
    qg = FakeQG()
    got = Inquirer("neural", seed=0, qg=qg).ask([("c:q3", "I live in Paris. Do you?")])["c:q3"]
    assert qg.seen == [("you live in paris .", "paris")]
    assert (got.entity, got.question, got.truth) == ("Paris", "what is it about paris?", "paris")
    assert got.template == "neural"
    assert Inquirer("neural", seed=0, qg=qg).signature_value().startswith("neural-fake-qg+ent1+")


@pytest.mark.parametrize(
    ("context", "answer", "text"),
    [
        ("you have two dogs .", "two", "generate question: you have <hl> two <hl> dogs ."),
        ("you live in Paris", "paris", "generate question: you live in <hl> Paris <hl>"),
        ("you are here", "Rome", "generate question: you are here <hl> Rome <hl>"),
    ],
)
def test_highlight(context: str, answer: str, text: str) -> None:
    assert highlight(context, answer) == text


@pytest.mark.slow
def test_tiny_answer_aware_qg(tmp_path) -> None:
    import torch

    from consistest.models.base import AnswerAwareQuestionGenerator
    from consistest.models.questions import HFAnswerAwareQG
    from tests.tiny_models import tiny_generator

    torch.set_num_threads(1)
    qg = HFAnswerAwareQG(str(tiny_generator(tmp_path / "t5", "t5", speaker_tokens=("<hl>",))), batch_size=2,
                         num_beams=2, max_new_tokens=6)  # fmt: skip
    assert isinstance(qg, AnswerAwareQuestionGenerator)
    pairs = [("you have two dogs .", "two"), ("you live in texas .", "texas"), ("you are a nurse .", "nurse")]
    out = qg.generate(pairs)
    assert len(out) == 3 and all(isinstance(q, str) for q in out)
    assert out == qg.generate(pairs)  # beam search: deterministic, batches of 2 and 1
