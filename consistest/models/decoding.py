"""Decoding settings every backend understands (greedy, beam, nucleus sampling), and their signature tag."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from consistest.core.errors import InputError
from consistest.models.options import ModelOption


@dataclass(frozen=True)
class Decoding:
    """How replies are decoded; each backend maps these onto its own API."""

    max_new_tokens: int = 25
    num_beams: int = 1
    do_sample: bool = False
    temperature: float = 1.0
    top_p: float = 1.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("max_new_tokens", "num_beams"):
            if getattr(self, name) < 1:
                raise InputError(
                    f"must be at least 1, got {getattr(self, name)}", field=name.replace("_", "-")
                )
        if self.do_sample and not (self.temperature > 0 and 0 < self.top_p <= 1):
            raise InputError("sampling needs --temperature > 0 and 0 < --top-p <= 1", field="temperature")

    def tag(self) -> str:
        """``greedy``, ``beam4`` or ``sample-t0.7-p0.9-s1``."""
        if self.do_sample:
            return f"sample-t{self.temperature:g}-p{self.top_p:g}-s{self.seed}"
        return "greedy" if self.num_beams == 1 else f"beam{self.num_beams}"

    def signature_value(self) -> str:
        """The signature's ``dec:`` value, e.g. ``greedy-25``."""
        return f"{self.tag()}-{self.max_new_tokens}"

    def settings(self) -> dict[str, Any]:
        """What is stored with a run and compared on resume."""
        return {"decoding": self.tag(), "max_new_tokens": self.max_new_tokens}


# The decoding options of every command that runs a model (score, generate, converse), declared once;
# a command may change a default (converse samples with top-p 0.9, as the AIH paper does).
DECODING_OPTIONS: tuple[ModelOption, ...] = (
    ModelOption("max_new_tokens", int, 25),
    ModelOption("num_beams", int, 1),
    ModelOption("do_sample", bool, False, "Sample instead of greedy/beam (seeded per sample id).", flag=True,
                show_default=False),
    ModelOption("temperature", float, 1.0),
    ModelOption("top_p", float, 1.0),
    ModelOption("seed", int, 0),
)  # fmt: skip
