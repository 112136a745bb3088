"""Baselines without a model, and their ranking by the hybrid scorer on the real data."""

from __future__ import annotations

from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Sample
from consistest.models.baselines import BaselineModel, retrieval_response
from consistest.models.registry import ModelSpec
from consistest.tasks.consistest.baselines import oracle_response
from consistest.tasks.consistest.generation import RespondConfig
from consistest.tasks.consistest.prompts import conversation
from consistest.tasks.consistest.score import ScoreConfig, run_score


def sample(question: str, answer: str, fact: str, qtype: str, history: list[str] | None = None) -> Sample:
    return Sample(
        id="x", qa_id="q", dialog_id="d", persona=["i have a dog named max .", "i like tea ."],
        history=(history or []) + [question], question=question, answer=answer, fact=fact, nli_premise=fact,
        source="pers", type=qtype, distance=0, turn=-1,
    )  # fmt: skip


@pytest.mark.parametrize(
    "s, expected",
    [
        (
            sample("do you have a dog ?", "yes", "i have a dog named max .", "yn"),
            "yes . i have a dog named max .",
        ),
        (
            sample("do you have a cat ?", "no", "i have a dog named max .", "yn"),
            "no . i have a dog named max .",
        ),
        (  # a curated Y/N truth with a yes/no alternative after a phrase
            sample("do you like volunteering ?", "i do not like people | no", "i do not like people", "yn"),
            "no . i do not like people",
        ),
        (
            sample("what is your dog's name ?", "max", "i have a dog named max .", "wh"),
            "i have a dog named max .",
        ),
    ],
)
def test_oracle(s: Sample, expected: str) -> None:
    assert oracle_response(s) == expected


@pytest.mark.parametrize(
    "question, history, expected",
    [
        ("what do you drink ? do you like tea ?", [], "i like tea ."),
        ("what is your dog called ?", [], "i have a dog named max ."),
        # history sentences compete with the persona; the question itself never answers
        ("where do you live ?", ["hi !", "hello . i live in texas now ."], "i live in texas now ."),
        ("what is your favorite color ?", [], "i have a dog named max ."),  # no overlap: first sentence
    ],
)
def test_retrieval(question: str, history: list[str], expected: str) -> None:
    assert retrieval_response(conversation(sample(question, "x", "f", "wh", history))) == expected


def test_generic_and_unknown() -> None:
    conv = conversation(sample("a ?", "b", "c", "wh"))
    assert BaselineModel("generic").reply([conv] * 2) == ["i don't know ."] * 2
    with pytest.raises(InputError, match="baseline:oracle"):
        BaselineModel("parrot")


@pytest.mark.slow
def test_scorer_ranks_oracle_over_retrieval_over_generic(
    consistest_json: Path, persona_qas_json: Path, history_qas_json: Path, tmp_path: Path
) -> None:
    from consistest.data.dataset_dir import write_samples
    from consistest.data.dialogues import read_dialogues
    from consistest.data.qa_files import read_history_qas, read_persona_qas
    from consistest.tasks.consistest.assemble import assemble

    samples = assemble(read_dialogues(consistest_json), read_persona_qas(persona_qas_json),
                       read_history_qas(history_qas_json))  # fmt: skip
    write_samples(tmp_path / "ds", samples, "jsonl")
    means = {}
    for name in ("oracle", "retrieval", "generic"):
        respond = RespondConfig(ModelSpec(f"baseline:{name}"))
        cfg = ScoreConfig(tmp_path / "ds", tmp_path / name, respond=respond, nli=None, n_boot=100, quiet=True)
        overall = run_score(cfg).summary["figures"]["overall"]
        assert overall["n"] == len(samples) == 18_635
        means[name] = overall["mean"]  # rules-only mean over the items the rules decide
    assert means["oracle"] > 0.95 and means["oracle"] > means["retrieval"] > means["generic"] + 0.3, means
