"""Hugging Face chat models converted for CTranslate2: ``consistest models convert MODEL --to ct2 --out DIR``.

The folder holds CTranslate2's own files at its root (``model.bin``, ``config.json``, the vocabulary), so
``ctranslate2.Generator(DIR)`` loads it as any CTranslate2 model; the HF tokenizer, config and generation
config in ``hf/`` (what :class:`~consistest.models.hf_encoding.HFEncoding` reads, so conversations are
rendered exactly as for the HF model); and ``consistest_ct2.json``, written last, naming the source, the
quantization, the converter versions and the result of the conversion check.

The check: the converted model scores a probe text (teacher-forced log-probabilities of each token) and the
HF model scores it too. A float32 conversion whose largest difference exceeds ``FLOAT32_TOLERANCE`` is
refused (a converter that misread a config field gives differences of whole units); an int8 one records
its difference. CTranslate2 takes tokens as strings, so the vocabulary it stores must list the tokenizer's
tokens in id order, once each; that is checked too.

Conversion happens once, explicitly, rather than on first use into a cache: it takes about a minute and
twice the model's memory for a 135M model, writes a folder the user should know about (and may copy to a
GPU machine), and the folder is what the signature names.
"""

from __future__ import annotations

import importlib.metadata
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.core.io import atomic_dir, atomic_write_json
from consistest.core.output_guards import guard_output_dir
from consistest.models.hf_loader import load_pretrained, resolve_pretrained

Quantization = Literal["float32", "int8"]
QUANTIZATIONS: tuple[Quantization, ...] = get_args(Quantization)
# The compute type each stored quantization runs with, on CPU and CUDA alike (never the engine's "default",
# which picks float16 or int8_float16 on a GPU and would change the replies without changing the name).
COMPUTE_TYPES: dict[str, str] = {"float32": "float32", "int8": "int8_float32"}
MANIFEST = "consistest_ct2.json"
HF_DIR = "hf"
FORMAT = 1
FLOAT32_TOLERANCE = 1e-3  # largest |log-prob difference| a float32 conversion may show on the probe
PROBE_SOURCE = "i have two dogs and a cat . what do you do for a living ? i work as a nurse in a small town ."
PROBE_TARGET = "i am a teacher . do you have any pets ? yes , i have a dog ."
INSTALL_HINT = "pip install 'consistest[ct2]' (CTranslate2 wheels for Linux, macOS and Windows)"


@dataclass(frozen=True)
class CT2Manifest:
    """What ``consistest_ct2.json`` records about a conversion."""

    source: str  # the HF model as given to the command
    model_type: str
    encoder_decoder: bool
    quantization: str
    ctranslate2: str  # the converter's version
    transformers: str
    probe_max_diff: float  # largest |log-prob difference| against the HF model on the probe text
    format: int = FORMAT


def engine_version() -> str:
    """The installed CTranslate2 version, without importing it; InputError when it is not installed."""
    try:
        return importlib.metadata.version("ctranslate2")
    except importlib.metadata.PackageNotFoundError:
        raise InputError(f"the ct2 backend needs CTranslate2: {INSTALL_HINT}", field="model") from None


def read_manifest(folder: str | Path) -> CT2Manifest:
    """The manifest of a converted folder; a one-line InputError for anything else."""
    path = Path(folder).expanduser()
    hint = "make one with: consistest models convert MODEL --to ct2 --out DIR"
    if not path.is_dir():
        raise InputError(f"ct2 model folder not found; {hint}", path=str(folder))
    file = path / MANIFEST
    if not file.is_file():
        raise InputError(f"not a ct2 conversion (no {MANIFEST}); {hint}", path=str(folder))
    try:
        data = json.loads(file.read_text())
        manifest = CT2Manifest(**data)
    except (ValueError, TypeError) as e:
        raise InputError(f"unreadable ct2 manifest: {e}", path=str(file)) from None
    if manifest.format != FORMAT or manifest.quantization not in QUANTIZATIONS:
        raise InputError(
            f"ct2 manifest format {manifest.format}, quantization {manifest.quantization!r}: not one this "
            f"version reads; convert again",
            path=str(file),
        )
    return manifest


def convert(
    source: str,
    out: str | Path,
    quantization: str = "float32",
    *,
    overwrite: bool = False,
    log: Callable[[str], None] | None = None,
) -> Path:
    """Convert the HF model ``source`` (folder or hub id) into a CTranslate2 folder ``out``; return it."""
    if quantization not in QUANTIZATIONS:
        raise InputError(
            f"unknown quantization {quantization!r}, expected one of {', '.join(QUANTIZATIONS)}",
            field="quantization",
        )
    version = engine_version()
    src = resolve_pretrained(source, "model")
    inputs = [src] if Path(src).is_dir() else []
    out = guard_output_dir(
        out, marker=MANIFEST, overwrite=overwrite, inputs=inputs, what="consistest models convert"
    )
    say = log or (lambda _: None)
    with atomic_dir(out) as tmp:
        say(f"converting {source} for CTranslate2 {version} ({quantization}) -> {out}")
        _engine_files(src, tmp, quantization)
        tok, model = _hf_model(src)
        (tmp / HF_DIR).mkdir()
        for part in (tok, model.config, model.generation_config):
            part.save_pretrained(tmp / HF_DIR)
        check_vocabulary(tmp, tok, source)
        diff = probe_diff(tmp, tok, model, quantization)
        if quantization == "float32" and not diff <= FLOAT32_TOLERANCE:
            raise InputError(
                f"model {source!r}: the converted model's log-probabilities differ from the HF model's by "
                f"up to {diff:.3g} on a probe text (float32 should agree within {FLOAT32_TOLERANCE}); "
                f"CTranslate2 {version} does not convert this model faithfully"
            )
        say(f"check: largest log-probability difference from the HF model on a probe text {diff:.2g}")
        manifest = CT2Manifest(
            source=str(source), model_type=str(model.config.model_type),
            encoder_decoder=bool(model.config.is_encoder_decoder), quantization=quantization,
            ctranslate2=version, transformers=importlib.metadata.version("transformers"),
            probe_max_diff=round(float(diff), 8),
        )  # fmt: skip
        atomic_write_json(tmp / MANIFEST, asdict(manifest))
    say(f"use it as --model ct2:{out}")
    return out


def _engine_files(src: str, out: Path, quantization: str) -> None:
    """CTranslate2's files for ``src`` in ``out``. transformers 5 dropped ``BartConfig.normalize_before``,
    which CTranslate2's BART loader still reads: BART is post-norm, so it is supplied as False."""
    from ctranslate2.converters import TransformersConverter

    class Converter(TransformersConverter):
        def load_model(self, model_class: Any, path: str, **kwargs: Any) -> Any:
            model = super().load_model(model_class, path, **kwargs)
            if model.config.model_type == "bart" and not hasattr(model.config, "normalize_before"):
                model.config.normalize_before = False
            return model

    try:
        Converter(src).convert(str(out), quantization=quantization, force=True)
    except (ValueError, NotImplementedError, KeyError, AttributeError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0][:300]
        raise InputError(f"CTranslate2 cannot convert model {src!r}: {type(e).__name__}: {first}") from None


def _hf_model(src: str) -> tuple[Any, Any]:
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM

    auto = lambda config: AutoModelForSeq2SeqLM if config.is_encoder_decoder else AutoModelForCausalLM  # noqa: E731
    tok, model = load_pretrained(src, auto, what="model", dtype=torch.float32)
    return tok, model.eval()


def vocabulary(folder: Path) -> list[str]:
    """The target (or only) vocabulary CTranslate2 stored, in id order."""
    for name in ("vocabulary", "shared_vocabulary", "target_vocabulary"):
        for ext, read in ((".json", json.loads), (".txt", lambda t: t.split("\n")[:-1])):
            path = folder / f"{name}{ext}"
            if path.is_file():
                return list(read(path.read_text(encoding="utf-8")))
    raise InputError("CTranslate2 wrote no vocabulary file", path=str(folder))


def check_vocabulary(folder: Path, tok: Any, source: str) -> None:
    """The stored vocabulary must list the tokenizer's tokens in id order, each once: CTranslate2 maps the
    token strings we pass back to ids through it."""
    stored = vocabulary(folder)
    if len(stored) < len(tok):  # the tokens past the stored ones would reach the engine as unknown
        raise InputError(
            f"model {source!r}: the tokenizer has {len(tok)} tokens but CTranslate2 stored {len(stored)} "
            "(tokens added to the tokenizer without resizing the model's embeddings); this model cannot run "
            "on ct2"
        )
    n = len(tok)
    pieces = tok.convert_ids_to_tokens(list(range(n)))
    bad = next((i for i in range(n) if stored[i] != pieces[i]), None)
    if bad is not None:
        raise InputError(
            f"model {source!r}: the tokenizer's token {bad} is {pieces[bad]!r} but CTranslate2 stored "
            f"{stored[bad]!r} there (the tokenizer's ids have gaps); this model cannot run on ct2"
        )
    if len(set(stored[:n])) != n:
        raise InputError(f"model {source!r}: the tokenizer has duplicate token strings; it cannot run on ct2")


def probe_diff(folder: Path, tok: Any, model: Any, quantization: str) -> float:
    """Largest |log-probability difference| between the converted and the HF model on the probe text."""
    import ctranslate2
    import torch

    compute = COMPUTE_TYPES[quantization]
    src = list(tok(PROBE_SOURCE)["input_ids"])
    with torch.inference_mode():
        if model.config.is_encoder_decoder:
            tgt = list(tok(PROBE_TARGET, add_special_tokens=False)["input_ids"])
            gold = tgt + [tok.eos_token_id]  # CTranslate2 scores the end token too
            start = model.generation_config.decoder_start_token_id
            if start is None:
                start = model.config.decoder_start_token_id
            logits = model(
                input_ids=torch.tensor([src]), decoder_input_ids=torch.tensor([[start, *tgt]])
            ).logits
            engine = ctranslate2.Translator(str(folder), compute_type=compute, intra_threads=1)
            theirs = engine.score_batch([tok.convert_ids_to_tokens(src)], [tok.convert_ids_to_tokens(tgt)])
        else:
            gold = src[1:]
            logits = model(input_ids=torch.tensor([src])).logits[:, :-1]
            engine = ctranslate2.Generator(str(folder), compute_type=compute, intra_threads=1)
            theirs = engine.score_batch([tok.convert_ids_to_tokens(src)])
        ours = torch.log_softmax(logits[0].float(), -1)[torch.arange(len(gold)), torch.tensor(gold)].tolist()
    got = theirs[0].log_probs
    if len(got) != len(ours):
        return float("inf")
    return max(abs(a - b) for a, b in zip(ours, got, strict=True))
