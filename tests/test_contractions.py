"""Contractions spelled out for the guard (qa:21): table tests computed by hand."""

from __future__ import annotations

import pytest

from consistest.metrics.contractions import guard_reading, spelled_out


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("i don't like dogs .", "i do not like dogs ."),
        ("i do n't have a dog", "i do not have a dog"),  # PersonaChat's tokenised form
        ("dont go", "do not go"),
        ("I can't swim", "I can not swim"),
        ("i won't , she isn't", "i will not , she is not"),
        ("i'm not happy", "i am not happy"),
        ("I\u2019m fine", "I am fine"),
        ("im here", "i am here"),
        ("i've a boyfriend", "i have a boyfriend"),
        ("you're right , we'll see", "you are right , we will see"),
        ("it's fine , the dog's bone , i'd rather", "it's fine , the dog's bone , i'd rather"),  # left
        ("i want to take a cantaloupe", "i want to take a cantaloupe"),  # no word that merely starts so
    ],
)
def test_spelled_out(text: str, spelled: str) -> None:
    assert spelled_out(text) == spelled


@pytest.mark.parametrize(
    ("premise", "hypothesis", "read"),
    [
        ("i have a dog .", "i don't have a dog .", ("i have a dog .", "i do not have a dog .")),
        ("i'm sorry to hear that .", "I am sorry to hear that!", None),  # the same statement again
        ("i'm a nurse .", "i'm a doctor .", ("i am a nurse .", "i am a doctor .")),
        ("i'm a nurse .", "i'm a nurse too .", None),  # said again in fewer words (qa:22)
        ("i am retired so i love to travel .", "i love to travel .", None),
        ("i love to swim .", "i don't love to swim .", ("i love to swim .", "i do not love to swim .")),
        ("i don't love to swim .", "i love to swim .", ("i do not love to swim .", "i love to swim .")),
    ],
)
def test_guard_reading(premise: str, hypothesis: str, read: tuple[str, str] | None) -> None:
    assert guard_reading(premise, hypothesis) == read
