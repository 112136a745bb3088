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
from consistest.models.decoding import DECODING_OPTIONS, Decoding
from consistest.models.judging import JUDGE_OUTPUTS
from consistest.models.nli import DEFAULT_NLI
from consistest.models.options import ModelOption
from consistest.tasks.consistest.methods.judge import JUDGE_WHEN
from consistest.tasks.consistest.methods.judge_calls import DEFAULT_JUDGE_PROMPT, JUDGE_PROMPTS
from consistest.tasks.consistest.prompts import VARIANTS

FORMATS = ("table", "json", "markdown")
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
SHARED = ("device", "batch_size")  # backend options that the NLI model of a command reads too


def _stack(options: list[tuple[tuple[str, ...], dict[str, Any]]]) -> Decorator:
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for decls, kwargs in reversed(options):
            f = click.option(*decls, **kwargs)(f)
        return f

    return decorate


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


def click_option(opt: ModelOption, default: Any = None) -> Decorator:
    """A backend's or the decoding's declared option as a click option (``default`` overrides its own)."""
    kwargs: dict[str, Any] = {"default": opt.default if default is None else default, "help": opt.help}
    if opt.flag:
        kwargs["is_flag"] = True
    else:
        kwargs["type"] = click.Choice(opt.type) if isinstance(opt.type, tuple) else opt.type
        kwargs["show_default"] = opt.show_default
    return click.option(opt.flag_name, opt.key, **kwargs)


def _key(decls: tuple[str, ...]) -> str:
    return decls[0][2:].replace("-", "_")


def model_options(fn: Callable[..., Any] | None = None, *, required: bool = True) -> Any:
    """--model, the options of every registered backend (each declared once, by its backend), the decoding
    options and the run options (variant, limit, overwrite): ``score`` and ``generate``."""
    from consistest.models.registry import backend_options

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for opt in reversed((*backend_options(), *DECODING_OPTIONS)):
            f = click_option(opt)(f)
        f = _stack(RUN_OPTIONS)(f)
        return click.option("--model", "model", required=required, default=None, help=MODEL_HELP)(f)

    return decorate(fn) if fn is not None else decorate


def some_model_options(keys: tuple[str, ...], defaults: dict[str, Any] | None = None) -> Decorator:
    """Some of the same declarations, by key, with other defaults where a command needs them (converse
    samples, with top-p 0.9): one declaration per option for every command."""
    from consistest.models.registry import backend_options

    declared = {o.key: o for o in (*backend_options(), *DECODING_OPTIONS)}
    defaults = defaults or {}

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for key in reversed(keys):
            f = click_option(declared[key], defaults.get(key))(f)
        return f

    return decorate


def pop_respond_config(kwargs: dict[str, Any]) -> Any:
    """The RespondConfig from parsed options (popped from ``kwargs``; --device and --batch-size stay, the
    NLI model uses them too), or None when --model is absent."""
    from consistest.models.registry import ModelSpec, backend_options
    from consistest.tasks.consistest.generation import RespondConfig

    spec = kwargs.pop("model", None)
    decoding = {o.key: kwargs.pop(o.key) for o in DECODING_OPTIONS}
    backend = {
        o.key: o.value(kwargs[o.key] if o.key in SHARED else kwargs.pop(o.key)) for o in backend_options()
    }
    run = {_key(d): kwargs.pop(_key(d)) for d, _ in RUN_OPTIONS}
    if spec is None:
        return None
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

judge_output_option = (("--judge-output",), dict(type=click.Choice(JUDGE_OUTPUTS), default="text",
    show_default=True, help="text: the judge writes its label, read strictly (retried once, then undecided); "
    "choice: each allowed label is scored as the whole reply and the most probable taken (local HF chat "
    "models)."))  # fmt: skip
judge_options = _stack(
    [
        (("--judge",), dict(default=None, metavar="SPEC", help="Model judge (score --method judge; a row of "
            "agree): any chat model spec with its own keys (a HF chat model folder; "
            "openai:NAME,api_base=URL,concurrency=8; "
            "baseline:NAME); greedy, max_new_tokens=8 unless the spec says otherwise.")),
        (("--judge-when",), dict(type=click.Choice(JUDGE_WHEN), default="uncertain",
            show_default=True, help="uncertain: the rules and the NLI guard's clear labels decide first, the "
            "judge the rest; all: the judge decides every reply.")),
        (("--judge-prompt",), dict(type=click.Choice(JUDGE_PROMPTS), default=DEFAULT_JUDGE_PROMPT,
            show_default=True, help="Judge prompt version (a file in the package; named in the signature).")),
        judge_output_option,
    ]
)  # fmt: skip


def pop_judge(kwargs: dict[str, Any]) -> Any:
    """The configured judge method from --judge/--judge-when/--judge-prompt (None without --judge)."""
    spec, when, prompt = kwargs.pop("judge"), kwargs.pop("judge_when"), kwargs.pop("judge_prompt")
    output = kwargs.pop("judge_output")
    if spec is None:
        return None
    from consistest.models.judging import judge_spec
    from consistest.tasks.consistest.methods.judge import JudgeMethod

    return JudgeMethod(model=judge_spec(spec), prompt=prompt, when=when, output=output)
