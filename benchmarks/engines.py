"""One chat model on several engines, side by side: replies per second and peak memory of ``consistest
generate`` with each model spec (HF against ct2 float32 and ct2 int8), interleaved round after round, then
how many replies each side shares with the first and what that does to the score.

    python benchmarks/engines.py --side models/smollm2 --side ct2:models/smollm2-ct2 \\
        --side ct2:models/smollm2-ct2-int8 --chat-template --sample 400 [--rounds 3] [--batch-size 16]
        [--max-new-tokens 25] [--threads 1] [--nli none|DIR] [--work runs/bench-engines]

Each run is a whole ``consistest generate`` process (:mod:`e2e_workers`, with the time of each stage) on
ConsisTest-02 built from ../shared (or $CONSISTEST_SHARED), with OMP_NUM_THREADS = ``--threads`` (the ct2
backend follows it); the order of the sides rotates every round. Reported per side: the median wall time
of the process and of its generation stage, replies per second (samples over the generation stage), the
same per CPU second of that stage (its ratios steadier than wall time's on a shared machine), peak RSS,
and the load average before each run (the machine may be shared). The last round's replies are then
scored (``consistest score --responses ... --nli``) and the runs compared with ``consistest compare``
(a paired bootstrap over the shared items for each difference to the first side).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from end_to_end import ROOT, SHARED, Run, build_dataset_dir, timed, worker  # noqa: E402

CLI = Path(sys.executable).with_name("consistest")  # the command installed beside this python


def label(spec: str) -> str:
    """A short side name: ``hf``, ``ct2-float32``/``ct2-int8`` (from the folder's manifest) or the spec."""
    if not spec.startswith("ct2:"):
        return "hf"
    manifest = Path(spec[4:]) / "consistest_ct2.json"
    q = json.loads(manifest.read_text())["quantization"] if manifest.exists() else spec[4:]
    return f"ct2-{q}"


def generate_argv(spec: str, dataset: Path, out: Path, stages: Path, opts: argparse.Namespace) -> list[str]:
    shutil.rmtree(out, ignore_errors=True)
    subset = (
        ["--sample", str(opts.sample)] if opts.sample else ["--limit", str(opts.limit)] if opts.limit else []
    )
    return worker(
        "consistest", stages, "--", "generate", "--dataset", str(dataset), "--model", spec, "--device", "cpu",
        "--batch-size", str(opts.batch_size), "--max-new-tokens", str(opts.max_new_tokens), "--quiet",
        *["--chat-template"] * opts.chat_template, *["--transcript"] * opts.transcript, *subset,
        "--out", str(out),
    )  # fmt: skip


def run_rounds(sides: list[tuple[str, str]], dataset: Path, opts: argparse.Namespace) -> list[Run]:
    runs = []
    for rnd in range(1, opts.rounds + 1):
        k = (rnd - 1) % len(sides)
        for name, spec in sides[k:] + sides[:k]:
            stages = opts.work / f"stages-{name}-{rnd}.json"
            stages.unlink(missing_ok=True)
            argv = generate_argv(spec, dataset, opts.work / f"run-{name}", stages, opts)
            run = timed(name, rnd, argv, stages, opts.work / f"log-{name}-{rnd}.txt", threads=opts.threads)
            runs.append(run)
            gen = run.stages.get("wall", {}).get("generate", float("nan"))
            line = (f"round {rnd}  {name:12s} wall {run.wall:7.1f} s  generate {gen:7.1f} s  "
                    f"cpu {run.cpu:7.1f} s  peak {run.peak_mb:5.0f} MB  load {run.load:4.1f}")  # fmt: skip
            print(line, flush=True)
    return runs


def report(runs: list[Run], sides: list[tuple[str, str]], n: int) -> None:
    """Per side: medians of the process wall time and of the generation stage's wall and CPU seconds, replies
    per second of each, peak RSS and the load range. On a shared machine the CPU ratios between sides are
    the steadier ones; absolute CPU seconds grow with the load too (shared cores and caches)."""
    print(f"\n{'side':12s} {'wall s':>8s} {'generate s':>11s} {'replies/s':>10s} {'x first':>8s} "
          f"{'gen cpu s':>10s} {'replies/cpu s':>14s} {'x first':>8s} "
          f"{'peak MB':>8s} {'load':>10s}")  # fmt: skip
    first = first_cpu = None
    for name, _ in sides:
        mine = [r for r in runs if r.side == name]
        gen = statistics.median(r.stages["wall"]["generate"] for r in mine)
        cpu = statistics.median(r.stages["cpu"]["generate"] for r in mine)
        first, first_cpu = first or gen, first_cpu or cpu
        loads = f"{min(r.load for r in mine):.1f}-{max(r.load for r in mine):.1f}"
        print(f"{name:12s} {statistics.median(r.wall for r in mine):8.1f} {gen:11.1f} {n / gen:10.2f} "
              f"{first / gen:8.2f} {cpu:10.1f} {n / cpu:14.2f} {first_cpu / cpu:8.2f} "
              f"{max(r.peak_mb for r in mine):8.0f} {loads:>10s}")  # fmt: skip


def replies(run: Path) -> dict[str, str]:
    return {json.loads(line)["id"]: json.loads(line)["response"] for line in (run / "responses.jsonl").open()}


def agreement_and_scores(sides: list[tuple[str, str]], dataset: Path, opts: argparse.Namespace) -> None:
    base = replies(opts.work / f"run-{sides[0][0]}")
    print()
    for name, _ in sides[1:]:
        got = replies(opts.work / f"run-{name}")
        same = sum(got[i] == base[i] for i in base)
        print(f"identical replies, {name} vs {sides[0][0]}: {same} of {len(base)} ({same / len(base):.1%})")
    scored = []
    subset = (
        ["--sample", str(opts.sample)] if opts.sample else ["--limit", str(opts.limit)] if opts.limit else []
    )
    for name, _ in sides:
        out = opts.work / f"score-{name}"
        shutil.rmtree(out, ignore_errors=True)
        cmd = [str(CLI), "score", "--dataset", str(dataset), "--responses",
               str(opts.work / f"run-{name}" / "responses.jsonl"), "--nli", opts.nli, "--device", "cpu",
               "--quiet", "--format", "json", "--method", "paper", *subset, "--out", str(out)]  # fmt: skip
        subprocess.run(
            cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL, env={**os.environ, "OMP_NUM_THREADS": "1"}
        )
        scored.append(str(out))
    print(f"\nscores (--nli {opts.nli}), each side against the first:")
    subprocess.run([str(CLI), "compare", *scored], check=True, cwd=ROOT)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--side", action="append", required=True, help="a model spec (repeat; the first is the base)"
    )
    ap.add_argument("--chat-template", action="store_true")
    ap.add_argument("--transcript", action="store_true")
    ap.add_argument("--sample", type=int, default=400)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--max-new-tokens", type=int, default=25)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--nli", default="none", help="guard for the score comparison ('none': rules only)")
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "bench-engines")
    opts = ap.parse_args()
    if not (SHARED / "personachat/consistest_valid.json").exists():
        sys.exit(f"engines: the ConsisTest data is not at {SHARED} (set CONSISTEST_SHARED)")
    opts.work = opts.work.resolve()
    opts.work.mkdir(parents=True, exist_ok=True)
    dataset = build_dataset_dir(opts.work)
    sides = [(label(s), s) for s in opts.side]
    if len({n for n, _ in sides}) != len(sides):
        sys.exit(f"engines: two sides share a name: {[n for n, _ in sides]}")
    print(f"{len(sides)} sides, {opts.rounds} round(s); batch {opts.batch_size}, greedy, max_new_tokens "
          f"{opts.max_new_tokens}, {opts.threads} thread(s); {os.cpu_count()} CPUs")  # fmt: skip
    runs = run_rounds(sides, dataset, opts)
    n = len((opts.work / f"run-{sides[0][0]}" / "responses.jsonl").read_text().splitlines())
    report(runs, sides, n)
    agreement_and_scores(sides, dataset, opts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
