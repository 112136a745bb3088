"""The ``self-negation`` reading: a statement of the speaker and its negation in one reply."""

from __future__ import annotations

import pytest

from consistest.metrics.answers import Evidence, qa_evidence
from consistest.metrics.self_negation import contradicts_itself, gives_two_values, negates_itself


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("i'm not a godfather . i'm a godfather .", ("i'm not a godfather", "i'm a godfather")),
        ("I don't know. I'm not picky. I'm picky.", ("I'm not picky", "I'm picky")),
        (
            "i'm a big fan of cheesecake , but i'm not a big fan of cheesecake .",
            ("i'm a big fan of cheesecake", "i'm not a big fan of cheesecake"),
        ),  # fmt: skip
        ("my dog is not friendly . my dog is friendly .", ("my dog is not friendly", "my dog is friendly")),
        # hedges, other content words, the same polarity twice, someone else, a question: nothing
        ("i'm not sure . i'm sure it is fun .", None),
        ("i know the song . i don't know the song .", None),
        ("i'm not a fan of rap , i'm a fan of rock .", None),
        ("i don't have a dog . i have a cat .", None),
        ("i have a dog . i have a dog .", None),
        ("you're not a nurse . you are a nurse .", None),
        ("am i a nurse ? i'm not a nurse .", None),
        # the negation follows the listener: the listener's state, not the speaker's (a reply cut off)
        ("i'm glad you're not . i'm glad you're", None),
        ("", None),
        # a negation carried by "do" or a contraction, fillers aside: read
        ("i don't have a dog . i have a dog .", ("i don't have a dog", "i have a dog")),
        ("my dog isn't friendly . my dog is friendly .", ("my dog isn't friendly", "my dog is friendly")),
        ("i'm not really a fan . i'm just a fan .", ("i'm not really a fan", "i'm just a fan")),
        # a review's false alarms: another tense, another order, words of its own, "not just"
        ("i'm not married . i was married , but we divorced .", None),
        ("my dog is not afraid of my cat . my cat is afraid of my dog .", None),
        ("i'm not working . i'm working on it .", None),
        ("i'm not a morning person but i'm a morning person on weekends", None),
        ("i'm not just a nurse . i'm a nurse .", None),
        ("i'm not sure . i'm sure .", None),  # a hedge, the same words
    ],
)
def test_negates_itself(reply: str, expected: tuple[str, str] | None) -> None:
    assert negates_itself(reply) == expected


def test_a_self_negation_is_intra_after_any_user_turn_and_after_the_role_readings() -> None:
    got = qa_evidence("i love my job .", "i'm not a nurse . i'm a nurse .", ["i am a teacher ."])
    assert got == Evidence("contradiction", "self-negation") and got.category == "intra"
    turn = "i'm not picky . i'm picky ."  # the user's turn taken over: role first, as for the other rules
    assert qa_evidence(turn, "oh , " + turn, []).category == "role"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("i'm a nurse . i'm a doctor .", ("i'm a doctor", "i'm a nurse")),
        ("i'm 30 years old ! i'm a 32 year old !", ("i'm a 32 year old", "i'm 30 years old")),
        ("i'm a guy . i'm a girl .", ("i'm a girl", "i'm a guy")),
        # the same value again, a second job said as one, someone else's age, a skill, one sentence: nothing
        ("i'm a nurse . i love my job as a nurse .", None),
        ("i'm a teacher . i'm also a writer .", None),
        ("i'm 30 . my son is 5 .", None),
        ("i'm a chef . i'm a good cook .", None),
        # a second job said as an addition or a side job
        ("i'm a lawyer . i'm an author too .", None),
        ("i'm a nurse . i'm a part time bartender .", None),
        ("i'm a doctor . i'm a dj at night .", None),
        # the third sentence against the first two
        ("i'm a nurse . i love my patients . i'm a doctor .", ("i'm a doctor", "i'm a nurse")),
        ("i am a teacher", None),
        ("", None),
    ],
)
def test_gives_two_values(reply: str, expected: tuple[str, str] | None) -> None:
    assert gives_two_values(reply) == expected


def test_two_values_are_intra() -> None:
    got = qa_evidence("what do you do ?", "i'm a nurse . i'm a doctor .", [])
    assert got == Evidence("contradiction", "self-slot") and got.category == "intra"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("i'm a godfather . i'm not a godfather .", ("i'm a godfather", "i'm not a godfather")),
        ("i'm 30 years old ! i'm a 32 year old !", ("i'm a 32 year old", "i'm 30 years old")),
        ("i'm a guy . i'm a girl .", ("i'm a girl", "i'm a guy")),
        # plus-16: liking and hating are one verb said and negated, "it" what the clause before likes
        ("i hate school but i love it so much !", ("i hate school", "i love it so much")),
        ("i did not like school but i loved it .", ("i did not like school", "i loved it")),
        ("i love my job . i hate my job .", ("i love my job", "i hate my job")),
        ("i don't hate my job . i hate my job .", ("i don't hate my job", "i hate my job")),
        # ... not what differs, nor a negated dislike, nor an "it" after another clause
        ("i love dogs . i hate cats .", None),
        ("i do not hate school but i do not like it too much .", None),
        ("i hate school . i like math . i love it .", None),
        # two jobs are no contradiction here: one person may hold two
        ("i'm a nurse . i'm a doctor .", None),
        ("i'm a nurse . i'm not a doctor .", None),
        # plus-18: ... but an age clash after a job clash is read
        (
            "i'm a nurse . i'm a doctor . i'm 30 years old . i'm 50 years old .",
            ("i'm 50 years old", "i'm 30 years old"),
        ),
    ],
)
def test_contradicts_itself_is_either_reading(reply: str, expected: tuple[str, str] | None) -> None:
    assert contradicts_itself(reply) == expected
