"""Contradiction rates over cells of conversations, with their bootstrap and subsampling.

A *cell* is an ordered pair (partner i, evaluated bot j) with, per conversation, the contradictions ``c``
and the judged inquiries ``n``. C_ij = sum c / sum n over the cell's conversations (undefined without
inquiries); C_j = the mean of C_ij over the partners i that have one. The conversation is the unit of
resampling: the bootstrap redraws each cell's conversations with replacement, the stability analysis
draws S of them without replacement. Random draws are seeded by content (seed and what is drawn).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from consistest.core.records import content_hash

Cells = Mapping[tuple[str, str], tuple[Any, Any]]  # (partner, bot) -> (c, n) per conversation


def rng(seed: int, name: str) -> Any:
    import numpy as np

    return np.random.default_rng(int(content_hash(seed, name), 16))


def _nanmean(x: Any, axis: int) -> Any:
    import numpy as np

    with warnings.catch_warnings():  # a bot without any judged inquiry has no rate: NaN, not a warning
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(x, axis=axis)


def rate_matrix(cells: Cells, bots: Sequence[str], draws: Mapping[tuple[str, str], Any] | None = None) -> Any:
    """C_ij as an array (..., partner, bot): NaN where a pair has no inquiries. ``draws`` maps a cell to
    index arrays (shape (R, k)) of the conversations to use in R repetitions; None = all of them once."""
    import numpy as np

    pos = {b: k for k, b in enumerate(bots)}
    reps = next(iter(draws.values())).shape[0] if draws else None
    out = np.full(((reps,) if reps else ()) + (len(bots), len(bots)), np.nan)
    for (i, j), (c, n) in cells.items():
        if draws is None:
            num, den = c.sum(), n.sum()
        else:
            num, den = c[draws[(i, j)]].sum(axis=-1), n[draws[(i, j)]].sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[..., pos[i], pos[j]] = np.where(den > 0, num / np.maximum(den, 1), np.nan)
    return out


def bot_rates(matrix: Any, keep: Sequence[int] | None = None) -> Any:
    """C_j: the mean over partners (axis -2) of C_ij, over the partners and bots in ``keep`` (all if None)."""
    if keep is not None:
        matrix = matrix[..., keep, :][..., :, keep]
    return _nanmean(matrix, axis=-2)


def bootstrap(cells: Cells, bots: Sequence[str], n_boot: int, seed: int, name: str) -> Any:
    """C_j of ``n_boot`` resamples (conversations redrawn with replacement within each cell): (n_boot, N)."""
    r = rng(seed, f"boot:{name}")
    draws = {key: r.integers(0, len(c), size=(n_boot, len(c))) for key, (c, _) in sorted(cells.items())}
    return bot_rates(rate_matrix(cells, bots, draws))


def interval(values: Any) -> list[float] | None:
    """The 95% percentile interval of bootstrap values (NaN draws left out)."""
    import numpy as np

    v = values[~np.isnan(values)]
    return None if v.size == 0 else [float(x) for x in np.quantile(v, [0.025, 0.975])]


def paired_p(diffs: Any) -> float | None:
    """Two-sided bootstrap p-value of a difference: how often it lands on the other side of zero."""
    import numpy as np

    d = diffs[~np.isnan(diffs)]
    if d.size == 0:
        return None
    if not d.any():
        return 1.0
    return min(1.0, 2 * min(float((d <= 0).mean()), float((d >= 0).mean())))


def ranked(rates: Sequence[float], bots: Sequence[str]) -> list[str]:
    """Bots from the lowest contradiction rate to the highest (no rate last; ties by name)."""
    import math

    return sorted(bots, key=lambda b: (math.isnan(rates[bots.index(b)]), rates[bots.index(b)], b))


def share_ranked(rates: Any, bots: Sequence[str], reference: Sequence[str]) -> float:
    """The share of repetitions (rows of ``rates``) whose rates rise strictly along ``reference``; rates
    equal up to float noise (``np.isclose``, as the report's ties) are no rise."""
    import numpy as np

    vals = rates[:, [list(bots).index(b) for b in reference]]
    rise = (np.diff(vals, axis=1) > 0) & ~np.isclose(vals[:, 1:], vals[:, :-1])
    return float(np.all(rise, axis=1).mean())


def stability(
    cells: Cells,
    bots: Sequence[str],
    reference: Sequence[str],
    grid: Sequence[int],
    repetitions: int,
    seed: int,
    name: str,
) -> dict[str, Any]:
    """Share of subsamples (S conversations per pair, without replacement) ranked as ``reference``, for
    every S in ``grid``; and the same with each bot left out (when three or more bots remain to rank)."""
    shares: list[float] = []
    left_out: dict[str, list[float]] = {b: [] for b in bots} if len(bots) >= 3 else {}
    for s in grid:
        r = rng(seed, f"stability:{name}:{s}")
        keys = sorted(cells)
        draws = {k: r.random((repetitions, len(cells[k][0]))).argsort(axis=1)[:, :s] for k in keys}
        matrix = rate_matrix(cells, bots, draws)
        shares.append(share_ranked(bot_rates(matrix), bots, reference))
        for b in left_out:
            keep = [k for k, x in enumerate(bots) if x != b]
            rest = [x for x in bots if x != b]
            left_out[b].append(share_ranked(bot_rates(matrix, keep), rest, [x for x in reference if x != b]))
    return {"grid": list(grid), "share": shares, "leave_one_out": left_out, "repetitions": repetitions}
