"""The plus method's veto read from P(contradiction) (the veto-tau rule), its fallback for an NLI that gives
labels only, and the paper's hybrid left as it was."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from consistest.core.records import Sample
from consistest.metrics.plus import DEFAULT_RULES, PLUS_VETO_TAU
from consistest.models.base import ProbabilisticNLI
from consistest.models.nli_cache import CachedNLI, cached
from consistest.tasks.consistest.methods import judge_replies

GUARD_TAU = 0.097  # how guard-v3 reads its own labels


def _sample(question: str, truth: str, fact: str) -> Sample:
    qtype = "yn" if truth in ("yes", "no") else "wh"
    return Sample(id="s", qa_id="s", dialog_id="0", persona=["p ."], history=[question], question=question,
                  answer=truth, fact=fact, nli_premise=fact, source="pers", type=qtype, distance=0,
                  turn=-1)  # fmt: skip


class Labels:
    """An NLI that gives labels only: contradiction when its P(c) is above the guard's low tau."""

    name = signature = "labels"

    def __init__(self, p_contradiction: float) -> None:
        self.p = p_contradiction
        self.calls: list[str] = []

    def _proba(self) -> dict[str, float]:
        rest = (1.0 - self.p) / 2
        return {"contradiction": self.p, "neutral": rest + 0.01, "entailment": rest - 0.01}

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        self.calls.append("predict")
        return ["contradiction" if self.p > GUARD_TAU else "neutral" for _ in pairs]


class Proba(Labels):
    """The same model, declaring probabilities."""

    name = signature = "proba"

    def predict_proba(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]:
        self.calls.append("predict_proba")
        return [self._proba() for _ in pairs]


PARTIAL = (
    "what car do you drive ?",
    "honda civic",
    "i drive a honda civic",
    "a honda",
)  # recall 0.5: guard asked


@pytest.mark.parametrize(
    ("p", "rules", "score"),
    [
        (0.5, DEFAULT_RULES, 0.5),  # above the guard's tau, below plus's: no veto
        (0.999, DEFAULT_RULES, 0.0),  # a near-certain contradiction still vetoes
        (0.5, tuple(r for r in DEFAULT_RULES if r != "veto-tau"), 0.0),  # without the rule: the guard's label
        (0.05, tuple(r for r in DEFAULT_RULES if r != "veto-tau"), 0.5),
    ],
)
def test_veto_reads_probability_with_the_rule(p: float, rules: tuple, score: float) -> None:
    question, truth, fact, reply = PARTIAL
    nli = Proba(p)
    [j] = judge_replies([_sample(question, truth, fact)], [reply], nli, method="plus", rules=rules)
    assert j.nli_use == "guard" and j.score == score
    assert j.nli_label == ("contradiction" if score == 0.0 else "neutral")
    assert ("predict_proba" in nli.calls) is ("veto-tau" in rules)


def test_an_nli_without_probabilities_vetoes_by_its_labels(capsys: pytest.CaptureFixture[str]) -> None:
    question, truth, fact, reply = PARTIAL
    [j] = judge_replies([_sample(question, truth, fact)], [reply], Labels(0.5), method="plus")
    assert j.score == 0.0  # its own label says contradiction: the fallback is the plus-2 reading
    assert "gives no probabilities" in capsys.readouterr().err


def test_decisions_keep_the_models_labels() -> None:
    """Only the veto is read against plus's threshold; a decision by entailment keeps the model's label."""
    s = _sample(
        "what games do you stream ?", "older generation , like ps1 and super nintendo", "i stream old games"
    )
    nli = Proba(0.5)
    [j] = judge_replies([s], ["retro stuff , playstation and snes ."], nli, method="plus")
    assert j.nli_use == "decide" and j.nli_label == "contradiction" and j.score == 0.0
    assert nli.calls == ["predict"]


@pytest.mark.parametrize("p", [0.05, 0.5, 0.999])
def test_paper_method_never_reads_probabilities(p: float) -> None:
    question, truth, fact, reply = PARTIAL
    nli = Proba(p)
    [j] = judge_replies([_sample(question, truth, fact)], [reply], nli, method="paper")
    assert j.score == (0.0 if p > GUARD_TAU else 0.5) and nli.calls == ["predict"]


def test_agree_cache_keeps_the_capability() -> None:
    assert isinstance(cached(Proba(0.5)), ProbabilisticNLI)
    assert not isinstance(cached(Labels(0.5)), ProbabilisticNLI) and isinstance(
        cached(Labels(0.5)), CachedNLI
    )
    inner = Proba(0.5)
    nli = cached(inner)
    pairs = [("a", "b"), ("a", "b"), ("c", "d")]
    assert nli.predict_proba(pairs) == nli.predict_proba(pairs[:1]) * 3  # type: ignore[attr-defined]
    assert inner.calls == ["predict_proba"]  # each distinct pair once, across calls


def test_threshold_is_between_the_guards_and_certainty() -> None:
    assert GUARD_TAU < PLUS_VETO_TAU < 1.0
