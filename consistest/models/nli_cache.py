"""NLI guards that label each distinct pair once across calls: ``consistest agree`` scores the same replies
with many methods and ablations, each asking the guard again."""

from __future__ import annotations

from collections.abc import Sequence

from consistest.models.base import NLI, ProbabilisticNLI


class CachedNLI:
    """An NLI guard that labels each distinct pair once across calls (the ablation asks many times)."""

    def __init__(self, nli: NLI) -> None:
        self.inner, self.name, self.signature = nli, nli.name, nli.signature
        self.cache: dict[tuple[str, str], str] = {}

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        todo = list(dict.fromkeys(p for p in pairs if p not in self.cache))
        self.cache.update(zip(todo, self.inner.predict(todo) if todo else [], strict=True))
        return [self.cache[p] for p in pairs]


class CachedProbabilisticNLI(CachedNLI):
    """:class:`CachedNLI` for a model that gives probabilities; caches them too (plus's veto reads them)."""

    def __init__(self, nli: ProbabilisticNLI) -> None:
        super().__init__(nli)
        self.proba: dict[tuple[str, str], dict[str, float]] = {}

    def predict_proba(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]:
        todo = list(dict.fromkeys(p for p in pairs if p not in self.proba))
        self.proba.update(zip(todo, self.inner.predict_proba(todo) if todo else [], strict=True))  # type: ignore[attr-defined]
        return [self.proba[p] for p in pairs]


def cached(nli: NLI) -> CachedNLI:
    """The caching wrapper that keeps the model's declared capabilities."""
    return CachedProbabilisticNLI(nli) if isinstance(nli, ProbabilisticNLI) else CachedNLI(nli)
