"""Byte identity of outputs across a refactor: build, score, compare, agree, detect and rank through the
CLI into one folder; run it before and after a change and ``diff -r`` the two folders.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/identity.py OUT [--models DIR]
    diff -r BEFORE AFTER

Tiny models (BART, T5, GPT-2, a RoBERTa NLI; ``tests/tiny_models.py``) are built once into ``--models``
(default: OUT/../identity-models) and reused, so both runs read the same weights at the same path. Every
command runs with OUT as the working directory and relative paths, so no output names its folder; each
command's stdout is kept in OUT/stdout/<step>.txt (stderr is not compared: progress, timings and
deprecation lines go there). The real data is read from ../shared/data (or $CONSISTEST_SHARED/data).

Old option names are used where a rename kept them (``build --format``, ``compare --seed/--force``,
``train-detector --method``, ``rank --judge ours``): they must still give the same outputs; ``--new-names``
runs the new names instead (a tree after issue 22), which must give the same bytes as the old.

The script itself leaves out what differs between any two runs: lock files (a process id) and trained
weights. Three files record durations (``"seconds"``) and may differ between any two runs:
``det-pair/training.json``, ``det-pair/metrics.json`` and ``det-pair/pair/checkpoints/epoch-1/state.json``.

Files that differ before and after issue 22, on purpose (no number in them changed):

- ``aih/rank/rank.json``, ``rank.md``, ``aih-rank-judge/*``, ``stdout/rank*.txt``: AIH's judge ``ours`` is
  called ``hybrid`` (the report's key, label and signature part ``judges:paper,hybrid``); its draws keep
  their seeds, so every rate, interval and share is the same.
- ``det-*/detector.json`` and ``det-*/metrics.json``: the key ``method`` is now ``architecture`` (the
  signature part keeps its name ``method:``, so detector signatures are unchanged).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CONSISTEST_SHARED", ROOT.parent / "shared")) / "data"
sys.path.insert(0, str(ROOT / "tests"))
for _var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ[_var] = "1"  # saved tokenizer configs record it


def build_models(models: Path) -> None:
    """The tiny generators and NLI model, built once (a marker file says they are complete)."""
    if (models / "DONE").is_file():
        return
    from tiny_models import tiny_generator, tiny_roberta_classifier

    shutil.rmtree(models, ignore_errors=True)
    for kind in ("bart", "t5", "gpt2"):
        tiny_generator(models / kind, kind, seed=1, eos_scale=3.0)
    tiny_roberta_classifier(models / "nli", seed=2)
    (models / "DONE").write_text("ok\n")


def excerpts(out: Path) -> None:
    """Small inputs: 25 ConsisTest dialogues and 12 ConvAI2 dialogues cut from the shared files, and the
    labelled replies and dialogues of tests/data."""
    dialogues = json.loads((SHARED / "personachat" / "consistest_valid.json").read_text(encoding="utf-8"))
    part = dict(list(dialogues.items())[:25])
    (out / "inputs").mkdir(parents=True)
    (out / "inputs" / "dialogues25.json").write_text(json.dumps(part), encoding="utf-8")
    lines, n = [], 0
    for line in (SHARED / "personachat" / "convai2_valid_both_triples.txt").read_text().splitlines():
        if line.startswith("1\t"):
            n += 1
            if n > 12:
                break
        lines.append(line)
    (out / "inputs" / "convai2-12.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name in ("agree_dev.jsonl", "decode_style.jsonl"):  # copied: outputs name their inputs' paths
        shutil.copy(ROOT / "tests" / "data" / name, out / "inputs" / name)


class Runner:
    """Runs consistest commands in-process and keeps their stdout; stops at the first failure."""

    def __init__(self, out: Path) -> None:
        self.out, self.times = out, {}

    def __call__(self, step: str, *args: object) -> str:
        from click.testing import CliRunner

        from consistest.cli.main import main

        t0 = time.perf_counter()
        res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        if res.exit_code != 0:
            sys.exit(f"{step}: exit {res.exit_code}\n{res.stderr}\n{res.stdout}")
        (self.out / "stdout").mkdir(exist_ok=True)
        (self.out / "stdout" / f"{step}.txt").write_text(res.stdout, encoding="utf-8")
        self.times[step] = time.perf_counter() - t0
        print(f"{step}: {self.times[step]:.1f}s", file=sys.stderr, flush=True)
        return res.stdout


def run_all(run: Runner, models: Path, new_names: bool) -> None:
    S, M, Q = SHARED, models, "-q"
    curated = [
        "--persona-qas",
        S / "consistest/persona_qas.json",
        "--history-qas",
        S / "consistest/history_qas.json",
    ]
    dialogues = ["--dialogues", S / "personachat/consistest_valid.json"]
    fmt = "--data-format" if new_names else "--format"
    run("build-demo", "build", "--demo", "--out", "demo", Q)
    run("build-demo-jsonl", "build", "--demo", fmt, "jsonl", "--out", "demo-jsonl", Q)
    run("build-c02", "build", *dialogues, *curated, "--out", "c02", Q)
    run("build-c02-jsonl-paired", "build", *dialogues, *curated, fmt, "jsonl", "--paired", "--out", "c02p", Q)
    run("build-generated", "build", "--dialogues", "inputs/dialogues25.json", "--wh-generator", "rules",
        "--out", "gen", Q)  # fmt: skip
    run("nli-pairs", "nli-pairs", "--dialogues", "inputs/convai2-12.txt", "--out", "pairs.jsonl",
        "--dev-fraction", "0.2", Q)  # fmt: skip
    boot = ["--n-boot", "200"]
    for b in ("oracle", "retrieval", "generic"):
        run(f"score-demo-{b}", "score", "--dataset", "demo", "--model", f"baseline:{b}", "--nli", "none",
            "--out", f"runs/demo-{b}", *boot, Q)  # fmt: skip
    run("score-demo-retrieval-nli-plus", "score", "--dataset", "demo", "--model", "baseline:retrieval",
        "--nli", M / "nli", "--method", "plus", "--out", "runs/demo-retrieval-nli-plus", *boot,
        Q)  # fmt: skip
    run("score-c02-oracle", "score", "--dataset", "c02", "--model", "baseline:oracle", "--nli", "none",
        "--out", "runs/c02-oracle", *boot, "--format", "json", Q)  # fmt: skip
    run("score-c02p-oracle", "score", "--dataset", "c02p", "--model", "baseline:oracle", "--nli", "none",
        "--out", "runs/c02p-oracle", *boot, Q)  # fmt: skip
    gen = ["--dataset", "c02", "--nli", M / "nli", "--batch-size", "16", *boot]
    for kind in ("bart", "t5", "gpt2"):
        run(f"score-{kind}", "score", *gen, "--model", M / kind, "--limit", "40", "--out", f"runs/{kind}", Q)
    run("score-bart-variant", "score", *gen, "--model", M / "bart", "--limit", "40", "--input-variant",
        "fact-persona-history", "--out", "runs/bart-variant", Q)  # fmt: skip
    run("score-bart-sample", "score", *gen, "--model", M / "bart", "--sample", "60", "--do-sample",
        "--temperature", "0.8", "--seed", "3", "--out", "runs/bart-sample", Q)  # fmt: skip
    run("score-gpt2-beam", "score", *gen, "--model", M / "gpt2", "--limit", "24", "--num-beams", "2",
        "--out", "runs/gpt2-beam", Q)  # fmt: skip
    run("score-responses", "score", "--dataset", "c02", "--responses", "runs/bart/responses.jsonl",
        "--nli", "none", "--method", "plus", "--out", "runs/bart-responses", *boot, Q)  # fmt: skip
    seed = "--boot-seed" if new_names else "--seed"
    force = "--allow-different-data" if new_names else "--force"
    run("compare", "compare", "runs/bart", "runs/bart-variant", "runs/bart-responses", seed, "1", *boot, Q)
    run(
        "compare-force", "compare", "runs/c02-oracle", "runs/c02p-oracle", force, *boot, "--format", "json", Q
    )
    run("agree", "agree", "--dataset", "c02", "--labels", "dev=inputs/agree_dev.jsonl",
        "--nli", M / "nli", "--ablation", *boot, "--format", "json", Q)  # fmt: skip
    arch = "--architecture" if new_names else "--method"
    decode_style = "inputs/decode_style.jsonl"
    run("train-detector-nli-pairs", "train-detector", arch, "nli-pairs", "--nli", M / "nli", "--data",
        decode_style, "--out", "det-nli", "--threads", "1", Q)  # fmt: skip
    run("detect-nli-pairs", "detect", "--detector", "det-nli", "--data", decode_style, "--out",
        "det-nli-preds.jsonl", "--n-boot", "200", "--threads", "1", Q)  # fmt: skip
    run("train-detector-pair", "train-detector", arch, "pair", "--data", decode_style, "--out", "det-pair",
        "--base", "scratch-1x32", "--epochs", "1", "--batch-size", "8", "--max-length", "48",
        "--threads", "1", Q)  # fmt: skip
    run("detect-pair", "detect", "--detector", "det-pair", "--data", decode_style, "--out",
        "det-pair-preds.jsonl", "--n-boot", "200", "--threads", "1", Q)  # fmt: skip
    run("converse", "converse", "--bot", "a=baseline:persona-bot:0", "--bot", "b=baseline:persona-bot:1",
        "--dialogues", "inputs/dialogues25.json", "--conversations", "3", "--turns", "4", "--nli", M / "nli",
        "--out", "aih", Q)  # fmt: skip
    judge = "hybrid" if new_names else "ours"
    run("rank", "rank", "aih", "--n-boot", "200", "--repetitions", "50", "--no-plots", Q)
    run("rank-judge", "rank", "aih", "--judge", judge, "--n-boot", "200", "--repetitions", "50", "--no-plots",
        "--out", "aih-rank-judge", Q)  # fmt: skip


def drop_uncompared(out: Path) -> None:
    """Trained weights and optimizer states (float noise across torch builds) and lock files (a process id)
    are not outputs we compare."""
    for pattern in ("*.safetensors", "*.pt", "*.bin", ".lock"):
        for p in out.rglob(pattern):
            p.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--models", type=Path, default=None)
    ap.add_argument("--new-names", action="store_true", help="Use the renamed options (after issue 22).")
    args = ap.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"real data not found at {SHARED}")
    out = args.out.resolve()
    models = (args.models or out.parent / "identity-models").resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    build_models(models)
    excerpts(out)
    os.chdir(out)
    run = Runner(out)
    run_all(run, models, args.new_names)
    drop_uncompared(out)
    print(f"{len(run.times)} commands in {sum(run.times.values()):.0f}s; outputs in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
