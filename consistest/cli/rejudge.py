"""``consistest rejudge RUNDIR``: a scored run's replies judged again by several judges and prompt versions;
the spread of every figure across them, per-item disagreement, and how often each passes wrong answers."""

from __future__ import annotations

from pathlib import Path

import click

from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import (
    dataset_option,
    format_option,
    judge_output_option,
    n_boot_option,
    nli_options,
)
from consistest.tasks.consistest.methods.judge import JUDGE_WHEN
from consistest.tasks.consistest.methods.judge_calls import DEFAULT_JUDGE_PROMPT, JUDGE_PROMPTS


@click.command()
@click.argument("rundir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@dataset_option
@click.option("--judge", "judges", multiple=True, required=True, metavar="SPEC",
              help="A judge: any chat model spec (openai:NAME,api_base=URL; a HF chat model folder). Repeat "
              "for several; every judge x prompt is one column.")  # fmt: skip
@click.option("--judge-prompt", "prompts", multiple=True, type=click.Choice(JUDGE_PROMPTS),
              default=(DEFAULT_JUDGE_PROMPT,), show_default=True,
              help="Judge prompt version; repeatable.")  # fmt: skip
@click.option("--judge-when", type=click.Choice(JUDGE_WHEN), default="uncertain", show_default=True,
              help="uncertain: the rules and the guard's clear labels decide first; all: the judge decides "
              "every reply.")  # fmt: skip
@click.option(*judge_output_option[0], **judge_output_option[1])
@nli_options
@click.option("--probes", type=int, default=100, show_default=True,
              help="Wrong but on-topic probe replies (another persona's answer to the same question); "
              "0: none.")  # fmt: skip
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (rejudge.json, items.jsonl, judge.jsonl). "
              "Default: RUNDIR/rejudge.")  # fmt: skip
@click.option("--batch-size", type=int, default=32, show_default=True, help="NLI batch size.")
@click.option("--device", default="cpu", show_default=True, help="NLI device (cpu, cuda, auto).")
@click.option("--boot-seed", type=int, default=0, show_default=True, help="Bootstrap and probe seed.")
@n_boot_option
@format_option
@quiet_option
@handle_errors
def rejudge(rundir, dataset, judges, prompts, judge_when, judge_output, nli, nli_labels, probes, out,
            batch_size, device, boot_seed, n_boot, fmt, quiet) -> None:  # fmt: skip
    """Judge a scored run's replies again with every --judge and --judge-prompt; print each figure's spread,
    per-item disagreement with the paired difference, and the probe pass rates."""
    from consistest.tasks.consistest.rejudge import RejudgeConfig, run_rejudge
    from consistest.tasks.consistest.rejudge_report import render
    from consistest.tasks.consistest.score import check_n_boot

    check_n_boot(n_boot)
    cfg = RejudgeConfig(
        run=rundir, dataset=dataset, judges=tuple(judges), prompts=tuple(prompts), when=judge_when,
        output=judge_output, nli=nli, nli_labels=nli_labels, batch_size=batch_size, device=device,
        probes=probes, seed=boot_seed, n_boot=n_boot, out=out, quiet=quiet,
    )  # fmt: skip
    click.echo(render(run_rejudge(cfg), fmt))
