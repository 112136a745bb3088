"""Score one response per sample: rules, then the NLI guard, then RUNDIR/scores.jsonl + summary.json.

:func:`run_score` is the one entry point (``consistest score`` calls it): it loads the dataset once, takes
responses from a file, a mapping, or a chat model it runs first, and returns typed scored items.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl
from consistest.core.records import Sample, ScoredItem
from consistest.core.rundir import SCORES_FILE, SUMMARY_FILE, run_lock
from consistest.core.signature import make_signature
from consistest.core.stats import MIN_BOOT, N_BOOT
from consistest.data.dataset_dir import DatasetDir, has_sessions
from consistest.metrics.rules import RULES_VERSION
from consistest.models.base import NLI
from consistest.models.nli import DEFAULT_NLI, nli_from_option, nli_signature
from consistest.tasks.consistest.categories import CATEGORIES_VERSION, categorise
from consistest.tasks.consistest.methods import Judged, Method, check_method, judge_samples, signature_value
from consistest.tasks.consistest.report import summarize
from consistest.tasks.consistest.respond import RespondConfig, respond
from consistest.tasks.consistest.responses import check_coverage, read_responses
from consistest.tasks.consistest.trigger_config import config_parts, open_config


@dataclass(frozen=True)
class ScoreConfig:
    """Every setting that changes a number, plus where to write (``out=None``: nothing is written).

    Responses come from ``responses`` (a JSONL/CSV file or a mapping sample id -> text) or from running
    ``respond`` into ``out`` first. ``nli`` is a model spec (hub id or folder; ``none`` = rules only) or an
    NLI object."""

    dataset: Path
    out: Path | None
    responses: Path | Mapping[str, str] | None = None
    respond: RespondConfig | None = None
    nli: str | NLI | None = DEFAULT_NLI
    nli_labels: str | None = None
    batch_size: int = 32
    device: str = "cpu"
    seed: int = 0
    n_boot: int = N_BOOT
    method: Method = "paper"  # the paper's hybrid, or "plus" (consistest.metrics.plus)
    quiet: bool = False
    config: str = "default"  # the dataset config: "default", or "triggers" (consistest build --triggers)
    plot: bool | None = None  # the distance curve (RUNDIR/curve.png): None = with 3+ distances, if matplotlib


@dataclass(frozen=True)
class ScoreResult:
    items: list[ScoredItem]
    summary: dict[str, Any]
    out: Path | None


def run_score(cfg: ScoreConfig) -> ScoreResult:
    """Load the dataset, the responses (or generate them, after loading the NLI model so a bad --nli fails
    before any generation) and the NLI model; score; write RUNDIR under its lock."""
    if (cfg.responses is None) == (cfg.respond is None):
        raise InputError("give exactly one of --responses FILE or --model MODEL")
    check_n_boot(cfg.n_boot)
    check_method(cfg.method)
    ds, triggers = open_config(cfg.dataset, cfg.config)
    with run_lock(cfg.out) if cfg.out is not None else contextlib.nullcontext():
        samples, responses, nli, extra = _responses_and_nli(cfg, ds)
        items = score_items(samples, responses, nli, quiet=cfg.quiet, method=cfg.method)
        items = categorise(items, samples, nli, triggers=triggers, quiet=cfg.quiet)
        subset = subset_tag(cfg.respond, len(ds.samples))
        signature = score_signature(
            ds, samples, nli, cfg.respond, subset=subset, method=cfg.method, config=cfg.config
        )
        info = {"nli": nli_signature(nli), "rules_version": RULES_VERSION, "method": cfg.method, **extra}
        summary = summarize(
            items, signature=signature, seed=cfg.seed, n_boot=cfg.n_boot, extra=info, curve=cfg.plot or None
        )
        if cfg.out is not None:
            atomic_write_jsonl(cfg.out / SCORES_FILE, [it.to_dict() for it in items])
            atomic_write_json(cfg.out / SUMMARY_FILE, summary)
            _plot_curve(cfg, summary)
    return ScoreResult(items=items, summary=summary, out=cfg.out)


def _plot_curve(cfg: ScoreConfig, summary: Mapping[str, Any]) -> None:
    """RUNDIR/curve.png when the summary has a curve (unless --no-plot); without matplotlib only a warning,
    unless --plot asked for it."""
    from consistest.core import log
    from consistest.tasks.consistest.curve import CURVE_FILE, model_label, plot_available, plot_curves

    if "curve" not in summary or cfg.plot is False or cfg.out is None:
        return
    if cfg.plot is None and not plot_available():
        log.warning("the distance curve is in summary.json; install matplotlib to draw curve.png")
        return
    name = model_label(cfg.respond.model.name) if cfg.respond is not None else "responses"
    plot_curves(
        [(name, summary["curve"])], cfg.out / CURVE_FILE, title=f"{name}: consistency against distance"
    )
    log.info(f"distance curve written to {cfg.out / CURVE_FILE}", quiet=cfg.quiet)


def _responses_and_nli(
    cfg: ScoreConfig, ds: DatasetDir
) -> tuple[list[Sample], Mapping[str, str], NLI | None, dict[str, Any]]:
    """Responses read first (fail fast) then the NLI model; or the NLI model first, then generation."""
    samples = ds.samples
    if cfg.respond is None:
        if isinstance(cfg.responses, Mapping):
            check_coverage(cfg.responses, samples)
            return samples, cfg.responses, _nli(cfg), {}
        path = Path(cfg.responses)  # type: ignore[arg-type]
        responses = read_responses(path, samples)
        return samples, responses, _nli(cfg), {"responses": path.name}
    if cfg.out is None:
        raise InputError("generating responses needs an output directory (--out)")
    nli = _nli(cfg)
    path = respond(cfg.respond, samples, cfg.out, quiet=cfg.quiet, data_hash=ds.content_hash)
    samples = cfg.respond.subset(samples)
    return samples, read_responses(path, samples), nli, {"generation": cfg.respond.settings()}


def _nli(cfg: ScoreConfig) -> NLI | None:
    if cfg.nli is None or isinstance(cfg.nli, NLI):
        return cfg.nli
    return nli_from_option(
        cfg.nli, cfg.nli_labels, batch_size=cfg.batch_size, device=cfg.device, quiet=cfg.quiet
    )


def subset_tag(cfg: RespondConfig | None, n_total: int) -> str | None:
    """``first-N`` (--limit, a smoke run) or ``sample-N-sSEED`` (--sample) when fewer samples than the
    dataset has are scored: not the benchmark's number."""
    return None if cfg is None else cfg.subset_tag(n_total)


def check_n_boot(n_boot: int) -> None:
    """0 turns intervals off; fewer than 100 resamples would print a meaningless "95% CI"."""
    if n_boot != 0 and n_boot < MIN_BOOT:
        raise InputError(f"--n-boot must be 0 (no intervals) or at least {MIN_BOOT}, got {n_boot}")


def score_items(
    samples: Sequence[Sample],
    responses: Mapping[str, str],
    nli: NLI | None,
    *,
    quiet: bool = True,
    method: Method = "paper",
) -> list[ScoredItem]:
    """Rules for every sample, then one NLI call for the distinct pairs whose label can change a score."""
    judged = judge_samples(samples, responses, nli, method=method, quiet=quiet)
    return [_item(s, responses[s.id], j) for s, j in zip(samples, judged, strict=True)]


def _item(s: Sample, response: str, j: Judged) -> ScoredItem:
    return ScoredItem(
        id=s.id,
        qa_id=s.qa_id,
        question=s.question,
        truth=s.answer,
        response=response,
        cleaned=j.cleaned,
        outcome=j.outcome,
        rule_score=j.rule_score,
        nli_use=j.nli_use,
        nli_label=j.nli_label,
        score=j.score,
        source=s.source,
        type=s.type,
        distance=s.distance,
    )


def score_signature(
    ds: DatasetDir,
    samples: Sequence[Sample],
    nli: NLI | None,
    responder: RespondConfig | None = None,
    *,
    subset: str | None = None,
    method: Method = "paper",
    config: str = "default",
) -> str:
    """The data (its verified hash, the config and a subset when not all of it, memory and distances), the
    scorer (NLI model and label map, rules version, method, category version) and, for generated responses,
    the model, variant and decoding."""
    settings = dict((ds.info or {}).get("settings") or {})
    return make_signature(
        [
            ("data", ds.content_hash[:12]),
            *config_parts(ds, config),
            ("subset", subset),
            ("nli", nli_signature(nli)),
            ("rules", RULES_VERSION),
            ("method", signature_value(method)),
            ("cat", CATEGORIES_VERSION),
            ("mem", settings.get("memory")),
            ("d", settings.get("distances") or sorted({s.distance for s in samples})),
            ("paired", settings.get("paired")),
            *(responder.signature_parts(has_sessions(samples)) if responder is not None else []),
        ]
    )
