"""Backends declare their own command-line options; one group built from them serves score, generate and
converse, each option declared once."""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

import click
import pytest
from click.testing import CliRunner

from consistest.cli.options import model_options, pop_respond_config
from consistest.models import registry
from consistest.models.options import ModelOption


def test_every_declared_option_is_one_the_backend_reads() -> None:
    for kind, module in registry.BACKENDS.items():
        mod = importlib.import_module(module)
        assert {o.key for o in mod.CLI_OPTIONS} <= set(mod.OPTIONS), kind
    keys = [o.key for o in registry.backend_options()]
    assert len(keys) == len(set(keys)) and {"device", "api_base", "threads", "chat_template"} <= set(keys)


def _parse(*args: str) -> Any:
    got: dict[str, Any] = {}

    @click.command()
    @model_options(required=False)
    def cmd(**kw: Any) -> None:
        got["cfg"] = pop_respond_config(kw)
        got["left"] = kw

    res = CliRunner().invoke(cmd, list(args), catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return got


def test_a_backends_own_option_reaches_its_model_spec() -> None:
    got = _parse(
        "--model", "ct2:some/dir", "--threads", "3", "--speaker-tokens", "<a>,<b>", "--num-beams", "2"
    )
    spec = got["cfg"].model
    assert spec.options["threads"] == 3 and spec.options["speaker_tokens"] == ("<a>", "<b>")
    assert spec.decoding.num_beams == 2 and set(got["left"]) == {"device", "batch_size"}  # the NLI's too
    assert _parse()["cfg"] is None


def test_a_new_backend_is_one_module_and_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("fake_backend")
    fake.OPTIONS = frozenset({"warmth"})
    fake.CLI_OPTIONS = (ModelOption("warmth", float, 0.5, "How warm."),)
    monkeypatch.setitem(sys.modules, "fake_backend", fake)
    monkeypatch.setitem(registry.BACKENDS, "fake", "fake_backend")
    got = _parse("--model", "fake:x", "--warmth", "0.8")
    assert got["cfg"].model.options["warmth"] == 0.8
    fake.CLI_OPTIONS = (ModelOption("device", str, "gpu0"),)  # declared unlike hf's --device
    with pytest.raises(ValueError, match="--device"):
        registry.backend_options()
