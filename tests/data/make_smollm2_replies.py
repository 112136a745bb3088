"""Regenerate the SmolLM2 replies of the agreement set (``smollm2_ids.txt``): real chat-model answers.

    OMP_NUM_THREADS=1 python tests/data/make_smollm2_replies.py DATASET_DIR SMOLLM2_DIR RUN_DIR

DATASET_DIR is ConsisTest-02 built by ``consistest build``; SMOLLM2_DIR is SmolLM2-135M-Instruct as a
transformers folder (``consistest models get smollm2 --out models/smollm2``). Greedy, 40 new
tokens, the chat template with the persona as system message, one CPU thread. Replies land in
RUN_DIR/responses.jsonl (resumable); their labels in ``agree_dev.jsonl`` were given by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from consistest.data.dataset_dir import load_samples
from consistest.models.decoding import Decoding
from consistest.models.registry import ModelSpec
from consistest.tasks.consistest.generation import RespondConfig, respond

IDS = Path(__file__).with_name("smollm2_ids.txt")


def main(dataset: str, model_dir: str, run_dir: str) -> None:
    torch.set_num_threads(1)
    wanted = [line.split()[0] for line in IDS.read_text().splitlines() if line.strip()]
    by_id = {s.id: s for s in load_samples(dataset)}
    samples = [by_id[i] for i in wanted]
    options = {"chat_template": True, "device": "cpu", "batch_size": 4}
    cfg = RespondConfig(ModelSpec(model_dir, Decoding(max_new_tokens=40), options))
    print(respond(cfg, samples, run_dir))


if __name__ == "__main__":
    main(*sys.argv[1:4])
