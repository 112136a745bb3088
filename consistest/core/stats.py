"""Seeded bootstrap: 95% intervals for a mean and paired significance for a difference of means."""

from __future__ import annotations

from collections.abc import Sequence

from consistest.core.records import content_hash

N_BOOT = 1000
MIN_BOOT = 100  # fewer resamples give no meaningful 95% interval (0 = no interval)


def _rng(seed: int, name: str):
    import numpy as np

    return np.random.default_rng(int(content_hash(seed, name), 16))


def _resampled_means(x, rng, n_boot: int):
    """Means of ``n_boot`` resamples of ``x`` with replacement.

    A resample's mean depends only on how many times it draws each distinct value, and those counts are
    multinomial with the values' shares as probabilities: drawing the counts costs ``n_boot`` times the
    number of distinct values (a handful for scores) instead of ``n_boot`` times ``len(x)``.
    """
    import numpy as np

    values, counts = np.unique(x, return_counts=True)
    draws = rng.multinomial(x.size, counts / x.size, size=n_boot)
    return draws @ values / x.size


def bootstrap_ci(
    values: Sequence[float], *, seed: int = 0, name: str = "", n_boot: int = N_BOOT, alpha: float = 0.05
) -> tuple[float, float] | None:
    """Percentile interval of the mean; the same (seed, name, values) always gives the same interval."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return None
    if n_boot <= 0:
        return None
    if x.size == 1:
        return float(x.mean()), float(x.mean())
    means = _resampled_means(x, _rng(seed, name), n_boot)
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], *, seed: int = 0, name: str = "", n_boot: int = N_BOOT
) -> dict[str, float | None]:
    """Mean difference b - a over paired items, its 95% interval and a two-sided bootstrap p-value."""
    import numpy as np

    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if xa.shape != xb.shape:
        raise ValueError("paired bootstrap needs equal-length inputs")
    if xa.size == 0:
        return {"n": 0, "delta": None, "ci_low": None, "ci_high": None, "p": None}
    d = xb - xa
    if n_boot <= 0:
        return {"n": int(d.size), "delta": float(d.mean()), "ci_low": None, "ci_high": None, "p": None}
    boots = _resampled_means(d, _rng(seed, f"paired:{name}"), n_boot)
    lo, hi = np.quantile(boots, [0.025, 0.975])
    # Two-sided: how often the resampled difference lands on the other side of zero (shifted-null style).
    p = min(1.0, 2 * min(float((boots <= 0).mean()), float((boots >= 0).mean())))
    if not d.any():
        p = 1.0
    return {"n": int(d.size), "delta": float(d.mean()), "ci_low": float(lo), "ci_high": float(hi), "p": p}
