"""``consistest converse`` (bot-bot conversations with inquiries), ``consistest judge-run`` (a model judge
added to a finished run) and ``consistest rank`` (AIH ranking).

The model judge's spec is ``--judge-model SPEC`` here, not ``--judge SPEC`` as for ``score``: ``rank --judge``
already names which stored judges to rank (paper, hybrid, model, both, all)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from consistest.cli.deprecation import AliasedChoice, deprecated_alias
from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import (
    format_option,
    judge_output_option,
    n_boot_option,
    nli_options,
    some_model_options,
)
from consistest.tasks.aih.model_judge import AIH_PROMPTS, DEFAULT_AIH_PROMPT

# The backend options every bot gets unless its spec says otherwise (NAME=SPEC,key=value).
BACKEND_KEYS = ("device", "dtype", "batch_size", "chat_template", "system_prompt", "concurrency", "api_base")
# rank --judge: the stored judges each choice ranks.
RANK_JUDGES: dict[str, tuple[str, ...]] = {
    "both": ("paper", "hybrid"),
    "paper": ("paper",),
    "hybrid": ("hybrid",),
    "model": ("model",),
    "all": ("paper", "hybrid", "model"),
}
JUDGE_MODEL_HELP = (
    "A chat model judge beside the NLI judges: it labels each answer consistent or contradiction "
    "(any chat model spec with its own keys: a HF chat model folder, openai:NAME,api_base=URL,concurrency=8; "
    "greedy, max_new_tokens=8 unless the spec says otherwise). Its calls are cached in RUNDIR/judge.jsonl."
)
BOT_HELP = (
    "A bot: NAME=SPEC[,key=value...], SPEC as for --model (hf:DIR, openai:NAME, baseline:persona-bot:P); "
    "keys: max_new_tokens, do_sample, temperature, top_p, num_beams, seed, persona=false, and backend "
    "options (chat_template=true, device, batch_size...). Repeatable."
)


@click.command("converse")
@click.option("--bot", "bot_specs", multiple=True, help=BOT_HELP)
@click.option("--bots", "bots_file", type=click.Path(path_type=Path), help="YAML/JSON {bots: {NAME: SPEC}}.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Run directory (resumable).")
@click.option(
    "--dialogues",
    type=click.Path(path_type=Path),
    default=Path("data/raw/consistest_valid.json"),
    show_default=True,
    help="Dialogue file the personas (and --opener dialogues) are drawn from.",
)
@click.option("--conversations", type=int, default=10, show_default=True, help="Per ordered pair.")
@click.option("--turns", type=int, default=15, show_default=True, help="Replies of the evaluated bot.")
@click.option("--self-pairs", is_flag=True, help="Let every bot also talk to itself.")
@click.option(
    "--no-persona", is_flag=True, help="No PersonaChat persona for any bot (per bot: persona=false)."
)
@click.option(
    "--opener",
    type=click.Choice(["hello", "dialogues"]),
    default="hello",
    show_default=True,
    help="The partner's first utterance: 'hello', or a dialogue's first user utterance.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Personas, inquiries and sampling.")
@some_model_options(("max_new_tokens", "top_p", "temperature"), {"max_new_tokens": 40, "top_p": 0.9})
@click.option("--greedy", is_flag=True, help="Greedy decoding for every bot (per bot: do_sample=false).")
@some_model_options(BACKEND_KEYS)
@click.option(
    "--inquirer",
    type=click.Choice(["rules", "neural", "statements"]),
    default="rules",
    show_default=True,
    help="rules/neural: questions about entities (the paper's); statements: entities first, else any "
    "first-person statement (a yes/no question, a WH rule, or 'what do you love?').",
)
@click.option(
    "--inquiry-delay",
    default="0",
    show_default=True,
    help="Ask about each utterance d bot turns later (comma-separated: 0,2,6 asks each question three "
    "times, right after the utterance and after the bot's 2nd and 6th next replies; always a side query).",
)
@click.option(
    "--qg-model", default=None, help="Answer-aware QG model for --inquirer neural (hub id or folder)."
)
@nli_options
@click.option(
    "--tau", type=float, default=0.15, show_default=True, help="Paper judge: P(contradiction) > tau."
)
@click.option("--judge-model", default=None, metavar="SPEC", help=JUDGE_MODEL_HELP)
@click.option(
    "--judge-prompt",
    type=click.Choice(AIH_PROMPTS),
    default=DEFAULT_AIH_PROMPT,
    show_default=True,
    help="Model judge prompt version (a file in the package; named in the signature).",
)
@click.option(*judge_output_option[0], **judge_output_option[1])
@click.option("--overwrite", is_flag=True, help="Discard an existing run in --out.")
@quiet_option
@handle_errors
def converse(bot_specs: tuple[str, ...], bots_file: Path | None, **kw: Any) -> None:
    """Let bots talk in pairs, ask each evaluated bot about what it just said, judge its answers.

    Writes OUT/conversations.jsonl and OUT/inquiries.jsonl; rerun the same command to resume (with
    --judge-model added, a finished run is judged by the model without generating again)."""
    from consistest.models.decoding import Decoding
    from consistest.tasks.aih.config import ConverseConfig, bots_from_options
    from consistest.tasks.aih.converse import INQUIRIES_FILE, run_converse

    decoding = Decoding(
        max_new_tokens=kw.pop("max_new_tokens"),
        do_sample=not kw.pop("greedy"),
        temperature=kw.pop("temperature"),
        top_p=kw.pop("top_p"),
        seed=kw["seed"],
    )
    options = {k: kw.pop(k) for k in BACKEND_KEYS}
    options = {k: v for k, v in options.items() if v is not None and v is not False}
    bots = bots_from_options(bot_specs, bots_file, decoding, options)
    if kw.pop("no_persona"):
        bots = tuple(replace(b, persona=False) for b in bots)
    if kw["qg_model"] is None:
        kw.pop("qg_model")
    kw["inquiry_delays"] = _delays(kw.pop("inquiry_delay"))
    if not any(b.persona for b in bots) and kw["opener"] == "hello":
        kw["dialogues"] = None  # nothing is drawn from it
    kw["model_judge"] = _model_judge(kw.pop("judge_model"), kw.pop("judge_prompt"), kw.pop("judge_output"))
    cfg = ConverseConfig(bots=bots, device=options["device"], batch_size=options["batch_size"], **kw)
    out = run_converse(cfg)
    n = sum(1 for _ in (out / INQUIRIES_FILE).open(encoding="utf-8"))
    click.echo(f"{out}: {len(cfg.pairs()) * cfg.conversations} conversations, {n} inquiries; "
               f"rank them with: consistest rank {out}")  # fmt: skip


def _model_judge(spec: str | None, prompt: str, output: str = "text") -> Any:
    """The model judge of --judge-model/--judge-prompt (None without --judge-model)."""
    if spec is None:
        return None
    from consistest.models.judging import judge_spec
    from consistest.tasks.aih.model_judge import ModelJudge

    return ModelJudge(judge_spec(spec, field="judge-model"), prompt, output)  # type: ignore[arg-type]


@click.command("judge-run")
@click.argument("rundir", type=click.Path(path_type=Path))
@click.option("--judge-model", required=True, metavar="SPEC", help=JUDGE_MODEL_HELP)
@click.option(
    "--judge-prompt",
    type=click.Choice(AIH_PROMPTS),
    default=DEFAULT_AIH_PROMPT,
    show_default=True,
    help="Model judge prompt version (a file in the package; named in the signature).",
)
@click.option(*judge_output_option[0], **judge_output_option[1])
@quiet_option
@handle_errors
def judge_run(rundir: Path, judge_model: str, judge_prompt: str, judge_output: str, quiet: bool) -> None:
    """Add a model judge's verdicts to a finished converse run (nothing is generated again).

    Rerun to resume a killed judge-run; then rank with: consistest rank RUNDIR --judge model."""
    from consistest.tasks.aih.judge_run import judge_run as run
    from consistest.tasks.aih.model_judge import counts_line

    record = run(rundir, _model_judge(judge_model, judge_prompt, judge_output), quiet=quiet)
    click.echo(f"{rundir}: {counts_line(record)}; rank with: consistest rank {rundir} --judge model")


def _delays(text: str) -> tuple[int, ...]:
    from consistest.core.errors import InputError

    try:
        return tuple(sorted(int(x) for x in _names(text, ",")))
    except ValueError:
        raise InputError(f"expected comma-separated integers, got {text!r}", field="inquiry-delay") from None


def _names(text: str | None, sep: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in (text or "").split(sep) if x.strip())


@click.command("rank")
@click.argument("rundir", type=click.Path(path_type=Path))
@click.option(
    "--judge",
    type=AliasedChoice(list(RANK_JUDGES), {"ours": "hybrid"}, "--judge"),
    default="both",
    show_default=True,
    help="paper: NLI on (utterance, answer); hybrid: the ConsisTest hybrid with the entity as the truth; "
    "model: the run's chat model judge (converse/judge-run --judge-model); both: paper and hybrid; all: "
    "paper, hybrid and model.",
)
@click.option(
    "--tau", type=float, default=0.15, show_default=True, help="Paper judge: P(contradiction) > tau."
)
@click.option("--reference", default=None, help="Reference ranking for stability, best first: A>B>C.")
@click.option(
    "--subsample",
    default="1,2,5,10,20,50,100,200",
    show_default=True,
    help="S values: conversations per pair drawn for the stability analysis.",
)
@click.option("--repetitions", type=int, default=1000, show_default=True)
@n_boot_option
@deprecated_alias("--seed", "--boot-seed")
@click.option(
    "--boot-seed", "seed", type=int, default=0, show_default=True, help="Bootstrap and subsampling seed."
)
@format_option
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Report folder: rank.json, rank.md, cij.png, stability.png [default: RUNDIR/rank].",
)
@click.option(
    "--overwrite", is_flag=True, help="Replace --out even when it is a folder that is not an earlier report."
)
@click.option("--no-plots", is_flag=True, help="No PNGs (matplotlib not needed).")
@click.option(
    "--export-for-judges",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the inquiries as CSV (id, utterance, question, answer, label) for people to label.",
)
@click.option(
    "--judged",
    type=click.Path(path_type=Path),
    default=None,
    help="A labelled export: adds judge-vs-human F1 and Pearson per tau.",
)
@click.option("--taus", default="0.05,0.1,0.15,0.3,0.5,0.7,0.9", show_default=True, help="For --judged.")
@quiet_option
@handle_errors
def rank(rundir: Path, judge: str, reference: str | None, subsample: str, taus: str, fmt: str,
         out: Path | None, overwrite: bool, no_plots: bool, export_for_judges: Path | None,
         judged: Path | None, quiet: bool, **kw: Any) -> None:  # fmt: skip
    """Rank the bots of a converse run by contradiction rate, with intervals, tests and stability."""
    from consistest.core.errors import InputError
    from consistest.tasks.aih.outputs import RankOutputs, run_rank
    from consistest.tasks.aih.rank import RankConfig
    from consistest.tasks.aih.report import render

    try:
        grid = tuple(int(x) for x in _names(subsample, ","))
        tau_grid = tuple(float(x) for x in _names(taus, ","))
    except ValueError:
        raise InputError("expected comma-separated numbers", field="subsample/taus") from None
    judges = RANK_JUDGES[judge]
    cfg = RankConfig(run=rundir, judges=judges, reference=_names(reference, ">"), grid=grid, taus=tau_grid,
                     **kw)  # fmt: skip
    outputs = RankOutputs(out=out or rundir / "rank", plots=not no_plots, export_for_judges=export_for_judges,
                          judged=judged, overwrite=overwrite, quiet=quiet)  # fmt: skip
    click.echo(render(run_rank(cfg, outputs), fmt))
