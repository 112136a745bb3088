"""``consistest detect``: run a trained detector, or a chat model as judge (``--judge SPEC``), over dialogues
(CDConv, DECODE, detector-pairs JSONL or a scored ConsisTest run) and write one prediction per dialogue; with
labels, CDConv's Table 4 figures. A judge's undecided dialogues are left out of those figures and counted
beside them (``judged``: decided, undecided, accuracy counting undecided as wrong)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl
from consistest.core.output_guards import guard_output_file
from consistest.core.records import DialogueExample, content_hash
from consistest.core.rundir import read_manifest
from consistest.models.base import ChatModel
from consistest.models.registry import ModelSpec
from consistest.tasks.cdconv.inputs import read_dialogues
from consistest.tasks.cdconv.outdir import DETECT_MARK, guard_predictions, warn_training_overlap
from consistest.tasks.cdconv.report import (
    by_group,
    coverage_figures,
    detector_metrics,
    figures_with_intervals,
)

MAX_ORIGINS = 12  # figures by origin (bot model) when the examples come from this many or fewer


@dataclass(frozen=True)
class DetectConfig:
    data: tuple[str, ...]
    detector: str | None = None  # a trained detector folder, or:
    judge: str | ModelSpec | ChatModel | None = None  # a chat model as judge (a spec; a test's fake)
    judge_prompt: str | None = None  # the judge's prompt version (default: model_judge.DEFAULT_JUDGE_PROMPT)
    judge_cache: str | None = None  # the judge's calls (default: <out>.judge.jsonl; no --out: in memory)
    judge_output: str = "text"  # choice: the judge's labels scored (local HF chat models)
    out: str | None = None  # predictions JSONL (metrics beside it as <out>.metrics.json)
    dataset: str | None = None
    overwrite: bool = False  # replace an --out file that is not an earlier detect output
    batch_size: int = 64
    device: str = "cpu"
    threads: int = 0
    nli: str | None = None  # nli-pairs: the guard's folder when it moved (its weights must be the same)
    n_boot: int = 1000  # bootstrap resamples for the intervals (0: none)
    boot_seed: int = 0
    quiet: bool = False


def prediction_rows(examples: Sequence[DialogueExample], preds: Sequence[Any]) -> list[dict[str, Any]]:
    """One output row per dialogue: the prediction, and the gold label and trigger when known."""
    rows = []
    for ex, p in zip(examples, preds, strict=True):
        row = asdict(p)
        row.update({"gold": ex.label, "trigger": ex.trigger, "origin": ex.origin})
        rows.append(row)
    return rows


def set_metrics(
    examples: Sequence[DialogueExample],
    preds: Sequence[Any],
    n_boot: int = 0,
    boot_seed: int = 0,
    *,
    judged: bool = False,
) -> dict[str, Any] | None:
    """Table 4 figures over the labelled examples, overall, by trigger and by origin (the bot model, when
    a few), and with ``n_boot`` the figures with 95% bootstrap intervals, the replies to one context
    resampled together (None without labels). ``judged``: predictions may be undecided (category None);
    the figures cover the decided ones, and ``judged`` counts both (see ``coverage_figures``)."""
    labelled = [i for i, ex in enumerate(examples) if ex.label is not None]
    if not labelled:
        return None
    coverage = {}
    if judged:
        coverage["judged"] = coverage_figures(
            [examples[i].label or "none" for i in labelled], [preds[i].category for i in labelled],
            [examples[i].context for i in labelled], n_boot=n_boot, seed=boot_seed,
        )  # fmt: skip
    idx = [i for i in labelled if preds[i].category is not None]
    if not idx:
        return coverage
    gold = [examples[i].label or "none" for i in idx]
    pred = [preds[i].category for i in idx]
    out = {**detector_metrics(gold, pred), **coverage}
    triggers = [examples[i].trigger for i in idx]
    if len(set(triggers)) > 1:
        out["by_trigger"] = by_group(gold, pred, triggers)
    origins = [examples[i].origin for i in idx]
    if 1 < len(set(origins)) <= MAX_ORIGINS:
        out["by_origin"] = by_group(gold, pred, origins)
    if n_boot > 0:
        clusters = [examples[i].context for i in idx]
        out["intervals"] = figures_with_intervals(gold, pred, clusters, n_boot=n_boot, seed=boot_seed)
    return out


def evaluate_sets(
    detector_dir: str | Path,
    sets: Mapping[str, Sequence[DialogueExample]],
    *,
    batch_size: int = 64,
    device: str = "cpu",
    nli: str | None = None,
    n_boot: int = 0,
    boot_seed: int = 0,
) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """(metrics per labelled set, prediction rows per set) of a trained or calibrated detector."""
    from consistest.tasks.cdconv.loading import load_detector

    detector = load_detector(detector_dir, batch_size=batch_size, device=device, nli=nli)
    results, rows = {}, {}
    for name, examples in sets.items():
        preds = detector.predict(examples)
        rows[name] = prediction_rows(examples, preds)
        m = set_metrics(examples, preds, n_boot, boot_seed)
        if m is not None:
            results[name] = m
    return results, rows


def run_detect(cfg: DetectConfig) -> dict[str, Any]:
    """Predict every dialogue of ``cfg.data``; write predictions (and metrics) when ``out`` is given."""
    check_detector_choice(cfg)
    examples = [ex for p in cfg.data for ex in read_dialogues(p, cfg.dataset)]
    if not examples:
        raise InputError("no dialogues to judge", field="data")
    inputs = [*cfg.data, *([cfg.dataset] if cfg.dataset else []), *([cfg.detector] if cfg.detector else [])]
    if cfg.out is not None:
        preds_path, metrics_file = guard_predictions(cfg.out, inputs, cfg.overwrite)
    name = "+".join(Path(p).name for p in cfg.data)
    if cfg.judge is not None:
        signature, results, rows = _judged_set(cfg, name, examples, inputs)
    else:
        signature, results, rows = _trained_sets(cfg, name, examples)
    summary = {
        "written_by": DETECT_MARK,
        "signature": signature,
        "data": {"files": [Path(p).name for p in cfg.data], "hash": content_hash([e.id for e in examples])},
        "n": len(examples),
        "categories": _counts([r["category"] or "undecided" for r in rows[name]]),
        "results": results,
    }
    by = decided_by(rows[name])
    if by:
        summary["decided_by"] = by
        rules = ", ".join(f"{k} {v:,}" for k, v in sorted(by.items()) if k not in _NOT_RULES)
        ruled = sum(v for k, v in by.items() if k not in _NOT_RULES)
        unread = f"; none, the guard reading no pairs: {by['no-pairs']:,}" if "no-pairs" in by else ""
        log.info(f"decided by the answer rules: {ruled:,} ({rules}); by the guard: {by.get('guard', 0):,}"
                 + unread, quiet=cfg.quiet)  # fmt: skip
    if cfg.out is not None:
        atomic_write_jsonl(preds_path, rows[name])
        atomic_write_json(metrics_file, summary)
        log.info(f"wrote {len(rows[name])} predictions to {cfg.out}", quiet=cfg.quiet)
    return summary


_NOT_RULES = ("guard", "no-pairs")


def decided_by(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """How many dialogues each answer rule and the guard decided (``nli-pairs --qa-rules``: a row's first
    stage is ``rule:<name>`` where a rule decided, and it has none where no rule did and the guard read no
    pairs: ``no-pairs``); empty for detectors without the answer rules."""
    stages = [next(iter(r.get("stage_probabilities") or {}), "") for r in rows]
    if not any(s.startswith("rule:") for s in stages):
        return {}
    return _counts([_decider(s) for s in stages])


def _decider(stage: str) -> str:
    if stage.startswith("rule:"):
        return stage.removeprefix("rule:")
    return "guard" if stage else "no-pairs"


def check_detector_choice(cfg: DetectConfig) -> None:
    """Exactly one of a trained detector and a judge; the judge's options only with a judge."""
    if (cfg.detector is None) == (cfg.judge is None):
        raise InputError("give exactly one of --detector DIR (a trained detector) or --judge SPEC (a chat "
                         "model as judge)", field="detector")  # fmt: skip
    if cfg.judge is None and (cfg.judge_prompt, cfg.judge_cache, cfg.judge_output) != (None, None, "text"):
        raise InputError(
            "--judge-prompt, --judge-cache and --judge-output go with --judge only", field="judge"
        )


def _trained_sets(
    cfg: DetectConfig, name: str, examples: list[DialogueExample]
) -> tuple[str, dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """(signature, metrics, prediction rows) of the trained detector ``cfg.detector`` on one set."""
    import torch

    from consistest.models.hf_loader import resolve_device

    assert cfg.detector is not None
    if cfg.threads > 0:
        torch.set_num_threads(cfg.threads)
    cfg = replace(cfg, device=resolve_device(cfg.device))
    info = _detector_info(cfg.detector)
    warn_training_overlap(cfg.detector, examples)
    warn_unknown_text(cfg.detector, examples)
    results, rows = evaluate_sets(
        cfg.detector, {name: examples}, batch_size=cfg.batch_size, device=cfg.device, nli=cfg.nli,
        n_boot=cfg.n_boot, boot_seed=cfg.boot_seed,
    )  # fmt: skip
    return info["signature"], results, rows


def _judged_set(
    cfg: DetectConfig, name: str, examples: list[DialogueExample], inputs: list[str]
) -> tuple[str, dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """(signature, metrics, prediction rows) of the judge ``cfg.judge`` on one set, its calls cached in
    ``cfg.judge_cache`` (default ``<out>.judge.jsonl``), so a killed run resumes where it stopped."""
    from consistest.models.judging import judge_spec
    from consistest.tasks.cdconv.model_judge import DEFAULT_JUDGE_PROMPT, JudgeDetector, judge_cache_path

    cache = cfg.judge_cache or (judge_cache_path(cfg.out) if cfg.out is not None else None)
    if cache is not None:
        guard_output_file(cache, earlier=lambda _p: True, inputs=inputs, what="judge cache")
    model = judge_spec(cfg.judge) if isinstance(cfg.judge, str) else cfg.judge
    judge = JudgeDetector(model, cfg.judge_prompt or DEFAULT_JUDGE_PROMPT, Path(cache) if cache else None,
                          cfg.quiet, cfg.judge_output)  # type: ignore[arg-type]  # fmt: skip
    preds = judge.predict(examples)
    n_un = sum(p.category is None for p in preds)
    log.info(f"judge: {len(preds) - n_un:,} decided, {n_un:,} undecided (asked twice, raw replies kept), "
             f"{sum(p.retried for p in preds):,} retried", quiet=cfg.quiet)  # fmt: skip
    m = set_metrics(examples, preds, cfg.n_boot, cfg.boot_seed, judged=True)
    return judge.signature(), ({name: m} if m is not None else {}), {name: prediction_rows(examples, preds)}


def _counts(values: Sequence[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


def _detector_info(directory: str) -> dict[str, Any]:
    from consistest.tasks.cdconv.detector import DETECTOR_FILE

    path = Path(directory) / DETECTOR_FILE
    if not path.is_file():
        raise InputError(
            f"not a trained detector (no {DETECTOR_FILE}); run consistest train-detector", path=directory
        )
    from consistest.tasks.cdconv.detector import Detector, architecture_of
    from consistest.tasks.cdconv.pairwise import ARCHITECTURE as PAIRS

    info = read_manifest(path)
    if architecture_of(info) != PAIRS:  # nli-pairs: the guard, no stages
        info = Detector.read_info(Path(directory))
    if "signature" not in info:
        raise InputError("missing field", path=str(path), field="signature")
    return info


UNKNOWN_SHARE = 0.5  # above this share of unknown words a detector judges text it cannot read


def warn_unknown_text(directory: str, examples: Sequence[DialogueExample]) -> None:
    """Warn when most words of the dialogues are not in the detector's vocabulary (English text for a
    detector trained on Chinese): its predictions then say little."""
    from consistest.tasks.cdconv.detector import DETECTOR_FILE, Detector, architecture_of
    from consistest.tasks.cdconv.pairwise import ARCHITECTURE as PAIRS

    if architecture_of(read_manifest(Path(directory) / DETECTOR_FILE)) == PAIRS:
        return  # the guard's English vocabulary, no trained stage
    share = Detector.unknown_share(directory, [t for ex in examples[:2000] for t in ex.turns])
    if share > UNKNOWN_SHARE:
        log.warning(
            f"{100 * share:.0f}% of the dialogues' words are not in the detector's vocabulary (a language "
            "or domain it was not trained on?): its predictions say little about them"
        )
