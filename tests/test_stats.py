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


def test_bootstrap_ci_resamples_clusters_whole() -> None:
    """1,000 QAs asked at two distances with the same answer each time: the information is that of 1,000
    items, not 2,000, so the interval is sqrt(2) wider than an item-level bootstrap would claim."""
    values = [1.0] * 600 + [0.0] * 1400
    clusters = [i // 2 for i in range(len(values))]
    lo, hi = bootstrap_ci(values, n_boot=20000, clusters=clusters)
    half = 1.96 * math.sqrt(0.3 * 0.7 / 1000)
    assert lo == pytest.approx(0.3 - half, abs=0.003)
    assert hi == pytest.approx(0.3 + half, abs=0.003)
    naive_lo, naive_hi = bootstrap_ci(values, n_boot=20000)
    assert (hi - lo) / (naive_hi - naive_lo) == pytest.approx(math.sqrt(2), rel=0.1)


def test_bootstrap_clusters_of_one_item_change_nothing() -> None:
    x = [0.0] * 60 + [1.0] * 30 + [0.5] * 10
    assert bootstrap_ci(x, seed=3, clusters=[f"q{i}" for i in range(len(x))]) == bootstrap_ci(x, seed=3)


def test_bootstrap_cluster_mean_weighs_items_not_clusters() -> None:
    """Clusters of unequal size: every resample's mean is its items' mean (a cluster of three ones and a
    cluster of one zero give 1, 3/4 or 0), never a mean of cluster means (which would give 1/2)."""
    lo, hi = bootstrap_ci([1.0, 1.0, 1.0, 0.0], clusters=["a", "a", "a", "b"], n_boot=4000)
    assert (lo, hi) == (0.0, 1.0)
    d = paired_bootstrap([0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], clusters=["a", "a", "a", "b"])
    assert d["delta"] == 0.75 and d["ci_low"] == 0.0 and d["ci_high"] == 1.0
    with pytest.raises(ValueError):
        bootstrap_ci([0.0, 1.0], clusters=["a"])
