"""The judges of an inquiry's answer, each stored per inquiry.

- ``paper`` (AIH): NLI on premise = the utterance asked about, hypothesis = the answer; a contradiction
  when P(contradiction) > tau (0.15 in the paper). The probabilities are stored, so ``rank --tau`` can
  move the threshold without running the model again.
- ``hybrid`` (first called ``ours``): the ConsisTest hybrid applied to the inquiry: the entity is the
  truth, the answer is scored by keyword recall with the NLI guard (premise = the sentence holding the
  entity, hypothesis = the answer without its questions), so an evasive or forgetful answer counts
  against the bot too. Its inconsistency is 1 - score. Statement inquiries (``--inquirer statements``):
  yes/no questions by the yes/no rules; open WH questions ("what do you love?", template
  ``st.wh.open``), whose truth is one of possibly several true answers, count an answer without the
  truth as consistent unless the guard calls it a contradiction (undecided without NLI).
- ``model`` (optional, ``--judge-model SPEC``): a chat model labels the answer ``consistent`` or
  ``contradiction`` (:mod:`consistest.tasks.aih.model_judge`); stored as ``model`` (1.0, 0.0 or None for
  undecided).

The hybrid judge's verdicts are stored in ``inquiries.jsonl`` under its first name (``ours_score``,
``ours_outcome``...), and its bootstrap and stability draws are seeded by that name too (``STORED_KEY``):
runs written before the rename read and rank the same, to the last digit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from consistest.metrics.rules import final_score, judge
from consistest.models.base import ProbabilisticNLI
from consistest.text.questions.statements import OPEN_TEMPLATE

JudgeName = Literal["paper", "hybrid", "model"]
JUDGES: tuple[JudgeName, ...] = get_args(JudgeName)
NLI_JUDGES: tuple[JudgeName, ...] = ("paper", "hybrid")  # stored by every run (``rank --judge both``)
JUDGE_LABELS: dict[JudgeName, str] = {
    "paper": "paper: NLI P(contradiction) > tau on (utterance, answer)",
    "hybrid": "hybrid: ConsisTest hybrid, entity = truth (keyword recall + NLI guard)",
    "model": "model: a chat model labels the answer consistent or contradiction",
}
MODEL_KEY = "model"  # the model judge's verdict in a stored inquiry
RENAMED: dict[str, JudgeName] = {"ours": "hybrid"}  # old judge names, accepted one release
# The key of each judge in stored inquiries and in the seeds of its random draws (kept across the rename).
STORED_KEY: dict[JudgeName, str] = {"paper": "paper", "hybrid": "ours", "model": MODEL_KEY}


def judge_inquiries(
    inquiries: Sequence[Mapping[str, Any]], nli: ProbabilisticNLI | None, tau: float
) -> list[dict[str, Any]]:
    """The inquiries with both verdicts added (``None`` where a judge cannot decide without NLI)."""
    verdicts = [judge(q["question"], q["truth"], inquiry_type(q), q["answer"]) for q in inquiries]
    paper_pairs = [(q["utterance"], q["answer"]) for q in inquiries]
    hybrid_pairs = [(q["sentence"], v.cleaned) for q, v in zip(inquiries, verdicts, strict=True)]
    probs = nli.predict_proba(paper_pairs + hybrid_pairs) if nli is not None and inquiries else []
    out = []
    for k, (q, v) in enumerate(zip(inquiries, verdicts, strict=True)):
        paper = probs[k] if probs else None
        guard = max(probs[len(inquiries) + k].items(), key=lambda kv: kv[1])[0] if probs else None
        score = _open_score(v, guard) if q.get("template") == OPEN_TEMPLATE else final_score(v, guard)
        out.append(
            {
                **q,
                "nli": paper,
                "paper": None if paper is None else paper["contradiction"] > tau,
                "ours_outcome": v.outcome.value,
                "ours_rule_score": v.rule_score,
                "ours_nli": guard,
                "ours_score": score,
            }
        )
    return out


def inquiry_type(inquiry: Mapping[str, Any]) -> str:
    """``yn`` for the statement inquirer's yes/no questions (template ``st.yn...``), else ``wh``."""
    return "yn" if str(inquiry.get("template", "")).startswith("st.yn") else "wh"


def _open_score(v: Any, guard: str | None) -> float | None:
    """An open question's answer: recall of the truth when it names it; else consistent unless the guard
    says contradiction (None without a guard)."""
    if v.rule_score:
        return final_score(v, guard)
    return None if guard is None else float(guard != "contradiction")


def contradiction(inquiry: Mapping[str, Any], name: JudgeName, tau: float) -> float | None:
    """1 for a contradiction, 0 for a consistent answer (hybrid: 1 - score, so partial recall counts in
    part); None when the judge could not decide (no NLI; the model judge: no label after its retry)."""
    if name == "model":
        return inquiry.get(MODEL_KEY)
    if name == "paper":
        nli = inquiry.get("nli")
        return None if not nli else float(nli["contradiction"] > tau)
    score = inquiry.get("ours_score")
    return None if score is None else 1.0 - float(score)
