"""``consistest agree``: how close each scorer comes to human labels (the paper's Table 4 layout).

The labels file is JSONL ``{id, response, human}`` for any subset of the dataset's ids (other fields are
ignored). Every reply is scored by the baselines (token F1 with the fact, keyword recall, NLI entailment
with the fact), the paper's hybrid and the improved one; the table gives each scorer's mean over All /
WH / Y/N beside the human mean, its MSE against the human labels, exact agreement and Cohen's kappa on
Y/N. ``plus - paper`` differences come with a paired bootstrap 95% interval; ``ablation`` adds one row
per plus rule switched on alone and switched off alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from consistest.core.records import Sample, content_hash
from consistest.core.signature import make_signature
from consistest.core.stats import N_BOOT, paired_bootstrap
from consistest.data.dataset_dir import open_dataset
from consistest.metrics.agreement import agreement_row, human_row, recall_baseline, to_label, token_f1
from consistest.metrics.clean import clean_response
from consistest.metrics.plus import RULES, Rule, method_tag
from consistest.metrics.rules import RULES_VERSION
from consistest.models.base import NLI
from consistest.models.nli import DEFAULT_NLI, nli_from_option, nli_signature
from consistest.tasks.consistest.agree_labels import HumanLabel, read_labels
from consistest.tasks.consistest.methods import judge_samples


@dataclass(frozen=True)
class AgreeConfig:
    """Where the data and labels are, the NLI guard, and the bootstrap settings."""

    dataset: Path
    labels: Path
    nli: str | NLI | None = DEFAULT_NLI
    nli_labels: str | None = None
    batch_size: int = 32
    device: str = "cpu"
    seed: int = 0
    n_boot: int = N_BOOT
    ablation: bool = False
    quiet: bool = False


class CachedNLI:
    """An NLI guard that labels each distinct pair once across calls (the ablation asks many times)."""

    def __init__(self, nli: NLI) -> None:
        self.inner, self.name, self.signature = nli, nli.name, nli.signature
        self.cache: dict[tuple[str, str], str] = {}

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        todo = list(dict.fromkeys(p for p in pairs if p not in self.cache))
        self.cache.update(zip(todo, self.inner.predict(todo) if todo else [], strict=True))
        return [self.cache[p] for p in pairs]


@dataclass
class AgreeResult:
    signature: str
    n: int
    rows: dict[str, dict[str, Any]]
    comparison: dict[str, Any]
    ablation: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"signature": self.signature, "n": self.n, "rows": self.rows, "comparison": self.comparison,
                "ablation": self.ablation}  # fmt: skip


def run_agree(cfg: AgreeConfig) -> AgreeResult:
    """Score the labelled replies with every method and compare each with the human labels."""
    ds = open_dataset(cfg.dataset)
    by_id = {s.id: s for s in ds.samples}
    labels = read_labels(cfg.labels, by_id)
    samples = [by_id[lab.id] for lab in labels]
    nli = _nli(cfg)
    human, types = [lab.human for lab in labels], [s.type for s in samples]
    qa_ids = [s.qa_id for s in samples]
    scores = method_scores(samples, labels, nli, quiet=cfg.quiet)
    rows = {"Human": human_row(human, types)}
    rows |= {name: agreement_row(sc, human, types) for name, sc in scores.items()}
    comparison = compare(
        scores["Hybrid (paper)"], scores["Hybrid (plus)"], human, types, qa_ids, cfg.seed, cfg.n_boot
    )
    ablation = {}
    if cfg.ablation:
        for name, sc in ablation_scores(samples, labels, nli, scores).items():
            ablation[name] = agreement_row(sc, human, types) | {
                "vs_paper": compare(scores["Hybrid (paper)"], sc, human, types, qa_ids, cfg.seed, cfg.n_boot)
            }
    signature = make_signature(
        [
            ("data", ds.content_hash[:12]),
            ("labels", f"{content_hash(*[lab.key() for lab in labels])[:12]}-{len(labels)}"),
            ("nli", nli_signature(nli)),
            ("rules", RULES_VERSION),
            ("method", f"paper,{method_tag('plus')}"),
        ]
    )
    return AgreeResult(signature, len(labels), rows, comparison, ablation)


def _nli(cfg: AgreeConfig) -> NLI | None:
    if cfg.nli is None:
        return None
    if isinstance(cfg.nli, str):
        model = nli_from_option(cfg.nli, cfg.nli_labels, batch_size=cfg.batch_size, device=cfg.device,
                                quiet=cfg.quiet)  # fmt: skip
        return None if model is None else CachedNLI(model)
    return CachedNLI(cfg.nli)


def method_scores(
    samples: Sequence[Sample], labels: Sequence[HumanLabel], nli: NLI | None, *, quiet: bool = True
) -> dict[str, list[float | None]]:
    """Scores of every method (``None`` = undecided without an NLI model); NLI-only needs a model."""
    responses = {lab.id: lab.response for lab in labels}
    cleaned = [clean_response(lab.response) for lab in labels]
    out: dict[str, list[float | None]] = {
        "F1": [token_f1(c, s.fact) for c, s in zip(cleaned, samples, strict=True)],
        "Recall": [
            recall_baseline(c, s.answer, s.fact, s.type) for c, s in zip(cleaned, samples, strict=True)
        ],
    }
    if nli is not None:
        got = nli.predict([(s.nli_premise, c) for s, c in zip(samples, cleaned, strict=True)])
        out["NLI-only"] = [float(g == "entailment") for g in got]
    for method in ("paper", "plus"):
        judged = judge_samples(samples, responses, nli, method=method, quiet=quiet)  # type: ignore[arg-type]
        out[f"Hybrid ({method})"] = [j.score for j in judged]
    return out


def ablation_scores(
    samples: Sequence[Sample], labels: Sequence[HumanLabel], nli: NLI | None, scores: dict[str, Any]
) -> dict[str, list[float | None]]:
    """The paper's hybrid with each plus rule alone, and plus without each rule."""
    responses = {lab.id: lab.response for lab in labels}
    out: dict[str, list[float | None]] = {"paper": scores["Hybrid (paper)"]}
    variants: list[tuple[str, tuple[Rule, ...]]] = [(f"paper + {r}", (r,)) for r in RULES]
    variants += [(f"plus - {r}", tuple(x for x in RULES if x != r)) for r in RULES]
    for name, rules in variants:
        judged = judge_samples(samples, responses, nli, method="plus", rules=rules)
        out[name] = [j.score for j in judged]
    out["plus"] = scores["Hybrid (plus)"]
    return out


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


COLUMNS = (("All", "mean_all"), ("WH", "mean_wh"), ("Y/N", "mean_yn"), ("MSE", "mse"), ("agree", "agreement"),
           ("kappa Y/N", "kappa_yn"))  # fmt: skip


def render_agreement(result: AgreeResult, fmt: str = "table") -> str:
    """Table 4 (means beside the human mean, MSE, agreement, kappa), the plus - paper line, the ablation."""
    import json

    if fmt == "json":
        return json.dumps(result.to_dict(), indent=1, sort_keys=True)
    lines = [_table("method", result.rows)]
    lines.append(_diff_line("plus - paper", result.comparison))
    if result.ablation:
        lines += ["", _ablation_table(result.ablation)]
    lines.append(result.signature)
    return "\n".join(lines)


def _table(title: str, rows: dict[str, dict[str, Any]]) -> str:
    width = max(len(title), *(len(k) for k in rows)) + 2
    head = f"{title:<{width}}{'n':>5}" + "".join(f"{c:>{max(7, len(c) + 2)}}" for c, _ in COLUMNS)
    out = [head]
    for name, row in rows.items():
        cells = "".join(f"{_num(row.get(k)):>{max(7, len(c) + 2)}}" for c, k in COLUMNS)
        undecided = f"  ({row['undecided']} undecided)" if row.get("undecided") else ""
        out.append(f"{name:<{width}}{row['n']:>5}{cells}{undecided}")
    return "\n".join(out)


def _ablation_table(rows: dict[str, dict[str, Any]]) -> str:
    """One row per rule set: MSE and agreement, and their paired difference to the paper's hybrid."""
    width = max(len(k) for k in rows) + 2
    out = [f"{'ablation':<{width}}{'n':>5}{'MSE':>8}{'agree':>8}   {'MSE - paper':<24}{'agree - paper':<24}"]
    for name, row in rows.items():
        comp = row["vs_paper"]
        out.append(f"{name:<{width}}{row['n']:>5}{_num(row['mse']):>8}{_num(row['agreement']):>8}   "
                   f"{_delta(comp['mse']):<24}{_delta(comp['agreement']):<24}")  # fmt: skip
    return "\n".join(out)


def _delta(d: dict[str, Any]) -> str:
    if d["delta"] is None:
        return "-"
    ci = "" if d["ci_low"] is None else f" [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]"
    return f"{d['delta']:+.3f}{ci}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _diff_line(name: str, comp: dict[str, Any]) -> str:
    parts = [f"{label} {_delta(comp[key])}" for key, label in (("mse", "MSE"), ("agreement", "agreement"))]
    return f"{name} (paired bootstrap 95% CI, n={comp['n']}): " + ", ".join(parts)
