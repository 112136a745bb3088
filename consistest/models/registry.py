"""Chat model specs: ``hf:DIR_OR_ID`` (or a bare folder/hub id), ``baseline:NAME``, ``openai:NAME``,
``ct2:DIR``; one backend module each.

A backend module provides ``USES_DECODING`` (whether decoding settings apply), ``OPTIONS`` (the option
names it reads, so a misspelt one is refused), ``settings(name, decoding,
options)`` (what changes a reply; stored with runs, compared on resume; never loads anything),
``prompt_tag(name, options)`` (how conversations are rendered, for the signature's ``prompt:``; None when
there is no rendering), ``engine_tag(name, options)`` (the engine that computes the replies when it is not
the model's own framework, e.g. ``ctranslate2-4.8.5-int8``, named in the signature's ``model:`` value; None
for the others), ``CLI_OPTIONS`` (its command-line options, :class:`~consistest.models.options.ModelOption`;
the model-options group of ``score``, ``generate`` and ``converse`` is built from every backend's) and
``load(name, decoding, options, quiet)`` -> a ChatModel. A new backend is one module plus one line here.

``parse_model_spec("hf:models/smollm2,temperature=1.3,do_sample=true,chat_template=true")`` reads a spec
with its own decoding and backend options in one string (bot-bot conversations name several models).
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from types import ModuleType
from typing import Any

from consistest.core.errors import InputError
from consistest.models.base import ChatModel
from consistest.models.decoding import Decoding
from consistest.models.options import ModelOption

BACKENDS: dict[str, str] = {
    "baseline": "consistest.models.baselines",
    "ct2": "consistest.models.ct2_chat",
    "hf": "consistest.models.hf_chat",
    "openai": "consistest.models.openai_chat",
}
DEFAULT_BACKEND = "hf"


def backend_options() -> tuple[ModelOption, ...]:
    """Every registered backend's command-line options, one per key (the default backend's first); two
    backends that read one key must declare it alike (share the declaration)."""
    out: dict[str, ModelOption] = {}
    for kind in sorted(BACKENDS, key=lambda k: k != DEFAULT_BACKEND):
        for opt in importlib.import_module(BACKENDS[kind]).CLI_OPTIONS:
            if out.setdefault(opt.key, opt) != opt:
                raise ValueError(f"backend {kind!r} declares --{opt.key} unlike another backend")
    return tuple(out.values())


def split_spec(spec: str) -> tuple[str, str]:
    """``"baseline:generic"`` -> ("baseline", "generic"); a spec without a known prefix is a HF model."""
    prefix, sep, rest = spec.partition(":")
    return (prefix, rest) if sep and prefix in BACKENDS else (DEFAULT_BACKEND, spec)


def backend(spec: str) -> ModuleType:
    return importlib.import_module(BACKENDS[split_spec(spec)[0]])


@dataclass(frozen=True)
class ModelSpec:
    """A chat model as the user named it, with its decoding and backend options (device, batch size...)."""

    spec: str
    decoding: Decoding = field(default_factory=Decoding)
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The spec without a ``hf:`` prefix, with the engine when the backend names one
        (``ct2:DIR[ctranslate2-4.8.5-int8]``): what the signature calls the model."""
        kind, rest = split_spec(self.spec)
        engine = backend(self.spec).engine_tag(rest, self.options)
        name = rest if kind == DEFAULT_BACKEND else self.spec
        return f"{name}[{engine}]" if engine else name

    @property
    def uses_decoding(self) -> bool:
        return bool(backend(self.spec).USES_DECODING)

    def settings(self) -> dict[str, Any]:
        """Settings that change a reply (no device, batch size or paths of secrets)."""
        return backend(self.spec).settings(split_spec(self.spec)[1], self.decoding, self.options)

    def prompt_value(self) -> str | None:
        """The signature's ``prompt:`` value (``speakers``, ``chat-persona-v1``; None for baselines)."""
        return backend(self.spec).prompt_tag(split_spec(self.spec)[1], self.options)

    def signature_value(self) -> str:
        """The signature's ``dec:`` value: ``none`` for models that ignore decoding settings."""
        return self.decoding.signature_value() if self.uses_decoding else "none"

    def load(
        self, quiet: bool = False, extra: Mapping[str, Callable[[], ChatModel]] | None = None
    ) -> ChatModel:
        """The ChatModel; ``extra`` maps whole specs to task-provided models (e.g. ``baseline:oracle``)."""
        if extra and self.spec in extra:
            return extra[self.spec]()
        kind, rest = split_spec(self.spec)
        return importlib.import_module(BACKENDS[kind]).load(rest, self.decoding, self.options, quiet=quiet)


DECODING_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Decoding))


def parse_option_value(text: str) -> bool | int | float | str:
    """``true``/``yes`` -> True, ``false``/``no`` -> False, ``12`` -> 12, ``1.3`` -> 1.3, else the text."""
    low = text.strip().lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_model_spec(
    text: str,
    decoding: Decoding | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    extra_keys: Sequence[str] = (),
) -> ModelSpec:
    """``SPEC[,key=value...]`` -> ModelSpec: decoding keys (max_new_tokens, do_sample, temperature, top_p,
    num_beams, seed) override ``decoding``; the backend's ``OPTIONS`` (and the caller's ``extra_keys``)
    become options over ``options``; any other key is an error (a misspelt key would silently change
    nothing while the signature shows the defaults)."""
    spec, *pairs = [p.strip() for p in text.split(",")]
    if not spec:
        raise InputError(f"expected SPEC[,key=value...], got {text!r}", field="model")
    dec: dict[str, Any] = {}
    opts: dict[str, Any] = dict(options or {})
    known = (*DECODING_KEYS, *sorted(backend(spec).OPTIONS), *extra_keys)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise InputError(f"expected key=value after the model, got {pair!r} in {text!r}", field="model")
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise InputError(
                f"unknown key {key!r} in {text!r}; {hint}keys: {', '.join(known)}", field="model"
            )
        (dec if key in DECODING_KEYS else opts)[key] = parse_option_value(value)
    for key, value in dec.items():
        want = type(getattr(Decoding(), key))
        ok = isinstance(value, want) if want is not float else isinstance(value, (int, float))
        if not ok or (want is int and isinstance(value, bool)):
            raise InputError(f"{key} must be {want.__name__}, got {value!r} in {text!r}", field="model")
    try:
        decoding = replace(decoding or Decoding(), **dec)
    except TypeError as e:
        raise InputError(f"bad decoding option in {text!r}: {e}", field="model") from None
    return ModelSpec(spec, decoding, opts)
