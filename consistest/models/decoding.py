"""Generation settings: one frozen config, the subset that changes a response, and its signature."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from consistest.core.errors import InputError
from consistest.models.rendering import DEFAULT_SPEAKERS, check_variant
from consistest.core.signature import make_signature

BASELINE_PREFIX = "baseline:"
DEVICES = ("auto", "cpu", "cuda")
DTYPES = ("auto", "float32", "float16", "bfloat16")
DEFAULT_BATCH_SIZE = 32


@dataclass(frozen=True)
class GenerationConfig:
    """How to run one responder over a dataset (the options of `consistest generate`)."""

    model: str
    input_variant: str = "standard"
    speaker_tokens: tuple[str, str] = DEFAULT_SPEAKERS
    utterance_max_tokens: int = 32
    chat_template: bool = False
    device: str = "auto"
    dtype: str = "auto"
    batch_size: int = DEFAULT_BATCH_SIZE
    max_new_tokens: int = 25
    num_beams: int = 1
    do_sample: bool = False
    temperature: float = 1.0
    top_p: float = 1.0
    seed: int = 0
    limit: int | None = None
    overwrite: bool = False

    def __post_init__(self) -> None:
        check_variant(self.input_variant)
        if self.device not in DEVICES:
            raise InputError(f"unknown device {self.device!r}, expected one of {', '.join(DEVICES)}")
        if self.dtype not in DTYPES:
            raise InputError(f"unknown dtype {self.dtype!r}, expected one of {', '.join(DTYPES)}")
        for name in ("batch_size", "max_new_tokens", "num_beams"):
            if getattr(self, name) < 1:
                raise InputError(
                    f"must be at least 1, got {getattr(self, name)}", field=name.replace("_", "-")
                )
        if self.limit is not None and self.limit < 0:
            raise InputError(f"must be >= 0, got {self.limit}", field="limit")
        if self.utterance_max_tokens < 0:
            raise InputError("must be >= 0 (0 = no cut)", field="utterance-max-tokens")
        if self.do_sample and not (self.temperature > 0 and 0 < self.top_p <= 1):
            raise InputError("sampling needs --temperature > 0 and 0 < --top-p <= 1", field="temperature")

    @property
    def is_baseline(self) -> bool:
        return self.model.startswith(BASELINE_PREFIX)

    def decoding(self) -> str:
        """Decoding as a short tag for the signature: ``greedy``, ``beam4`` or ``sample-t0.7-p0.9-s1``."""
        if self.is_baseline:
            return "none"
        if self.do_sample:
            return f"sample-t{self.temperature:g}-p{self.top_p:g}-s{self.seed}"
        return "greedy" if self.num_beams == 1 else f"beam{self.num_beams}"

    def settings(self) -> dict[str, Any]:
        """Every setting that changes a response (not batch size, device, limit): stored with the run."""
        out: dict[str, Any] = {"model": self.model, "input_variant": self.input_variant}
        if self.is_baseline:
            return out
        out.update(
            speaker_tokens=list(self.speaker_tokens),
            utterance_max_tokens=self.utterance_max_tokens,
            chat_template=self.chat_template,
            dtype=self.dtype,
            decoding=self.decoding(),
            max_new_tokens=self.max_new_tokens,
        )
        return out

    def signature_parts(self) -> dict[str, str]:
        """model, input variant and decoding (``greedy-25``, ``beam4-25``, ``none`` for baselines)."""
        dec = self.decoding() if self.is_baseline else f"{self.decoding()}-{self.max_new_tokens}"
        return {"model": self.model, "input": self.input_variant, "dec": dec}

    def signature(self, data_hash: str) -> str:
        """``consistest:v1|data:<hash>|model:<id>|input:<variant>|dec:greedy-25|v:...``."""
        return make_signature({"data": data_hash, **self.signature_parts()})
