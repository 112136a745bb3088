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
