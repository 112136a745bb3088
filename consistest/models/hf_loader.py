"""One way to load Hugging Face models: resolve the spec fast, load, turn every failure into one line.

``resolve_pretrained`` decides at once whether a spec is a local folder (which must exist) or a hub id,
and fails fast when a hub id is neither cached nor reachable (offline, transformers would spend 30-60 s
on retries first). ``load_pretrained`` loads config, tokenizer and model with those checks and verifies
that the tokenizer round-trips text (transformers builds an empty tokenizer for a folder without
tokenizer files, and such a model "generates" empty replies). torch/transformers are imported lazily.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import folder_hash
from consistest.core.records import content_hash
from consistest.data.hub import hub_offline, hub_unreachable, looks_local

HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*(/[\w.-]+)?$")
PROBE_TEXT = "i have two dogs and a cat ."
TOKENIZER_FILES = (
    "tokenizer.json",
    "vocab.json",
    "vocab.txt",
    "spiece.model",
    "tokenizer.model",
    "sentencepiece.bpe.model",
)


# what a model folder holds that changes its replies: config and generation config, tokenizer, chat
# template, weights (a CTranslate2 folder's model.bin and vocabulary too)
MODEL_FILE_SUFFIXES = (".json", ".safetensors", ".bin", ".model", ".txt", ".jinja")


def folder_weights(spec: str, subfolders: tuple[str, ...] = ()) -> dict[str, str | None]:
    """``{"weights": <sha256[:12] of the folder's model files>}`` (and of those in ``subfolders``) for a
    local model folder; ``"hub"`` for a hub id, so a folder that later appears at that path does not resume
    its run; None for a folder that is not there (not known: a finished run still rescores, and loading
    says what is missing). Run settings name what a folder holds, so a model saved again into the same
    folder does not resume a run of the one before."""
    folder = Path(spec).expanduser()
    if not folder.is_dir():
        return {"weights": None if looks_local(spec) else "hub"}
    dirs = [folder, *(d for s in subfolders if (d := folder / s).is_dir())]
    parts = [folder_hash(d, MODEL_FILE_SUFFIXES) for d in dirs]
    return {"weights": parts[0][:12] if len(parts) == 1 else content_hash(*parts, n=12)}


def resolve_device(device: str) -> str:
    """``auto`` -> cuda when available, else cpu; asking for cuda without one is an InputError."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise InputError("--device cuda was asked for but no CUDA device is available", field="device")
    return device


def quiet_transformers() -> None:
    """No transformers progress bars or warnings (the CLI's --quiet)."""
    from transformers.utils import logging

    logging.disable_progress_bar()
    logging.set_verbosity_error()


def _cached(repo_id: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)
    except Exception:  # an unusual cache layout is treated as not cached
        return False


def resolve_pretrained(spec: str, what: str = "model", hint: str | None = None) -> str:
    """A local folder (must exist) or a hub id that is cached or reachable; else one-line InputError
    ending with ``hint`` (what to do instead; default: pass a local model folder)."""
    spec = str(spec)
    path = Path(spec).expanduser()
    if path.is_dir():
        return str(path)
    if path.exists():
        raise InputError(f"{what}: expected a model folder, got a file", path=spec)
    if looks_local(spec) or not HUB_ID.match(spec):
        raise InputError(f"{what} folder not found" + (f"; {hint}" if hint else ""), path=spec)
    if _cached(spec):
        return spec
    where = f"{what} {spec!r} is not a local folder and not in the Hugging Face cache"
    todo = hint or "pass a local model folder"
    if hub_offline():
        raise InputError(f"{where}, and HF_HUB_OFFLINE is set; {todo}")
    reason = hub_unreachable()
    if reason:
        raise InputError(f"{where}, and the hub cannot be reached ({reason}); {todo}")
    return spec


def load_error(spec: str, what: str, err: BaseException) -> InputError:
    """A loading failure (missing or corrupt file, unknown architecture) as one line."""
    first = (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
    return InputError(f"cannot load {what} {spec!r}: {type(err).__name__}: {first}")


def check_tokenizer(tok: Any, spec: str, what: str = "model") -> None:
    """Refuse a tokenizer that loses most of a plain sentence when encoding and decoding it (transformers
    builds one with only special tokens for a folder without tokenizer files)."""
    try:
        back = tok.decode(tok(PROBE_TEXT, add_special_tokens=False)["input_ids"], skip_special_tokens=True)
    except Exception as e:  # a broken tokenizer fails in many ways
        raise load_error(spec, f"{what} tokenizer of", e) from None
    squeeze = lambda text: re.sub(r"\s", "", text.lower())  # noqa: E731
    if SequenceMatcher(None, squeeze(back), squeeze(PROBE_TEXT)).ratio() >= 0.5:
        return  # most of the text survives (a vocabulary without some English words still passes)
    folder = Path(spec).expanduser()
    missing = folder.is_dir() and not any((folder / f).exists() for f in TOKENIZER_FILES)
    why = f"the folder has no tokenizer files ({', '.join(TOKENIZER_FILES[:3])}, ...)" if missing else ""
    raise InputError(
        f"{what} {spec!r}: its tokenizer does not round-trip text ({PROBE_TEXT!r} -> {back!r})"
        + (f"; {why}" if why else "; the tokenizer files are missing or do not belong to this model")
    )


def load_pretrained(
    spec: str,
    model_class: Callable[[Any], Any],
    *,
    what: str = "model",
    quiet: bool = False,
    hint: str | None = None,
    **model_kwargs: Any,
) -> tuple[Any, Any]:
    """(tokenizer, model) for a local folder or hub id; ``model_class(config)`` picks the Auto class;
    ``hint`` says what to do when it cannot be found (see ``resolve_pretrained``)."""
    from transformers import AutoConfig, AutoTokenizer

    src = resolve_pretrained(spec, what, hint)
    if quiet:
        quiet_transformers()
    try:
        config = AutoConfig.from_pretrained(src)
        tok = AutoTokenizer.from_pretrained(src)
        model = model_class(config).from_pretrained(src, **model_kwargs)
    except Exception as e:  # OSError, ValueError, SafetensorError, KeyError... all mean "cannot load this"
        raise load_error(spec, what, e) from None
    check_tokenizer(tok, spec, what)
    return tok, model
