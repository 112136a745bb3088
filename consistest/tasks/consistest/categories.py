"""The failure categories of scored ConsisTest items: the rules of :mod:`consistest.metrics.categories`
with every NLI pair they may need labelled in one batched call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from consistest.core.records import Sample, ScoredItem
from consistest.metrics.categories import CATEGORIES_VERSION, NO_TRUTH, Lookup, decide, nli_pairs
from consistest.models.base import NLI

__all__ = ["CATEGORIES_VERSION", "NO_TRUTH", "categorise"]


def categorise(
    items: Sequence[ScoredItem],
    samples: Sequence[Sample],
    nli: NLI | None,
    *,
    triggers: Mapping[str, str] | None = None,
    quiet: bool = True,
) -> list[ScoredItem]:
    """Items with ``category`` and ``category_why`` (and ``trigger`` from ``triggers``, by id) set; one
    batched NLI call for every pair the rules may need."""
    from consistest.core import log

    by_id = {s.id: s for s in samples}
    labels: dict[tuple[str, str], str] = {}
    if nli is not None:
        pairs = list(dict.fromkeys(p for it in items for p in nli_pairs(it, by_id[it.id])))
        if pairs:
            log.info(f"categories: NLI on {len(pairs)} distinct pairs", quiet=quiet)
            labels = dict(zip(pairs, nli.predict(pairs), strict=True))
    lookup: Lookup | None = None if nli is None else (lambda p, h: labels.get((p, h)))
    out = []
    for it in items:
        cat, why = decide(it, by_id[it.id], lookup)
        trig = (triggers or {}).get(it.id, it.trigger)
        # ``dataclasses.replace`` costs as much as the rules here; the fields are the same
        out.append(ScoredItem(**{**it.__dict__, "category": cat, "category_why": why, "trigger": trig}))
    return out
