"""`consistest generate`: run a model or baseline over a built dataset, resumably.

``generation_options`` and ``config_from_options`` are reusable: `consistest score --model` takes the
same options and calls ``generate_responses`` before scoring.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from consistest.cli.main import handle_errors, quiet_option
from consistest.models.decoding import DEFAULT_BATCH_SIZE, DEVICES, DTYPES, GenerationConfig
from consistest.models.rendering import VARIANTS

# (option declarations, click keyword arguments); the first entry is the model.
_OPTIONS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("--input-variant",), dict(type=click.Choice(VARIANTS), default="standard", show_default=True,
        help="Fact-injection ablation (see consistest.models.rendering).")),
    (("--speaker-tokens",), dict(default="<user>,<agent>", show_default=True,
        help="USER,AGENT tokens the model was fine-tuned with.")),
    (("--utterance-max-tokens",), dict(type=int, default=32, show_default=True,
        help="Cut each history utterance (question included) to this many tokens; 0 = no cut.")),
    (("--chat-template",), dict(is_flag=True,
        help="Render with the tokenizer's chat template (persona = system).")),
    (("--device",), dict(type=click.Choice(DEVICES), default="auto", show_default=True)),
    (("--dtype",), dict(type=click.Choice(DTYPES), default="auto", show_default=True,
        help="auto = float32 on CPU, the checkpoint's dtype on CUDA.")),
    (("--batch-size",), dict(type=int, default=DEFAULT_BATCH_SIZE, show_default=True)),
    (("--max-new-tokens",), dict(type=int, default=25, show_default=True)),
    (("--num-beams",), dict(type=int, default=1, show_default=True)),
    (("--do-sample",), dict(is_flag=True, help="Sample instead of greedy/beam (seeded per sample id).")),
    (("--temperature",), dict(type=float, default=1.0, show_default=True)),
    (("--top-p",), dict(type=float, default=1.0, show_default=True)),
    (("--seed",), dict(type=int, default=0, show_default=True)),
    (("--limit",), dict(type=int, default=None, help="Only the first N samples (smoke runs).")),
    (("--overwrite",), dict(is_flag=True, help="Discard an existing run in the output folder.")),
]  # fmt: skip
GENERATION_KEYS = ("model",) + tuple(decl[0][2:].replace("-", "_") for decl, _ in _OPTIONS)


def generation_options(fn: Callable[..., Any] | None = None, *, model_required: bool = True) -> Any:
    """Add --model and the generation options (kwargs named as GenerationConfig fields).

    Use as ``@generation_options`` or ``@generation_options(model_required=False)`` (`score`, where
    --model is an alternative to --responses and arrives as None when absent).
    """

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for decls, kwargs in reversed(_OPTIONS):
            f = click.option(*decls, **kwargs)(f)
        return click.option(
            "--model",
            "model",
            required=model_required,
            default=None,
            help="HF model id or local directory (BART/T5/GPT-2 style), or baseline:oracle|retrieval|generic",
        )(f)

    return decorate(fn) if fn is not None else decorate


def config_from_options(kwargs: dict[str, Any]) -> GenerationConfig:
    """Pop the generation options from parsed click kwargs and build the config (InputError if invalid)."""
    from consistest.models.rendering import parse_speakers

    opts = {k: kwargs.pop(k) for k in GENERATION_KEYS if k in kwargs}
    opts["speaker_tokens"] = parse_speakers(opts.get("speaker_tokens", "<user>,<agent>"))
    return GenerationConfig(**opts)


@click.command("generate")
@click.option("--dataset", "dataset", required=True, type=click.Path(), help="A built dataset directory.")
@click.option("--out", "out", required=True, type=click.Path(), help="Run directory (responses.jsonl).")
@generation_options
@quiet_option
@handle_errors
def generate(dataset: str, out: str, quiet: bool, **kwargs: Any) -> None:
    """Generate one response per sample into OUT/responses.jsonl (resumable)."""
    from consistest.data.dataset_dir import load_samples
    from consistest.models.runner import generate_responses

    cfg = config_from_options(kwargs)
    path = generate_responses(cfg, load_samples(dataset), out, quiet=quiet)
    click.echo(str(path))
