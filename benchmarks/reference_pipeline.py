"""Run the ConsisTest authors' pipeline (a checkout of ELotfi/consistest, ``evaluate.py``) end to end,
unmodified, with the time of each stage; :mod:`end_to_end` calls it with ``--reference DIR``.

    python benchmarks/reference_pipeline.py --reference DIR --model BART_DIR --nli NLI_DIR [--limit N]
        [--batch-size 16] [--json FILE] [--dialogues F --persona-qas F --history-qas F]

Their files are copied into a fresh work directory (their code reads ``util/short_answs.json`` and writes
``cache/``, ``results/`` and the Trainer's folder relative to the current directory), the three inputs are
linked under the names their defaults expect (``data/valid.json``, ``data/persona_qas.json``,
``data/history_qas.json``), and ``evaluate.main(args)`` runs with the ``args`` their own argparse block
builds, after these run-time shims (nothing in their files is edited):

1. ``Trainer(model=..., tokenizer=...)``: transformers 5 removed the ``tokenizer`` argument (renamed
   ``processing_class`` in 4.46); a subclass maps it. The rest (default TrainingArguments: evaluation
   batch 8, ``DataCollatorWithPadding``) is the library's. The Trainer needs ``accelerate``.
2. ``args.batch_size`` becomes an int (their argparse has no ``type=int``) and ``args.device`` the CPU
   (their default is ``cuda:0``).
3. ``results/`` is created (their code writes there without creating it).
4. ``--limit N`` keeps the first N samples after their code built all of them (smoke runs only).

One thread: OMP/MKL/RAYON thread counts are 1 before torch loads, ``torch.set_num_threads(1)``.
Stages (wall and process CPU seconds): ``import``, ``dataset`` (their Consistest class: read, assemble,
write their cache), ``load`` (generator from_pretrained), ``generate`` (their ``infer``: per-item
tokenisation in the DataLoader, ``generate`` in fixed batches, decoding), ``nli`` (NLI model load,
``datasets.map``, ``Trainer.predict``), ``rules`` (cleaning, rules, final scores, report), ``write``, and
``total`` (import + their ``main``).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "RAYON_NUM_THREADS"):
    os.environ[_var] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CONSISTEST_SHARED", ROOT.parent / "shared")) / "data"
THEIR_FILES = ("evaluate.py", "consis_class.py", "util/hybrid.py", "util/w2n.py", "util/short_answs.json")
QUIET_ENV = {"TQDM_DISABLE": "1", "HF_DATASETS_DISABLE_PROGRESS_BARS": "1", "TRANSFORMERS_VERBOSITY": "error"}


def prepare(reference: Path, work: Path, inputs: dict[str, Path]) -> None:
    """Copy their code into ``work`` and link the inputs where their defaults look."""
    for rel in THEIR_FILES:
        if not (reference / rel).is_file():
            sys.exit(
                f"reference_pipeline: {reference / rel} missing (is it a checkout of ELotfi/consistest?)"
            )
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(reference / rel, work / rel)
    (work / "data").mkdir(exist_ok=True)
    for name, src in inputs.items():
        os.symlink(src.resolve(), work / "data" / name)
    (work / "results").mkdir(exist_ok=True)


def their_args(evaluate_py: Path, namespace: dict[str, Any], argv: list[str]) -> argparse.Namespace:
    """Run their ``if __name__ == "__main__":`` block, without its ``main(args)`` call, on ``argv``."""
    tree = ast.parse(evaluate_py.read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))
    body = [s for s in block.body if not (isinstance(s, ast.Expr) and "main(" in ast.unparse(s))]
    scope, old = dict(namespace), sys.argv
    sys.argv = ["evaluate.py", *argv]
    try:
        exec(compile(ast.Module(body=body, type_ignores=[]), str(evaluate_py), "exec"), scope)
    finally:
        sys.argv = old
    return scope["args"]


class Stages:
    """Wall and CPU seconds per stage."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    def add(self, key: str, wall: float, cpu: float) -> None:
        self.wall[key] = self.wall.get(key, 0.0) + wall
        self.cpu[key] = self.cpu.get(key, 0.0) + cpu

    def wrap(self, key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t, c = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(key, time.perf_counter() - t, time.process_time() - c)

        return timed


def install_shims(ev: Any, consis_class: Any, transformers: Any, stages: Stages, limit: int) -> None:
    """Shim 1 (Trainer), ``--limit``, and timing wrappers around their stages (behaviour unchanged)."""

    class Trainer(transformers.Trainer):
        def __init__(self, *args: Any, tokenizer: Any = None, **kwargs: Any) -> None:
            if tokenizer is not None:
                kwargs.setdefault("processing_class", tokenizer)
            super().__init__(*args, **kwargs)

    ev.Trainer = Trainer
    build = consis_class.Consistest.build

    def limited_build(self: Any) -> None:
        build(self)
        if limit:
            self.samples, self.attributes = self.samples[:limit], self.attributes[:limit]

    consis_class.Consistest.build = limited_build
    ev.Consistest = type("Consistest", (consis_class.Consistest,), {})
    ev.Consistest.__init__ = stages.wrap("dataset", consis_class.Consistest.__init__)
    ev.infer = stages.wrap("generate", ev.infer)
    ev.evaluate_nli = stages.wrap("nli", ev.evaluate_nli)
    ev.evaluate = stages.wrap("evaluate", ev.evaluate)
    ev.AutoModelForSeq2SeqLM.from_pretrained = stages.wrap("load", ev.AutoModelForSeq2SeqLM.from_pretrained)


def run(opts: argparse.Namespace, work: Path) -> dict[str, Any]:
    stages = Stages()
    t, c = time.perf_counter(), time.process_time()
    import torch

    torch.set_num_threads(1)
    import transformers

    transformers.logging.set_verbosity_error()
    sys.path.insert(0, str(work))
    import consis_class
    import evaluate as ev  # their evaluate.py (the work dir is first on sys.path)

    stages.add("import", time.perf_counter() - t, time.process_time() - c)
    install_shims(ev, consis_class, transformers, stages, opts.limit)
    argv = ["--model_checkpoint", str(opts.model.resolve()), "--nli_model", str(opts.nli.resolve())]
    args = their_args(work / "evaluate.py", vars(ev), [*argv, "--results_path", "results"])
    args.batch_size, args.device = int(opts.batch_size), torch.device("cpu")  # shim 2
    t, c = time.perf_counter(), time.process_time()
    ev.main(args)
    stages.add("main", time.perf_counter() - t, time.process_time() - c)
    for d in (stages.wall, stages.cpu):
        d["rules"] = d.pop("evaluate", 0.0) - d.get("nli", 0.0)
        d["write"] = d["main"] - sum(d.get(k, 0.0) for k in ("dataset", "load", "generate", "nli", "rules"))
        d["total"] = d["import"] + d.pop("main")  # as end_to_end's consistest worker counts it
    return {
        "wall": stages.wall,
        "cpu": stages.cpu,
        "summary": json.loads((work / "results/eval_summary.json").read_text()),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, required=True, help="a checkout of ELotfi/consistest")
    ap.add_argument("--model", type=Path, required=True, help="seq2seq generator directory")
    ap.add_argument("--nli", type=Path, required=True, help="RobertaForSequenceClassification directory")
    ap.add_argument("--dialogues", type=Path, default=SHARED / "personachat/consistest_valid.json")
    ap.add_argument("--persona-qas", type=Path, default=SHARED / "consistest/persona_qas.json")
    ap.add_argument("--history-qas", type=Path, default=SHARED / "consistest/history_qas.json")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--limit", type=int, default=0, help="keep the first N samples (0: all)")
    ap.add_argument("--keep", type=Path, help="copy their results/ here")
    ap.add_argument("--json", type=Path, help="write the stage timings here")
    opts = ap.parse_args()
    os.environ.update(QUIET_ENV)
    inputs = {
        "valid.json": opts.dialogues,
        "persona_qas.json": opts.persona_qas,
        "history_qas.json": opts.history_qas,
    }
    work = Path(tempfile.mkdtemp(prefix="consistest-reference-"))
    reference, cwd = opts.reference.resolve(), Path.cwd()
    try:
        prepare(reference, work, inputs)
        os.chdir(work)
        result = run(opts, work)
        os.chdir(cwd)
        if opts.keep:
            shutil.copytree(work / "results", opts.keep, dirs_exist_ok=True)
    finally:
        os.chdir(cwd)
        shutil.rmtree(work, ignore_errors=True)
    if opts.json:
        opts.json.write_text(json.dumps(result, indent=1))
    for key in result["wall"]:
        print(f"{key:10s} {result['wall'][key]:8.2f} s wall {result['cpu'][key]:8.2f} s cpu")
    return 0


if __name__ == "__main__":
    sys.exit(main())
