"""``consistest agree``: the scorers against human labels (Table 4), with ``--ablation`` for plus's rules."""

from __future__ import annotations

from pathlib import Path

import click

from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import dataset_option, n_boot_option, nli_options


@click.command()
@dataset_option
@click.option(
    "--labels",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="JSONL {id, response, human}: human 0/0.5/1 for WH, 0/1 for Y/N; other fields ignored.",
)
@nli_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--ablation", is_flag=True, help="Also score plus with each rule alone and without each rule.")
@click.option("--batch-size", type=int, default=32, show_default=True, help="NLI batch size.")
@click.option("--device", default="cpu", show_default=True, help="NLI device (cpu, cuda, auto).")
@click.option("--boot-seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@n_boot_option
@quiet_option
@handle_errors
def agree(
    dataset, labels, nli, nli_labels, fmt, ablation, batch_size, device, boot_seed, n_boot, quiet
) -> None:
    """How close each scorer comes to human labels: mean over All / WH / Y/N beside the human mean, MSE,
    agreement and Cohen's kappa (Y/N) for F1, Recall, NLI-only, the paper's hybrid and plus."""
    from consistest.tasks.consistest.agree import AgreeConfig, render_agreement, run_agree
    from consistest.tasks.consistest.score import check_n_boot

    check_n_boot(n_boot)
    cfg = AgreeConfig(
        dataset=dataset,
        labels=labels,
        nli=nli,
        nli_labels=nli_labels,
        batch_size=batch_size,
        device=device,
        seed=boot_seed,
        n_boot=n_boot,
        ablation=ablation,
        quiet=quiet,
    )
    click.echo(render_agreement(run_agree(cfg), fmt))
