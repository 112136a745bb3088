"""The processes :mod:`end_to_end` times: ``consistest`` with the time of each stage, and a plain loop of
Hugging Face ``generate`` in fixed batches (the baseline for real models).

    python benchmarks/e2e_workers.py consistest STAGES.json -- score --dataset D --model M ...
    python benchmarks/e2e_workers.py plain OUT.jsonl --model M --dataset D [--limit N | --sample N]
        [--batch-size 16] [--max-new-tokens 25] [--chat-template]

``consistest`` runs the real command line (``consistest.cli.main``) after wrapping the functions that make
up its stages; each stage includes the imports it triggers (torch and transformers are imported lazily).
Stage names: dataset, nli_load, model_load, generate (the replies, written to responses.jsonl), read,
rules, categories (the failure category of each item), nli (every NLI call, whoever makes it), report,
write; each stage's time excludes the stages called from inside it; ``other`` is the rest of the command,
``import`` the time before it started.
"""

from __future__ import annotations

import time

START_WALL, START_CPU = time.perf_counter(), time.process_time()

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (stage, module, attribute): the functions whose time makes up each stage of ``consistest score``.
STAGES: tuple[tuple[str, str, str], ...] = (
    ("dataset", "consistest.tasks.consistest.score", "open_config"),
    ("nli_load", "consistest.tasks.consistest.score", "_nli"),
    ("model_load", "consistest.tasks.consistest.generation", "load_model"),
    ("generate", "consistest.models.runner", "_run"),
    ("read", "consistest.tasks.consistest.score", "read_responses"),
    ("rules", "consistest.tasks.consistest.score", "score_items"),
    ("categories", "consistest.tasks.consistest.score", "categorise"),
    ("nli", "consistest.models.nli", "HFNLI.predict"),
    ("report", "consistest.tasks.consistest.score", "summarize"),
    ("write", "consistest.tasks.consistest.score", "atomic_write_jsonl"),
    ("write", "consistest.tasks.consistest.score", "atomic_write_json"),
)


class Clock:
    """Exclusive wall and CPU seconds per stage: time spent in a stage called from inside another (NLI
    inside the rules or the categories) counts for the inner stage only."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.stack: list[list[float]] = []  # per open stage: children's wall and CPU seconds

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.stack.append([0.0, 0.0])
            t, c = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                wall, cpu = time.perf_counter() - t, time.process_time() - c
                child_wall, child_cpu = self.stack.pop()
                self.wall[stage] = self.wall.get(stage, 0.0) + wall - child_wall
                self.cpu[stage] = self.cpu.get(stage, 0.0) + cpu - child_cpu
                if self.stack:
                    self.stack[-1][0] += wall
                    self.stack[-1][1] += cpu

        return timed


def instrument(clock: Clock) -> None:
    for stage, module, attr in STAGES:
        owner: Any = importlib.import_module(module)
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        if not hasattr(owner, name):
            print(f"e2e_workers: {module}.{attr} not found, stage {stage!r} not timed", file=sys.stderr)
            continue
        setattr(owner, name, clock.wrap(stage, getattr(owner, name)))


def consistest_worker(stages_file: Path, argv: list[str]) -> int:
    clock = Clock()
    clock.wall["import"], clock.cpu["import"] = (
        time.perf_counter() - START_WALL,
        time.process_time() - START_CPU,
    )
    from consistest.cli.main import main

    instrument(clock)
    t, c = time.perf_counter(), time.process_time()
    code = 0
    try:
        main(argv, prog_name="consistest")
    except SystemExit as e:
        code = int(e.code or 0)
    total_wall, total_cpu = time.perf_counter() - t, time.process_time() - c
    for d, total in ((clock.wall, total_wall), (clock.cpu, total_cpu)):
        d["other"] = total - sum(v for k, v in d.items() if k != "import")
        d["total"] = total + d["import"]
    stages_file.write_text(json.dumps({"wall": clock.wall, "cpu": clock.cpu, "exit": code}, indent=1))
    return code


def plain_worker(out: Path, argv: list[str]) -> int:
    """Fixed batches in dataset order, every sample generated, with ``model.generate`` on padded batches;
    inputs encoded exactly as consistest encodes them."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--dataset", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--max-new-tokens", type=int, default=25)
    ap.add_argument("--chat-template", action="store_true")
    opts = ap.parse_args(argv)
    import torch

    from consistest.data.dataset_dir import load_samples
    from consistest.models.decoding import Decoding
    from consistest.models.hf_chat import HFChatModel, HFSettings
    from consistest.tasks.consistest.prompts import conversation
    from consistest.tasks.consistest.subsets import stratified_sample

    torch.set_num_threads(1)
    samples = load_samples(opts.dataset)[: opts.limit or None]
    if opts.sample:  # the same subset as consistest's --sample N (seed 0)
        samples = stratified_sample(samples, opts.sample, 0)
    settings = HFSettings(device="cpu", batch_size=opts.batch_size, chat_template=opts.chat_template)
    model = HFChatModel(opts.model, Decoding(max_new_tokens=opts.max_new_tokens), settings, quiet=True)
    with out.open("w") as f:
        for i in range(0, len(samples), opts.batch_size):
            part = samples[i : i + opts.batch_size]
            for s, text in zip(
                part, model.generate([model.encode(conversation(s)) for s in part]), strict=True
            ):
                f.write(json.dumps({"id": s.id, "response": text}) + "\n")
    return 0


def main() -> int:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    kind, target, *rest = sys.argv[1:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    if kind == "consistest":
        return consistest_worker(Path(target), rest)
    if kind == "plain":
        return plain_worker(Path(target), rest)
    sys.exit(f"e2e_workers: unknown worker {kind!r}")


if __name__ == "__main__":
    sys.exit(main())
