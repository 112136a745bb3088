"""Agreement between automatic scores and human labels (the paper's Table 4), and the two lexical
baselines it compares against (token F1 with the fact, keyword recall).

Human labels follow the guidelines: Y/N in {0, 1}, WH in {0, 0.5, 1}. A score is turned into a label
(:func:`to_label`) to count exact agreement and Cohen's kappa; MSE uses the score as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

from consistest.core.records import content_hash
from consistest.metrics.rules import content_tokens, keyword_alternatives, keyword_recall
from consistest.metrics.words import FUNCTION_WORDS

YN_LABELS = (0.0, 1.0)
WH_LABELS = (0.0, 0.5, 1.0)


def to_label(score: float, qtype: str) -> float:
    """The human label a score stands for: Y/N 1 from 0.5 up; WH the nearest of 0 / 0.5 / 1 (ties up)."""
    if qtype == "yn":
        return 1.0 if score >= 0.5 else 0.0
    return 0.0 if score < 0.25 else 0.5 if score < 0.75 else 1.0


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters' labels; ``None`` when chance agreement is 1 (one label throughout)."""
    if len(a) != len(b):
        raise ValueError("kappa needs two label lists of the same length")
    n = len(a)
    if n == 0:
        return None
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[k] * cb[k] for k in ca) / (n * n)
    return None if expected == 1 else (observed - expected) / (1 - expected)


def token_f1(response: str, reference: str) -> float:
    """SQuAD-style token F1 over content tokens (lowercase, numbers as digits, articles dropped)."""
    pred, ref = content_tokens(response), content_tokens(reference)
    common = sum((Counter(pred) & Counter(ref)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def recall_baseline(response: str, truth: str, fact: str, qtype: str) -> float:
    """Keyword recall: WH, the truth's keywords (the paper's WH rule without the guard); Y/N, whose truth
    is only yes/no, the fact's keywords (function words dropped)."""
    have = set(content_tokens(response))
    if qtype == "wh":
        alts = keyword_alternatives(truth)
        if alts:
            return max(keyword_recall(a, have) for a in alts)
    keys = [t for t in content_tokens(fact) if t not in FUNCTION_WORDS] or content_tokens(fact)
    return keyword_recall(keys, have) if keys else 0.0


def agreement_row(
    scores: Sequence[float | None], human: Sequence[float], types: Sequence[str]
) -> dict[str, Any]:
    """Table 4 figures of one scorer over the items it decided (``None`` = undecided): mean over all, WH
    and Y/N; MSE against the human labels; exact agreement after :func:`to_label`; kappa on Y/N."""
    rows = [(s, h, t) for s, h, t in zip(scores, human, types, strict=True) if s is not None]
    out: dict[str, Any] = {"n": len(rows), "undecided": len(scores) - len(rows)}
    for name, keep in (("all", None), ("wh", "wh"), ("yn", "yn")):
        part = [s for s, _, t in rows if keep is None or t == keep]
        out[f"mean_{name}"] = sum(part) / len(part) if part else None
    out["mse"] = sum((s - h) ** 2 for s, h, _ in rows) / len(rows) if rows else None
    out["agreement"] = sum(to_label(s, t) == h for s, h, t in rows) / len(rows) if rows else None
    yn = [(to_label(s, t), h) for s, h, t in rows if t == "yn"]
    out["kappa_yn"] = cohen_kappa([x for x, _ in yn], [h for _, h in yn]) if yn else None
    return out


def human_row(human: Sequence[float], types: Sequence[str]) -> dict[str, Any]:
    """The human means (MSE, agreement and kappa are against themselves, so left out)."""
    row = agreement_row(human, human, types)
    return {**row, "mse": None, "agreement": None, "kappa_yn": None}


def kappa_interval(
    a: Sequence[float], b: Sequence[float], clusters: Sequence[object], *, seed: int = 0, name: str = "",
    n_boot: int = 1000,
) -> tuple[float, float] | None:  # fmt: skip
    """95% percentile interval of Cohen's kappa between two label lists, resampling ``clusters`` whole (the
    replies to one QA together); None without resamples or labels, or where kappa is undefined."""
    import numpy as np

    if n_boot <= 0 or not a:
        return None
    cats = sorted(set(a) | set(b))
    k = len(cats)
    keys = sorted({str(c) for c in clusters})
    where = {c: i for i, c in enumerate(keys)}
    table = np.zeros((len(keys), k * k))
    for x, y, c in zip(a, b, clusters, strict=True):
        table[where[str(c)], cats.index(x) * k + cats.index(y)] += 1
    rng = np.random.default_rng(int(content_hash(seed, f"kappa:{name}"), 16))
    draws = rng.multinomial(len(keys), np.full(len(keys), 1 / len(keys)), size=n_boot) @ table
    m = draws.reshape(n_boot, k, k)
    n = m.sum(axis=(1, 2))
    observed = np.trace(m, axis1=1, axis2=2) / n
    expected = (m.sum(axis=2) * m.sum(axis=1)).sum(axis=1) / (n * n)
    ok = expected < 1
    if not ok.any():
        return None
    kappas = (observed[ok] - expected[ok]) / (1 - expected[ok])
    lo, hi = np.quantile(kappas, [0.025, 0.975])
    return float(lo), float(hi)
