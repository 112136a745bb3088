"""The user paths on a GPU against the CPU: do ``--device cuda`` runs give the CPU's replies and scores?

    python benchmarks/gpu_parity.py [--dataset data/built/consistest-02] [--sample 200] [--work runs/gpu]

Tiny models built from a config (BART, T5, GPT-2, a Llama chat model; no download) answer a seeded
``--sample`` of the built dataset greedily with ``consistest generate`` on each side: HF on cpu and cuda,
then ``models convert --to ct2`` and ct2 on cpu and cuda; a tiny NLI model scores one side's replies with
``consistest score --nli`` on cpu and cuda. Prints, per model, how many replies each pair of sides shares
and, for the scores, how many items got the same score; writes ``parity.json`` in ``--work``. A side that
fails is reported with its one-line error (for example ct2 on a machine without CUDA 12's libraries).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LABELS = "contradiction,neutral,entailment"  # the tiny NLI model's ids
PAIRS = [("hf-cpu", "hf-cuda"), ("hf-cpu", "ct2-cpu"), ("ct2-cpu", "ct2-cuda"), ("hf-cuda", "ct2-cuda")]


def cli(*args: str) -> tuple[int, float, str]:
    """Run one consistest command as a user would; (exit code, seconds, last error line)."""
    t = time.time()
    code = "import sys; from consistest.cli import main; sys.exit(main())"
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
    err = next((ln for ln in reversed(p.stderr.splitlines()) if "error" in ln), "")
    return p.returncode, round(time.time() - t, 1), err


def replies(run: Path) -> dict[str, str]:
    f = run / "responses.jsonl"
    return (
        {o["id"]: o["response"] for o in map(json.loads, f.read_text().splitlines())} if f.is_file() else {}
    )


def shared(a: dict, b: dict) -> tuple[int, int]:
    ids = set(a) & set(b)
    return sum(a[i] == b[i] for i in ids), len(ids)


def models(work: Path) -> dict[str, tuple[Path, list[str]]]:
    from tests.tiny_models import (
        TINY_CORPUS,
        talking_bart,
        talking_tokenizer,
        tiny_chat_model,
        tiny_generator,
    )

    tok = talking_tokenizer(None, list(TINY_CORPUS) * 2, vocab=300, min_frequency=1)
    return {
        "bart": (talking_bart(work / "src-bart", tok, max_positions=256, eos_bias=-1.0), []),
        "t5": (tiny_generator(work / "src-t5", "t5", eos_scale=3.0), []),
        "gpt2": (tiny_generator(work / "src-gpt2", "gpt2", eos_scale=2.0), []),
        "chat": (tiny_chat_model(work / "src-chat"), ["--chat-template"]),
    }


def run_model(kind: str, path: Path, extra: list[str], common: list[str], work: Path) -> dict:
    out: dict = {"runs": {}, "identical": {}}
    ct2 = work / f"{kind}-ct2"
    out["runs"]["convert"] = cli("models", "convert", str(path), "--to", "ct2", "--out", str(ct2), "--quiet")
    specs = {"hf-cpu": str(path), "hf-cuda": str(path), "ct2-cpu": f"ct2:{ct2}", "ct2-cuda": f"ct2:{ct2}"}
    for side, spec in specs.items():
        dev = side.split("-")[1]
        out["runs"][side] = cli("generate", "--model", spec, *extra, *common, "--device", dev,
                                "--out", str(work / f"{kind}-{side}"))  # fmt: skip
    got = {side: replies(work / f"{kind}-{side}") for side in specs}
    for a, b in PAIRS:
        out["identical"][f"{a} vs {b}"] = shared(got[a], got[b])
    return out


def scores(work: Path, dataset: str, sample: str, responses: Path) -> dict:
    from tests.tiny_models import tiny_roberta_classifier

    nli = tiny_roberta_classifier(work / "nli")
    got, runs = {}, {}
    for dev in ("cpu", "cuda"):
        out = work / f"score-{dev}"
        runs[dev] = cli("score", "--dataset", dataset, "--responses", str(responses), "--sample", sample,
                        "--nli", str(nli), "--nli-labels", LABELS, "--device", dev,
                        "--quiet", "--overwrite", "--out", str(out))  # fmt: skip
        f = out / "scores.jsonl"
        got[dev] = (
            {o["id"]: o.get("score") for o in map(json.loads, f.read_text().splitlines())}
            if f.is_file()
            else {}
        )
    return {"runs": runs, "identical": shared(got["cpu"], got["cuda"])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", default="data/built/consistest-02")
    ap.add_argument("--sample", default="200")
    ap.add_argument("--max-new-tokens", default="10")
    ap.add_argument("--work", type=Path, default=Path("runs/gpu-parity"))
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    common = [
        "--dataset",
        a.dataset,
        "--sample",
        a.sample,
        "--max-new-tokens",
        a.max_new_tokens,
        "--quiet",
        "--overwrite",
    ]
    report = {
        kind: run_model(kind, path, extra, common, a.work) for kind, (path, extra) in models(a.work).items()
    }
    report["score --nli"] = scores(a.work, a.dataset, a.sample, a.work / "bart-hf-cpu" / "responses.jsonl")
    (a.work / "parity.json").write_text(json.dumps(report, indent=1))
    for kind, r in report.items():
        for side, (rc, secs, err) in r["runs"].items():
            print(f"{kind:11} {side:8} exit {rc} {secs:6.1f} s {err}")
        same = r["identical"]
        for pair, (n, of) in same.items() if isinstance(same, dict) else [("cpu vs cuda", same)]:
            print(f"{kind:11} {pair:22} {n}/{of} identical")


if __name__ == "__main__":
    main()
