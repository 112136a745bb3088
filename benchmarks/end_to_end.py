"""End to end speed: ``consistest score`` on ConsisTest-02 with a tiny BART that talks, against the authors'
pipeline on the same inputs; or a real chat model's generation against plain ``generate``.

    python benchmarks/end_to_end.py [--reference DIR] [--rounds 2] [--work runs/bench-e2e] [--limit N]
    python benchmarks/end_to_end.py --model /path/to/SmolLM2 --chat-template --sample 200 [--rounds 2]

Tiny mode builds (once, into WORK/models) the talking tiny BART and a tiny NLI model
(``tests/tiny_models.py``: untied weights N(0, 0.2), specials other than ``</s>`` masked, an end-of-sentence
clock, so greedy replies are 2-23 tokens and vary with the input) and the dataset, then runs ``consistest
score --model BART --nli NLI --batch-size 16 --max-new-tokens 24`` (the authors' ``max_length=25`` counts
the decoder start token) as a whole process, with the time of each stage. With ``--reference DIR`` (a
checkout of ELotfi/consistest, never committed here; its Trainer needs ``pip install accelerate``) the
authors' ``evaluate.py`` runs on the same files, model and NLI model, batch 16, greedy; the two alternate,
round after round, and the ratio of their wall times is printed per round. Both use one torch thread.

Model mode runs ``consistest generate`` and a plain loop of ``model.generate`` in fixed batches of 16 in
dataset order (:mod:`e2e_workers`), both encoding inputs the same way, alternating, and prints samples/s.
Wall times depend on what else runs on the machine: the load average is printed beside each run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CONSISTEST_SHARED", ROOT.parent / "shared")) / "data"
BENCH = Path(__file__).resolve().parent
ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "RAYON_NUM_THREADS": "1",
              "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"}  # fmt: skip


@dataclass
class Run:
    """One timed process: its wall and CPU seconds, peak memory, the load before it, its stages."""

    side: str
    round: int
    wall: float
    cpu: float
    peak_mb: float
    load: float
    stages: dict[str, Any] = field(default_factory=dict)


def timed(side: str, rnd: int, argv: list[str], stages_json: Path | None, log: Path) -> Run:
    """Run ``argv`` as a child process; wall time, user+sys CPU and peak RSS from ``wait4``."""
    load = os.getloadavg()[0]
    env = {**os.environ, **ONE_THREAD}
    with log.open("w") as out:
        t = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit(f"end_to_end: {side} failed (exit {proc.returncode}); see {log}")
    stages = json.loads(stages_json.read_text()) if stages_json and stages_json.exists() else {}
    return Run(side, rnd, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, load, stages)


def build_inputs(work: Path) -> tuple[Path, Path, Path]:
    """The talking BART, the tiny NLI model and the ConsisTest-02 dataset, built once into ``work``."""
    sys.path.insert(0, str(ROOT))
    from tests.tiny_models import talking_bart, talking_nli, talking_tokenizer

    models = work / "models"
    if not (models / "nli" / "config.json").exists():
        dialogues = json.loads((SHARED / "personachat/consistest_valid.json").read_text())
        texts = [t for k in sorted(dialogues, key=lambda x: (len(x), x))
                 for t in dialogues[k]["persona"] + dialogues[k]["utterances"]]  # fmt: skip
        tok = talking_tokenizer(models / "tokenizer", texts)
        talking_bart(models / "bart", tok)
        talking_nli(models / "nli", tok, [(texts[i], texts[i + 7]) for i in range(0, 256 * 13, 13)])
    return models / "bart", models / "nli", build_dataset_dir(work)


def build_dataset_dir(work: Path) -> Path:
    """ConsisTest-02 from the shared files, built once into ``work``."""
    dataset = work / "consistest-02"
    if not (dataset / "build_info.json").exists():
        from consistest.tasks.consistest.build import BuildConfig, build_dataset

        files = {
            "dialogues": "personachat/consistest_valid.json",
            "persona_qas": "consistest/persona_qas.json",
            "history_qas": "consistest/history_qas.json",
        }
        build_dataset(BuildConfig(out=dataset, quiet=True, **{k: SHARED / v for k, v in files.items()}))
    return dataset


def tiny_sides(opts: argparse.Namespace, work: Path) -> list[tuple[str, Any]]:
    bart, nli, dataset = build_inputs(work)
    limit = ["--limit", str(opts.limit)] if opts.limit else []
    batch = ["--batch-size", str(opts.batch_size)]
    score = ["score", "--dataset", str(dataset), "--model", str(bart), "--nli", str(nli), "--device", "cpu",
             *batch, "--max-new-tokens", str(opts.max_new_tokens), "--quiet", *limit]  # fmt: skip

    def consistest(rnd: int) -> list[str]:
        return worker(
            "consistest", work / f"stages-consistest-{rnd}.json", "--", *score, "--out", fresh(work)
        )

    def reference(rnd: int) -> list[str]:
        return [opts.reference_python or sys.executable, str(BENCH / "reference_pipeline.py"),
                "--reference", str(opts.reference), "--model", str(bart), "--nli", str(nli), *batch, *limit,
                "--json", str(work / f"stages-reference-{rnd}.json"),
                "--keep", str(work / "run-reference")]  # fmt: skip

    return [("reference", reference)] * bool(opts.reference) + [("consistest", consistest)]


def model_sides(opts: argparse.Namespace, work: Path) -> list[tuple[str, Any]]:
    dataset = build_dataset_dir(work)
    subset = (
        ["--limit", str(opts.limit)] if opts.limit else ["--sample", str(opts.sample)] if opts.sample else []
    )
    common = ["--dataset", str(dataset), "--model", str(opts.model), "--batch-size", str(opts.batch_size),
              "--max-new-tokens", str(opts.max_new_tokens), *["--chat-template"] * opts.chat_template,
              *subset]  # fmt: skip

    def plain(rnd: int) -> list[str]:
        return worker("plain", work / "plain.jsonl", *common)

    def consistest(rnd: int) -> list[str]:
        stages = work / f"stages-consistest-{rnd}.json"
        return worker(
            "consistest",
            stages,
            "--",
            "generate",
            *common,
            "--device",
            "cpu",
            "--quiet",
            "--out",
            fresh(work),
        )

    return [("plain generate", plain), ("consistest", consistest)]


def worker(kind: str, target: Path, *args: str) -> list[str]:
    return [sys.executable, str(BENCH / "e2e_workers.py"), kind, str(target), *args]


def fresh(work: Path) -> str:
    """The consistest run folder, emptied (every run generates from scratch)."""
    out = work / "run-consistest"
    shutil.rmtree(out, ignore_errors=True)
    return str(out)


def run_rounds(sides: list[tuple[str, Any]], rounds: int, work: Path) -> list[Run]:
    """Alternate the sides (the order flips every round) and print each run as it ends."""
    runs = []
    for rnd in range(1, rounds + 1):
        for side, argv in sides if rnd % 2 else sides[::-1]:
            stages = work / f"stages-{side.split()[0]}-{rnd}.json"
            stages.unlink(missing_ok=True)
            run = timed(side, rnd, argv(rnd), stages, work / f"log-{side.split()[0]}-{rnd}.txt")
            runs.append(run)
            print(f"round {rnd}  {side:15s} wall {run.wall:7.2f} s  cpu {run.cpu:7.2f} s  "
                  f"peak {run.peak_mb:6.0f} MB  load {run.load:4.1f}", flush=True)  # fmt: skip
    return runs


def report(runs: list[Run], n: int) -> None:
    sides = list(dict.fromkeys(r.side for r in runs))
    print(f"\n{'side':15s} {'wall s (median)':>16s} {'cpu s':>8s} {'samples/s':>10s} {'peak MB':>8s}")
    for side in sides:
        mine = [r for r in runs if r.side == side]
        wall = statistics.median(r.wall for r in mine)
        cpu = statistics.median(r.cpu for r in mine)
        rate = f"{n / wall:10.0f}" if n / wall >= 100 else f"{n / wall:10.2f}"
        print(f"{side:15s} {wall:16.2f} {cpu:8.2f} {rate} {max(r.peak_mb for r in mine):8.0f}")
    if len(sides) == 2:
        base, ours = sides
        pairs = [
            (a, b) for a in runs if a.side == base for b in runs if b.side == ours and b.round == a.round
        ]
        ratios = [a.wall / b.wall for a, b in pairs]
        cpu_ratios = [a.cpu / b.cpu for a, b in pairs]
        print(
            f"{base} / {ours}, wall per round: "
            + ", ".join(f"x{r:.2f}" for r in ratios)
            + f"  (median x{statistics.median(ratios):.2f}; cpu median x{statistics.median(cpu_ratios):.2f})"
        )
    stage_table(runs, sides)


def stage_table(runs: list[Run], sides: list[str]) -> None:
    """Median wall seconds per stage and side (stages as each side names them)."""
    names: list[str] = []
    for r in runs:
        names += [k for k in r.stages.get("wall", {}) if k not in names]
    if not names:
        return
    print(f"\n{'stage (wall s)':15s}" + "".join(f"{s:>16s}" for s in sides))
    for name in names:
        cells = []
        for side in sides:
            vals = [
                r.stages["wall"][name] for r in runs if r.side == side and name in r.stages.get("wall", {})
            ]
            cells.append(f"{statistics.median(vals):16.2f}" if vals else f"{'-':>16s}")
        print(f"{name:15s}" + "".join(cells))


def samples_in(work: Path) -> int:
    lines = (work / "run-consistest" / "responses.jsonl").read_text().splitlines()
    return len(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, help="a checkout of ELotfi/consistest: run it side by side")
    ap.add_argument("--reference-python", help="python for the reference (default: this one)")
    ap.add_argument("--model", type=Path, help="a real generator: its generation against plain generate")
    ap.add_argument(
        "--chat-template", action="store_true", help="with --model: render with its chat template"
    )
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="the first N samples only (0: all)")
    ap.add_argument("--sample", type=int, default=0, help="with --model: consistest's stratified --sample N")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--max-new-tokens", type=int, default=24)
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "bench-e2e")
    opts = ap.parse_args()
    if not (SHARED / "personachat/consistest_valid.json").exists():
        sys.exit(f"end_to_end: the ConsisTest data is not at {SHARED} (set CONSISTEST_SHARED)")
    work = opts.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    sides = model_sides(opts, work) if opts.model else tiny_sides(opts, work)
    print(f"{len(sides)} side(s), {opts.rounds} round(s); batch {opts.batch_size}, greedy, max_new_tokens "
          f"{opts.max_new_tokens}, one torch thread; {os.cpu_count()} CPUs; work dir {work}")  # fmt: skip
    runs = run_rounds(sides, opts.rounds, work)
    report(runs, samples_in(work))
    agreement(work, opts)
    return 0


def agreement(work: Path, opts: argparse.Namespace) -> None:
    """How many replies the two sides share (whitespace-normalised), in dataset order."""
    ours = [json.loads(line)["response"] for line in (work / "run-consistest/responses.jsonl").open()]
    if opts.model:
        theirs = [json.loads(line)["response"] for line in (work / "plain.jsonl").open()]
    elif opts.reference:
        import csv

        with (work / "run-reference/model_output.csv").open(newline="") as f:
            theirs = [row["Response"] for row in csv.DictReader(f)]
    else:
        return
    same = sum(" ".join(a.split()) == " ".join(b.split()) for a, b in zip(ours, theirs, strict=True))
    print(f"\nidentical replies: {same:,} of {len(ours):,}")


if __name__ == "__main__":
    sys.exit(main())
