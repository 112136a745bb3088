"""Agreement statistics (Table 4) and the lexical baselines: hand-computable cases."""

from __future__ import annotations

import pytest

from consistest.metrics.agreement import (
    agreement_row,
    cohen_kappa,
    human_row,
    recall_baseline,
    to_label,
    token_f1,
)


@pytest.mark.parametrize(
    ("score", "qtype", "label"),
    [
        (0.0, "yn", 0.0), (0.49, "yn", 0.0), (0.5, "yn", 1.0), (1.0, "yn", 1.0),
        (0.0, "wh", 0.0), (0.24, "wh", 0.0), (0.25, "wh", 0.5), (0.6667, "wh", 0.5), (0.75, "wh", 1.0),
    ],
)  # fmt: skip
def test_to_label(score: float, qtype: str, label: float) -> None:
    assert to_label(score, qtype) == label


@pytest.mark.parametrize(
    ("a", "b", "kappa"),
    [
        ([1, 1, 0, 0], [1, 1, 0, 0], 1.0),  # perfect agreement
        ([1, 0, 1, 0], [0, 1, 0, 1], -1.0),  # po 0, pe .5
        ([1, 1, 0, 0], [1, 0, 0, 0], 0.5),  # po .75, pe (2*1 + 2*3)/16 = .5
        ([1, 1, 1, 0], [1, 1, 0, 0], 0.5),  # po .75, pe (3*2 + 1*2)/16 = .5
        ([1, 1, 1, 1], [1, 1, 1, 1], None),  # one label throughout: chance agreement 1, undefined
        ([], [], None),
    ],
)
def test_cohen_kappa(a: list[int], b: list[int], kappa: float | None) -> None:
    got = cohen_kappa(a, b)
    assert got == (None if kappa is None else pytest.approx(kappa))


def test_cohen_kappa_needs_equal_lengths() -> None:
    with pytest.raises(ValueError):
        cohen_kappa([1], [1, 0])


@pytest.mark.parametrize(
    ("response", "reference", "f1"),
    [
        ("i have a dog", "i have a dog", 1.0),
        ("i have a cat", "i have a dog", 2 / 3),  # i, have shared of 3 and 3 content tokens
        ("cats", "i have a dog", 0.0),
        ("i have twenty dogs", "i have 20 dogs", 1.0),  # numbers as digits, plural folded
    ],
)
def test_token_f1(response: str, reference: str, f1: float) -> None:
    assert token_f1(response, reference) == pytest.approx(f1)


@pytest.mark.parametrize(
    ("response", "truth", "fact", "qtype", "recall"),
    [
        ("i am a teacher", "school teacher | teacher", "i teach", "wh", 1.0),
        ("my mom", "my dad", "my dad", "wh", 0.5),  # the paper's recall counts "my"
        ("yes i love dogs", "yes", "i love my dogs", "yn", 1.0),  # Y/N: the fact's keywords (love, dog)
        ("yes", "yes", "i love my dogs", "yn", 0.0),
    ],
)
def test_recall_baseline(response: str, truth: str, fact: str, qtype: str, recall: float) -> None:
    assert recall_baseline(response, truth, fact, qtype) == pytest.approx(recall)


def test_agreement_row_by_hand() -> None:
    scores = [1.0, 0.0, 0.5, 1.0, None]
    human = [1.0, 1.0, 0.5, 0.0, 1.0]
    types = ["yn", "yn", "wh", "wh", "wh"]
    row = agreement_row(scores, human, types)
    assert row["n"] == 4 and row["undecided"] == 1
    assert row["mean_all"] == pytest.approx(2.5 / 4)
    assert row["mean_wh"] == pytest.approx(0.75) and row["mean_yn"] == pytest.approx(0.5)
    assert row["mse"] == pytest.approx((0 + 1 + 0 + 1) / 4)
    assert row["agreement"] == pytest.approx(2 / 4)
    assert row["kappa_yn"] == pytest.approx(0.0)  # po .5, pe .5 on (1,1), (0,1)


def test_human_row_has_means_only() -> None:
    row = human_row([1.0, 0.0, 0.5], ["yn", "yn", "wh"])
    assert row["mean_all"] == pytest.approx(0.5) and row["mean_yn"] == 0.5 and row["mean_wh"] == 0.5
    assert row["mse"] is row["agreement"] is row["kappa_yn"] is None
