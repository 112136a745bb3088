"""Option groups shared by commands: the model and its decoding, the NLI guard, bootstrap, output format.

Each group adds its click options and has a function that pops its values from the parsed keyword
arguments into the typed config the API takes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from consistest.core.stats import N_BOOT
from consistest.models.hf_chat import DEFAULT_BATCH_SIZE, DEVICES, DTYPES
from consistest.models.nli import DEFAULT_NLI
from consistest.models.openai_chat import DEFAULT_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from consistest.models.rendering import DEFAULT_SYSTEM_PROMPT, SYSTEM_PROMPTS
from consistest.tasks.consistest.prompts import VARIANTS

FORMATS = ("table", "json", "markdown")
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _stack(options: list[tuple[tuple[str, ...], dict[str, Any]]]) -> Decorator:
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for decls, kwargs in reversed(options):
            f = click.option(*decls, **kwargs)(f)
        return f

    return decorate


# Backend options of HF models (device and batch size also serve the NLI model).
HF_OPTIONS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("--speaker-tokens",), dict(default="<user>,<agent>", show_default=True,
        help="USER,AGENT tokens the model was fine-tuned with.")),
    (("--utterance-max-tokens",), dict(type=int, default=32, show_default=True,
        help="Cut each history utterance (question included) to this many tokens; 0 = no cut.")),
    (("--chat-template",), dict(is_flag=True,
        help="Render with the tokenizer's chat template (system message = --system-prompt).")),
    (("--system-prompt",), dict(type=click.Choice(SYSTEM_PROMPTS), default=DEFAULT_SYSTEM_PROMPT,
        show_default=True, help="Chat rendering (--chat-template, openai:): a versioned instruction to stay "
        "in character and answer briefly, then the persona; 'persona' = the persona alone.")),
    (("--transcript",), dict(is_flag=True,
        help="Render as a plain-text transcript for base models without a chat template (persona as the "
        "first 'Me:' line; the reply ends at the line break).")),
    (("--device",), dict(type=click.Choice(DEVICES), default="auto", show_default=True)),
    (("--dtype",), dict(type=click.Choice(DTYPES), default="auto", show_default=True,
        help="auto = float32 on CPU, the checkpoint's dtype on CUDA.")),
    (("--batch-size",), dict(type=int, default=DEFAULT_BATCH_SIZE, show_default=True)),
]  # fmt: skip
# Options of OpenAI-compatible endpoints (openai:NAME); none of them changes a reply.
ENDPOINT_OPTIONS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("--api-base",), dict(default=None, help="Endpoint URL for openai:NAME "
        "[default: $OPENAI_BASE_URL, else http://127.0.0.1:8000/v1]; the key is read from $OPENAI_API_KEY.")),
    (("--concurrency",), dict(type=int, default=DEFAULT_CONCURRENCY, show_default=True,
        help="Requests in flight (openai:).")),
    (("--request-timeout",), dict(type=float, default=DEFAULT_TIMEOUT, show_default=True,
        help="Seconds per request before it is retried (openai:).")),
    (("--max-retries",), dict(type=int, default=DEFAULT_MAX_RETRIES, show_default=True,
        help="Retries with exponential backoff on connection errors, timeouts, 429 and 5xx (openai:).")),
]  # fmt: skip
DECODING_OPTIONS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("--max-new-tokens",), dict(type=int, default=25, show_default=True)),
    (("--num-beams",), dict(type=int, default=1, show_default=True)),
    (("--do-sample",), dict(is_flag=True, help="Sample instead of greedy/beam (seeded per sample id).")),
    (("--temperature",), dict(type=float, default=1.0, show_default=True)),
    (("--top-p",), dict(type=float, default=1.0, show_default=True)),
    (("--seed",), dict(type=int, default=0, show_default=True)),
]  # fmt: skip
RUN_OPTIONS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("--input-variant",), dict(type=click.Choice(VARIANTS), default="standard", show_default=True,
        help="Fact-injection ablation (see consistest.tasks.consistest.prompts).")),
    (("--limit",), dict(type=int, default=None, help="Only the first N samples (a smoke run, named so).")),
    (("--sample",), dict(type=int, default=None, help="A seeded stratified subset of about N samples "
        "(by source, type and distance; both distances of a QA together), named in the signature.")),
    (("--sample-seed",), dict(type=int, default=0, show_default=True, help="Seed of --sample.")),
    (("--overwrite",), dict(is_flag=True, help="Discard an existing run in the output folder.")),
]  # fmt: skip
MODEL_HELP = (
    "Chat model: a HF model id or local folder (BART/T5/GPT-2/chat models; or hf:ID), "
    "openai:NAME (a model served by an OpenAI-compatible endpoint, see --api-base), "
    "ct2:DIR (a HF model run by CTranslate2, from consistest models convert MODEL --to ct2), "
    "or baseline:oracle|retrieval|generic."
)


def _key(decls: tuple[str, ...]) -> str:
    return decls[0][2:].replace("-", "_")


def model_options(fn: Callable[..., Any] | None = None, *, required: bool = True) -> Any:
    """--model, its backend and decoding options, and the run options (variant, limit, overwrite)."""

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = _stack(RUN_OPTIONS + HF_OPTIONS + ENDPOINT_OPTIONS + DECODING_OPTIONS)(f)
        return click.option("--model", "model", required=required, default=None, help=MODEL_HELP)(f)

    return decorate(fn) if fn is not None else decorate


def pop_respond_config(kwargs: dict[str, Any]) -> Any:
    """The RespondConfig from parsed options (popped from ``kwargs``), or None when --model is absent."""
    from consistest.models.decoding import Decoding
    from consistest.models.registry import ModelSpec
    from consistest.models.rendering import parse_speakers
    from consistest.tasks.consistest.generation import RespondConfig

    spec = kwargs.pop("model", None)
    decoding = {_key(d): kwargs.pop(_key(d)) for d, _ in DECODING_OPTIONS}
    backend = {_key(d): kwargs.get(_key(d)) for d, _ in HF_OPTIONS}  # kept: the NLI model uses some too
    backend.update({_key(d): kwargs.pop(_key(d)) for d, _ in ENDPOINT_OPTIONS})
    run = {_key(d): kwargs.pop(_key(d)) for d, _ in RUN_OPTIONS}
    for k in ("speaker_tokens", "utterance_max_tokens", "chat_template", "system_prompt", "transcript"):
        kwargs.pop(k)
    kwargs.pop("dtype")
    if spec is None:
        return None
    backend["speaker_tokens"] = parse_speakers(backend["speaker_tokens"])
    return RespondConfig(model=ModelSpec(spec, Decoding(**decoding), backend), **run)


nli_options = _stack(
    [
        (
            ("--nli",),
            dict(
                default=DEFAULT_NLI,
                show_default=True,
                help="NLI model: hub id or local folder (sequence classification); 'none' = rules only.",
            ),
        ),
        (
            ("--nli-labels",),
            dict(
                default=None,
                help="Label names by id when config.id2label is generic: contradiction,neutral,entailment.",
            ),
        ),
    ]  # fmt: skip
)
dataset_option = click.option(
    "--dataset",
    "dataset",
    type=click.Path(path_type=Path),
    default=Path("data/built/consistest-02"),
    show_default=True,
    help="Built dataset directory (consistest build --out).",
)
format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True
)
n_boot_option = click.option(
    "--n-boot",
    type=int,
    default=N_BOOT,
    show_default=True,
    help="Bootstrap resamples (0 = no intervals, else >= 100).",
)
