"""Build the ConsisTest dataset directory: read inputs, assemble samples, write data + card + build_info."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_dir, atomic_write_json
from consistest.core.output_guards import guard_output_dir
from consistest.core.records import Sample
from consistest.core.signature import make_signature
from consistest.data.card import render_card
from consistest.data.dataset_dir import BUILD_INFO, file_sha256, samples_hash, write_samples
from consistest.data.dialogues import read_dialogues
from consistest.data.qa_files import read_history_qas, read_persona_qas
from consistest.tasks.consistest.assemble import (
    AssemblyConfig,
    MatchCounts,
    assemble,
    count_samples,
    match_counts,
)
from consistest.tasks.consistest.inputs import DEMO_DIR, resolve_inputs

DEFAULT_OUT = Path("data/built/consistest-02")
DEMO_OUT = Path("data/built/consistest-demo")


@dataclass(frozen=True)
class BuildConfig:
    """Everything that decides the built dataset (paths only locate inputs; their sha256 is recorded)."""

    out: Path = DEFAULT_OUT
    dialogues: Path | None = None
    persona_qas: Path | None = None
    history_qas: Path | None = None
    raw_dir: Path = Path("data/raw")
    demo: bool = False
    layout: str | None = None
    fmt: str = "parquet"
    assembly: AssemblyConfig = field(default_factory=AssemblyConfig)
    qagen: Any = None  # a QAGenConfig for builds from --dialogues alone (None: builder defaults)
    overwrite: bool = False  # replace an --out directory that is not an earlier build
    allow_partial: bool = False  # build even when many curated QAs match no dialogue
    triggers: tuple[str, ...] = ()  # trigger variants, written as a second config (data/triggers.*)
    paraphrase_model: str | None = None  # a seq2seq paraphraser for the paraphrase trigger (else templates)
    device: str = "cpu"  # for the paraphrase model and the filler guard
    # Session builds (assembly.sessions): how filler sessions are checked against the asked fact.
    filler_triples: Path | None = None  # a ConvAI2 "both" file with Dialogue-NLI triples
    filler_guard: str | None = None  # an NLI model (folder or hub id)
    filler_unchecked: bool = False  # allow a session build with no check at all (named in the signature)
    quiet: bool = False


@dataclass(frozen=True)
class BuildResult:
    out: Path
    samples: list[Sample]
    info: dict[str, Any]


def build_dataset(cfg: BuildConfig) -> BuildResult:
    """Read, assemble and write ``cfg.out`` atomically (the old directory stays until the new is whole)."""
    dialogues_path, pqa_path, hqa_path = resolve_inputs(
        demo=cfg.demo,
        dialogues=cfg.dialogues,
        persona_qas=cfg.persona_qas,
        history_qas=cfg.history_qas,
        raw_dir=cfg.raw_dir,
        quiet=cfg.quiet,
    )
    given = [p for p in (dialogues_path, pqa_path, hqa_path, cfg.filler_triples) if p is not None]
    guard_output_dir(cfg.out, marker=BUILD_INFO, overwrite=cfg.overwrite, inputs=given)
    dialogues = read_dialogues(dialogues_path, cfg.layout)
    generated = None
    if pqa_path is None or hqa_path is None:
        generated = _make_qas(dialogues, cfg)
        persona_qas, history_qas = generated.persona_qas, generated.history_qas
        inputs = {"dialogues": dialogues_path}
    else:
        persona_qas, history_qas = read_persona_qas(pqa_path), read_history_qas(hqa_path)
        inputs = {"dialogues": dialogues_path, "persona_qas": pqa_path, "history_qas": hqa_path}
    matched = match_counts(dialogues, persona_qas, history_qas)
    if not cfg.allow_partial:
        check_match(matched, dialogues_path, pqa_path, hqa_path, layout=cfg.layout)
    session_info = None
    if cfg.assembly.sessions:
        from consistest.tasks.consistest.build_sessions import session_samples

        samples, paired, session_info = session_samples(
            dialogues, persona_qas, history_qas, cfg, str(hqa_path)
        )
    else:
        samples = assemble(dialogues, persona_qas, history_qas, cfg.assembly, history_path=str(hqa_path))
        paired_cfg = AssemblyConfig(cfg.assembly.memory, cfg.assembly.distances, paired=True)
        paired = samples if cfg.assembly.paired else assemble(dialogues, persona_qas, history_qas, paired_cfg)
    qagen_info = generated.info if generated is not None else None
    info = build_info(
        samples,
        paired,
        cfg,
        inputs,
        n_dialogues=len(dialogues),
        qagen_info=qagen_info,
        matched=matched,
        sessions=session_info,
    )
    with atomic_dir(cfg.out) as tmp:
        if generated is not None:
            from consistest.tasks.consistest.qagen.pipeline import write_qas

            write_qas(generated, tmp)
        info["data_sha256"] = file_sha256(write_samples(tmp, samples, cfg.fmt))
        if cfg.triggers:
            info["triggers"] = _write_triggers(tmp, samples, cfg, info)
        atomic_write_json(tmp / BUILD_INFO, info)
        (tmp / "README.md").write_text(render_card(info), encoding="utf-8")
    log.info(f"wrote {len(samples)} samples to {cfg.out}", quiet=cfg.quiet)
    return BuildResult(out=cfg.out, samples=samples, info=info)


def _write_triggers(
    tmp: Path, samples: list[Sample], cfg: BuildConfig, info: dict[str, Any]
) -> dict[str, Any]:
    """The trigger variants as the dataset's ``triggers`` config (the default split is not touched)."""
    from consistest.tasks.consistest.trigger_config import trigger_build_info, write_trigger_rows
    from consistest.tasks.consistest.triggers import make_trigger_rows

    paraphraser = None
    if cfg.paraphrase_model:
        from consistest.models.paraphrase import HFParaphraser

        paraphraser = HFParaphraser(cfg.paraphrase_model, device=cfg.device)
    rows, tinfo = make_trigger_rows(samples, cfg.triggers, paraphraser)  # type: ignore[arg-type]
    path = write_trigger_rows(tmp, rows, cfg.fmt)
    log.info(f"triggers: {len(rows)} rows ({tinfo['counts']})", quiet=cfg.quiet)
    return trigger_build_info(rows, tinfo, path, info)


# A build may lose this share of the curated QAs (facts missing from the dialogues) before it fails.
MAX_UNMATCHED_SHARE = 0.01


def check_match(
    m: MatchCounts, dialogues: Path, persona_qas: Path | None, history_qas: Path | None, layout: str | None
) -> None:
    """Fail when no persona QA matches, or more than 1% of either QA file matches no dialogue."""
    from consistest.data.dialogues import detect_layout

    checks = (
        (persona_qas, m.persona_qas, m.persona_matched, "persona QAs match a persona sentence"),
        (history_qas, m.history_qas, m.history_matched, "history QAs match a dialogue id"),
    )
    for path, total, hit, what in checks:
        if total and (hit == 0 or (total - hit) > MAX_UNMATCHED_SHARE * total):
            hint = (
                "the curated QAs are keyed by the ConsisTest JSON layout's sentences and ids "
                "(consistest_valid.json, `i read twenty books a year .`); build from that file"
                if (layout or detect_layout(dialogues)) != "consistest-json"
                else "the QA files belong to other dialogues"
            )
            raise InputError(
                f"only {hit:,} of {total:,} {what} of {Path(dialogues).name}: {hint}, "
                "or pass --allow-partial to build from the matching ones",
                path=str(path),
            )


def _make_qas(dialogues: list, cfg: BuildConfig) -> Any:
    """Run the question builders (their own progress bar; warns when neural models fall back to rules)."""
    from consistest.tasks.consistest.qagen.pipeline import QAGenConfig, make_qas

    return make_qas(dialogues, cfg.qagen or QAGenConfig(), quiet=cfg.quiet)


def cfg_seed(qagen_info: dict[str, Any]) -> Any:
    return (qagen_info.get("config") or {}).get("seed", 0)


def build_info(
    samples: list[Sample],
    paired: list[Sample],
    cfg: BuildConfig,
    inputs: dict[str, Path],
    n_dialogues: int,
    qagen_info: dict[str, Any] | None = None,
    matched: MatchCounts | None = None,
    sessions: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Counts, settings, input checksums, content hash, signature; no paths or times (byte-identical).

    ``qagen_info`` (QAs made by the question builders) is stored under ``qagen`` and names the QA origin;
    ``sessions`` (a session build: streams, the filler check, missing samples) under ``sessions``, and it
    adds ``sess:`` and ``check:`` to the signature (builds without sessions keep their bytes).
    """
    digest = samples_hash(samples)
    a = cfg.assembly
    if qagen_info is not None:
        q = qagen_info
        qa_origin = (
            f"{q.get('qagen_version')}+{q.get('lexicon_version')}-{q.get('wh_generator')}-s{cfg_seed(q)}"
        )
        name = "ConsisTest (generated QAs)"
    else:
        qa_origin, name = ("demo", "ConsisTest-demo") if cfg.demo else ("curated", "ConsisTest-02")
    if matched is not None and matched.unmatched:
        qa_origin += "-partial"  # --allow-partial: not the published benchmark
    memory = a.memory_value
    settings = {"memory": memory, "distances": list(a.distances), "paired": a.paired, "format": cfg.fmt}
    extra: dict[str, Any] = {"qagen": qagen_info} if qagen_info is not None else {}
    sess_parts: dict[str, Any] = {}
    if sessions is not None:
        extra["sessions"] = sessions
        sess_parts = {"sess": sessions["version"], "check": sessions["check"]}
    return {
        "name": name,
        "qa_origin": qa_origin,
        "content_hash": digest,
        "counts": {"total": len(samples), **count_samples(samples)},
        "counts_paired": {"total": len(paired), **count_samples(paired)},
        "n_dialogues": n_dialogues,
        "qa_match": matched.to_dict() if matched is not None else None,
        "settings": settings,
        "inputs": {k: {"name": Path(p).name, "sha256": file_sha256(Path(p))} for k, p in inputs.items()},
        "signature": make_signature(
            {
                "data": digest[:12],
                "qa": qa_origin,
                "mem": memory,
                "d": a.distances,
                "paired": a.paired,
                **sess_parts,
            }
        ),  # fmt: skip
        **extra,
    }


def counts_table(info: dict[str, Any]) -> str:
    """A plain-text table of counts by source/type/distance, full and paired."""
    counts, paired = info["counts"], info["counts_paired"]
    if "sessions" in info:
        from consistest.tasks.consistest.build_sessions import session_counts_table

        lines = session_counts_table(info)
    else:
        keys = [k for k in counts if k != "total"]
        width = max(len(k) for k in [*keys, "source/type/distance"])
        lines = [f"{'source/type/distance':<{width}}  {'samples':>8}  {'paired':>8}"]
        lines += [f"{k:<{width}}  {counts[k]:>8,}  {paired.get(k, 0):>8,}" for k in keys]
        lines.append(f"{'total':<{width}}  {counts['total']:>8,}  {paired['total']:>8,}")
    lines.append(info["signature"])
    if "triggers" in info:
        t = info["triggers"]
        lines.append(
            "triggers: " + ", ".join(f"{k} {v:,}" for k, v in t["counts"].items()) + f" ({t['rows']:,} rows)"
        )
        lines.append(t["signature"])
    return "\n".join(lines)


__all__ = [
    "BuildConfig",
    "BuildResult",
    "build_dataset",
    "counts_table",
    "DEMO_DIR",
    "DEFAULT_OUT",
    "DEMO_OUT",
]
