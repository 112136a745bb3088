"""``consistest rejudge RUNDIR``: a scored run's saved replies judged again by several judges and prompt
versions, to see how much the judge moves the figures.

Every (judge, prompt) pair is one column: it scores the run's replies with the judge method (the same
cascade as ``score --method judge``), so each column has its own score signature naming its judge, prompt
and decoding. The report gives each figure per column and its spread (largest minus smallest mean across the
judged columns), each column's per-item disagreement with the first one and with the run's stored scores
(share of items scored differently, and the paired mean difference with its 95% interval, QAs resampled
whole), and the pass rate of wrong but on-topic probe replies (:mod:`consistest.tasks.consistest.probes`).
The judges' calls are cached in ``OUT/judge.jsonl``: a killed rejudge resumes without asking again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl, read_jsonl
from consistest.core.records import Sample
from consistest.core.rundir import JUDGE_FILE, LOCK_FILE, SCORES_FILE, SUMMARY_FILE, read_manifest, run_lock
from consistest.core.signature import make_signature, parse_signature
from consistest.core.stats import N_BOOT, paired_bootstrap
from consistest.data.dataset_dir import open_dataset
from consistest.models.base import NLI, ChatModel
from consistest.models.judging import JudgeOutput, judge_spec
from consistest.models.nli import DEFAULT_NLI, nli_from_option, nli_signature
from consistest.tasks.consistest.methods import UNSIGNED_METHOD, JudgeMethod
from consistest.tasks.consistest.methods.judge import JudgeWhen, stage_counts
from consistest.tasks.consistest.methods.judge_calls import DEFAULT_JUDGE_PROMPT, check_prompt
from consistest.tasks.consistest.probes import PROBES_VERSION, probe_figures
from consistest.tasks.consistest.report import figure, figure_groups
from consistest.tasks.consistest.scoring import cap_replies, score_items, score_signature

REJUDGE_FILE = "rejudge.json"  # the report: columns, figures, spread, disagreement, probes, signatures
ITEMS_FILE = "items.jsonl"  # per reply: each column's score
RUN_COLUMN = "run"


@dataclass(frozen=True)
class RejudgeConfig:
    """Which run, which judges and prompts (every pair is a column), and how the cascade and report run."""

    run: Path
    dataset: Path
    judges: tuple[str | ChatModel, ...]  # specs (a loaded ChatModel: a test's fake)
    prompts: tuple[str, ...] = (DEFAULT_JUDGE_PROMPT,)
    when: JudgeWhen = "uncertain"
    output: JudgeOutput = "text"
    nli: str | NLI | None = DEFAULT_NLI
    nli_labels: str | None = None
    batch_size: int = 32
    device: str = "cpu"
    probes: int = 100
    seed: int = 0
    n_boot: int = N_BOOT
    out: Path | None = None  # default RUNDIR/rejudge
    quiet: bool = False

    def __post_init__(self) -> None:
        if not self.judges:
            raise InputError("name at least one judge: --judge SPEC", field="judge")
        for p in self.prompts:
            check_prompt(p)
        if self.probes < 0:
            raise InputError("must be 0 (no probes) or more", field="probes")

    @property
    def out_dir(self) -> Path:
        return self.out if self.out is not None else self.run / "rejudge"

    def methods(self) -> dict[str, JudgeMethod]:
        """One judge method per (judge, prompt), keyed by its column label ``model@prompt``."""
        out = {}
        for spec in dict.fromkeys(self.judges):
            model = judge_spec(spec) if isinstance(spec, str) else spec
            for p in dict.fromkeys(self.prompts):
                out[f"{model.name}@{p}"] = JudgeMethod(
                    model=model, prompt=p, when=self.when, output=self.output, cache=self.out_dir / JUDGE_FILE
                )
        return out


def run_rejudge(cfg: RejudgeConfig) -> dict[str, Any]:
    """Judge the run's replies with every column, write OUT/rejudge.json and OUT/items.jsonl, return the
    report."""
    samples, replies, stored, run_sig = read_run(cfg.run, cfg.dataset)
    run_method = parse_signature(run_sig).get("method", UNSIGNED_METHOD)
    if run_method != "paper" and cfg.when == "uncertain":  # the judges' cascade starts from the paper rules
        log.warning(
            f"the run was scored with {run_method} and the judges build on the paper rules: run-vs-judge "
            "differences mix the method with the judge; rescore the run with --method paper to compare "
            "judges alone"
        )
    methods = cfg.methods()
    check_out(cfg.out_dir)
    with run_lock(cfg.out_dir):
        nli = _nli(cfg)
        replies, _ = cap_replies(replies, samples)
        ds = open_dataset(cfg.dataset)
        scores: dict[str, list[float | None]] = {RUN_COLUMN: [stored[s.id] for s in samples]}
        stages, signatures = {}, {RUN_COLUMN: run_sig}
        for label, m in methods.items():
            log.info(f"judging {len(samples):,} replies with {label}", quiet=cfg.quiet)
            items = score_items(samples, replies, nli, quiet=cfg.quiet, method="judge", judge=m)
            scores[label] = [it.score for it in items]
            stages[label] = stage_counts([it.judge for it in items])
            signatures[label] = score_signature(
                ds, samples, nli, subset=_subset(run_sig), method="judge", judge=m
            )
        report = {
            "signature": rejudge_signature(ds.content_hash, run_sig, nli, methods, cfg),
            "run": str(cfg.run),
            "run_method": run_method,
            "n": len(samples),
            "columns": list(scores),
            "figures": column_figures(samples, scores, cfg),
            "disagreement": disagreement(samples, scores, cfg),
            "stages": stages,
            "probes": probe_figures(  # drawn from the whole dataset: a subset run has few shared questions
                ds.samples, nli, methods, n=cfg.probes, seed=cfg.seed, n_boot=cfg.n_boot, quiet=cfg.quiet
            ),
            "signatures": signatures,
        }
        report["spread"] = spread(report["figures"], [c for c in scores if c != RUN_COLUMN])
        atomic_write_jsonl(cfg.out_dir / ITEMS_FILE, item_rows(samples, replies, scores))
        atomic_write_json(cfg.out_dir / REJUDGE_FILE, report)
    return report


def check_out(out: Path) -> None:
    """An output folder is new, empty, or an earlier rejudge's (its judge cache is what makes it resume);
    anything else is refused rather than written into."""
    if not out.exists():
        return
    if not out.is_dir():
        raise InputError("exists and is not a folder; choose another --out", path=str(out))
    ours = {REJUDGE_FILE, ITEMS_FILE, JUDGE_FILE, LOCK_FILE}
    if foreign := sorted(p.name for p in out.iterdir() if p.name not in ours):
        raise InputError(f"holds {foreign[0]!r}, not a consistest rejudge folder; choose another --out",
                         path=str(out))  # fmt: skip


RunData = tuple[list[Sample], dict[str, str], dict[str, Any], str]


def read_run(run: Path, dataset: Path) -> RunData:
    """(the run's samples in dataset order, their replies, the run's stored scores, its signature)."""
    scores_path, summary_path = run / SCORES_FILE, run / SUMMARY_FILE
    if not summary_path.is_file() or not scores_path.is_file():
        msg = f"not a scored run (no {SUMMARY_FILE} and {SCORES_FILE}); run consistest score first"
        raise InputError(msg, path=str(run))
    sig = str(read_manifest(summary_path, required=("signature",))["signature"])
    rows = {}
    for line, r in read_jsonl(scores_path):
        for key in ("id", "response"):
            if not isinstance(r.get(key), str):
                raise InputError("expected a string", path=str(scores_path), record=f"line {line}", field=key)
        rows[r["id"]] = r
    ds = open_dataset(dataset)
    if (data := parse_signature(sig).get("data")) != ds.content_hash[:12]:
        msg = (
            f"the run was scored on another dataset (data:{data}; --dataset has data:{ds.content_hash[:12]})"
        )
        raise InputError(msg, path=str(summary_path))
    samples = [s for s in ds.samples if s.id in rows]
    if len(samples) != len(rows):
        raise InputError("holds ids that are not in --dataset", path=str(scores_path), field="id")
    replies = {s.id: rows[s.id]["response"] for s in samples}
    return samples, replies, {s.id: rows[s.id].get("score") for s in samples}, sig


def _subset(run_sig: str) -> str | None:
    return parse_signature(run_sig).get("subset")


def _nli(cfg: RejudgeConfig) -> NLI | None:
    if cfg.nli is None or isinstance(cfg.nli, NLI):
        return cfg.nli
    return nli_from_option(
        cfg.nli, cfg.nli_labels, batch_size=cfg.batch_size, device=cfg.device, quiet=cfg.quiet
    )


def rejudge_signature(
    data_hash: str, run_sig: str, nli: NLI | None, methods: dict[str, JudgeMethod], cfg: RejudgeConfig
) -> str:
    """The data, the run's subset and method, the NLI model, every column's judge tag and the probe set."""
    run = parse_signature(run_sig)
    return make_signature(
        [
            ("data", data_hash[:12]),
            ("subset", run.get("subset")),
            ("run-method", run.get("method")),
            ("nli", nli_signature(nli)),
            ("judges", [m.tag() for m in methods.values()]),
            ("probes", f"{cfg.probes}-s{cfg.seed}-p{PROBES_VERSION}" if cfg.probes else None),
        ]
    )


@dataclass(frozen=True)
class _Row:
    """What the report's figure functions read of one scored reply."""

    score: float | None
    qa_id: str
    source: str
    type: str
    distance: int
    trigger: str = ""


def column_figures(
    samples: Sequence[Sample], scores: dict[str, list[float | None]], cfg: RejudgeConfig
) -> dict[str, dict[str, Any]]:
    """Each column's figures (the groups ``score`` reports), by column, then figure key."""
    out: dict[str, dict[str, Any]] = {}
    for col, values in scores.items():
        rows = [_Row(v, s.qa_id, s.source, s.type, s.distance) for s, v in zip(samples, values, strict=True)]
        out[col] = {}
        for key, label, pred in figure_groups(rows):
            sub = [r for r in rows if pred(r)]
            if sub:
                out[col][key] = {"label": label, **figure(sub, seed=cfg.seed, name=key, n_boot=cfg.n_boot)}
    return out


def spread(figures: dict[str, dict[str, Any]], columns: Sequence[str]) -> dict[str, float | None]:
    """Per figure: the largest minus the smallest mean across the judged columns (None with fewer than 2)."""
    out: dict[str, float | None] = {}
    keys = dict.fromkeys(k for c in columns for k in figures[c])
    for key in keys:
        means = [figures[c][key]["mean"] for c in columns if figures[c].get(key, {}).get("mean") is not None]
        out[key] = max(means) - min(means) if len(means) > 1 else None
    return out


def disagreement(
    samples: Sequence[Sample], scores: dict[str, list[float | None]], cfg: RejudgeConfig
) -> list[dict[str, Any]]:
    """Each judged column against the run's stored scores and against the first judged column: items both
    decided, share scored differently, and the paired mean difference (column - reference)."""
    judged = [c for c in scores if c != RUN_COLUMN]
    pairs = [(RUN_COLUMN, c) for c in judged] + [(judged[0], c) for c in judged[1:]]
    out = []
    for ref, col in pairs:
        keep = [i for i, (a, b) in enumerate(zip(scores[ref], scores[col], strict=True))
                if a is not None and b is not None]  # fmt: skip
        a = [float(scores[ref][i]) for i in keep]  # type: ignore[arg-type]
        b = [float(scores[col][i]) for i in keep]  # type: ignore[arg-type]
        diff = paired_bootstrap(a, b, seed=cfg.seed, name=f"rejudge:{ref}:{col}", n_boot=cfg.n_boot,
                                clusters=[samples[i].qa_id for i in keep])  # fmt: skip
        differ = sum(x != y for x, y in zip(a, b, strict=True))
        out.append({"reference": ref, "column": col, "n": len(keep), "differ": differ,
                    "differ_share": differ / len(keep) if keep else None, "difference": diff})  # fmt: skip
    return out


def item_rows(
    samples: Sequence[Sample], replies: dict[str, str], scores: dict[str, list[float | None]]
) -> list[dict[str, Any]]:
    return [
        {
            "id": s.id,
            "qa_id": s.qa_id,
            "response": replies[s.id],
            "scores": {c: v[k] for c, v in scores.items()},
        }
        for k, s in enumerate(samples)
    ]
