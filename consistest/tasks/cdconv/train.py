"""``consistest train-detector``: split labelled dialogues by context, train the architecture's classifiers
(optionally after a first stage on NLI pairs, contradiction vs rest), evaluate on the test split and any
extra test sets in CDConv's Table 4 layout. Every stage resumes from its last epoch checkpoint."""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl, distinct_names
from consistest.core.records import DialogueExample, content_hash
from consistest.core.signature import make_signature
from consistest.tasks.cdconv import detector as det
from consistest.tasks.cdconv import encoders as enc
from consistest.tasks.cdconv import pairwise as pw
from consistest.tasks.cdconv.detect import evaluate_sets
from consistest.tasks.cdconv.inputs import read_dialogues
from consistest.tasks.cdconv.outdir import training_dir
from consistest.tasks.cdconv.threshold import TAU_RULE, tau_on_dev
from consistest.tasks.cdconv.train_config import (  # noqa: F401 (re-exported)
    SPLITS,
    SplitBy,
    TrainDetectorConfig,
    split_examples,
    split_of,
)
from consistest.training.loop import fit
from consistest.training.nli_data import NLIExample, read_nli_file


def detector_signature(
    cfg: TrainDetectorConfig, data_hash: str, nli_hash: str = "none", tau: dict[str, Any] | None = None
) -> str:
    """The architecture (signature part ``method``, its first name), encoder, first stage (a hash of its
    pairs), training data and split, seed and schedule, and the threshold with the dev set it was picked
    on (``tau_on_dev``'s result), when one was."""
    return make_signature(
        [
            ("task", "cdconv"),
            ("method", cfg.architecture),  # the part keeps its name: signatures stay comparable
            ("base", Path(cfg.base).name if Path(cfg.base).is_dir() else cfg.base),
            ("nli-stage", nli_hash[:8]),
            ("data", data_hash[:12]),
            ("split", f"{cfg.split_by}-{cfg.split_seed}"),
            ("seed", cfg.seed),
            ("ep", cfg.epochs),
            ("len", cfg.max_length),
            ("persona", "yes" if cfg.persona else "no"),
            *([("user", "yes")] if cfg.user_turn else []),
            *([("tau", f"{tau['tau']:.6g}"), ("dev", tau["tau_dev_hash"])] if tau else []),
        ]
    )


def _base_loader(cfg: TrainDetectorConfig, out: Path, texts: list[str], start: Path | None):
    """A function (labels -> (tokenizer, model)) for a new stage: from the NLI first stage when there is
    one, else a scratch BERT over a vocabulary learnt from the training texts, else the named encoder."""
    from consistest.training.nli_train import load_base

    tok_dir = out / "tokenizer"
    if enc.is_scratch(cfg.base) and start is None and not (tok_dir / "tokenizer.json").is_file():
        enc.train_scratch_tokenizer(texts, tok_dir, max_length=cfg.max_length)

    def load(labels: tuple[str, ...]) -> tuple[Any, Any]:
        id2label = dict(enumerate(labels))
        if start is not None:
            tok, model = enc.load_stage_start(start, labels)
        elif enc.is_scratch(cfg.base):
            from transformers import AutoTokenizer

            tok = AutoTokenizer.from_pretrained(str(tok_dir))
            model = enc.with_labels(
                enc.scratch_model(cfg.base, tok, len(labels), cfg.seed, cfg.max_length), labels
            )
        else:
            tok, model = load_base(cfg.base, id2label)
        return enc.left_truncating(tok), model

    return load


def nli_pairs(cfg: TrainDetectorConfig) -> list[NLIExample]:
    """The first stage's pairs: contradiction (1) vs the rest (0), a content-seeded ``nli_max`` of them."""
    pairs: list[NLIExample] = []
    for p in cfg.nli_stage:
        pairs += [NLIExample(e.premise, e.hypothesis, int(e.label == 0)) for e in read_nli_file(p)]
    pairs.sort(key=lambda e: content_hash(cfg.seed, e.premise, e.hypothesis))
    return pairs[: cfg.nli_max] if cfg.nli_max else pairs


def nli_first_stage(
    cfg: TrainDetectorConfig, out: Path, load, pairs: list[NLIExample], pairs_hash: str
) -> Path | None:
    """The paper's first stage: the encoder learns contradiction vs rest on NLI pairs (OUT/nli-stage);
    ``pairs_hash``: their content hash (``train_detector`` computes it once)."""
    if not pairs:
        return None
    dev, train = pairs[: len(pairs) // 20], pairs[len(pairs) // 20 :]
    stage_cfg = replace(cfg, epochs=cfg.nli_epochs)
    identity = content_hash("nli-stage", cfg.identity(), pairs_hash)
    labels = ("other", "contradiction")
    log.info(f"NLI first stage: {len(train)} pairs", quiet=cfg.quiet)
    fit(stage_cfg, train, {"nli:dev": dev}, out / "nli-stage", identity, lambda: load(labels), labels)
    return out / "nli-stage"


def train_detector(cfg: TrainDetectorConfig) -> dict[str, Any]:
    """Read, split, train every stage (resumable), write OUT/detector.json, evaluate; return metrics."""
    if cfg.device == "auto" or cfg.device.startswith("cuda"):
        from consistest.models.hf_loader import resolve_device

        cfg = replace(cfg, device=resolve_device(cfg.device))
    if cfg.lr is None:
        cfg = replace(cfg, lr=3e-4 if enc.is_scratch(cfg.base) else 5e-5)
    if cfg.architecture not in (*det.ARCHITECTURES, pw.ARCHITECTURE):
        raise InputError(f"unknown architecture {cfg.architecture!r}", field="architecture")
    if cfg.architecture == pw.ARCHITECTURE and not cfg.nli:
        raise InputError("nli-pairs needs the guard: --nli <model folder or hub id>", field="nli")
    if cfg.user_turn and cfg.architecture != "pair":
        raise InputError("--user-turn is a setting of the pair view (--architecture pair)", field="user_turn")
    if cfg.qa_rules and cfg.architecture != pw.ARCHITECTURE:
        raise InputError("--qa-rules is a setting of --architecture nli-pairs", field="qa_rules")
    if not cfg.guard_pairs and (cfg.architecture != pw.ARCHITECTURE or not cfg.qa_rules):
        raise InputError("--no-guard-pairs is a setting of nli-pairs --qa-rules: add --qa-rules",
                         field="guard_pairs")  # fmt: skip
    if not cfg.guard_pairs and (cfg.pair_unit != "sentence" or "intra" in cfg.pair_sources):
        raise InputError("--no-guard-pairs reads no pairs, so --pair-unit turn and --pairs intra would "
                         "change nothing but the signature: leave them out", field="guard_pairs")  # fmt: skip
    if cfg.epochs < 1 or cfg.batch_size < 1 or cfg.max_length < 16:
        raise InputError("epochs and batch-size must be >= 1, max-length >= 16")
    examples = [ex for path in cfg.data for ex in read_dialogues(path, cfg.dataset)]
    test_names, dev_names = distinct_names(cfg.tests, "test"), distinct_names(cfg.dev, "dev")
    tests = {n: read_dialogues(p, cfg.dataset) for n, p in zip(test_names, cfg.tests, strict=True)}
    devs = {f"dev:{n}": read_dialogues(p, cfg.dataset) for n, p in zip(dev_names, cfg.dev, strict=True)}
    parts = split_examples(cfg, examples)
    if cfg.decision == "tau" and cfg.architecture != pw.ARCHITECTURE:  # fail before training, not after
        labels = {
            ex.label != "none" for v in (devs or {"dev": parts["dev"]}).values() for ex in v if ex.label
        }
        if labels != {True, False}:
            raise InputError(
                "--decision tau needs dev dialogues of both classes (--dev, or a dev split)", field="dev"
            )
    data_hash = content_hash([_hashed(e) for e in examples], n=64)
    first = nli_pairs(cfg) if cfg.architecture != pw.ARCHITECTURE else []
    nli_hash = content_hash([(e.premise, e.hypothesis, e.label) for e in first]) if first else "none"
    inputs = [*cfg.data, *cfg.tests, *cfg.dev, *cfg.nli_stage, *([cfg.dataset] if cfg.dataset else [])]
    identity = {**cfg.identity(), "data_hash": data_hash, **({"nli_stage_hash": nli_hash} if first else {})}
    with training_dir(cfg.out, identity, parts["train"], inputs=inputs, overwrite=cfg.overwrite) as out:
        return _train(cfg, parts, devs, tests, out, (data_hash, nli_hash), first)


def _hashed(ex: DialogueExample) -> tuple[Any, ...]:
    """What of an example the data hash covers: its id (turns, label, origin), split and, where it has
    one, the speaker's persona, which the history views read (data without personas hashes as before)."""
    return (ex.id, ex.label, ex.split, *([list(ex.persona)] if ex.persona else []))


def _train(
    cfg: TrainDetectorConfig,
    parts: dict[str, list[DialogueExample]],
    devs: dict[str, list[DialogueExample]],
    tests: dict[str, list[DialogueExample]],
    out: Path,
    hashes: tuple[str, str],
    first: list[NLIExample],
) -> dict[str, Any]:
    log.info(" ".join(f"{k}={len(v)}" for k, v in parts.items()), quiet=cfg.quiet)
    if cfg.architecture == pw.ARCHITECTURE:
        return calibrate_pairs(cfg, parts, devs, tests, out)
    history = train_stages(cfg, parts, out, hashes, first)
    signature = detector_signature(cfg, *hashes)
    info = {
        "architecture": cfg.architecture,
        "base": cfg.base,
        "max_length": cfg.max_length,
        "persona": cfg.persona,
        "user_turn": cfg.user_turn,
        "stages": [asdict(s) for s in det.STAGES[cfg.architecture]],
        "signature": signature,
        "config": {k: v for k, v in asdict(cfg).items() if k not in ("quiet", "overwrite")},
        "counts": {k: len(v) for k, v in parts.items()},
    }
    if cfg.decision == "tau":  # picked before detector.json is written, so it is written once, whole
        detector = det.Detector(out, batch_size=cfg.batch_size * 2, device=cfg.device, info=info)
        info.update(tau_on_dev(detector, devs or {"dev": parts["dev"]}))
        del detector  # _evaluate loads its own
        info["signature"] = detector_signature(cfg, *hashes, tau=info)
        log.info(f"{cfg.architecture}: tau {info['tau']:.6g} ({TAU_RULE})", quiet=cfg.quiet)
    det.write_detector_info(out, info)
    return _evaluate(cfg, out, {**info, "training": history}, {**devs, **tests}, parts["test"])


def calibrate_pairs(
    cfg: TrainDetectorConfig,
    parts: dict[str, list[DialogueExample]],
    devs: dict[str, list[DialogueExample]],
    tests: dict[str, list[DialogueExample]],
    out: Path,
) -> dict[str, Any]:
    """nli-pairs: no training; tau picked on the ``--dev`` sets, or without them on the dev split of
    ``--data`` (with ``--qa-rules``, turns after a statement get their own, from both); the dev split is
    reported either way."""
    dev = devs or {"dev": parts["dev"]}
    settings = pw.PairSettings(cfg.pair_sources, cfg.pair_unit, cfg.qa_rules, cfg.qa_rules, cfg.guard_pairs)
    extra = parts["dev"] if devs else []  # turns after a statement: the dev split's too (regimes.py)
    info = pw.calibrate(
        cfg.nli, settings, dev, out, statement_dev=extra, batch_size=cfg.batch_size, device=cfg.device
    )
    info["config"] = {k: v for k, v in asdict(cfg).items() if k not in ("quiet", "overwrite")}
    info["counts"] = {k: len(v) for k, v in parts.items()}
    det.write_detector_info(out, info)
    after = "" if info["tau_statement"] is None else f", after a statement {info['tau_statement']:.6g}"
    log.info(f"nli-pairs: tau {info['tau']:.6g}{after} ({TAU_RULE})", quiet=cfg.quiet)
    shown = {**({"dev": parts["dev"]} if devs and parts["dev"] else {}), **devs, **tests}
    return _evaluate(cfg, out, info, shown, parts["test"])


def _evaluate(
    cfg: TrainDetectorConfig,
    out: Path,
    info: dict[str, Any],
    sets: dict[str, list[DialogueExample]],
    test_split: list[DialogueExample],
) -> dict[str, Any]:
    """Figures and predictions on the test split and the extra sets; OUT/metrics.json."""
    sets = {"test": test_split, **sets} if test_split else sets
    results, preds = evaluate_sets(out, sets, batch_size=cfg.batch_size * 2, device=cfg.device)
    stems = {name: name.replace(":", "-").removesuffix(".jsonl") for name in preds}  # no .jsonl.jsonl
    paths = {name: out / f"predictions-{stem}.jsonl" for name, stem in stems.items()}
    for stale in set(out.glob("predictions-*.jsonl")) - set(paths.values()):  # an earlier run's sets
        stale.unlink()
    for name, rows in preds.items():
        atomic_write_jsonl(paths[name], rows)
    metrics = {**info, "results": results}
    atomic_write_json(out / "metrics.json", metrics)
    return metrics


def train_stages(
    cfg: TrainDetectorConfig,
    parts: dict[str, list[DialogueExample]],
    out: Path,
    hashes: tuple[str, str],
    first: list[NLIExample],
) -> dict[str, Any]:
    """The optional NLI first stage (``first``: its pairs), then each classifier of the architecture (each
    resumable, its identity naming the data and the first stage's pairs): their histories."""
    texts = [t for ex in parts["train"] for t in (*ex.turns, *ex.persona)] + [
        t for e in first for t in (e.premise, e.hypothesis)
    ]
    load = _base_loader(cfg, out, texts, None)
    data_hash, nli_hash = hashes
    start = nli_first_stage(cfg, out, load, first, nli_hash)
    if start is not None:
        load = _base_loader(cfg, out, texts, start)
    history, sep = {}, _sep(cfg, out, start)
    for stage in det.STAGES[cfg.architecture]:
        train = det.stage_examples(stage, parts["train"], sep, cfg.persona, cfg.user_turn)
        dev_pairs = det.stage_examples(stage, parts["dev"], sep, cfg.persona, cfg.user_turn)
        dev = {"dev": dev_pairs} if parts["dev"] else {}
        identity = content_hash(stage.name, cfg.identity(), data_hash, *([nli_hash] if first else []))
        log.info(f"stage {stage.name}: {len(train)} training pairs", quiet=cfg.quiet)
        res = fit(cfg, train, dev, out / stage.name, identity, lambda st=stage: load(st.labels), stage.labels)
        history[stage.name] = {"steps": res.steps, "history": res.history, "dev": res.dev}
    return history


def _sep(cfg: TrainDetectorConfig, out: Path, start: Path | None) -> str:
    """The separator the stage's tokenizer will use (scratch and BERT-style bases: ``[SEP]``)."""
    from transformers import AutoTokenizer

    from consistest.training.nli_train import resolve_base

    src = start or (out / "tokenizer" if enc.is_scratch(cfg.base) else resolve_base(cfg.base))
    return det.separator(AutoTokenizer.from_pretrained(str(src)))
