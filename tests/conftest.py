"""Shared fixtures: the real data in ../shared (skipped cleanly when absent)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CONSISTEST_SHARED", ROOT.parent / "shared")) / "data"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"real data not found at {path} (put ../shared beside the repo or set CONSISTEST_SHARED)")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data, or skip the test with a message."""
    return _need(SHARED)


@pytest.fixture(scope="session")
def consistest_json(shared_data: Path) -> Path:
    return _need(shared_data / "personachat" / "consistest_valid.json")


@pytest.fixture(scope="session")
def convai2_txt(shared_data: Path) -> Path:
    return _need(shared_data / "personachat" / "convai2_valid_both_triples.txt")


@pytest.fixture(scope="session")
def persona_qas_json(shared_data: Path) -> Path:
    return _need(shared_data / "consistest" / "persona_qas.json")


@pytest.fixture(scope="session")
def history_qas_json(shared_data: Path) -> Path:
    return _need(shared_data / "consistest" / "history_qas.json")


@pytest.fixture(scope="session")
def snli_jsonl(shared_data: Path) -> Path:
    return _need(shared_data / "nli" / "snli_dev.jsonl")


@pytest.fixture(scope="session")
def demo_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded demo dataset, built once per session (read it, never write into it)."""
    from tests.helpers import run_cli

    out = tmp_path_factory.mktemp("demo") / "ds"
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    return out


@pytest.fixture(scope="session")
def tiny_chat_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny chat model folder (chat template, trained tokenizer) built from a config, once per session."""
    from tests.tiny_models import tiny_chat_model

    return tiny_chat_model(tmp_path_factory.mktemp("tiny-chat") / "tiny-chat")


@pytest.fixture(scope="session")
def tiny_chat_server(tiny_chat_dir: Path):
    """``transformers serve`` over the tiny chat model, started once per session by the tests that need it."""
    from tests.serving import Server

    with Server(tiny_chat_dir) as s:
        yield s
