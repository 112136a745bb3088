"""Model specs with their own options (``SPEC,key=value``) and NLI label probabilities."""

from __future__ import annotations

from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.models.base import ProbabilisticNLI
from consistest.models.decoding import Decoding
from consistest.models.registry import parse_model_spec, parse_option_value


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("No", False), ("12", 12), ("1.3", 1.3), ("<user>", "<user>"), (" cpu ", "cpu")],
)
def test_option_values(text: str, value: object) -> None:
    got = parse_option_value(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    ("text", "spec", "decoding", "options"),
    [
        ("hf:models/smollm2", "hf:models/smollm2", Decoding(), {}),
        ("m,temperature=1.3,do_sample=true", "m", Decoding(do_sample=True, temperature=1.3), {}),
        ("m, max-new-tokens=8 ,chat_template=yes", "m", Decoding(max_new_tokens=8), {"chat_template": True}),
        ("openai:gpt,concurrency=4,seed=3", "openai:gpt", Decoding(seed=3), {"concurrency": 4}),
    ],
)
def test_parse_model_spec(text: str, spec: str, decoding: Decoding, options: dict) -> None:
    got = parse_model_spec(text)
    assert (got.spec, got.decoding, dict(got.options)) == (spec, decoding, options)


def test_spec_options_override_defaults() -> None:
    got = parse_model_spec("m,top_p=0.5,device=cpu", Decoding(do_sample=True, top_p=0.9), {"device": "auto"})
    assert got.decoding == Decoding(do_sample=True, top_p=0.5) and got.options == {"device": "cpu"}


@pytest.mark.parametrize(
    "text", ["", ",a=1", "m,temperature", "m,do_sample=3", "m,num_beams=2.5", "m,top_p=x"]
)
def test_bad_specs(text: str) -> None:
    with pytest.raises(InputError):
        parse_model_spec(text)


def test_sampling_needs_a_positive_temperature() -> None:
    with pytest.raises(InputError, match="temperature"):
        parse_model_spec("m,do_sample=true,temperature=0")


@pytest.mark.slow
def test_nli_probabilities_agree_with_labels(tmp_path: Path) -> None:
    import torch

    from consistest.models.nli import load_nli
    from tests.tiny_models import tiny_roberta_classifier

    torch.set_num_threads(1)
    nli = load_nli(str(tiny_roberta_classifier(tmp_path / "nli", {0: "entailment", 1: "neutral",
                                                                   2: "contradiction"})))  # fmt: skip
    assert isinstance(nli, ProbabilisticNLI)
    pairs = [("i have two dogs .", "i have a cat ."), ("i live in texas .", "i am a nurse ."),
             ("i have two dogs .", "i have a cat .")]  # fmt: skip
    probs, labels = nli.predict_proba(pairs), nli.predict(pairs)
    assert probs[0] == probs[2]
    for p, label in zip(probs, labels, strict=True):
        assert set(p) == {"contradiction", "neutral", "entailment"}
        assert sum(p.values()) == pytest.approx(1.0)
        assert max(p, key=p.__getitem__) == label
