"""plus-22, the ``partner`` rule: a Y/N reply naming the bot's own partner of the other sex than the fact's is
another value (0), whatever its yes/no word; the rule reads only the bot's own, present, unnegated partner."""

from __future__ import annotations

import pytest

from consistest.metrics.partners import fact_partner, other_partner
from consistest.metrics.plus import judge_plus


@pytest.mark.parametrize(
    ("fact", "sex"),
    [
        ("my husband is adopted .", "man"),
        ("i live with my husband in pennsylvania .", "man"),
        ("my wife and kids are the best .", "woman"),
        ("i have a boyfriend .", "man"),
        ("i just broke up with my boyfriend two months ago .", None),  # no longer the bot's
        ("my wife left me and took my children .", None),
        ("i am just thinking about my ex boyfriend .", None),
        ("i'm a proud dad and husband", None),  # the bot is the husband; its partner is not named
        ("sure . get married and obey your wife .", None),  # not the bot's own
        ("i'm married to a doctor .", None),
    ],
)
def test_fact_partner(fact: str, sex: str | None) -> None:
    assert fact_partner(fact) == sex


@pytest.mark.parametrize(
    ("fact", "reply", "other"),
    [
        ("my husband is adopted .", "i'm married to a beautiful woman named jenna .", True),
        ("my husband is adopted .", "i am married to a lady named jenni .", True),
        ("i live with my husband in pennsylvania .", "i'm married to my wife , she's my partner .", True),
        ("my wife and kids are the best .", "i am married to a very good man .", True),
        ("i have a boyfriend .", "i have a girlfriend !", True),
        ("my husband is adopted .", "no , i'm not married to a woman .", False),  # negated
        ("my husband is adopted .", "i don't have a girlfriend .", False),
        ("my husband is adopted .", "yes , my husband is a lovely man and his mother was a woman .", False),
        ("my husband is adopted .", "her wife is nice .", False),  # someone else's
        ("my husband is adopted .", "my husband and my wife", False),  # both: not read
        ("i'm married to a doctor .", "i'm married to a woman .", False),  # the fact names no sex
    ],
)
def test_other_partner(fact: str, reply: str, other: bool) -> None:
    assert other_partner(fact, reply) is other


def test_partner_rule_scores_zero_whatever_the_yes_no_word() -> None:
    v = judge_plus("are you married ?", "yes", "yn", "yes , i'm married to a woman named elena .",
                   fact="my husband is adopted .")  # fmt: skip
    assert (v.outcome, v.rule_score) == ("other_partner", 0.0)
    kept = judge_plus("are you married ?", "yes", "yn", "yes , i'm married to a woman named elena .",
                      fact="my husband is adopted .", rules=("yn-proposition",))  # fmt: skip
    assert kept.rule_score == 1.0  # without the rule, the yes stands
