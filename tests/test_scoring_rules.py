"""Table tests for the scoring rules: cleaning, numbers, Y/N short forms, WH recall, the NLI guard."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consistest.metrics.clean import clean_response
from consistest.metrics.numbers import normalize_numbers
from consistest.metrics.rules import (
    RULES_VERSION,
    Need,
    Outcome,
    final_score,
    judge,
    keyword_alternatives,
    truth_polarity,
)


@pytest.mark.parametrize(
    ("response", "cleaned"),
    [
        ("i work, dogs are great", "i work, dogs are great"),  # "do" inside "dogs" is no question
        ("however, i do", "however, i do"),  # "how" inside "however"
        ("i have a dog . do you ?", "i have a dog ."),
        ("i love hiking , do you ?", "i love hiking"),
        ("i am fine , how are you ?", "i am fine"),
        ("yes , do you ?", "yes"),
        ("what about you ?", ""),
        ("do you like dogs , cats or birds ?", ""),
        ("do you have pets ? i have two cats .", "i have two cats ."),
        ("i'm a teacher. what do you do? where do you live?", "i'm a teacher."),
        ("how i spend my time is reading .", "how i spend my time is reading ."),  # only statement is kept
        ("oh nice . am a nurse myself .", "oh nice . am a nurse myself ."),  # dropped "i", not a question
        ("haha . can't wait to walk my dog , i do !", "haha . can't wait to walk my dog , i do !"),
        ("i love dogs . is your dog big .", "i love dogs ."),  # auxiliary + subject: a question
        ("was a teacher for years . do you teach", "was a teacher for years ."),
        ("", ""),
    ],
)
def test_clean_drops_questions_by_whole_word(response: str, cleaned: str) -> None:
    assert clean_response(response) == cleaned


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("twenty one", "21"),
        ("a hundred and five", "105"),
        ("i have twenty-one cats", "i have 21 cats"),
        ("one two", "1 2"),
        ("point", "point"),
        ("three point five", "3 point 5"),
        ("million", "million"),
        ("a million dollars", "1000000 dollars"),
        ("one million two hundred thousand", "1200000"),
        ("two thousand and twenty", "2020"),
        ("twelve hundred", "1200"),
        ("thousand million", "thousand million"),
        ("one and two", "1 and 2"),
        ("i'm 60 years old", "i'm 60 years old"),
    ],
)
def test_numbers_become_digits(text: str, expected: str) -> None:
    assert normalize_numbers(text) == expected


YN = [
    # question, truth, response, outcome, rule score
    ("do you have pets ?", "yes", "yes i do", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("do you have pets ?", "yes", "yes", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "no", "no.", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "yes", "i do", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("do you have pets ?", "yes", "oh yeah , i have a dog", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "yes", "nope", Outcome.WRONG_YES_NO, 0.0),
    ("do you have pets ?", "yes", "nah not really", Outcome.WRONG_YES_NO, 0.0),
    ("do you have pets ?", "yes", "i don't", Outcome.WRONG_SHORT_FORM, 0.0),
    ("do you have pets ?", "yes", "i do not have any pets", Outcome.WRONG_SHORT_FORM, 0.0),
    ("do you have pets ?", "yes", "i dont have pets", Outcome.WRONG_SHORT_FORM, 0.0),
    ("do you have pets ?", "yes", "yes, i don't", Outcome.OPPOSITE_SHORT_FORM, 0.0),
    ("do you have pets ?", "no", "i don't have any pets . do you ?", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("do you have pets ?", "no", "i don't know .", Outcome.NO_SHORT_FORM, None),
    ("do you have pets ?", "no", "no idea", Outcome.NO_SHORT_FORM, None),
    ("do you have pets ?", "yes", "i have two dogs", Outcome.NO_SHORT_FORM, None),
    ("are you married ?", "no", "i'm not married , are you ?", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("are you married ?", "no", "i am", Outcome.WRONG_SHORT_FORM, 0.0),
    ("are you married ?", "no", "im not", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("are you married ?", "yes", "i am single", Outcome.NO_SHORT_FORM, None),
    ("are you in the fifth grade ?", "no", "i'm in the third grade .", Outcome.NO_SHORT_FORM, None),
    ("have you been to spain ?", "no", "i've never been to spain", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("have you been to spain ?", "no", "i haven't", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("have you been to spain ?", "no", "i have , twice", Outcome.WRONG_SHORT_FORM, 0.0),
    ("can you swim ?", "no", "i can't", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("can you swim ?", "no", "i cannot swim", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("can you swim ?", "yes", "i can", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("will you go to college ?", "no", "i won't", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("would you eat meat ?", "no", "i wouldn't", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("did you go to college ?", "yes", "i didn't", Outcome.WRONG_SHORT_FORM, 0.0),
    ("were you born in texas ?", "yes", "i was", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("is your mom a nurse ?", "yes", "she is", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("does your dog bark ?", "no", "it doesn't", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("does your dog bark ?", "no", "he does", Outcome.WRONG_SHORT_FORM, 0.0),
    ("are your parents bankers ?", "no", "they aren't", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("do your parents like dogs ?", "yes", "my parents do .", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("do your parents like dogs ?", "yes", "my parents don't .", Outcome.WRONG_SHORT_FORM, 0.0),
    ("does your dog bark ?", "yes", "my dog does .", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    (
        "do you have a dog ?",
        "yes",
        "haha . can't wait to walk my dog , i do !",
        Outcome.CORRECT_SHORT_ANSWER,
        1.0,
    ),
    ("don't you like dogs ?", "yes", "i do", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("do you play chess ?", "no", "no , i do play tennis", Outcome.YES_NO_ONLY, 1.0),
    ("do you like music ?", "i do | yes", "yeah", Outcome.YES_NO_ONLY, 1.0),
    ("do you like music ?", "not really | no", "yes", Outcome.WRONG_YES_NO, 0.0),
    ("do you have pets ?", "yes", "of course not", Outcome.WRONG_YES_NO, 0.0),  # rules 3
    ("do you have pets ?", "no", "absolutely not , i'm allergic", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "no", "oh , of course not !", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "yes", "of course , i have a dog", Outcome.YES_NO_ONLY, 1.0),
    ("do you mind ?", "yes", "sure , not a problem", Outcome.YES_NO_ONLY, 1.0),  # "not" after a comma
    ("do you mind ?", "yes", "sure not a problem", Outcome.YES_NO_ONLY, 1.0),  # "not" does not end a clause
    ("do you have friends ?", "yes", "yes not many , but i do", Outcome.CORRECT_SHORT_ANSWER, 1.0),
    ("do you like dogs ?", "yes", "of course not only that , i have three", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "no", "absolutely not", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "no", "not... really", Outcome.YES_NO_ONLY, 1.0),  # punctuation inside a phrase
    ("do you have pets ?", "no", "well , not , really", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "yes", "of, course", Outcome.YES_NO_ONLY, 1.0),
    ("do you have pets ?", "yes", '"yes"', Outcome.YES_NO_ONLY, 1.0),  # quoted
    ("do you have pets ?", "yes", "", Outcome.EMPTY, 0.0),
    ("do you have pets ?", "yes", "do you ?", Outcome.EMPTY, 0.0),
]


@pytest.mark.parametrize(("question", "truth", "response", "outcome", "rule_score"), YN)
def test_yes_no_rules(
    question: str, truth: str, response: str, outcome: Outcome, rule_score: float | None
) -> None:
    v = judge(question, truth, "yn", response)
    assert (v.outcome, v.rule_score) == (outcome, rule_score)


@pytest.mark.parametrize(
    ("truth", "polarity"),
    [
        ("yes", "yes"),
        ("no ", "no"),
        ("i do | yes", "yes"),
        ("not really | no", "no"),
        ("never | no", "no"),
        ("i've a sister who is 10 years older than me | yes", "yes"),
        ("none | no", "no"),
        ("of course not", "no"),
        ("pizza", None),
    ],
)
def test_truth_polarity(truth: str, polarity: str | None) -> None:
    assert truth_polarity(truth) == polarity


WH = [
    # truth, response, outcome, rule score
    ("teacher", "i am a teacher .", Outcome.KEYWORD_RECALL, 1.0),
    ("two", "i have 2 dogs", Outcome.KEYWORD_RECALL, 1.0),
    ("twenty one", "i'm 21 years old", Outcome.KEYWORD_RECALL, 1.0),
    ("60", "i'm 60years old .", Outcome.KEYWORD_RECALL, 1.0),
    ("a super model from italy | a super model", "i am a model", Outcome.KEYWORD_RECALL, 0.5),
    ("fish and seafood stew", "it is a fish stew", Outcome.KEYWORD_RECALL, 2 / 3),
    ("dogs", "i love my dog . what about you ?", Outcome.KEYWORD_RECALL, 1.0),
    ("piano", "i teach guitar", Outcome.KEYWORD_RECALL, 0.0),
    ("i broke an ankle at a star wars convention", "i broke my ankle", Outcome.NLI_ONLY, None),
    ("piano", "", Outcome.EMPTY, 0.0),
]


@pytest.mark.parametrize(("truth", "response", "outcome", "rule_score"), WH)
def test_wh_keyword_recall(truth: str, response: str, outcome: Outcome, rule_score: float | None) -> None:
    v = judge("what ?", truth, "wh", response)
    assert v.outcome == outcome
    assert v.rule_score == pytest.approx(rule_score) if rule_score is not None else v.rule_score is None


def test_keyword_alternatives_cap_at_five_content_tokens() -> None:
    assert keyword_alternatives("the red and blue house | a very long answer with six words") == [
        ["red", "blue", "house"]
    ]


@pytest.mark.parametrize(
    ("truth", "qtype", "response", "label", "score"),
    [
        ("teacher", "wh", "i am a teacher", "contradiction", 0.0),  # guard vetoes a keyword hit
        ("teacher", "wh", "i am a teacher", "neutral", 1.0),
        ("teacher", "wh", "i am a teacher", None, 1.0),  # --nli none: the rules decide
        ("yes", "yn", "yes", "contradiction", 0.0),
        ("yes", "yn", "yes i do", "entailment", 1.0),
        ("yes", "yn", "i have two dogs", "entailment", 1.0),  # no short form: NLI decides
        ("yes", "yn", "i have two dogs", "neutral", 0.0),
        ("yes", "yn", "i have two dogs", None, None),  # undecided without NLI
        ("a very long answer with six words", "wh", "long answer", "entailment", 1.0),
        ("a very long answer with six words", "wh", "long answer", "contradiction", 0.0),
        ("yes", "yn", "no", "entailment", 0.0),  # a wrong answer never needs NLI
    ],
)
def test_nli_guard(truth: str, qtype: str, response: str, label: str | None, score: float | None) -> None:
    v = judge("do you have pets ?", truth, qtype, response)
    assert final_score(v, label) == score


# Representative inconsistent responses in the spirit of the paper's Table 8 (the table itself was not
# available offline): each must score 0 given what a good NLI model says about it.
INCONSISTENT = [
    (
        "do you have pets ?",
        "yes",
        "i have two dogs",
        "i don't have any pets , i'm allergic .",
        "contradiction",
    ),
    ("are you married ?", "yes", "i am married", "no , i'm single", None),
    (
        "what do you do for a living ?",
        "teacher",
        "i am a teacher",
        "i'm a nurse at the hospital .",
        "contradiction",
    ),
    ("how many kids do you have ?", "two", "i have two kids", "i have three kids", "contradiction"),
    (
        "where do you live ?",
        "texas",
        "i live in texas",
        "i live in california , but i love texas",
        "contradiction",
    ),
    ("do you like to read ?", "no", "i don't like reading", "yes , i read every day", None),
    ("can you swim ?", "yes", "i can swim", "i can't , i never learned", None),
    (
        "what is your favorite color ?",
        "blue",
        "my favorite color is blue",
        "red . what is yours ?",
        "neutral",
    ),
]


@pytest.mark.parametrize(("question", "truth", "premise", "response", "label"), INCONSISTENT)
def test_inconsistent_examples_score_zero(
    question: str, truth: str, premise: str, response: str, label: str | None
) -> None:
    qtype = "yn" if truth in ("yes", "no") else "wh"
    assert final_score(judge(question, truth, qtype, response), label) == 0.0


def test_rules_version_is_an_int() -> None:
    assert isinstance(RULES_VERSION, int) and RULES_VERSION >= 1


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(), st.text(), st.sampled_from(["wh", "yn", "other"]), st.text())
def test_no_string_crashes_the_rules(question: str, truth: str, qtype: str, response: str) -> None:
    v = judge(question, truth, qtype, response)
    assert v.outcome in Outcome
    assert v.rule_score is None or 0.0 <= v.rule_score <= 1.0
    assert (v.rule_score is None) == (v.need is Need.DECIDE or v.outcome is Outcome.NO_TRUTH)
    assert (v.outcome is Outcome.NO_TRUTH) == (not truth.strip())  # a turn without truth has no score
    for label in (None, "contradiction", "neutral", "entailment"):
        s = final_score(v, label)
        assert s is None or 0.0 <= s <= 1.0
    normalize_numbers(response)
    if "?" not in response and any(c.isalnum() for c in response):  # a statement is never cleaned away
        assert any(c.isalnum() for c in clean_response(response))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "one",
                "two",
                "three",
                "twenty",
                "hundred",
                "thousand",
                "million",
                "and",
                "a",
                "point",
                "zero",
                "ninety",
                "nineteen",
                "minus",
            ]
        ),
        max_size=8,
    )
)
def test_number_word_soup_never_crashes(words: list[str]) -> None:
    out = normalize_numbers(" ".join(words))
    assert isinstance(out, str)
