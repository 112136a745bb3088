"""``consistest generate``: run a model or baseline over a built dataset into RUNDIR/responses.jsonl."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import dataset_option, model_options, pop_respond_config


@click.command("generate")
@dataset_option
@click.option("--out", "out", required=True, type=click.Path(path_type=Path), help="Run directory.")
@model_options
@quiet_option
@handle_errors
def generate(dataset: Path, out: Path, quiet: bool, **kwargs: Any) -> None:
    """Generate one response per sample into OUT/responses.jsonl (resumable)."""
    from consistest.data.dataset_dir import open_dataset
    from consistest.tasks.consistest.generation import respond

    cfg = pop_respond_config(kwargs)
    ds = open_dataset(dataset)
    click.echo(str(respond(cfg, ds.samples, out, quiet=quiet, data_hash=ds.content_hash)))
