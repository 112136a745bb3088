"""The ``topic`` answer rule (metrics/topic_facts.py): a reply read as a ConsisTest reply to the speaker's
premise closest to the question, its truth what that premise says beyond the question."""

from __future__ import annotations

import pytest

from consistest.metrics.answers import qa_evidence
from consistest.metrics.propositions import stem
from consistest.metrics.topic_facts import clause_party, closest_facts, question_party, statements, wh_truth


@pytest.mark.parametrize(
    ("question", "premise", "truth"),
    [
        ("how often do you visit europe ?", "i visit europe twice a year .", "twice a year"),
        ("what is your name ?", "my name is george .", "george"),
        ("where do you work ?", "i work in a taco shop .", "taco shop"),
        ("what type of documentaries do you watch ?", "i like watching war documentaries .", "war"),
        ("what is your name ?", "my name .", ""),  # nothing beyond the question
    ],
)
def test_wh_truth_is_what_the_premise_says_beyond_the_question(question, premise, truth) -> None:
    assert wh_truth(question, premise) == truth


def test_closest_facts_are_stated_clauses_sharing_the_most_question_words() -> None:
    premises = ["i have a dog .", "my dog sleeps on my bed , and i like tea .", "does your dog sleep ?"]
    assert closest_facts("where does your dog sleep ?", premises) == ["my dog sleeps on my bed"]
    assert closest_facts("what do you do for fun ?", premises) == []  # nothing on topic
    # a hedge the question does not hold states nothing; one it holds does
    assert statements("where do you work ?", ["i wish i could work at home ."]) == []
    assert statements("what do you want to be ?", ["i want to be a nurse ."]) == ["i want to be a nurse"]


@pytest.mark.parametrize(
    ("question", "reply", "premises", "verdict", "category"),
    [
        # another value than the closest premise's
        ("where do you work ?", "i work at a pizza place downtown .", ["i work in a taco shop ."],
         "contradiction", "history"),
        ("what type of documentaries do you watch ?", "nature documentaries mostly .",
         ["i like watching war documentaries ."], "contradiction", "history"),
        # another number in the truth's frame (plus's another-value, history in cat:3)
        ("how often do you visit europe ?", "about once a year .", ["i visit europe twice a year ."],
         "contradiction", "history"),
        # the premise's value, in a fragment
        ("how often do you visit europe ?", "twice a year , in the summer .",
         ["i visit europe twice a year ."], "consistent", None),
        # the question returned as the user's fact
        ("do you speak chinese ?", "oh , you speak chinese ? that is so cool !", ["i speak chinese ."],
         "contradiction", "role"),
        # two premises tie and the reply agrees with one of them: no contradiction
        ("where does your dog sleep ?", "on my bed .",
         ["my dog sleeps on the couch .", "my dog sleeps on my bed ."], "consistent", None),
        # qa:44 (plus-23's negated-truth): the premise's value said only negated contradicts it
        ("what is your favorite color ?", "definitely not blue .", ["my favorite color is blue ."],
         "contradiction", "history"),
    ],
)  # fmt: skip
def test_the_topic_rule(question, reply, premises, verdict, category) -> None:
    got = qa_evidence(question, reply, premises, (question,), premises)
    assert got is not None and got.rule == "topic"
    assert (got.verdict, got.category) == (verdict, category)


@pytest.mark.parametrize(
    ("question", "reply", "premises"),
    [
        ("where do you work ?", "i am not sure .", ["i work at a school ."]),  # evasive
        ("where do you work ?", "at an assembly line .", ["do you work ?", "i wish i could work at home ."]),
        ("what did you eat ?", "pizza .", ["i like to swim ."]),  # no premise on topic
        ("does your mom like cats ?", "no , she hates them .", ["my mom has two cats ."]),  # not the bot
        # another party than the question's
        ("where does your wife work ?", "at a bank .", ["i work at a taco shop ."]),
        ("where do you work ?", "at a taco shop .", ["my wife works at a bank ."]),
        ("what is my name ?", "sarah .", ["my name is george ."]),  # the asker's
        ("what kind of dog do you have ?", "a beagle .", ["your dog is a poodle ."]),  # the listener's
        # only a light word shared
        ("what is your favorite movie ?", "the matrix .", ["my favorite color is blue ."]),
        ("where do you go to school ?", "at ucla .", ["i go to the gym every day ."]),
        # a negated clause names no value
        ("where do you work ?", "at a school .", ["i do not work at a hospital ."]),
        # hypothetical questions ask for no fact
        ("what would you do if you won the lottery ?", "buy a house .", ["i won the lottery last year ."]),
        # cat:17's value of the asked type is no evidence against a guessed premise (it would read "red" as
        # another value than a premise that names no colour of the motorbike at all)
        ("what color is your motorbike ?", "i have a red motorbike .", ["i wear a motorbike helmet ."]),
    ],
)  # fmt: skip
def test_the_topic_rule_leaves_the_rest(question, reply, premises) -> None:
    assert qa_evidence(question, reply, premises, (question,), premises) is None


@pytest.mark.parametrize(
    ("question", "party"),
    [
        ("where do you work ?", "self"),
        ("what is your name ?", "self"),
        ("where does your wife work ?", stem("wife")),  # a person, by stem
        ("what is your mom's name ?", "mom"),
        ("what is my name ?", None),
        ("what is the spanish word for work ?", "any"),
    ],
)
def test_question_party(question, party) -> None:
    assert question_party(question) == party


@pytest.mark.parametrize(
    ("clause", "party"),
    [
        ("i work at a bank", "self"),
        ("my name is george", "self"),
        ("my best friend lives next door", "friend"),
        ("his name is max", "any"),
        ("your dog is a poodle", None),
    ],
)
def test_clause_party(clause, party) -> None:
    assert clause_party(clause) == party


def test_a_persons_question_reads_that_persons_statements() -> None:
    got = qa_evidence("where does your wife work ?", "at a school .", ["my wife works at a bank ."])
    assert got is not None and (got.verdict, got.rule, got.category) == ("contradiction", "topic", "history")
