"""The ``self-negation`` reading: a statement of the speaker and its negation in one reply."""

from __future__ import annotations

import pytest

from consistest.metrics.answers import Evidence, qa_evidence
from consistest.metrics.self_negation import negates_itself


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
    ],
)
def test_negates_itself(reply: str, expected: tuple[str, str] | None) -> None:
    assert negates_itself(reply) == expected


def test_a_self_negation_is_intra_after_any_user_turn_and_after_the_role_readings() -> None:
    got = qa_evidence("i love my job .", "i'm not a nurse . i'm a nurse .", ["i am a teacher ."])
    assert got == Evidence("contradiction", "self-negation") and got.category == "intra"
    turn = "i'm not picky . i'm picky ."  # the user's turn taken over: role first, as for the other rules
    assert qa_evidence(turn, "oh , " + turn, []).category == "role"  # type: ignore[union-attr]
