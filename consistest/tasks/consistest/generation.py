"""Run a chat model over ConsisTest samples, resumably, into RUNDIR/responses.jsonl.

Each sample becomes a Conversation (its input variant, see :mod:`.prompts`); the models layer's runner
appends replies keyed by sample id. ``baseline:oracle`` is provided here, since it needs the gold answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.records import Sample
from consistest.core.signature import make_signature
from consistest.data.dataset_dir import has_sessions, samples_hash
from consistest.models.base import ChatModel
from consistest.models.registry import ModelSpec
from consistest.models.rendering import session_prompt_tag
from consistest.models.runner import RunInfo, run_responses
from consistest.tasks.consistest.baselines import ORACLE, OracleModel
from consistest.tasks.consistest.prompts import check_variant, conversation
from consistest.tasks.consistest.subsets import Subset


@dataclass(frozen=True)
class RespondConfig:
    """Which model answers (with its decoding and backend options), what it sees, and which samples."""

    model: ModelSpec
    input_variant: str = "standard"
    limit: int | None = None  # the first N samples only: a smoke run, named in the signature
    sample: int | None = None  # a seeded stratified subset of N samples (see .subsets), named too
    sample_seed: int = 0
    overwrite: bool = False

    def __post_init__(self) -> None:
        check_variant(self.input_variant)
        Subset(self.limit, self.sample, self.sample_seed)  # checks --limit and --sample

    @property
    def selection(self) -> Subset:
        return Subset(self.limit, self.sample, self.sample_seed)

    def settings(self) -> dict[str, Any]:
        """Every setting that changes a response (not batch size, device, limit): stored with the run."""
        return {"model": self.model.name, "input_variant": self.input_variant, **self.model.settings()}

    def signature_parts(self, sessions: bool = False) -> list[tuple[str, str | None]]:
        """model, input variant, rendering (``speakers``, ``chat-persona-v1``, ``+sessions-v1`` when the
        data has session breaks; none for baselines) and decoding (``greedy-25``, ``none`` for baselines)."""
        prompt = self.model.prompt_value()
        return [
            ("model", self.model.name),
            ("input", self.input_variant),
            ("prompt", session_prompt_tag(prompt) if sessions else prompt),
            ("dec", self.model.signature_value()),
        ]

    def signature(self, data_hash: str, sessions: bool = False) -> str:
        """``consistest:v1|data:<hash12>|model:<id>|input:<variant>|dec:greedy-25|v:...`` (the data part is
        the dataset's content hash shortened as in score signatures; generation.json keeps it whole)."""
        return make_signature([("data", data_hash[:12]), *self.signature_parts(sessions)])

    def subset(self, samples: Sequence[Sample]) -> list[Sample]:
        """The samples answered: all, the first ``limit``, or a stratified ``sample``."""
        return self.selection.select(samples)

    def subset_tag(self, n_total: int) -> str | None:
        """The signature's ``subset:`` value (``first-N``, ``sample-N-sSEED``); None for the whole dataset."""
        return self.selection.tag(n_total)


def dataset_hash(samples: Sequence[Sample]) -> str:
    """The dataset's content hash (as its build recorded it): responses belong to exactly this dataset.
    A built dataset directory has it ready (``DatasetDir.content_hash``, checked against the data file's
    sha256), so callers holding one pass it to :func:`respond` instead of hashing the samples again."""
    return samples_hash(samples)


def load_model(spec: ModelSpec, samples: Sequence[Sample], quiet: bool = False) -> ChatModel:
    """The ChatModel for a spec; ``baseline:oracle`` answers from ``samples``."""
    return spec.load(quiet, extra={ORACLE: lambda: OracleModel(samples)})


def respond(
    cfg: RespondConfig,
    samples: Sequence[Sample],
    run_dir: str | Path,
    *,
    quiet: bool = False,
    model: ChatModel | None = None,
    data_hash: str | None = None,
) -> Path:
    """Write RUNDIR/responses.jsonl for ``cfg.subset(samples)``; return its path (``model`` overrides the
    one ``cfg`` names, e.g. a fake in tests). ``data_hash`` names the dataset the responses belong to
    (default: :func:`dataset_hash` of the samples)."""
    data = data_hash or dataset_hash(samples)
    items = [(s.id, conversation(s, cfg.input_variant)) for s in cfg.subset(samples)]
    return run_responses(
        lambda: model or load_model(cfg.model, samples, quiet),
        items,
        run_dir,
        RunInfo(cfg.settings(), data, cfg.signature(data, has_sessions(samples))),
        known_ids=[s.id for s in samples],
        overwrite=cfg.overwrite,
        quiet=quiet,
    )
