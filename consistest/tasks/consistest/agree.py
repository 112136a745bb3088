"""``consistest agree``: how close each scorer comes to human labels (the paper's Table 4 layout), on one or
more labels files side by side (``dev`` and ``test``).

A labels file is JSONL ``{id, response, human}`` for any subset of the dataset's ids (:mod:`.agree_labels`).
Every reply is scored by the baselines (token F1 with the fact, keyword recall, NLI entailment with the
fact), the paper's hybrid and the improved one; each file gets a table of each scorer's mean over All / WH /
Y/N beside the human mean, its MSE against the human labels, exact agreement, Cohen's kappa on Y/N and the
share of Y/N replies without a yes/no word or short form it decides right, each with a 95% bootstrap
interval over QAs; ``plus - paper`` differences are paired bootstrap intervals; ``ablation`` adds one row
per plus rule switched on alone and off alone (an opt-in rule: added to plus); a ``model`` field in the
labels adds rows per model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from consistest.core.records import Sample
from consistest.core.signature import make_signature
from consistest.core.stats import N_BOOT
from consistest.data.dataset_dir import open_dataset
from consistest.metrics.agreement import (
    agreement_row,
    human_row,
    recall_baseline,
    token_f1,
)
from consistest.metrics.clean import clean_response
from consistest.metrics.plus import DEFAULT_RULES, RULES, Rule
from consistest.metrics.rules import RULES_VERSION, Outcome, judge
from consistest.models.base import NLI
from consistest.models.nli import DEFAULT_NLI, nli_from_option, nli_signature
from consistest.models.nli_cache import cached
from consistest.tasks.consistest.agree_labels import (
    HumanLabel,
    LabelSplit,
    label_splits,
    labels_tag,
    read_labels,
)
from consistest.tasks.consistest.agree_report import render_agreement
from consistest.tasks.consistest.agree_stats import compare, full_row
from consistest.tasks.consistest.methods import METHODS, JudgeMethod, ScoringMethod, judge_replies

__all__ = ["AgreeConfig", "AgreeResult", "SplitResult", "render_agreement", "run_agree"]
REFERENCE, IMPROVED = "Hybrid (paper)", "Hybrid (plus)"  # the headline difference: plus - paper
JUDGE_ROW = "Hybrid (judge)"  # with a configured judge: judge - paper


@dataclass(frozen=True)
class AgreeConfig:
    """Where the data and labels are (one file, or several as ``NAME=FILE``), the NLI guard, the bootstrap."""

    dataset: Path
    labels: str | Path | Sequence[str | Path | LabelSplit]
    nli: str | NLI | None = DEFAULT_NLI
    nli_labels: str | None = None
    batch_size: int = 32
    device: str = "cpu"
    seed: int = 0
    n_boot: int = N_BOOT
    ablation: bool = False
    quiet: bool = False
    judge: JudgeMethod | None = None  # the judge method's row (its model, prompt, cascade and cache file)


def active_methods(judge: JudgeMethod | None) -> dict[str, ScoringMethod]:
    """Every registered method that can run: a method that needs a model only when one is configured."""
    out: dict[str, ScoringMethod] = {}
    for name, method in METHODS.items():
        if isinstance(method, JudgeMethod):
            if judge is None:
                continue
            method = judge
        out[name] = method
    return out


@dataclass
class SplitResult:
    """One labels file's figures: rows per scorer, plus - paper, the ablation, rows per model."""

    name: str
    path: str
    tag: str
    counts: dict[str, int]
    rows: dict[str, dict[str, Any]]
    comparison: dict[str, Any]
    ablation: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_model: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    judge_vs_paper: dict[str, Any] | None = None  # judge - paper, when a judge is configured

    def to_dict(self) -> dict[str, Any]:
        keys = ("path", "tag", "counts", "rows", "comparison", "ablation", "by_model", "judge_vs_paper")
        return {("labels" if k == "tag" else k): getattr(self, k) for k in keys}


@dataclass
class AgreeResult:
    signature: str
    splits: dict[str, SplitResult]

    @property
    def first(self) -> SplitResult:
        return next(iter(self.splits.values()))

    @property
    def n(self) -> int:
        return self.first.counts["all"]

    @property
    def rows(self) -> dict[str, dict[str, Any]]:
        return self.first.rows

    @property
    def comparison(self) -> dict[str, Any]:
        return self.first.comparison

    @property
    def ablation(self) -> dict[str, dict[str, Any]]:
        return self.first.ablation

    def to_dict(self) -> dict[str, Any]:
        return {"signature": self.signature, "splits": {k: v.to_dict() for k, v in self.splits.items()}}


def run_agree(cfg: AgreeConfig) -> AgreeResult:
    """Score every labels file's replies with every method and compare each with the human labels."""
    ds = open_dataset(cfg.dataset)
    by_id = {s.id: s for s in ds.samples}
    splits = label_splits(cfg.labels)
    read = {sp.name: read_labels(sp.path, by_id) for sp in splits}  # every file checked before scoring
    nli = _nli(cfg)
    results = {sp.name: _run_split(sp, read[sp.name], by_id, nli, cfg) for sp in splits}
    tags = (
        [r.tag for r in results.values()]
        if len(results) == 1
        else [f"{k}={r.tag}" for k, r in results.items()]
    )
    signature = make_signature(
        [
            ("data", ds.content_hash[:12]),
            ("labels", tags),
            ("nli", nli_signature(nli)),
            ("rules", RULES_VERSION),
            ("method", ",".join(m.tag() for m in active_methods(cfg.judge).values())),
        ]
    )
    return AgreeResult(signature, results)


def _nli(cfg: AgreeConfig) -> NLI | None:
    if cfg.nli is None:
        return None
    if isinstance(cfg.nli, str):
        model = nli_from_option(cfg.nli, cfg.nli_labels, batch_size=cfg.batch_size, device=cfg.device,
                                quiet=cfg.quiet)  # fmt: skip
        return None if model is None else cached(model)
    return cached(cfg.nli)


def _run_split(
    sp: LabelSplit, labels: list[HumanLabel], by_id: dict[str, Sample], nli: NLI | None, cfg: AgreeConfig
) -> SplitResult:
    samples = [by_id[lab.id] for lab in labels]
    human, types = [lab.human for lab in labels], [s.type for s in samples]
    qa_ids = [s.qa_id for s in samples]
    noshort = [no_short_form(s, lab.response) for s, lab in zip(samples, labels, strict=True)]
    scores = method_scores(samples, labels, nli, quiet=cfg.quiet, judge=cfg.judge)
    boot = (sp.name, cfg.seed, cfg.n_boot)
    rows = {"Human": human_row(human, types)}
    rows |= {name: full_row(sc, human, types, qa_ids, noshort, boot, name) for name, sc in scores.items()}
    comparison = compare(scores[REFERENCE], scores[IMPROVED], human, types, qa_ids, cfg.seed, cfg.n_boot)
    judged = scores.get(JUDGE_ROW)
    vs_judge = None if judged is None else compare(scores[REFERENCE], judged, human, types, qa_ids, cfg.seed,
                                                   cfg.n_boot)  # fmt: skip
    ablation = {}
    if cfg.ablation:
        for name, sc in ablation_scores(samples, labels, nli, scores).items():
            ablation[name] = agreement_row(sc, human, types) | {
                "vs_paper": compare(scores[REFERENCE], sc, human, types, qa_ids, cfg.seed, cfg.n_boot)
            }
    by_model: dict[str, dict[str, dict[str, Any]]] = {}
    for model in sorted({lab.model for lab in labels if lab.model}):
        idx = [i for i, lab in enumerate(labels) if lab.model == model]
        pick = (
            [human[i] for i in idx],
            [types[i] for i in idx],
            [qa_ids[i] for i in idx],
            [noshort[i] for i in idx],
        )
        by_model[model] = {"Human": human_row(pick[0], pick[1])} | {
            name: full_row([scores[name][i] for i in idx], *pick, boot, f"{model}:{name}")
            for name in (f"Hybrid ({m})" for m in active_methods(cfg.judge))  # one row per scoring method
        }
    counts = {
        "all": len(labels),
        "wh": types.count("wh"),
        "yn": types.count("yn"),
        "yn_no_short": sum(noshort),
    }
    return SplitResult(
        sp.name, str(sp.path), labels_tag(labels), counts, rows, comparison, ablation, by_model, vs_judge
    )


def no_short_form(s: Sample, response: str) -> bool:
    """A Y/N reply with neither a yes/no word nor a short form ("i own a yacht" to "do you own a yacht ?")."""
    return s.type == "yn" and judge(s.question, s.answer, s.type, response).outcome is Outcome.NO_SHORT_FORM


def method_scores(
    samples: Sequence[Sample],
    labels: Sequence[HumanLabel],
    nli: NLI | None,
    *,
    quiet: bool = True,
    judge: JudgeMethod | None = None,
) -> dict[str, list[float | None]]:
    """Scores of every method (``None`` = undecided without an NLI model, or by the judge); NLI-only needs a
    model; the judge's row needs a configured ``judge``."""
    replies = [lab.response for lab in labels]
    cleaned = [clean_response(r) for r in replies]
    out: dict[str, list[float | None]] = {
        "F1": [token_f1(c, s.fact) for c, s in zip(cleaned, samples, strict=True)],
        "Recall": [
            recall_baseline(c, s.answer, s.fact, s.type) for c, s in zip(cleaned, samples, strict=True)
        ],
    }
    if nli is not None:
        got = nli.predict([(s.nli_premise, c) for s, c in zip(samples, cleaned, strict=True)])
        out["NLI-only"] = [float(g == "entailment") for g in got]
    for name, method in active_methods(judge).items():
        out[f"Hybrid ({name})"] = [j.score for j in method.judge(samples, replies, nli, quiet=quiet)]
    return out


def ablation_scores(
    samples: Sequence[Sample], labels: Sequence[HumanLabel], nli: NLI | None, scores: dict[str, Any]
) -> dict[str, list[float | None]]:
    """The paper's hybrid with each plus rule alone, plus without each of its rules, and plus with each
    opt-in rule (``paraphrase``) added."""
    replies = [lab.response for lab in labels]
    out: dict[str, list[float | None]] = {"paper": scores[REFERENCE]}
    variants: list[tuple[str, tuple[Rule, ...]]] = [(f"paper + {r}", (r,)) for r in RULES]
    variants += [(f"plus - {r}", tuple(x for x in DEFAULT_RULES if x != r)) for r in DEFAULT_RULES]
    variants += [(f"plus + {r}", (*DEFAULT_RULES, r)) for r in RULES if r not in DEFAULT_RULES]
    for name, rules in variants:
        out[name] = [j.score for j in judge_replies(samples, replies, nli, method="plus", rules=rules)]
    out["plus"] = scores[IMPROVED]
    return out
