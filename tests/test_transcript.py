"""The transcript rendering for base models without a chat template (Gemma-3-270M base): the text a model
sees, the reply cut at the line break, the signature, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Turn
from consistest.models.rendering import TRANSCRIPTS, transcript_text
from tests.helpers import run_cli

OPENING = "The following is a chat between two people who just met. Me describes themself first."


@pytest.mark.parametrize(
    "persona, turns, text",
    [
        ((), [("user", "hi !")], f"{OPENING}\nUser: hi !\nMe:"),
        (
            ("i have a dog .", "i am a nurse ."),
            [("user", "hi"), ("assistant", "hello"), ("user", "what do you do ?")],
            f"{OPENING}\nMe: i have a dog . i am a nurse .\nUser: hi\nMe: hello\nUser: what do you do ?\nMe:",
        ),
        # a line break inside a turn would end the agent's line early: turns are kept on one line
        (
            ("i like\ntea .",),
            [("user", "why ?\n\nreally")],
            f"{OPENING}\nMe: i like tea .\nUser: why ? really\nMe:",
        ),
    ],
)
def test_transcript_text(persona: tuple[str, ...], turns: list[tuple[str, str]], text: str) -> None:
    conv = Conversation(persona, tuple(Turn(r, t) for r, t in turns))  # type: ignore[arg-type]
    assert transcript_text(conv) == text


def test_transcript_truncates_turns_not_the_persona() -> None:
    conv = Conversation(("a long persona sentence .",), (Turn("user", "a long question ?"),))
    assert transcript_text(conv, truncate=lambda s: s[:6]).endswith(
        "Me: a long persona sentence .\nUser: a long\nMe:"
    )
    assert TRANSCRIPTS == ("transcript-v1",)
    with pytest.raises(InputError, match="unknown transcript"):
        transcript_text(conv, name="transcript-v9")


@pytest.fixture(scope="module")
def chat_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch").set_num_threads(1)
    from tests.tiny_models import tiny_chat_model

    return tiny_chat_model(tmp_path_factory.mktemp("transcript") / "llama")


def test_model_sees_the_transcript_and_stops_at_the_line_break(chat_dir: Path) -> None:
    from consistest.models.hf_chat import HFChatModel, HFSettings

    model = HFChatModel(
        str(chat_dir), settings=HFSettings(transcript=True, utterance_max_tokens=0), quiet=True
    )
    conv = Conversation(("i have a dog .",), (Turn("user", "do you have pets ?"),))
    assert model.tok.decode(model.encode(conv), skip_special_tokens=True) == transcript_text(conv)
    newline = model.tok("\n", add_special_tokens=False)["input_ids"]
    assert newline and set(newline) <= model.stop_ids
    ids = model.tok("yes , a dog .\nUser: nice", add_special_tokens=False)["input_ids"]
    assert model._decode(ids) == "yes , a dog ."


def test_generate_names_the_transcript_in_signature_and_settings(chat_dir: Path, tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    assert run_cli("build", "--demo", "--out", demo, "-q").exit_code == 0
    out = tmp_path / "run"
    args = ["generate", "--dataset", demo, "--model", chat_dir, "--limit", "3", "--out", out, "-q"]
    r = run_cli(*args, "--transcript", "--max-new-tokens", "6")
    assert r.exit_code == 0, r.output
    stored = json.loads((out / "generation.json").read_text())
    assert stored["settings"]["transcript"] == "transcript-v1"
    assert "|prompt:transcript-v1|" in stored["signature"]
    both = run_cli(*args[:-3], "--out", tmp_path / "run2", "--transcript", "--chat-template")
    assert both.exit_code == 2 and "--transcript and --chat-template exclude each other" in both.stderr
    assert not (tmp_path / "run2").exists()


def test_transcript_is_refused_for_seq2seq_models(tmp_path: Path) -> None:
    pytest.importorskip("torch").set_num_threads(1)
    from consistest.models.hf_chat import HFChatModel, HFSettings
    from tests.tiny_models import tiny_generator

    bart = tiny_generator(tmp_path / "bart", "bart")
    with pytest.raises(InputError, match="--transcript is for decoder-only"):
        HFChatModel(str(bart), settings=HFSettings(transcript=True), quiet=True)
