"""Seeded stratified subsets of ConsisTest samples (``--sample N``), so a slow model can estimate the
benchmark on a few hundred samples.

The unit drawn is a QA (``qa_id``) with all of its samples, so both distances of a QA stay together and
the paired d=0/d=2 comparison survives. Strata are (source, type, distances the QA has): a history QA
whose fact sits near the end of its dialogue has only d=0 and forms its own stratum. Each stratum gets
its share of N samples (proportional allocation: the subset's plain mean estimates the full benchmark's),
whole QAs only, the leftover going to the strata with the largest remainders; inside a stratum QAs are
ranked by a hash of (seed, qa_id), so the draw depends on content, never on file order, and a larger N
keeps every QA of a smaller one with the same seed. The result has N samples, or N-1 when only two-sample
QAs would fit the last slot, in dataset order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core.errors import InputError
from consistest.core.records import Sample

Stratum = tuple[str, str, tuple[int, ...]]  # (source, type, distances of the QA)


def units(samples: Sequence[Sample]) -> dict[str, list[Sample]]:
    """Samples grouped by QA (``qa_id``), in first-seen order."""
    out: dict[str, list[Sample]] = {}
    for s in samples:
        out.setdefault(s.qa_id, []).append(s)
    return out


def strata(samples: Sequence[Sample]) -> dict[Stratum, list[str]]:
    """qa_ids by (source, type, sorted distances), in first-seen order."""
    out: dict[Stratum, list[str]] = {}
    for qa_id, group in units(samples).items():
        key = (group[0].source, group[0].type, tuple(sorted({s.distance for s in group})))
        out.setdefault(key, []).append(qa_id)
    return out


def allocate(sizes: dict[Stratum, tuple[int, int]], n: int) -> dict[Stratum, int]:
    """QAs to draw per stratum from ``{stratum: (QAs, samples per QA)}``: proportional to samples, whole QAs,
    leftovers by largest remainder (ties: stratum order) while a QA still fits in what is left of ``n``."""
    total = sum(q * k for q, k in sizes.values())
    quota = {s: n * q * k / total for s, (q, k) in sizes.items()}
    take = {s: min(int(quota[s] // sizes[s][1]), sizes[s][0]) for s in sizes}
    left = n - sum(take[s] * sizes[s][1] for s in sizes)
    for s in sorted(sizes, key=lambda s: -(quota[s] - take[s] * sizes[s][1])):
        if take[s] < sizes[s][0] and sizes[s][1] <= left:
            take[s] += 1
            left -= sizes[s][1]
    return take


def _rank(seed: int, qa_id: str) -> str:
    return hashlib.sha256(f"{seed}:{qa_id}".encode()).hexdigest()


def stratified_sample(samples: Sequence[Sample], n: int, seed: int = 0) -> list[Sample]:
    """About ``n`` samples (see the module docstring), whole QAs, in dataset order; all when n >= len."""
    if n < 1:
        raise InputError(f"must be at least 1, got {n}", field="sample")
    if n >= len(samples):
        return list(samples)
    groups, by_stratum = units(samples), strata(samples)
    sizes = {s: (len(ids), max(len(groups[i]) for i in ids)) for s, ids in by_stratum.items()}
    keep: set[str] = set()
    for s, k in allocate(sizes, n).items():
        keep.update(sorted(by_stratum[s], key=lambda q: _rank(seed, q))[:k])
    return [s for s in samples if s.qa_id in keep]


def sample_tag(n: int, seed: int) -> str:
    """The signature's ``subset:`` value, e.g. ``sample-400-s0``."""
    return f"sample-{n}-s{seed}"


@dataclass(frozen=True)
class Subset:
    """Which samples a run covers: all, the first ``limit`` (a smoke run) or a stratified ``sample``; the
    one place --limit and --sample are checked, selected and named (generation and --responses alike)."""

    limit: int | None = None
    sample: int | None = None
    sample_seed: int = 0

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 1:  # no samples: no score, only an empty table
            raise InputError(f"must be at least 1, got {self.limit}", field="limit")
        if self.sample is not None and self.sample < 1:
            raise InputError(f"must be at least 1, got {self.sample}", field="sample")
        if self.sample is not None and self.limit is not None:
            raise InputError("give --limit or --sample, not both", field="sample")

    def select(self, samples: Sequence[Sample]) -> list[Sample]:
        """The samples covered: all, the first ``limit``, or a stratified ``sample``."""
        if self.sample is not None:
            return stratified_sample(samples, self.sample, self.sample_seed)
        return list(samples if self.limit is None else samples[: self.limit])

    def tag(self, n_total: int) -> str | None:
        """The signature's ``subset:`` value (``first-N``, ``sample-N-sSEED``); None for the whole dataset."""
        if self.sample is not None and self.sample < n_total:
            return sample_tag(self.sample, self.sample_seed)
        if self.limit is not None and self.limit < n_total:
            return f"first-{self.limit}"
        return None
