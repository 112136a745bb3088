"""Samples/s of the ``openai:`` backend against ``transformers serve`` at several concurrency levels.

    .venv/bin/python benchmarks/serve_throughput.py --model models/smollm2 [--n 32] [--concurrency 1,4,8]
        [--max-new-tokens 25] [--threads 1] [--modes plain,cb]

For each server mode (``plain``: the default, one request at a time in FIFO order; ``cb``:
``--continuous-batching``), starts ``transformers serve MODEL`` on 127.0.0.1 (OMP threads = --threads),
sends one warm-up request, then runs the backend over the same N ConsisTest samples (a stratified
``--sample`` of the real build in ../shared or $CONSISTEST_SHARED, else of the demo) once per
concurrency level, and prints samples/s and whether the greedy replies equal those of the very first run.
Needs the serve extra (``pip install -e ".[serve]"``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from consistest.models.base import Item  # noqa: E402


def load_items(n: int) -> tuple[list[Item], str]:
    from consistest.data.dataset_dir import load_samples
    from consistest.tasks.consistest.build import BuildConfig, build_dataset
    from consistest.tasks.consistest.prompts import conversation
    from consistest.tasks.consistest.subsets import stratified_sample

    shared = Path(os.environ.get("CONSISTEST_SHARED", ROOT.parent / "shared")) / "data"
    out = Path(tempfile.mkdtemp(prefix="serve-bench-")) / "ds"
    if (shared / "consistest" / "history_qas.json").exists():
        qas = shared / "consistest"
        dialogues = shared / "personachat" / "consistest_valid.json"
        build_dataset(BuildConfig(out=out, dialogues=dialogues, persona_qas=qas / "persona_qas.json",
                                  history_qas=qas / "history_qas.json", quiet=True))  # fmt: skip
        what = f"ConsisTest-02 --sample {n}"
    else:
        build_dataset(BuildConfig(out=out, demo=True, quiet=True))
        what = f"demo --sample {n}"
    samples = stratified_sample(load_samples(out), n, seed=0)
    return [(s.id, conversation(s, "standard")) for s in samples], what


def run_mode(
    model: str,
    mode: str,
    items: list[Item],
    levels: list[int],
    args: argparse.Namespace,
    first: dict[str, str],
) -> None:
    """One server in ``mode``; a line per concurrency level. ``first`` holds the first run's replies."""
    from consistest.models.base import replies
    from consistest.models.decoding import Decoding
    from consistest.models.openai_chat import EndpointSettings, OpenAIChatModel
    from tests.serving import Server

    extra = ("--continuous-batching",) if mode == "cb" else ()
    t0 = time.perf_counter()
    with Server(model, threads=args.threads, extra=extra) as server:
        started = time.perf_counter() - t0
        decoding = Decoding(max_new_tokens=args.max_new_tokens)
        for c in levels:
            cfg = EndpointSettings(api_base=server.api_base, concurrency=c, request_timeout=600)
            bot = OpenAIChatModel(model, decoding, cfg)
            replies(bot, items[:1])  # warm-up (first request builds caches; CB sets its config here)
            t = time.perf_counter()
            got = replies(bot, items)
            dt = time.perf_counter() - t
            first.update(first or got)
            same = "yes" if got == first else f"no ({sum(got[k] != first[k] for k in got)} differ)"
            print(
                f"{mode:<6} {c:>11} {len(items) / dt:>9.3f} {dt:>8.1f} {same:>10} {started:>8.1f}", flush=True
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="Local HF model folder with a chat template.")
    ap.add_argument("--n", type=int, default=32)
    ap.add_argument("--concurrency", default="1,4,8")
    ap.add_argument("--max-new-tokens", type=int, default=25)
    ap.add_argument("--threads", type=int, default=1, help="OMP threads of the server.")
    ap.add_argument("--modes", default="plain,cb", help="plain (default server), cb (--continuous-batching).")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server on kill, too
    items, what = load_items(args.n)
    levels = [int(x) for x in args.concurrency.split(",")]
    print(f"{len(items)} samples ({what}), greedy, max_tokens {args.max_new_tokens}, "
          f"server threads {args.threads}")  # fmt: skip
    print(f"{'mode':<6} {'concurrency':>11} {'samples/s':>9} {'seconds':>8} {'same text':>10} {'start s':>8}")
    first: dict[str, str] = {}
    for mode in args.modes.split(","):
        run_mode(str(Path(args.model).resolve()), mode, items, levels, args, first)


if __name__ == "__main__":
    main()
