"""``consistest score`` (responses -> scores.jsonl + summary.json) and ``consistest compare``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from consistest.cli.deprecation import deprecated_alias
from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import (
    dataset_option,
    format_option,
    judge_options,
    model_options,
    n_boot_option,
    nli_options,
    pop_judge,
    pop_respond_config,
)
from consistest.tasks.consistest.methods import DEFAULT_METHOD, METHODS
from consistest.tasks.consistest.trigger_config import CONFIGS


@click.command()
@dataset_option
@click.option(
    "--responses",
    type=click.Path(path_type=Path),
    help="JSONL {id, response} per sample, or the original ConsisTest CSV (rows in dataset order). "
    "Alternative to --model.",
)
@click.option(
    "--config",
    type=click.Choice(CONFIGS),
    default="default",
    show_default=True,
    help="Dataset config: the benchmark, or its trigger variants (consistest build --triggers).",
)
@model_options(required=False)
@nli_options
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path),
    default=None,
    help="Run directory: responses.jsonl (with --model), scores.jsonl, summary.json "
    "[default: runs/<dataset folder>/<model or responses name>].",
)
@click.option(
    "--method",
    type=click.Choice(tuple(METHODS)),
    default=DEFAULT_METHOD,
    show_default=True,
    help="plus: the published hybrid with the improved rules (closer to human labels on frozen test "
    "replies); paper: the published hybrid, to reproduce published numbers; judge: a chat model judges "
    "what the rules and the guard leave open (--judge SPEC; consistest agree measures each).",
)
@judge_options
@format_option
@click.option("--boot-seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@n_boot_option
@click.option(
    "--plot/--no-plot",
    default=None,
    help="Draw the consistency-against-distance curve to OUT/curve.png (numbers in summary.json) "
    "[default: for runs with three or more distances, when matplotlib is installed].",
)
@quiet_option
@handle_errors
def score(
    dataset: Path,
    responses: Path | None,
    config: str,
    nli: str,
    nli_labels: str | None,
    out: Path | None,
    method: str,
    fmt: str,
    boot_seed: int,
    n_boot: int,
    plot: bool | None,
    quiet: bool,
    **model_kwargs: Any,
) -> None:
    """Score one response per sample with the rules and the NLI guard; print the summary table.

    Give --responses FILE to score existing responses (all of the dataset's samples, or a subset: only
    those with a response are scored, named so; --limit/--sample pick a subset), or --model MODEL to
    generate them first into OUT/responses.jsonl (resumable; --device and --batch-size apply to the NLI
    model too).
    """
    from consistest.tasks.consistest.report_text import render
    from consistest.tasks.consistest.score import ScoreConfig, run_score
    from consistest.tasks.consistest.subsets import Subset

    batch_size, device = model_kwargs["batch_size"], model_kwargs["device"]
    subset = Subset(model_kwargs["limit"], model_kwargs["sample"], model_kwargs["sample_seed"])
    overwrite = model_kwargs["overwrite"]
    judge = pop_judge(model_kwargs)
    respond = pop_respond_config(model_kwargs)
    cfg = ScoreConfig(
        dataset=dataset,
        responses=responses,
        out=out or default_run_dir(dataset, responses, respond, config),
        respond=respond,
        subset=subset if respond is None else None,
        overwrite=overwrite,
        nli=nli,
        nli_labels=nli_labels,
        batch_size=batch_size,
        device=device,
        seed=boot_seed,
        n_boot=n_boot,
        method=method,
        judge=judge,
        quiet=quiet,
        config=config,
        plot=plot,
    )
    click.echo(render(run_score(cfg).summary, fmt))


def default_run_dir(dataset: Path, responses: Path | None, respond: Any, config: str = "default") -> Path:
    """``runs/<dataset folder>[-<config>]/<model id with / as __>[-<variant>]`` or
    ``runs/<dataset>/<responses stem>``: the same model scored on the demo and on the full benchmark (or on
    its triggers config) lands in different folders."""
    suffix = "" if config == "default" else f"-{config}"
    base = Path("runs") / (Path(dataset).resolve().name + suffix)
    if respond is None:
        return base / Path(responses or "responses").stem
    name = respond.model.spec.replace("/", "__").replace(":", "-")
    if respond.input_variant != "standard":
        name += f"-{respond.input_variant}"
    return base / name


@click.command()
@click.argument("rundirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@format_option
@deprecated_alias("--seed", "--boot-seed")
@click.option("--boot-seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@n_boot_option
@deprecated_alias("--force", "--allow-different-data")
@click.option(
    "--allow-different-data",
    is_flag=True,
    help="Compare runs scored on different datasets (on the ids they share); the table says so.",
)
@click.option(
    "--plot",
    type=click.Path(path_type=Path),
    default=None,
    help="Also draw every run's consistency-against-distance curve (its own items, 95% CI over QAs) on one "
    "figure, written to this PNG.",
)
@quiet_option
@handle_errors
def compare(
    rundirs: tuple[Path, ...],
    fmt: str,
    boot_seed: int,
    n_boot: int,
    allow_different_data: bool,
    plot: Path | None,
    quiet: bool,
) -> None:
    """Print scored runs side by side on the items all of them decided, with a paired bootstrap
    significance for each difference to run 1; warns when their signatures differ."""
    from consistest.tasks.consistest.compare import compare_runs, plot_comparison, render_comparison
    from consistest.tasks.consistest.score import check_n_boot

    check_n_boot(n_boot)
    result = compare_runs(rundirs, seed=boot_seed, n_boot=n_boot, allow_different_data=allow_different_data)
    click.echo(render_comparison(result, fmt))
    if plot is not None:
        plot_comparison(rundirs, plot, seed=boot_seed, n_boot=n_boot)
        click.echo(f"curves of {len(rundirs)} runs drawn to {plot}", err=True)
