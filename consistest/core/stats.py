"""Seeded bootstrap: 95% intervals for a mean and paired significance for a difference of means.

Items that are not independent (the d=0 and d=2 samples of one QA, the trigger variants of one sample)
are resampled together: pass ``clusters`` (one key per value, e.g. the qa_id) and whole clusters are
drawn with replacement, the mean of a resample being its total over its item count. Resampling items
one by one instead would treat correlated items as independent and give intervals that are too narrow.
"""

from __future__ import annotations

from collections.abc import Sequence

from consistest.core.records import content_hash

N_BOOT = 1000
MIN_BOOT = 100  # fewer resamples give no meaningful 95% interval (0 = no interval)
# A percentile bootstrap over a handful of items (or of QAs, which it resamples whole) says nothing: four
# right answers give "100.0 [100, 100]" and a one-QA gap "p<0.001". Below these counts a figure gets no
# interval and a difference no p-value or star.
MIN_ITEMS = 30
MIN_CLUSTERS = 10


def enough_for_interval(items: int, clusters: int) -> bool:
    """Whether ``items`` values from ``clusters`` independent units may get an interval or a p-value."""
    return items >= MIN_ITEMS and clusters >= MIN_CLUSTERS


def too_few_text() -> str:
    """The rule in words, for notes under tables."""
    return f"fewer than {MIN_ITEMS} decided items from {MIN_CLUSTERS} QAs"


def _rng(seed: int, name: str):
    import numpy as np

    return np.random.default_rng(int(content_hash(seed, name), 16))


def _cluster_totals(x, clusters: Sequence[object] | None):
    """(total, size) per cluster, as two arrays; each item its own cluster when ``clusters`` is None."""
    import numpy as np

    if clusters is None:
        return x, np.ones_like(x)
    if len(clusters) != x.size:
        raise ValueError("clusters must give one key per value")
    _, index = np.unique(np.asarray([str(c) for c in clusters]), return_inverse=True)
    return np.bincount(index, weights=x), np.bincount(index).astype(float)


def _resampled_means(x, rng, n_boot: int, clusters: Sequence[object] | None = None):
    """Means of ``n_boot`` resamples of ``x``, drawing its clusters (or items) with replacement.

    A resample's mean depends only on how many times it draws each distinct (cluster total, cluster size)
    pair, and those counts are multinomial with the pairs' shares as probabilities: drawing the counts
    costs ``n_boot`` times the number of distinct pairs (a handful for scores) instead of ``n_boot``
    times the number of clusters.
    """
    import numpy as np

    totals, sizes = _cluster_totals(x, clusters)
    kinds, counts = np.unique(np.stack([totals, sizes], axis=1), axis=0, return_counts=True)
    draws = rng.multinomial(totals.size, counts / totals.size, size=n_boot)
    return (draws @ kinds[:, 0]) / (draws @ kinds[:, 1])


def bootstrap_ci(
    values: Sequence[float],
    *,
    seed: int = 0,
    name: str = "",
    n_boot: int = N_BOOT,
    alpha: float = 0.05,
    clusters: Sequence[object] | None = None,
) -> tuple[float, float] | None:
    """Percentile interval of the mean, resampling ``clusters`` whole when given; the same (seed, name,
    values, clusters) always gives the same interval."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return None
    if n_boot <= 0:
        return None
    if x.size == 1:
        return float(x.mean()), float(x.mean())
    means = _resampled_means(x, _rng(seed, name), n_boot, clusters)
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    seed: int = 0,
    name: str = "",
    n_boot: int = N_BOOT,
    clusters: Sequence[object] | None = None,
) -> dict[str, float | None]:
    """Mean difference b - a over paired items, its 95% interval and a two-sided bootstrap p-value
    (``clusters`` as for :func:`bootstrap_ci`)."""
    import numpy as np

    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if xa.shape != xb.shape:
        raise ValueError("paired bootstrap needs equal-length inputs")
    if xa.size == 0:
        return {"n": 0, "delta": None, "ci_low": None, "ci_high": None, "p": None}
    d = xb - xa
    if n_boot <= 0:
        return {"n": int(d.size), "delta": float(d.mean()), "ci_low": None, "ci_high": None, "p": None}
    boots = _resampled_means(d, _rng(seed, f"paired:{name}"), n_boot, clusters)
    lo, hi = np.quantile(boots, [0.025, 0.975])
    # Two-sided: how often the resampled difference lands on the other side of zero (shifted-null style).
    p = min(1.0, 2 * min(float((boots <= 0).mean()), float((boots >= 0).mean())))
    if not d.any():
        p = 1.0
    return {"n": int(d.size), "delta": float(d.mean()), "ci_low": float(lo), "ci_high": float(hi), "p": p}
