"""Samples/s of consistest's runner against a plain loop of fixed-order batches of 16, same tiny model.

    .venv/bin/python benchmarks/generation.py [--n 512] [--kind bart|t5|gpt2] [--max-new-tokens 25]

Both encode with the same ``HFChatModel.encode`` and decode greedily; they differ only in scheduling
(length-sorted batches, distinct inputs once, left padding for decoder-only) and in the runner's file
writing. Samples: the first N of the real ConsisTest build when ../shared is present, else the demo.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from consistest.core.records import Sample  # noqa: E402


def load_samples(n: int) -> tuple[list[Sample], str]:
    shared = ROOT.parent / "shared" / "data"
    if (shared / "consistest" / "history_qas.json").exists():
        from consistest.data.dialogues import read_dialogues
        from consistest.data.qa_files import read_history_qas, read_persona_qas
        from consistest.tasks.consistest.assemble import assemble

        samples = assemble(
            read_dialogues(shared / "personachat" / "consistest_valid.json"),
            read_persona_qas(shared / "consistest" / "persona_qas.json"),
            read_history_qas(shared / "consistest" / "history_qas.json"),
        )
        return samples[:n], "ConsisTest-02 (real)"
    from consistest.data.dataset_dir import load_samples as load
    from consistest.tasks.consistest.build import BuildConfig, build_dataset

    out = Path(tempfile.mkdtemp()) / "demo"
    build_dataset(BuildConfig(demo=True, out=out, quiet=True))
    return load(out)[:n], "demo"


def plain_loop(model, samples: list[Sample], size: int = 16) -> list[str]:
    """The baseline: dataset order, batches of ``size``, every sample generated."""
    from consistest.tasks.consistest.prompts import conversation

    out: list[str] = []
    for i in range(0, len(samples), size):
        out += model.generate([model.encode(conversation(s)) for s in samples[i : i + size]])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--kind", default="bart", choices=["bart", "t5", "gpt2"])
    ap.add_argument("--max-new-tokens", type=int, default=25)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    import torch

    from consistest.models.decoding import Decoding
    from consistest.models.hf_chat import HFChatModel, HFSettings
    from consistest.models.registry import ModelSpec
    from consistest.tasks.consistest.generation import RespondConfig, respond
    from consistest.tasks.consistest.prompts import conversation
    from tests.tiny_models import tiny_generator

    torch.set_num_threads(args.threads)
    samples, name = load_samples(args.n)
    tmp = Path(tempfile.mkdtemp())
    model_dir = tiny_generator(tmp / "model", args.kind, hidden=64)
    print(f"{len(samples)} samples from {name}; tiny {args.kind} (2 layers, d=64); greedy, "
          f"max_new_tokens={args.max_new_tokens}; torch threads={args.threads}")  # fmt: skip
    decoding = Decoding(max_new_tokens=args.max_new_tokens)
    model = HFChatModel(str(model_dir), decoding, HFSettings(device="cpu"), quiet=True)
    plain_loop(model, samples[:16])  # warm-up, outside every timing
    t = time.perf_counter()
    plain_loop(model, samples)
    plain = len(samples) / (time.perf_counter() - t)
    rows = [("plain loop, fixed-order batches of 16", plain)]
    for bs in (16, 32):
        options = {"device": "cpu", "batch_size": bs}
        model.cfg = HFSettings(**options)  # same loaded model; the runner's own timing excludes loading
        cfg = RespondConfig(ModelSpec(str(model_dir), decoding, options))
        t = time.perf_counter()
        respond(cfg, samples, tmp / f"run{bs}", quiet=True, model=model)
        rows.append((f"consistest runner, batch {bs}", len(samples) / (time.perf_counter() - t)))
    distinct = len({tuple(model.encode(conversation(s))) for s in samples})
    for label, rate in rows:
        print(f"{label:40s} {rate:8.1f} samples/s   x{rate / plain:.2f}")
    print(f"distinct encoded inputs: {distinct} of {len(samples)}")


if __name__ == "__main__":
    main()
