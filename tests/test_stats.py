"""The seeded bootstrap: hand-computable intervals, reproducibility, and the right spread."""

from __future__ import annotations

import math

import pytest

from consistest.core.stats import bootstrap_ci, paired_bootstrap


@pytest.mark.parametrize(
    ("values", "n_boot", "expected"),
    [
        ([], 1000, None),  # nothing to estimate
        ([0.7, 0.2], 0, None),  # intervals turned off
        ([0.4], 1000, (0.4, 0.4)),  # one value: no spread
        ([1.0] * 50, 1000, (1.0, 1.0)),  # constant values: no spread
        ([0.0, 1.0], 4000, (0.0, 1.0)),  # means 0, .5, 1 with probabilities 1/4, 1/2, 1/4
    ],
)
def test_bootstrap_ci_by_hand(values: list[float], n_boot: int, expected) -> None:
    assert bootstrap_ci(values, n_boot=n_boot) == expected


def test_bootstrap_ci_is_seeded_and_order_free() -> None:
    x = [0.0] * 60 + [1.0] * 30 + [0.5] * 10
    first = bootstrap_ci(x, seed=3, name="overall")
    assert first == bootstrap_ci(list(reversed(x)), seed=3, name="overall")
    assert first != bootstrap_ci(x, seed=4, name="overall")
    assert first != bootstrap_ci(x, seed=3, name="d=0")


def test_bootstrap_ci_has_the_binomial_spread() -> None:
    """30% ones among 1,000 values: the 95% interval is about 0.3 +- 1.96 * sqrt(0.3 * 0.7 / 1000)."""
    lo, hi = bootstrap_ci([1.0] * 300 + [0.0] * 700, n_boot=20000)
    half = 1.96 * math.sqrt(0.3 * 0.7 / 1000)
    assert lo == pytest.approx(0.3 - half, abs=0.003)
    assert hi == pytest.approx(0.3 + half, abs=0.003)


def test_paired_bootstrap_by_hand() -> None:
    same = paired_bootstrap([0.0, 1.0, 1.0], [0.0, 1.0, 1.0])
    assert same == {"n": 3, "delta": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p": 1.0}
    up = paired_bootstrap([0.0, 0.0, 0.5], [1.0, 1.0, 1.5])
    assert up == {"n": 3, "delta": 1.0, "ci_low": 1.0, "ci_high": 1.0, "p": 0.0}
    off = paired_bootstrap([0.0, 1.0], [0.0, 1.0], n_boot=0)
    assert off["ci_low"] is None and off["p"] is None
    with pytest.raises(ValueError):
        paired_bootstrap([0.0], [0.0, 1.0])
