"""The seeded training loop shared by ``train-nli`` and ``train-detector``: length-bucketed batches of text
pairs, AdamW with linear warmup, per-epoch evaluation and checkpoints (``OUT/checkpoints/epoch-N``: weights,
optimizer, scheduler, RNG) that a re-run with the same identity resumes from.
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from consistest.core import log
from consistest.core.io import atomic_write_json, progress, read_json
from consistest.metrics.classification import classification_metrics
from consistest.training.nli_data import ID2LABEL, NLIExample


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


def predict_proba(
    model: Any, tok: Any, pairs: list[tuple[str, str]], batch_size: int, max_length: int
) -> list[list[float]]:
    """Class probabilities for (first, second) text pairs, in input order (length-sorted batches)."""
    import torch

    was_training = model.training
    model.eval()
    enc = tok([a for a, _ in pairs], [b for _, b in pairs], truncation=True, max_length=max_length)
    order = sorted(range(len(pairs)), key=lambda i: len(enc["input_ids"][i]))
    out: list[list[float]] = [[] for _ in pairs]
    device = next(model.parameters()).device
    with torch.inference_mode():
        for s in range(0, len(order), batch_size * 2):
            idx = order[s : s + batch_size * 2]
            batch = {k: v.to(device) for k, v in collate(tok, enc, idx).items()}
            probs = model(**batch).logits.float().softmax(-1).tolist()
            for i, p in zip(idx, probs, strict=True):
                out[i] = p
    model.train(was_training)
    return out


def evaluate(
    model: Any,
    tok: Any,
    examples: list[NLIExample],
    batch_size: int,
    max_length: int,
    labels: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Accuracy, per-class precision/recall/F1, macro F1 and the confusion matrix (rows = gold)."""
    probs = predict_proba(model, tok, [(e.premise, e.hypothesis) for e in examples], batch_size, max_length)
    pred = [max(range(len(p)), key=p.__getitem__) for p in probs]
    names = list(labels) if labels is not None else [ID2LABEL[i] for i in sorted(ID2LABEL)]
    return classification_metrics([e.label for e in examples], pred, names)


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


class LoopConfig(Protocol):
    """The settings the training loop reads (TrainNLIConfig and the detector's config have them)."""

    epochs: int
    lr: float
    batch_size: int
    max_length: int
    seed: int
    max_steps: int | None
    warmup: float
    weight_decay: float
    threads: int
    device: str
    quiet: bool


@dataclass(frozen=True)
class FitResult:
    model: Any
    tok: Any
    dev: dict[str, Any]
    history: list[dict[str, Any]]
    steps: int


def _optimizer(model: Any, config: LoopConfig, total: int) -> tuple[Any, Any]:
    import torch
    from transformers import get_linear_schedule_with_warmup

    no_decay = ("bias", "LayerNorm.weight", "layer_norm", "norm.weight")
    params = list(model.named_parameters())
    groups = [
        {
            "params": [p for n, p in params if not any(x in n for x in no_decay)],
            "weight_decay": config.weight_decay,
        },
        {"params": [p for n, p in params if any(x in n for x in no_decay)], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=config.lr)
    return opt, get_linear_schedule_with_warmup(opt, int(config.warmup * total), total)


def fit(
    config: LoopConfig,
    train: list[NLIExample],
    dev_sets: dict[str, list[NLIExample]],
    out: Path,
    identity: str,
    load: Callable[[], tuple[Any, Any]],
    labels: Sequence[str] | None = None,
) -> FitResult:
    """The seeded training loop: resume from ``out``'s last checkpoint of the same ``identity`` (else
    ``load()`` the base), train, evaluate every dev set and checkpoint after each epoch, save to ``out``."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    if config.threads > 0:
        torch.set_num_threads(config.threads)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(config.seed)
    ckpt = _last_checkpoint(out, identity)
    if ckpt is not None:
        tok = AutoTokenizer.from_pretrained(str(ckpt))
        model = AutoModelForSequenceClassification.from_pretrained(str(ckpt))
    else:
        tok, model = load()
    model.to(config.device)
    steps_per_epoch = -(-len(train) // config.batch_size)
    total = min(steps_per_epoch * config.epochs, config.max_steps or 10**12)
    opt, sched = _optimizer(model, config, total)
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
    evaluate_all = lambda: {  # noqa: E731
        k: evaluate(model, tok, v, config.batch_size, config.max_length, labels) for k, v in dev_sets.items()
    }
    for epoch in range(start_epoch, config.epochs):
        if step >= total:
            break
        order, enc = batches(train, config.batch_size, config.seed, epoch, tok, config.max_length)
        bar = progress(order, quiet=config.quiet, desc=f"epoch {epoch + 1}/{config.epochs}", unit="batch")
        loss_sum, n = 0.0, 0
        for idx in bar:
            if step >= total:
                break
            batch = {k: v.to(config.device) for k, v in collate(tok, enc, idx, train).items()}
            loss = model(**batch).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            step, loss_sum, n = step + 1, loss_sum + loss.item(), n + 1
            if n % 20 == 0:
                bar.set_postfix(loss=f"{loss_sum / n:.4f}")
        dev = evaluate_all()
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
        info = {"identity": identity, "epoch": epoch + 1, "step": step, "history": history}
        _save_checkpoint(out, model, tok, opt, sched, info)
    if dev is None:  # nothing left to train: evaluate the resumed model
        dev = evaluate_all()
    model.save_pretrained(str(out))
    tok.save_pretrained(str(out))
    return FitResult(model=model, tok=tok, dev=dev, history=history, steps=step)


def _brief(m: dict[str, Any]) -> dict[str, Any]:
    return {"accuracy": m["accuracy"], "macro_f1": m["macro_f1"], "n": m["n"]}


def _log(config: LoopConfig, msg: str) -> None:
    log.info(msg, quiet=config.quiet)
