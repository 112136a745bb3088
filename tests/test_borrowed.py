"""qa:23: a bot turn that took over the user's words is not the bot's own: said again, it is still role."""

from __future__ import annotations

import pytest

from consistest.metrics.answers import qa_evidence
from consistest.metrics.borrowed import borrowed_turns, own_statements

FARM = "i want a farm but i am broke due to my money spending wife"
HISTORY = [
    "hi , i am a car salesman . are you looking to buy a car soon ?",
    "yes i am looking for a car .",
    FARM,
    FARM,  # the bot copies the user's turn
    "maybe after my divorce i can buy two horses .",
]


def _premises(history: list[str], persona: list[str]) -> list[str]:
    return [history[j] for j in range(len(history) - 2, -1, -2)] + persona


def test_a_copy_said_again_is_role() -> None:
    premises = _premises(HISTORY, ["i like horses ."])
    assert borrowed_turns(HISTORY, premises, ["i like horses ."]) == [FARM]
    assert own_statements(HISTORY, premises, ["i like horses ."]) == [
        "yes i am looking for a car .",
        "i like horses .",
    ]
    ev = qa_evidence(HISTORY[-1], FARM, premises, HISTORY, ["i like horses ."])
    assert ev is not None and ev.category == "role" and ev.rule == "copy"


@pytest.mark.parametrize(
    ("history", "persona"),
    [
        # the bot said it before the user did: its own
        (["hello !", FARM, FARM, "that is sad .", "maybe after my divorce i can buy two horses ."], []),
        # the persona holds it: its own, copied or not
        (HISTORY, [FARM]),
    ],
)
def test_what_the_bot_held_first_stays_its_own(history: list[str], persona: list[str]) -> None:
    premises = _premises(history, persona)
    assert FARM in own_statements(history, premises, persona)
    assert qa_evidence(history[-1], FARM, premises, history, persona) is None


def test_a_first_turn_and_a_turn_of_its_own_are_not_borrowed() -> None:
    first = ["i love to dance .", "cool , what else ?"]  # the bot spoke first: no user turn before it
    assert borrowed_turns(first, _premises(first, []), []) == []
    own = ["i love to dance .", "i have three cats and a dog .", "what else do you do ?"]
    assert borrowed_turns(own, _premises(own, []), []) == []
