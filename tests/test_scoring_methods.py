"""Scoring methods behind one protocol and a registry: each registered method is a ScoringMethod with its
signature value, and ``agree`` reports every registered method without knowing it by name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from consistest.core.records import Sample
from consistest.tasks.consistest import methods
from consistest.tasks.consistest.agree import method_scores
from consistest.tasks.consistest.agree_labels import HumanLabel
from consistest.tasks.consistest.methods import METHODS, Judged, ScoringMethod, judge_replies, signature_value


def _sample(sid: str, question: str, truth: str, fact: str) -> Sample:
    qtype = "yn" if truth in ("yes", "no") else "wh"
    return Sample(id=sid, qa_id=sid, dialog_id="0", persona=["p ."], history=[question], question=question,
                  answer=truth, fact=fact, nli_premise=fact, source="pers", type=qtype, distance=0,
                  turn=-1)  # fmt: skip


SAMPLES = [_sample("a", "do you have a dog ?", "yes", "i have a dog ."),
           _sample("b", "what is your job ?", "teacher", "i am a teacher .")]  # fmt: skip
REPLIES = ["yes , i have a dog .", "i am a nurse ."]


@dataclass(frozen=True)
class AlwaysHalf:
    """A made-up method: every reply scores 0.5."""

    name: str = "half"

    def tag(self) -> str:
        return "half-1"

    def judge(
        self, samples: Sequence[Sample], replies: Sequence[str], nli, *, quiet: bool = True
    ) -> list[Judged]:
        return [Judged("half", 0.5, "none", r, None, 0.5) for r in replies]


def test_registered_methods_follow_the_protocol_and_name_their_version() -> None:
    assert list(METHODS)[0] == "paper"  # the default: published numbers reproduce
    assert all(isinstance(m, ScoringMethod) and m.name == k for k, m in METHODS.items())
    assert signature_value("paper") == "paper" and signature_value("plus").startswith("plus-")
    got = judge_replies(SAMPLES, REPLIES, None, method="paper")
    assert [j.score for j in got] == [1.0, 0.0]


def test_a_new_method_is_one_registry_line_and_agree_reports_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(methods.METHODS, "half", AlwaysHalf())
    assert [j.score for j in judge_replies(SAMPLES, REPLIES, None, method="half")] == [0.5, 0.5]
    assert signature_value("half") == "half-1"
    labels = [HumanLabel(s.id, r, 1.0) for s, r in zip(SAMPLES, REPLIES, strict=True)]
    rows = method_scores(SAMPLES, labels, None)
    assert rows["Hybrid (half)"] == [0.5, 0.5] and rows["Hybrid (paper)"] == [1.0, 0.0]
