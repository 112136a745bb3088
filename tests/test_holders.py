"""plus-21, the ``holder`` rule: a WH reply giving the truth as the bot's own where the question asks it of
someone else is at most 0.5."""

import pytest

from consistest.metrics.holders import asked_of, gives_own
from consistest.metrics.plus import DEFAULT_RULES, final_plus, judge_plus


@pytest.mark.parametrize(
    ("question", "holder"),
    [
        ("where is your spouse from ?", "spouse"),
        ("what is your cow's name ?", "cow"),
        ("what color is your dog ?", "dog"),
        ("where did your father work ?", "father"),
        ("when did you break up with your boyfriend ?", None),  # about the bot
        ("what skills did your parents teach you ?", None),  # the holder acts on the bot
        ("what is your favorite color ?", None),  # not a holder
    ],
)  # fmt: skip
def test_asked_of(question, holder) -> None:
    assert asked_of(question) == holder


@pytest.mark.parametrize(
    ("question", "reply", "truth", "own"),
    [
        ("where is your spouse from ?", "i'm from italy .", ["italy"], True),
        ("what is your cow's name ?", "my name is betsy .", ["betsy"], True),
        ("what is your father's job ?", "oh , i was a builder .", ["builder"], True),
        ("where is your spouse from ?", "my wife is from italy .", ["italy"], False),
        ("where is your spouse from ?", "she's from italy .", ["italy"], False),
        ("what color is your dog ?", "i have a black lab named trooper .", ["black"], False),
        ("what is your father's job ?", "i'm a farmer like my father .", ["farmer"], False),
        ("when did you break up with your boyfriend ?", "i broke up in may .", ["may"], False),
    ],
)  # fmt: skip
def test_gives_own(question, reply, truth, own) -> None:
    assert gives_own(question, reply, truth) is own


def test_a_reply_giving_it_as_its_own_scores_half() -> None:
    v = judge_plus("where is your spouse from ?", "italy", "wh", "i'm from italy .", "", DEFAULT_RULES,
                   "i married a super model from italy .")  # fmt: skip
    assert v.outcome == "wrong_holder"
    assert final_plus(v, ["neutral"] * len(v.asks)) == 0.5
    rules = tuple(r for r in DEFAULT_RULES if r != "holder")
    off = judge_plus("where is your spouse from ?", "italy", "wh", "i'm from italy .", "", rules,
                     "i married a super model from italy .")  # fmt: skip
    assert final_plus(off, ["neutral"] * len(off.asks)) == 1.0
