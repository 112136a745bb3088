"""``consistest train-guard``: the offline NLI guard's whole recipe in one resumable command.

1. **Pairs** (``pairs.jsonl`` in the model folder, every row with its split): DNLI pairs from the ConvAI2
   triples with synthetic kinds on top of the natural ones (``nli_pairs``) and their dev/test probes
   (``pairs_build``), DECODE rct hard negatives, ANLI dev rounds 1-3 (part trained on, part dev) and SNLI
   dev (``data``). Train / dev / test follow ``nli_splits``: the test split is frozen.
2. **Training**: MiniLM (or ``--base``) fine-tuned on the train rows by the shared loop, checkpointed per
   epoch in a work folder beside ``--out`` (``.NAME.work``), so re-running the same command after a kill
   resumes from the last finished epoch.
3. **Threshold**: tau on P(contradiction) chosen on the dev probe by ``evaluate.select_threshold`` (the
   highest recall at false alarms <= ``max_false_alarm``), stored as ``nli_threshold.json``, which
   ``load_nli`` then applies (and names in the signature).
4. **Evaluation** on dev and the frozen test split (``metrics.json``); ``consistest eval-nli`` prints it.

``--out`` is written whole at the end (temp folder + rename); a folder that is not an earlier guard is
refused unless ``--overwrite``. ``guard.json`` (written last) records the recipe version and inputs.
"""

from __future__ import annotations

import importlib.metadata
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_dir, atomic_write_json, atomic_write_jsonl
from consistest.core.output_guards import guard_output_dir
from consistest.core.records import content_hash
from consistest.tasks.guard.data import anli_rows, decode_rows, snli_rows
from consistest.tasks.guard.evaluate import GuardRow, evaluate_guard, parse_guard_rows, select_threshold
from consistest.training.nli_data import LABEL2ID, NLIExample

Recipe = Literal["guard-v3", "guard-v4"]
RECIPES: tuple[Recipe, ...] = get_args(Recipe)
RECIPE: Recipe = "guard-v3"  # the default, whose figures the docs report
RECIPE_VERSION = "3"  # bump when a change of the recipe changes the model
MARKER = "guard.json"


@dataclass(frozen=True)
class GuardInputs:
    """The data files of the recipe (``from_data_dir`` finds them in ``../shared/data``'s layout)."""

    dialogues: str
    decode: str
    anli: tuple[str, ...]
    snli: str

    @classmethod
    def from_data_dir(cls, data: str | Path) -> GuardInputs:
        d = Path(data)
        return cls(
            dialogues=str(d / "personachat" / "convai2_valid_both_triples.txt"),
            decode=str(d / "decode" / "decode_rct.jsonl"),
            anli=tuple(str(d / "anli" / f"anli_r{i}_dev.jsonl") for i in (1, 2, 3)),
            snli=str(d / "nli" / "snli_dev.jsonl"),
        )

    def paths(self) -> list[str]:
        return [self.dialogues, self.decode, *self.anli, self.snli]


@dataclass(frozen=True)
class GuardConfig:
    """Settings of ``consistest train-guard``. The run's identity (what a resume must match) is the
    recipe version, the settings that change the model and the examples themselves (not the paths)."""

    inputs: GuardInputs
    out: str
    recipe: Recipe = RECIPE  # guard-v4: guard-v3 with train sentences in chat forms (``nli_forms``)
    base: str = "minilm"
    epochs: int = 2
    lr: float = 5e-5
    batch_size: int = 32
    max_length: int = 128
    seed: int = 0
    dev_fraction: float = 0.2  # of persona sentences, speakers and DECODE dialogues outside the test split
    anli_dev_fraction: float = 0.3
    snli_holdout: float = 0.1
    snli_max: int | None = 4000
    decode_turns: int = 2  # hard negatives per DECODE dialogue from earlier turns / persona lines
    decode_persona: int = 1
    # synthetic pairs added on top of a split's natural ones, as shares of one label's natural count
    synthetic_share: float = 0.5  # contradictions: negation, antonym, swapped value
    restate_share: float = 0.5  # entailments: the same sentence with surface edits
    swap_neutral_share: float = 0.15  # neutrals: another value of a multi-valued relation
    evasive_share: float = 0.2  # neutrals: an evasive reply ("i don't know .")
    max_false_alarm: float = 0.1  # the tau rule: highest dev-probe recall at false alarms <= this
    max_steps: int | None = None
    warmup: float = 0.06
    weight_decay: float = 0.01
    threads: int = 0
    device: str = "cpu"
    overwrite: bool = False
    test_eval: bool = True  # False while choosing a recipe on dev: the test split is not even scored
    quiet: bool = False

    def identity(self) -> str:
        d = asdict(self)
        for k in ("inputs", "out", "overwrite", "threads", "device", "test_eval", "quiet"):
            d.pop(k)
        if d["recipe"] == "guard-v3":  # the identity guard-v3 runs had before recipes were named
            d.pop("recipe")
        return content_hash(RECIPE_VERSION, d)


def work_dir(out: Path) -> Path:
    """Where a run keeps its pairs and epoch checkpoints until the model folder is written."""
    return out.with_name(f".{out.name}.work")


def build_rows(config: GuardConfig) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every row of the recipe (all splits, all sources) and their stats."""
    from consistest.data.dialogues import read_dialogues
    from consistest.tasks.guard.pairs_build import PROBE_SPLITS, probe_rows
    from consistest.training.nli_pairs import make_pairs
    from consistest.training.nli_splits import dialogue_splits

    if not 0.0 < config.dev_fraction < 1.0 or not 0.0 < config.anli_dev_fraction < 1.0:
        raise InputError("dev fractions must be in (0, 1)", field="dev-fraction")
    seed, dev = config.seed, config.dev_fraction
    dialogues = read_dialogues(config.inputs.dialogues)
    rows, stats = make_pairs(
        dialogues,
        seed=seed,
        dev_fraction=dev,
        synthetic_share=config.synthetic_share,
        restate_share=config.restate_share,
        swap_neutral_share=config.swap_neutral_share,
        evasive_share=config.evasive_share,
    )
    if config.recipe == "guard-v4":
        from consistest.training.nli_forms import natural_forms

        rows, stats["forms"] = natural_forms(rows, seed)
    for split in PROBE_SPLITS:
        rows += probe_rows(dialogues, split=split, seed=seed, dev_fraction=dev)
    by_text = dialogue_splits(dialogues, seed, dev)
    rows += decode_rows(
        config.inputs.decode,
        seed=seed,
        dev_fraction=dev,
        split_by_text=by_text,
        turns_max=config.decode_turns,
        persona_max=config.decode_persona,
    )
    rows += anli_rows(config.inputs.anli, seed=seed, dev_fraction=config.anli_dev_fraction)
    rows += snli_rows(
        config.inputs.snli, seed=seed, holdout_fraction=config.snli_holdout, max_train=config.snli_max
    )
    stats["rows"] = _counts(rows)
    return rows, stats


def _counts(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        key = f"{r['split']}/{r.get('source', 'dnli')}"
        out.setdefault(key, {}).setdefault(r["label"], 0)
        out[key][r["label"]] += 1
    return dict(sorted(out.items()))


def examples(rows: list[dict[str, Any]], split: str, source: str | None = None) -> list[NLIExample]:
    return [
        NLIExample(r["premise"], r["hypothesis"], LABEL2ID[r["label"]])
        for r in rows
        if r["split"] == split and (source is None or r.get("source") == source)
    ]


def train_guard(config: GuardConfig) -> dict[str, Any]:
    """Build the pairs, train (or resume), choose tau on dev, evaluate, write ``config.out`` whole."""
    from consistest.training.loop import fit
    from consistest.training.nli_train import examples_hash, load_base, resolve_base

    if config.epochs < 1 or config.batch_size < 1 or config.max_length < 8:
        raise InputError("epochs and batch-size must be >= 1, max-length >= 8")
    out = guard_output_dir(
        config.out,
        marker=MARKER,
        overwrite=config.overwrite,
        inputs=config.inputs.paths(),
        what="consistest train-guard",
    )
    work = work_dir(out)
    say = lambda m: log.info(m, quiet=config.quiet)  # noqa: E731
    say(f"{config.recipe}: building pairs from {len(config.inputs.paths())} files")
    rows, stats = build_rows(config)
    say("rows per split/source: " + ", ".join(f"{k}={sum(v.values())}" for k, v in stats["rows"].items()))
    train = examples(rows, "train")
    dev_sets = {f"{src}:dev": examples(rows, "dev", src) for src in ("dnli", "anli", "snli")}
    identity = content_hash(config.identity(), examples_hash(train, dev_sets))
    work.mkdir(parents=True, exist_ok=True)
    atomic_write_json(work / "run.json", {"recipe": config.recipe, "identity": identity, "out": str(out)})
    result = fit(config, train, dev_sets, work, identity, lambda: load_base(config.base))
    guard_rows = parse_guard_rows(enumerate(rows, start=1), "pairs")
    say("choosing the contradiction threshold on the dev probe")
    threshold = choose_threshold(result.model, result.tok, guard_rows, config)
    say(f"tau = {threshold['contradiction']:.4f} (dev probe recall {threshold['dev']['recall']:.3f} at "
        f"false alarms {threshold['dev']['false_alarm']:.3f})")  # fmt: skip
    held = [r for r in guard_rows if config.test_eval or r.split == "dev"]
    say(f"evaluating on {len(held)} held-out rows" + ("" if config.test_eval else " (dev only)"))
    nli = _hf_nli(result.model, result.tok, config, threshold["contradiction"])
    figures = evaluate_guard(nli, held, seed=config.seed)
    metrics = {"recipe": config.recipe, "figures": figures, "dev_per_epoch": result.history}
    metrics["steps"] = result.steps
    provenance = {
        "recipe": config.recipe,
        "recipe_version": RECIPE_VERSION,
        "identity": identity,
        "base": config.base,
        "base_path": resolve_base(config.base),
        "config": {k: v for k, v in asdict(config).items() if k not in ("quiet", "overwrite")},
        "inputs": {p: _sha256(p) for p in config.inputs.paths()},
        "train_examples": len(train),
        "pairs": stats,
        "threshold": threshold,
        "versions": {p: importlib.metadata.version(p) for p in ("transformers", "torch")},
    }
    with atomic_dir(out) as tmp:
        result.model.save_pretrained(str(tmp))
        result.tok.save_pretrained(str(tmp))
        atomic_write_jsonl(tmp / "pairs.jsonl", rows)
        atomic_write_json(tmp / "nli_threshold.json", threshold)
        atomic_write_json(tmp / "metrics.json", metrics)
        atomic_write_json(tmp / MARKER, provenance)
        for p in tmp.iterdir():  # safetensors writes 0600 files: readable like any other output
            p.chmod(0o666 & ~_umask())
    shutil.rmtree(work, ignore_errors=True)
    return {"out": str(out), "threshold": threshold, "figures": figures}


def choose_threshold(model: Any, tok: Any, rows: list[GuardRow], config: GuardConfig) -> dict[str, Any]:
    """tau by ``select_threshold`` on the dev probe's P(contradiction); the stored JSON."""
    probe = [r for r in rows if r.split == "dev" and r.probe]
    probs = _hf_nli(model, tok, config, None).predict_proba([(r.premise, r.hypothesis) for r in probe])
    pos = [p["contradiction"] for r, p in zip(probe, probs, strict=True) if r.label == "contradiction"]
    neg = [p["contradiction"] for r, p in zip(probe, probs, strict=True) if r.label != "contradiction"]
    t = select_threshold(pos, neg, config.max_false_alarm)
    rule = f"highest recall on the dev probe at false alarms <= {config.max_false_alarm}, then highest tau"
    return {
        "contradiction": t.tau,
        "rule": rule,
        "chosen_on": "dev-probe",
        "recipe": config.recipe,
        "dev": {"recall": t.recall, "false_alarm": t.false_alarm, "n_contradiction": t.n_contradiction,
                "n_consistent": t.n_consistent},
    }  # fmt: skip


def _hf_nli(model: Any, tok: Any, config: GuardConfig, tau: float | None) -> Any:
    from consistest.models.nli import HFNLI
    from consistest.training.nli_data import ID2LABEL

    model.eval()
    return HFNLI(model, tok, ID2LABEL, name=config.recipe, batch_size=64, device=config.device, threshold=tau)


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def _sha256(path: str) -> str:
    from consistest.data.dataset_dir import file_sha256

    return file_sha256(path)
