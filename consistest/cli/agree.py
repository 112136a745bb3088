"""``consistest agree``: the scorers against human labels (Table 4) on one or more labels files side by side
(``--labels dev=DEV --labels test=TEST``), with ``--ablation`` for plus's rules."""

from __future__ import annotations

from pathlib import Path

import click

from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import dataset_option, judge_options, n_boot_option, nli_options, pop_judge


@click.command()
@dataset_option
@click.option(
    "--labels",
    "labels",
    required=True,
    multiple=True,
    metavar="[NAME=]FILE",
    help="JSONL {id, response, human[, model]}: human 0/0.5/1 for WH, 0/1 for Y/N; other fields ignored. "
    "Repeat to report several files side by side (dev=FILE, test=FILE); NAME defaults to the file's stem.",
)
@nli_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option(
    "--ablation",
    is_flag=True,
    help="Also score the paper's hybrid with each plus rule alone, plus without each of its rules, and plus "
    "with each opt-in rule (paraphrase) added.",
)
@judge_options
@click.option(
    "--judge-cache",
    type=click.Path(path_type=Path),
    default=None,
    help="JSONL file caching the judge's raw replies (appended; a rerun asks only what is missing).",
)
@click.option(
    "--plot",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also draw every labels file side by side to this PNG: MSE and the Y/N replies without a short "
    "form decided right, per scorer, with 95% intervals (needs matplotlib).",
)
@click.option("--batch-size", type=int, default=32, show_default=True, help="NLI batch size.")
@click.option("--device", default="cpu", show_default=True, help="NLI device (cpu, cuda, auto).")
@click.option("--boot-seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@n_boot_option
@quiet_option
@handle_errors
def agree(
    dataset,
    labels,
    nli,
    nli_labels,
    fmt,
    ablation,
    judge_cache,
    plot,
    batch_size,
    device,
    boot_seed,
    n_boot,
    quiet,
    **judge_kwargs,
) -> None:
    """How close each scorer comes to human labels: mean over All / WH / Y/N beside the human mean, MSE,
    agreement, Cohen's kappa (Y/N) and the share of Y/N replies without a short form decided right, with
    95% intervals, for F1, Recall, NLI-only, paper, plus and --judge; a table per labels file."""
    from dataclasses import replace

    from consistest.tasks.consistest.agree import AgreeConfig, render_agreement, run_agree
    from consistest.tasks.consistest.agree_plot import agreement_points, plot_agreement, require_matplotlib
    from consistest.tasks.consistest.score import check_n_boot

    check_n_boot(n_boot)
    judge = pop_judge(judge_kwargs)
    if judge is not None and judge_cache is not None:
        judge = replace(judge, cache=judge_cache)
    cfg = AgreeConfig(
        judge=judge,
        dataset=dataset,
        labels=tuple(labels),
        nli=nli,
        nli_labels=nli_labels,
        batch_size=batch_size,
        device=device,
        seed=boot_seed,
        n_boot=n_boot,
        ablation=ablation,
        quiet=quiet,
    )
    if plot is not None:
        require_matplotlib()  # before scoring: a missing matplotlib shows at once, not after the run
    result = run_agree(cfg)
    click.echo(render_agreement(result, fmt))
    if plot is not None:
        plot_agreement(agreement_points(result), plot, result.signature)
        if not quiet:
            click.echo(f"{len(result.splits)} labels files drawn to {plot}", err=True)
