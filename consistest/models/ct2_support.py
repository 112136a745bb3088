"""What :class:`~consistest.models.ct2_chat.CT2ChatModel` needs around the CTranslate2 engine: the HF parts
saved beside the converted model (tokenizer, config, generation config, decoder start token), the
generation config's settings as engine arguments, batches of length-sorted inputs, and engine calls whose
missing CUDA library becomes one line. Kept apart so the backend module reads as the model itself;
transformers is imported lazily.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.models.ct2_convert import HF_DIR
from consistest.models.hf_encoding import Groups
from consistest.models.hf_loader import check_tokenizer, load_error
from consistest.models.refill_support import NEUTRAL


def _hf_parts(folder: str) -> tuple[Any, Any, Any]:
    """Tokenizer, config and generation config saved beside the converted model."""
    from transformers import AutoConfig, AutoTokenizer, GenerationConfig

    hf = Path(folder).expanduser() / HF_DIR
    try:
        tok = AutoTokenizer.from_pretrained(hf)
        config = AutoConfig.from_pretrained(hf)
        gc = GenerationConfig.from_pretrained(hf) if (hf / "generation_config.json").is_file() else None
    except Exception as e:  # OSError, ValueError... all mean "cannot load this"
        raise load_error(str(folder), f"ct2 model ({HF_DIR}/)", e) from None
    check_tokenizer(tok, str(folder))
    return tok, config, gc or GenerationConfig.from_model_config(config)


def _decoder_start(config: Any, gc: Any) -> int | None:
    start = gc.decoder_start_token_id
    if start is None:
        start = getattr(config, "decoder_start_token_id", None)
    return gc.bos_token_id if start is None else start


def generation_options(gc: Any, encoder_decoder: bool) -> dict[str, Any]:
    """The generation config's settings that change greedy replies, as CTranslate2 arguments
    (``suppress_ids``, ``forced_bos``, ``forced_eos``, ``no_repeat_ngram_size``, ``min_new_tokens``); a
    setting the engine cannot reproduce raises InputError (HF would apply it, so replies would differ)."""
    out: dict[str, Any] = {}
    for name, neutral in NEUTRAL.items():
        value = getattr(gc, name, None)
        if value in neutral:
            continue
        if name == "suppress_tokens":
            out["suppress_ids"] = [int(v) for v in value]
        elif name == "no_repeat_ngram_size":
            out["no_repeat_ngram_size"] = int(value)
        elif name == "min_new_tokens":
            out["min_new_tokens"] = int(value)
        elif name == "forced_bos_token_id" and encoder_decoder:
            out["forced_bos"] = int(value)
        elif name == "forced_eos_token_id" and encoder_decoder:
            out["forced_eos"] = True
        else:
            raise InputError(
                f"the model's generation config sets {name}={value!r}, which the ct2 backend does not "
                "reproduce; run it with the HF backend, or remove the setting from generation_config.json",
                field="model",
            )
    return out


def batches(groups: Groups, size: int, by_tokens: bool) -> list[Groups]:
    """Consecutive slices of the length-sorted groups: ``size`` inputs each, or at most ``size`` tokens
    (padded to the longest input; an input longer than ``size`` gets a batch of its own)."""
    if not by_tokens:
        return [groups[i : i + size] for i in range(0, len(groups), size)]
    out: list[Groups] = []
    for g in groups:
        if out and (len(out[-1]) + 1) * len(g[0]) <= size:
            out[-1].append(g)
        else:
            out.append([g])
    return out


def engine_call(fn: Any, *args: Any, **kw: Any) -> Any:
    """Call CTranslate2; a CUDA library it cannot load (its wheels are built against CUDA 12 and cuDNN 9,
    loaded at the first batch, not at load time) becomes one line saying what to install."""
    try:
        return fn(*args, **kw)
    except RuntimeError as e:
        if (err := missing_library(e)) is not None:
            raise err from None
        raise


def missing_library(err: BaseException) -> InputError | None:
    """The InputError for CTranslate2's "Library X is not found or cannot be loaded", else None."""
    m = re.search(r"Library (\S+) is not found or cannot be loaded", str(err))
    if m is None:
        return None
    return InputError(
        f"CTranslate2 on CUDA cannot load {m[1]}: its wheels need CUDA 12's cuBLAS and cuDNN 9 (for example "
        "pip install nvidia-cublas-cu12 nvidia-cudnn-cu12, their lib folders on LD_LIBRARY_PATH), "
        "or run it with --device cpu",
        field="device",
    )
