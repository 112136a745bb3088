"""The settings of ``consistest train-detector`` (:class:`TrainDetectorConfig`) and how its labelled
dialogues split into train, dev and test: by a content hash of the context, so every reply to one context
falls on one side."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from consistest.core.errors import InputError
from consistest.core.records import DialogueExample, content_hash
from consistest.tasks.cdconv import detector as det
from consistest.tasks.cdconv import pairwise as pw

SplitBy = Literal["context", "row"]
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class TrainDetectorConfig:
    """Settings of ``consistest train-detector``; all but out/quiet/threads go into the run's identity."""

    architecture: det.Architecture | Literal["nli-pairs"]
    data: tuple[str, ...]
    out: str
    base: str = "scratch"
    tests: tuple[str, ...] = ()
    dev: tuple[str, ...] = ()  # labelled dev sets used whole (nli-pairs picks tau on them)
    nli: str | None = None  # nli-pairs: the guard
    pair_unit: pw.Unit = "sentence"
    pair_sources: tuple[pw.Source, ...] = ("history", "persona")
    guard_pairs: bool = True  # nli-pairs with qa_rules: off, only the rules and the role reading decide
    qa_rules: bool = False  # nli-pairs: read the last turn with the user's question (answer rules)
    dataset: str | None = None  # the dataset directory of scored ConsisTest runs among the inputs
    split_by: SplitBy = "context"
    split_seed: int = 13
    fractions: tuple[float, float] = (0.6, 0.2)  # train, dev; the rest is test
    nli_stage: tuple[str, ...] = ()
    nli_epochs: int = 1
    nli_max: int | None = 20000
    epochs: int = 5
    lr: float | None = None  # None: 3e-4 for a scratch encoder, 5e-5 (the paper's) for a pretrained one
    batch_size: int = 32
    max_length: int = 128
    seed: int = 0
    max_steps: int | None = None
    persona: bool = True  # the history views read the speaker's persona sentences (where the data has them)
    user_turn: bool = False  # the pair view reads the user's turn the judged one answers
    decision: Literal["argmax", "tau"] = "argmax"  # tau: a threshold on P(contradiction) picked on dev
    warmup: float = 0.06
    weight_decay: float = 0.01
    threads: int = 0
    device: str = "cpu"
    overwrite: bool = False  # empty --out first (other data or settings, or a folder not ours)
    quiet: bool = False

    def identity(self) -> dict[str, Any]:
        d = asdict(self)
        drop = (
            "out",
            "quiet",
            "threads",
            "tests",
            "device",
            "overwrite",
            "dev",
            "nli",
            "pair_unit",
            "qa_rules",
            "guard_pairs",
            "decision",
        )
        for k in (*drop, "pair_sources", *(() if self.user_turn else ("user_turn",))):
            d.pop(k)  # user_turn only when set: folders trained before it still resume
        # Stored as "method", its first name, so folders trained then still resume.
        return {"method": d.pop("architecture"), **d}


def split_of(ex: DialogueExample, by: SplitBy, seed: int, fractions: tuple[float, float]) -> str:
    """train/dev/test by a content hash of the context (every reply to one context on one side) or of
    the row; a split the example carries itself (synthetic data split by persona) wins."""
    if ex.split in SPLITS:
        return ex.split
    key = ex.context if by == "context" else ex.id
    u = int(content_hash(seed, "split", key), 16) / 16**16
    return "train" if u < fractions[0] else "dev" if u < sum(fractions) else "test"


def split_examples(
    cfg: TrainDetectorConfig, examples: list[DialogueExample]
) -> dict[str, list[DialogueExample]]:
    parts: dict[str, list[DialogueExample]] = {s: [] for s in SPLITS}
    for ex in examples:
        if ex.label is not None:
            parts[split_of(ex, cfg.split_by, cfg.split_seed, cfg.fractions)].append(ex)
    if not parts["train"]:
        raise InputError("no labelled training examples", field="data")
    return parts
