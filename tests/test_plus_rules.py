"""The plus method's rules, one table each, and how they combine with the NLI labels."""

from __future__ import annotations

import pytest

from consistest.metrics.plus import (
    RULES,
    extra_values,
    final_plus,
    judge_plus,
    long_part,
    long_polarity,
    method_tag,
    truth_keywords,
)


@pytest.mark.parametrize(
    ("truth", "drop", "keywords"),
    [
        ("my dad", True, [["dad"]]),
        ("my dad", False, [["my", "dad"]]),
        ("in the woods", True, [["wood"]]),
        ("about a month", True, [["month"]]),
        ("school teacher | teacher", True, [["school", "teacher"], ["teacher"]]),
        ("it is", True, [["it", "is"]]),  # nothing but function words: kept as they are
        ("twenty", True, [["20"]]),
    ],
)
def test_truth_keywords(truth: str, drop: bool, keywords: list[list[str]]) -> None:
    assert truth_keywords(truth, drop) == keywords


@pytest.mark.parametrize(
    ("cleaned", "truth", "support", "extras"),
    [
        ("i love pizza , sushi and tacos", ["pizza"], "i love pizza", ["sushi", "taco"]),
        ("I love pizza, sushi, and tacos!", ["pizza"], "i love pizza", ["sushi", "taco"]),
        ("blue and green .", ["blue"], "my favorite color is blue", ["green"]),
        ("green and blue .", ["blue"], "my favorite color is blue", ["green"]),  # listed before it too
        ("a german shepherd and a little beagle", ["german", "shepherd"], "", ["little", "beagle"]),
        ("pizza and pasta", ["pizza"], "i like pizza . i love pasta", []),  # the persona supports pasta
        ("yellow , it's beautiful here", ["yellow"], "", []),  # a comma alone makes no list
        ("i'm a doctor , but i'm looking for a new job", ["doctor"], "", []),
        ("i am a doctor and i love it", ["doctor"], "", []),
        ("pizza", ["pizza"], "", []),
    ],
)
def test_extra_values(cleaned: str, truth: list[str], support: str, extras: list[str]) -> None:
    assert extra_values(cleaned, truth, support) == extras


@pytest.mark.parametrize(
    ("cleaned", "rest"),
    [
        ("yes , i can not stand cats", "i can not stand cats"),
        ("no . i am a student .", "i am a student"),
        ("i do . i drive a bmw .", "i drive a bmw"),
        ("yes i do , her name is daisy", "her name is daisy"),
        ("yes", ""),
        ("nope !", ""),
    ],
)
def test_long_part(cleaned: str, rest: str) -> None:
    assert long_part(cleaned) == rest


@pytest.mark.parametrize(
    ("rest", "question", "polarity"),
    [
        ("i can not stand cats", "do you love cats ?", "no"),
        ("i hate cats", "do you love cats ?", "no"),
        ("i work at a bar", "do you work at a bar ?", "yes"),
        ("i work at a school", "do you work at a bar ?", None),
        ("i have blonde hair and blue eyes", "do you have blue hair ?", None),  # not "blue hair" in order
        ("i have a dog", "do you have a dog ?", "yes"),
        ("", "do you have a dog ?", None),
    ],
)
def test_long_polarity(rest: str, question: str, polarity: str | None) -> None:
    assert long_polarity(rest, question) == polarity


def _score(question, truth, qtype, response, labels=(), support="", rules=RULES):
    v = judge_plus(question, truth, qtype, response, support, rules)
    return v, final_plus(v, [labels[a] for a in v.asks] if labels else [None] * len(v.asks))


@pytest.mark.parametrize(
    ("question", "truth", "qtype", "response", "labels", "score", "paper_score"),
    [
        # function words: "my mom" for "my dad" gets nothing (the paper gives 0.5)
        ("who visits ?", "my dad", "wh", "my mom .", {}, 0.0, 0.5),
        # paraphrase: no keyword, but the reply entails the fact -> full credit; else 0
        ("what do you do ?", "dentist", "wh", "i fix people's teeth", {"credit": "entailment"}, 1.0, 0.0),
        ("what do you do ?", "dentist", "wh", "i fix people's teeth", {"credit": "neutral"}, 0.0, 0.0),
        # extras: full recall plus an unsupported listed value -> 0.5
        ("favorite food ?", "pizza", "wh", "pizza , sushi and tacos", {"guard": "neutral"}, 0.5, 1.0),
        ("favorite food ?", "pizza", "wh", "pizza , sushi and tacos", {"guard": "contradiction"}, 0.0, 0.0),
        # the paper's own Y/N example and its mirror: yes/no word and long part must agree
        ("do you work at a bar ?", "no", "yn", "yes i work at a school", {}, 0.0, 0.0),
        ("do you love cats ?", "yes", "yn", "yes , i can not stand cats", {}, 0.0, 1.0),
        # the long part is checked alone against the fact: a contradiction there -> 0
        ("do you drive ?", "yes", "yn", "yes , i drive a nissan altima",
         {"guard": "neutral", "long": "contradiction"}, 0.0, 1.0),
        ("do you drive ?", "yes", "yn", "yes , i drive a nissan pathfinder",
         {"guard": "neutral", "long": "entailment"}, 1.0, 1.0),
        # out of persona: an AI disclaimer is no answer, whatever its polarity
        ("do you have a dog ?", "no", "yn", "As an AI, I don't have a dog.", {"guard": "neutral"}, 0.0, 1.0),
        ("what do you do ?", "nurse", "wh", "I'm just a chatbot, but nurses are great!", {}, 0.0, 1.0),
        # unchanged where no rule applies
        ("do you have a dog ?", "yes", "yn", "yes !", {"guard": "neutral"}, 1.0, 1.0),
        ("are you married ?", "no", "yn", "i am single", {"decide": "entailment"}, 1.0, 1.0),
    ],
)  # fmt: skip
def test_judge_plus_with_labels(question, truth, qtype, response, labels, score, paper_score) -> None:
    _, got = _score(question, truth, qtype, response, labels, support="i drive a nissan pathfinder")
    assert got == score
    _, paper = _score(question, truth, qtype, response, labels, rules=())
    assert paper == paper_score


def test_paraphrase_asks_reply_to_fact_direction() -> None:
    v = judge_plus("what do you do ?", "dentist", "wh", "i fix people's teeth")
    assert v.asks == ("credit",)
    assert v.pairs("i am a dentist") == [("i fix people's teeth", "i am a dentist")]
    partial = judge_plus("what car ?", "honda civic", "wh", "a honda")
    assert partial.asks == ("guard",) and partial.rule_score == 0.5  # shares a keyword: recall decides


def test_without_nli_no_credit_and_decisions_stay_open() -> None:
    assert _score("what do you do ?", "dentist", "wh", "i fix teeth")[1] == 0.0
    assert _score("are you married ?", "no", "yn", "i am single")[1] is None


@pytest.mark.parametrize(
    ("method", "rules", "tag"),
    [("paper", RULES, "paper"), ("plus", RULES, "plus-1"), ("plus", ("extras",), "plus-1[extras]"),
     ("plus", ("yn-long", "function-words"), "plus-1[function-words+yn-long]"), ("plus", (), "plus-1[none]")],
)  # fmt: skip
def test_method_tag(method: str, rules: tuple, tag: str) -> None:
    assert method_tag(method, rules) == tag
