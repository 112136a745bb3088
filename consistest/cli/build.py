"""``consistest build``: parse options into a BuildConfig and call ``build_dataset``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from consistest.cli.deprecation import deprecated_alias
from consistest.cli.main import handle_errors, quiet_option
from consistest.core.errors import InputError


def parse_distances(text: str) -> tuple[int, ...]:
    """``"0,2"`` -> (0, 2)."""
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise InputError(f"--distances must be comma-separated integers, got {text!r}") from None


def parse_memory(text: str) -> int | None:
    """``"3"`` -> 3; ``"all"`` -> None (every utterance before the question is kept)."""
    if text.strip().lower() == "all":
        return None
    try:
        return int(text)
    except ValueError:
        raise InputError(f"--memory must be a number of turns or 'all', got {text!r}") from None


@click.command()
@click.option(
    "--dialogues",
    type=click.Path(path_type=Path),
    help="Dialogues: ConsisTest JSON, ConvAI2/ParlAI text, "
    "or a HF dataset id/dir (default: data/raw/consistest_valid.json, downloaded if missing).",
)
@click.option(
    "--persona-qas", type=click.Path(path_type=Path), help="Curated persona QA file (persona_qas.json)."
)
@click.option(
    "--history-qas", type=click.Path(path_type=Path), help="Curated history QA file (history_qas.json)."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output directory [default: data/built/consistest-02, or data/built/consistest-demo with --demo].",
)
@click.option("--demo", is_flag=True, help="Build the small embedded demo (no download, seconds).")
@click.option(
    "--raw-dir",
    type=click.Path(path_type=Path),
    default=Path("data/raw"),
    show_default=True,
    help="Where default inputs are looked for (and downloaded to).",
)
@click.option(
    "--layout",
    type=click.Choice(["consistest-json", "convai2-text", "hf"]),
    default=None,
    help="Dialogue layout [default: detected].",
)
@deprecated_alias("--format", "--data-format")
@click.option(
    "--data-format",
    "fmt",
    type=click.Choice(["parquet", "jsonl"]),
    default="parquet",
    show_default=True,
    help="How the dataset's rows are written (the Hugging Face loader reads both).",
)
@click.option(
    "--memory",
    default="3",
    show_default=True,
    help="Memory M in turns (2M utterances kept), or 'all' (a session build unless --no-sessions).",
)
@click.option(
    "--distances", default="0,2", show_default=True, help="Question distances in turns after the fact."
)
@click.option(
    "--sessions/--no-sessions",
    default=None,
    help="Continue past a dialogue's end with further sessions of the same agent (PersonaChat dialogues "
    "sharing its persona set) [default: with --memory all].",
)
@click.option(
    "--filler-triples",
    type=click.Path(path_type=Path),
    default=None,
    help="Session builds: a ConvAI2 'both' file with Dialogue-NLI triples (convai2_valid_both_triples.txt); "
    "samples whose filler sessions contradict the fact by the triples are dropped and counted.",
)
@click.option(
    "--filler-guard",
    default=None,
    help="Session builds: an NLI model (folder or hub id); a filler utterance it calls a contradiction of "
    "the fact drops the sample.",
)
@click.option(
    "--filler-unchecked",
    is_flag=True,
    help="Session builds: allow no filler check at all (signature check:none).",
)
@click.option("--paired", is_flag=True, help="Keep only history QAs that exist at every distance.")
@click.option(
    "--overwrite",
    is_flag=True,
    help="Replace --out even when it is a non-empty folder that is not an earlier build.",
)
@click.option(
    "--allow-partial",
    is_flag=True,
    help="Build even when more than 1% of the curated QAs match no dialogue (marked qa:...-partial).",
)
@click.option(
    "--triggers",
    default=None,
    help="Also write trigger variants of each question (paraphrase,synonym,antonym,negation,short) as the "
    "dataset's second config 'triggers' (data/triggers.*; score it with --config triggers).",
)
@click.option(
    "--paraphrase-model",
    default=None,
    help="With --triggers paraphrase: a seq2seq paraphraser (hub id or dir, 'paraphrase: <q>' prompts) "
    "whose well-formed rewrites replace the offline templates.",
)
@click.option(
    "--wh-generator",
    type=click.Choice(["auto", "rules", "neural"]),
    default="auto",
    show_default=True,
    help="Generated QAs (--dialogues alone): WH questions by neural QG+QA or spaCy rules; "
    "auto = neural when the models load, else rules.",
)
@click.option(
    "--qg-model",
    default=None,
    help="Question-generation T5 (hub id or dir) [default: valhalla/t5-base-e2e-qg].",
)
@click.option(
    "--qa-model",
    default=None,
    help="Extractive QA model (hub id or dir) [default: deepset/roberta-base-squad2].",
)
@click.option(
    "--min-qa-confidence",
    type=float,
    default=0.5,
    show_default=True,
    help="Neural WH: answer span confidence.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Generated QAs: seed for counterfactual Y/N."
)
@click.option(
    "--device", default="cpu", show_default=True, help="Generated QAs: device for the neural models."
)
@quiet_option
@handle_errors
def build(
    dialogues: Path | None,
    persona_qas: Path | None,
    history_qas: Path | None,
    out: Path | None,
    demo: bool,
    raw_dir: Path,
    layout: str | None,
    fmt: str,
    memory: str,
    distances: str,
    sessions: bool | None,
    filler_triples: Path | None,
    filler_guard: str | None,
    filler_unchecked: bool,
    paired: bool,
    overwrite: bool,
    allow_partial: bool,
    triggers: str | None,
    paraphrase_model: str | None,
    quiet: bool,
    **qagen_options: Any,
) -> None:
    """Build the ConsisTest dataset (Parquet/JSONL + dataset card + build_info.json) and print its counts.

    With --persona-qas/--history-qas the curated QAs are assembled; with --dialogues alone the question
    builders generate the QAs first (also written to OUT/persona_qas.json and OUT/history_qas.json).
    """
    from consistest.tasks.consistest.assemble import AssemblyConfig
    from consistest.tasks.consistest.build import (
        DEFAULT_OUT,
        DEMO_OUT,
        BuildConfig,
        build_dataset,
        counts_table,
    )
    from consistest.tasks.consistest.triggers import parse_triggers

    generate = dialogues is not None and persona_qas is None and history_qas is None
    mem = parse_memory(memory)
    use_sessions = (mem is None) if sessions is None else sessions
    if not use_sessions and (filler_triples or filler_guard or filler_unchecked):
        raise InputError("--filler-* options are for session builds (--memory all or --sessions)")
    if use_sessions and triggers:
        raise InputError("--triggers is not available for session builds yet; build them separately")
    cfg = BuildConfig(
        out=out or (DEMO_OUT if demo else DEFAULT_OUT),
        dialogues=dialogues,
        persona_qas=persona_qas,
        history_qas=history_qas,
        raw_dir=raw_dir,
        demo=demo,
        layout=layout,
        fmt=fmt,
        assembly=AssemblyConfig(
            memory=mem, distances=parse_distances(distances), paired=paired, sessions=use_sessions
        ),
        qagen=qagen_config(**qagen_options) if generate else None,
        overwrite=overwrite,
        allow_partial=allow_partial,
        triggers=parse_triggers(triggers) if triggers is not None else (),  # "" is a mistake, not none
        paraphrase_model=paraphrase_model,
        device=qagen_options["device"],
        filler_triples=filler_triples,
        filler_guard=filler_guard,
        filler_unchecked=filler_unchecked,
        quiet=quiet,
    )
    result = build_dataset(cfg)
    click.echo(counts_table(result.info))


def qagen_config(
    wh_generator: str,
    qg_model: str | None,
    qa_model: str | None,
    min_qa_confidence: float,
    seed: int,
    device: str,
) -> Any:
    """The question builders' config from the build options (defaults: the builders' hub models)."""
    from consistest.tasks.consistest.qagen.pipeline import QAGenConfig
    from consistest.tasks.consistest.qagen.wh_neural import DEFAULT_QA_MODEL, DEFAULT_QG_MODEL

    return QAGenConfig(
        wh_generator=wh_generator,
        qg_model=qg_model or DEFAULT_QG_MODEL,
        qa_model=qa_model or DEFAULT_QA_MODEL,
        min_qa_confidence=min_qa_confidence,
        seed=seed,
        device=device,
    )
