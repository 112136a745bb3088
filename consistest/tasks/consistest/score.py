"""Score responses against a built dataset: rules, then the NLI guard, then scores.jsonl + summary.json.

``score_responses`` is the API behind ``consistest score --responses`` and the end of
``consistest score --model`` (generate into RUNDIR/responses.jsonl, then call it on that file).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl, run_lock
from consistest.core.records import Sample
from consistest.core.signature import make_signature
from consistest.core.stats import MIN_BOOT, N_BOOT
from consistest.data.dataset_dir import open_dataset, samples_hash
from consistest.metrics.rules import RULES_VERSION, Need, Verdict, final_score, judge
from consistest.models.base import NLI
from consistest.models.decoding import GenerationConfig
from consistest.models.nli import DEFAULT_NLI, nli_from_option, nli_signature
from consistest.tasks.consistest.report import SCORES_FILE, SUMMARY_FILE, render, summarize
from consistest.tasks.consistest.responses import check_coverage, read_responses


@dataclass(frozen=True)
class ScoreConfig:
    """``consistest score --responses``: every setting that changes a number, plus where to write."""

    dataset: Path
    responses: Path | None
    out: Path
    generation: GenerationConfig | None = None  # set: generate RUNDIR/responses.jsonl first (score --model)
    nli: str = DEFAULT_NLI
    nli_labels: str | None = None
    batch_size: int = 32
    device: str = "cpu"
    seed: int = 0
    n_boot: int = N_BOOT
    quiet: bool = False


@dataclass(frozen=True)
class ScoreResult:
    rows: list[dict[str, Any]]
    summary: dict[str, Any]
    out: Path | None


def run_score(cfg: ScoreConfig) -> ScoreResult:
    """Load the dataset, the responses (or generate them, after loading the NLI model so a bad --nli fails
    before any generation) and the NLI model; score; write RUNDIR under its lock."""
    if (cfg.responses is None) == (cfg.generation is None):
        raise InputError("give exactly one of --responses FILE or --model MODEL")
    check_n_boot(cfg.n_boot)
    ds = open_dataset(cfg.dataset)
    samples, extra = ds.samples, {}
    load = functools.partial(
        nli_from_option,
        cfg.nli,
        cfg.nli_labels,
        batch_size=cfg.batch_size,
        device=cfg.device,
        quiet=cfg.quiet,
    )
    with run_lock(cfg.out):
        if cfg.generation is None:
            path = Path(cfg.responses)  # type: ignore[arg-type]
            extra["responses"] = path.name
            responses = read_responses(path, samples)  # fail fast, before loading a model
            nli = load()
        else:
            from consistest.models.runner import generate_responses

            gen = cfg.generation
            nli = load()
            path = generate_responses(gen, samples, cfg.out, quiet=cfg.quiet)  # applies gen.limit itself
            samples = samples if gen.limit is None else samples[: gen.limit]
            extra["generation"] = gen.settings()
            responses = read_responses(path, samples)
        return score_responses(
            samples,
            responses,
            nli,
            cfg.out,
            build_info=ds.info,
            generation=cfg.generation,
            seed=cfg.seed,
            n_boot=cfg.n_boot,
            quiet=cfg.quiet,
            extra=extra,
            data_hash=ds.content_hash,
            subset=subset_tag(cfg.generation, len(ds.samples)),
        )


def subset_tag(generation: GenerationConfig | None, n_total: int) -> str | None:
    """``first-N`` when --limit keeps fewer samples than the dataset has (a smoke run, not the benchmark)."""
    if generation is None or generation.limit is None or generation.limit >= n_total:
        return None
    return f"first-{generation.limit}"


def check_n_boot(n_boot: int) -> None:
    """0 turns intervals off; fewer than 100 resamples would print a meaningless "95% CI"."""
    if n_boot != 0 and n_boot < MIN_BOOT:
        raise InputError(f"--n-boot must be 0 (no intervals) or at least {MIN_BOOT}, got {n_boot}")


def score_responses(
    dataset: str | Path | Sequence[Sample],
    responses: str | Path | Mapping[str, str],
    nli: NLI | None,
    out_dir: str | Path | None = None,
    *,
    build_info: Mapping[str, Any] | None = None,
    generation: GenerationConfig | None = None,
    seed: int = 0,
    n_boot: int = N_BOOT,
    quiet: bool = True,
    extra: Mapping[str, Any] | None = None,
    data_hash: str | None = None,
    subset: str | None = None,
) -> ScoreResult:
    """Score one response per sample; write ``out_dir``/scores.jsonl and summary.json atomically when given.

    ``dataset`` is a built dataset directory (its verified content hash feeds the signature) or the samples
    themselves (``data_hash`` then names them, else their content is hashed); ``responses`` is a file
    (JSONL or the original CSV) or a mapping sample id -> response; ``nli`` is an NLI (see
    ``consistest.models.nli.load_nli``) or None for rules only; ``subset`` names a partial run.
    """
    check_n_boot(n_boot)
    if isinstance(dataset, (str, Path)):
        ds = open_dataset(dataset)
        samples, build_info, data_hash = ds.samples, build_info or ds.info, ds.content_hash
    else:
        samples = list(dataset)
    if isinstance(responses, (str, Path)):
        responses = read_responses(responses, samples)
    else:
        check_coverage(responses, samples)
    rows = score_samples(samples, responses, nli, quiet=quiet)
    digest = data_hash or samples_hash(samples)
    signature = score_signature(samples, nli, build_info, generation, data_hash=digest, subset=subset)
    info = {"nli": nli_signature(nli), "rules_version": RULES_VERSION, **dict(extra or {})}
    summary = summarize(rows, signature=signature, seed=seed, n_boot=n_boot, extra=info)
    if out_dir is not None:
        out_dir = Path(out_dir)
        if out_dir.exists() and not out_dir.is_dir():
            raise InputError("--out exists and is not a directory", path=str(out_dir))
        with run_lock(out_dir):
            atomic_write_jsonl(out_dir / SCORES_FILE, rows)
            atomic_write_json(out_dir / SUMMARY_FILE, summary)
    return ScoreResult(rows=rows, summary=summary, out=Path(out_dir) if out_dir is not None else None)


def score_samples(
    samples: Sequence[Sample], responses: Mapping[str, str], nli: NLI | None, *, quiet: bool = True
) -> list[dict[str, Any]]:
    """Rules for every sample, then one NLI call for the distinct pairs whose label can change a score."""
    verdicts = [judge(s.question, s.answer, s.type, responses[s.id]) for s in samples]
    labels: list[str | None] = [None] * len(samples)
    if nli is not None:
        todo = [i for i, v in enumerate(verdicts) if v.need is not Need.NONE]
        pairs = [(samples[i].nli_premise, verdicts[i].cleaned) for i in todo]
        if pairs and not quiet:
            import sys

            print(f"NLI: {len(set(pairs))} distinct pairs for {len(pairs)} items", file=sys.stderr)
        for i, lab in zip(todo, nli.predict(pairs) if pairs else [], strict=True):
            labels[i] = lab
    return [_row(s, responses[s.id], v, lab) for s, v, lab in zip(samples, verdicts, labels, strict=True)]


def _row(s: Sample, response: str, v: Verdict, label: str | None) -> dict[str, Any]:
    return {
        "id": s.id,
        "qa_id": s.qa_id,
        "question": s.question,
        "truth": s.answer,
        "response": response,
        "cleaned": v.cleaned,
        "outcome": v.outcome.value,
        "rule_score": v.rule_score,
        "nli_use": v.need.value,
        "nli_label": label,
        "score": final_score(v, label),
        "source": s.source,
        "type": s.type,
        "distance": s.distance,
    }


def score_signature(
    samples: Sequence[Sample],
    nli: NLI | None,
    build_info: Mapping[str, Any] | None,
    generation: GenerationConfig | None = None,
    *,
    data_hash: str,
    subset: str | None = None,
) -> str:
    """data hash (verified against the data), nli + labels, rules, mem/d, a subset when not the whole
    dataset, and for generated responses the model, input variant and decoding."""
    settings = dict((build_info or {}).get("settings") or {})
    return make_signature(
        {
            "data": str(data_hash)[:12],
            "subset": subset,
            "nli": nli_signature(nli),
            "rules": RULES_VERSION,
            "mem": settings.get("memory"),
            "d": settings.get("distances") or sorted({s.distance for s in samples}),
            "paired": settings.get("paired"),
            **(generation.signature_parts() if generation is not None else {}),
        }
    )


__all__ = ["ScoreConfig", "ScoreResult", "run_score", "score_responses", "score_samples", "render"]
