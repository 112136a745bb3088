"""The ``topic`` answer rule (metrics/topic_facts.py): a reply read as a ConsisTest reply to the speaker's
premise closest to the question, its truth what that premise says beyond the question."""

from __future__ import annotations

import pytest

from consistest.metrics.answers import qa_evidence
from consistest.metrics.topic_facts import closest_facts, statements, wh_truth


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
        (
            "does your mom like cats ?",
            "no , she hates them .",
            ["my mom has two cats ."],
        ),  # not about the bot
    ],
)
def test_the_topic_rule_leaves_the_rest(question, reply, premises) -> None:
    assert qa_evidence(question, reply, premises, (question,), premises) is None
