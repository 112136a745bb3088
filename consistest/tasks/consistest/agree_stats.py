"""The interval rows and paired comparisons of ``consistest agree``: MSE, agreement and kappa with 95%
intervals (QAs resampled whole), and b − a paired bootstrap differences between two methods."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from consistest.core.stats import bootstrap_ci, paired_bootstrap
from consistest.metrics.agreement import agreement_row, kappa_interval, to_label


def full_row(
    scores: Sequence[float | None], human: Sequence[float], types: Sequence[str], qa_ids: Sequence[str],
    noshort: Sequence[bool], boot: tuple[str, int, int], name: str,
) -> dict[str, Any]:  # fmt: skip
    """:func:`agreement_row` with 95% intervals (QAs resampled whole) of MSE, agreement and kappa, and the
    share of Y/N replies without a short form decided right (undecided ones count as not right)."""
    split, seed, n_boot = boot
    row = agreement_row(scores, human, types)
    keep = [i for i, s in enumerate(scores) if s is not None]
    clusters = [qa_ids[i] for i in keep]
    for key, f in (("mse", _sq_err), ("agreement", _agrees)):
        values = [f(scores[i], human[i], types[i]) for i in keep]
        row[f"{key}_ci"] = bootstrap_ci(values, seed=seed, name=f"{split}:{name}:{key}", n_boot=n_boot,
                                        clusters=clusters)  # fmt: skip
    yn = [i for i in keep if types[i] == "yn"]
    row["kappa_yn_ci"] = kappa_interval(
        [to_label(float(scores[i]), "yn") for i in yn], [human[i] for i in yn],  # type: ignore[arg-type]
        [qa_ids[i] for i in yn], seed=seed, name=f"{split}:{name}", n_boot=n_boot,
    )  # fmt: skip
    ns = [i for i, x in enumerate(noshort) if x]
    right = [float(scores[i] is not None and _agrees(scores[i], human[i], "yn")) for i in ns]
    row["yn_no_short"] = {"n": len(ns), "decided": sum(scores[i] is not None for i in ns)}
    row["yn_no_short_right"] = sum(right) / len(right) if right else None
    row["yn_no_short_right_ci"] = bootstrap_ci(
        right, seed=seed, name=f"{split}:{name}:noshort", n_boot=n_boot, clusters=[qa_ids[i] for i in ns]
    )
    return row


def compare(
    a: Sequence[float | None], b: Sequence[float | None], human: Sequence[float], types: Sequence[str],
    qa_ids: Sequence[str], seed: int, n_boot: int,
) -> dict[str, Any]:  # fmt: skip
    """b - a on the items both decided: squared error (negative = b closer) and exact agreement (positive =
    b agrees more), each a paired bootstrap mean difference with its 95% interval (QAs drawn whole)."""
    keep = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x is not None and y is not None]
    out: dict[str, Any] = {"n": len(keep)}
    for name, f in (("mse", _sq_err), ("agreement", _agrees)):
        xa = [f(a[i], human[i], types[i]) for i in keep]
        xb = [f(b[i], human[i], types[i]) for i in keep]
        out[name] = paired_bootstrap(
            xa, xb, seed=seed, name=f"agree:{name}", n_boot=n_boot, clusters=[qa_ids[i] for i in keep]
        )
    return out


def _sq_err(s: float | None, h: float, _t: str) -> float:
    return (float(s) - h) ** 2  # type: ignore[arg-type]


def _agrees(s: float | None, h: float, t: str) -> float:
    return float(to_label(float(s), t) == h)  # type: ignore[arg-type]
