"""Score one response per sample: rules, then the NLI guard, then RUNDIR/scores.jsonl + summary.json.

:func:`run_score` is the one entry point (``consistest score`` calls it): it loads the dataset once, takes
responses from a file, a mapping, or a chat model it runs first, and returns typed scored items. The
scoring itself, which ``consistest rejudge`` shares, is :mod:`.scoring`; this module gathers the inputs and
writes RUNDIR.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl, read_json
from consistest.core.records import Sample, ScoredItem, content_hash
from consistest.core.rundir import JUDGE_FILE, SCORES_FILE, SUMMARY_FILE, run_lock
from consistest.core.signature import parse_signature
from consistest.core.stats import MIN_BOOT, N_BOOT
from consistest.data.dataset_dir import DatasetDir
from consistest.metrics.rules import RULES_VERSION
from consistest.models.base import NLI
from consistest.models.nli import DEFAULT_NLI, nli_from_option, nli_signature
from consistest.tasks.consistest.categories import categorise
from consistest.tasks.consistest.curve import plot_run_curve
from consistest.tasks.consistest.generation import RespondConfig, respond
from consistest.tasks.consistest.methods import (
    DEFAULT_METHOD,
    UNSIGNED_METHOD,
    JudgeMethod,
    Method,
    check_method,
    signature_value,
)
from consistest.tasks.consistest.methods.judge import stage_counts
from consistest.tasks.consistest.report import summarize
from consistest.tasks.consistest.report_text import cut_warning, subset_warning
from consistest.tasks.consistest.responses_file import check_coverage, is_csv, read_responses
from consistest.tasks.consistest.scoring import MAX_REPLY_CHARS, cap_replies, score_items, score_signature
from consistest.tasks.consistest.subsets import Subset
from consistest.tasks.consistest.trigger_config import open_config


@dataclass(frozen=True)
class ScoreConfig:
    """Every setting that changes a number, plus where to write (``out=None``: nothing is written).

    Responses come from ``responses`` (a JSONL/CSV file or a mapping sample id -> text, possibly for a
    subset: only those samples are scored) or from running ``respond`` into ``out`` first. ``subset``
    (--limit/--sample) selects the samples scored from ``responses``. ``nli`` is a model spec (hub id or
    folder; ``none`` = rules only) or an NLI object. ``overwrite`` lets a run replace a summary scored with
    another method or NLI model (and, with ``respond``, discards its responses)."""

    dataset: Path
    out: Path | None
    responses: Path | Mapping[str, str] | None = None
    respond: RespondConfig | None = None
    subset: Subset | None = None
    nli: str | NLI | None = DEFAULT_NLI
    nli_labels: str | None = None
    batch_size: int = 32
    device: str = "cpu"
    seed: int = 0
    n_boot: int = N_BOOT
    method: Method = DEFAULT_METHOD  # "plus" (consistest.metrics.plus), the paper's hybrid, or "judge"
    judge: JudgeMethod | None = None  # method "judge": the judge model, prompt and cascade
    quiet: bool = False
    config: str = "default"  # the dataset config: "default", or "triggers" (consistest build --triggers)
    overwrite: bool = False
    plot: bool | None = None  # the distance curve (RUNDIR/curve.png): None = with 3+ distances, if matplotlib


@dataclass(frozen=True)
class ScoreResult:
    items: list[ScoredItem]
    summary: dict[str, Any]
    out: Path | None


@dataclass(frozen=True)
class _Inputs:
    samples: list[Sample]
    responses: Mapping[str, str]
    nli: NLI | None
    extra: dict[str, Any]
    subset: str | None


def run_score(cfg: ScoreConfig) -> ScoreResult:
    """Load the dataset, the responses (or generate them, after loading the NLI model so a bad --nli fails
    before any generation) and the NLI model; score; write RUNDIR under its lock."""
    if (cfg.responses is None) == (cfg.respond is None):
        raise InputError("give exactly one of --responses FILE or --model MODEL")
    check_n_boot(cfg.n_boot)
    check_method(cfg.method)
    judge = judge_method(cfg)
    ds, triggers = open_config(cfg.dataset, cfg.config)
    with run_lock(cfg.out) if cfg.out is not None else contextlib.nullcontext():
        check_rescoring(cfg, "method", signature_value(cfg.method, judge=judge))
        got = _responses_and_nli(cfg, ds)
        responses, cut = cap_replies(got.responses, got.samples)
        items = score_items(got.samples, responses, got.nli, quiet=cfg.quiet, method=cfg.method, judge=judge)
        items = categorise(items, got.samples, got.nli, triggers=triggers, quiet=cfg.quiet)
        signature = score_signature(
            ds, got.samples, got.nli, cfg.respond, subset=got.subset, method=cfg.method, config=cfg.config,
            cut=cut, judge=judge,
        )  # fmt: skip
        info = {"nli": nli_signature(got.nli), "rules_version": RULES_VERSION, "method": cfg.method}
        info |= got.extra | ({"replies_cut": cut, "max_reply_chars": MAX_REPLY_CHARS} if cut else {})
        if judge is not None:
            info["judge_stages"] = stage_counts([it.judge for it in items])
        summary = summarize(
            items, signature=signature, seed=cfg.seed, n_boot=cfg.n_boot, extra=info, curve=cfg.plot or None
        )
        if cut:
            log.warning(cut_warning(cut, MAX_REPLY_CHARS))
        if cfg.out is not None:
            atomic_write_jsonl(cfg.out / SCORES_FILE, [it.to_dict() for it in items])
            atomic_write_json(cfg.out / SUMMARY_FILE, summary)
            name = cfg.respond.model.name if cfg.respond is not None else None
            plot_run_curve(summary, cfg.out, cfg.plot, name, quiet=cfg.quiet)
    return ScoreResult(items=items, summary=summary, out=cfg.out)


def judge_method(cfg: ScoreConfig) -> JudgeMethod | None:
    """The configured judge method, caching its calls in RUNDIR/judge.jsonl; None for the rule methods
    (a judge given to them is refused: it would change nothing while looking as if it did)."""
    if cfg.method != "judge":
        if cfg.judge is not None:
            raise InputError("--judge is read by --method judge only", field="judge")
        return None
    if cfg.judge is None or cfg.judge.model is None:
        raise InputError("--method judge needs a judge model: --judge SPEC", field="judge")
    return replace(cfg.judge, cache=cfg.out / JUDGE_FILE if cfg.out is not None else None)


def check_rescoring(cfg: ScoreConfig, part: str, value: str) -> None:
    """A run folder whose summary was scored with another method or NLI model is not silently rescored:
    its figures would be replaced by ones that mean something else."""
    if cfg.out is None or cfg.overwrite or not (cfg.out / SUMMARY_FILE).is_file():
        return
    old = read_json(cfg.out / SUMMARY_FILE)
    stored = parse_signature(str(old.get("signature", ""))) if isinstance(old, dict) else {}
    if part == "method" and stored and part not in stored:
        stored[part] = UNSIGNED_METHOD
    if part in stored and stored[part] != value:
        raise InputError(
            f"holds scores with {part}:{stored[part]}; scoring with {part}:{value} would replace them; use "
            "another --out (consistest score --responses RUN/responses.jsonl ... --out NEW scores a run's "
            "replies anew), or --overwrite",
            path=str(cfg.out / SUMMARY_FILE),
        )


def _responses_and_nli(cfg: ScoreConfig, ds: DatasetDir) -> _Inputs:
    """Responses read first (fail fast) then the NLI model; or the NLI model first, then generation."""
    samples = ds.samples
    if cfg.respond is None:
        chosen = (cfg.subset or Subset()).select(samples)
        if isinstance(cfg.responses, Mapping):
            check_coverage(cfg.responses, samples, subset_ok=True)
            responses, extra = cfg.responses, {}
        else:
            path = Path(cfg.responses)  # type: ignore[arg-type]
            responses = read_responses(path, chosen if is_csv(path) else samples, subset_ok=True)
            extra = {"responses": path.name}
        chosen, tag, covered = responses_subset(cfg, samples, chosen, responses)
        if covered is not None:
            extra["responses_subset"] = covered
            log.warning(subset_warning(covered["scored"], covered["dataset"]))
        return _Inputs(chosen, responses, _nli_checked(cfg), extra, tag)
    if cfg.out is None:
        raise InputError("generating responses needs an output directory (--out)")
    nli = _nli_checked(cfg)
    path = respond(cfg.respond, samples, cfg.out, quiet=cfg.quiet, data_hash=ds.content_hash)
    chosen = cfg.respond.subset(samples)
    extra = {"generation": cfg.respond.settings()}
    return _Inputs(chosen, read_responses(path, chosen), nli, extra, cfg.respond.subset_tag(len(samples)))


def responses_subset(
    cfg: ScoreConfig, samples: Sequence[Sample], chosen: list[Sample], responses: Mapping[str, str]
) -> tuple[list[Sample], str | None, dict[str, int] | None]:
    """(samples scored, the signature's subset tag, {"scored", "dataset"} when the responses cover only
    part of the dataset). A --limit/--sample subset must be covered whole."""
    where = str(cfg.responses) if not isinstance(cfg.responses, Mapping) else None
    selection = cfg.subset or Subset()
    tag = selection.tag(len(samples))
    missing = [s.id for s in chosen if s.id not in responses]
    if missing and tag is not None:
        raise InputError(
            f"{len(missing)} of the {len(chosen)} samples of subset {tag} have no response, first id "
            f"{missing[0]!r}",
            path=where,
        )
    if not missing:
        return chosen, tag, None
    chosen = [s for s in chosen if s.id in responses]
    if not chosen:
        raise InputError("no response has the id of a sample of this dataset", path=where)
    tag = f"responses-{len(chosen)}-{content_hash(sorted(s.id for s in chosen))[:8]}"
    return chosen, tag, {"scored": len(chosen), "dataset": len(samples)}


def _nli_checked(cfg: ScoreConfig) -> NLI | None:
    """The NLI model, then a refusal when the run folder holds scores of another NLI model."""
    nli = _nli(cfg)
    check_rescoring(cfg, "nli", nli_signature(nli))
    return nli


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
