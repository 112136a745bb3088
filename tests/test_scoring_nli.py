"""NLI loading from a tiny config-built model: label maps, generic labels, batching, dedup, truncation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.models.base import NLI
from consistest.models.nli import HFNLI, load_nli, nli_from_option, nli_signature, resolve_label_map
from tests.tiny_models import tiny_roberta_classifier


@pytest.fixture(scope="module")
def tiny_nli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_roberta_classifier(tmp_path_factory.mktemp("nli"))


@pytest.mark.parametrize(
    ("id2label", "labels", "expected"),
    [
        (
            {0: "CONTRADICTION", 1: "neutral", 2: "Entailment"},
            None,
            ["contradiction", "neutral", "entailment"],
        ),
        (
            {0: "entailment", 1: "neutral", 2: "contradiction"},
            None,
            ["entailment", "neutral", "contradiction"],
        ),
        (
            {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"},
            "contradiction,neutral,entailment",
            ["contradiction", "neutral", "entailment"],
        ),
        ({0: "LABEL_0", 1: "LABEL_1"}, "entailment,not_entailment", ["entailment", "neutral"]),
    ],
)
def test_label_map_resolution(id2label: dict, labels: str | None, expected: list[str]) -> None:
    assert [resolve_label_map(id2label, labels)[i] for i in range(len(expected))] == expected


@pytest.mark.parametrize(
    ("id2label", "labels", "message"),
    [
        ({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, None, "--nli-labels"),
        ({0: "positive", 1: "negative"}, None, "--nli-labels"),
        ({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, "contradiction,entailment", "3 outputs"),
        ({0: "LABEL_0", 1: "LABEL_1"}, "yes,no", "unknown NLI label"),
    ],
)
def test_label_map_errors_say_what_to_do(id2label: dict, labels: str | None, message: str) -> None:
    with pytest.raises(InputError, match=message):
        resolve_label_map(id2label, labels)


def test_load_nli_from_local_dir(tiny_nli_dir: Path) -> None:
    nli = load_nli(str(tiny_nli_dir), batch_size=2)
    assert isinstance(nli, NLI)
    assert nli.label_map == {0: "contradiction", 1: "neutral", 2: "entailment"}
    # A local model is named by its folder and a hash of its files, not by a machine-specific path.
    assert re.fullmatch(rf"{tiny_nli_dir.name}@[0-9a-f]{{8}}\[c,n,e\]", nli_signature(nli))
    copy = tiny_nli_dir.parent / "copy" / tiny_nli_dir.name
    shutil.copytree(tiny_nli_dir, copy)
    assert nli_signature(load_nli(str(copy))) == nli_signature(nli)
    long = "i have a dog . " * 200  # far past the 64-token limit: truncated, not an error
    pairs = [("i have a dog .", "i do"), (long, "no"), ("i have a dog .", "i do"), ("a", "b"), ("c", "")]
    labels = nli.predict(pairs)
    assert len(labels) == len(pairs) and set(labels) <= {"contradiction", "neutral", "entailment"}
    assert labels[0] == labels[2]
    assert nli.predict([]) == []


def test_sorted_dedup_batching_matches_plain_batching(tiny_nli_dir: Path) -> None:
    fast = load_nli(str(tiny_nli_dir), batch_size=3)
    plain = HFNLI(
        fast.model, fast.tokenizer, fast.label_map, name="plain", batch_size=1, sort=False, dedup=False
    )
    pairs = [
        (f"i have {n} dogs and a cat .", h) for n in range(6) for h in ("i do", "no , i have a cat", "yes")
    ]
    pairs += pairs[:5]
    assert fast.predict(pairs) == plain.predict(pairs)


def test_each_distinct_pair_runs_once(tiny_nli_dir: Path) -> None:
    nli = load_nli(str(tiny_nli_dir), batch_size=4)
    seen: list[int] = []
    run = nli._run
    nli._run = lambda ids: (seen.append(len(ids)), run(ids))[1]  # type: ignore[method-assign]
    nli.predict([("p", "h"), ("p", "h"), ("q", "h"), ("p", "h")])
    assert sum(seen) == 2


def test_generic_labels_need_nli_labels(tmp_path: Path) -> None:
    d = tiny_roberta_classifier(tmp_path / "generic", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    with pytest.raises(InputError, match="--nli-labels"):
        load_nli(str(d))
    nli = load_nli(str(d), "entailment,neutral,contradiction")
    assert nli.label_map[0] == "entailment"


def test_missing_model_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_nli(str(tmp_path / "nope"))
    assert nli_from_option("none") is None
    assert nli_signature(None) == "none"
