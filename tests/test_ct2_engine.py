"""The ct2 backend on tiny models: converted BART, T5, GPT-2 and a Llama chat model give the HF backend's
greedy replies, reply after reply; conversion refusals; int8; sampling; resume; the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Turn
from consistest.models.base import replies
from consistest.models.decoding import Decoding
from tests.helpers import run_cli
from tests.tiny_models import TINY_CORPUS, talking_bart, talking_tokenizer, tiny_chat_model, tiny_generator

pytest.importorskip("ctranslate2")
torch = pytest.importorskip("torch")
torch.set_num_threads(1)
pytestmark = pytest.mark.slow
MAX_NEW = 10


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """HF models whose greedy replies end after varied numbers of tokens (as in the refill tests)."""
    root = tmp_path_factory.mktemp("ct2-src")
    tok = talking_tokenizer(None, list(TINY_CORPUS) * 2, vocab=300, min_frequency=1)
    return {
        "bart": talking_bart(root / "bart", tok, max_positions=256, eos_bias=-1.0),
        "t5": tiny_generator(root / "t5", "t5", eos_scale=3.0),
        "gpt2": tiny_generator(root / "gpt2", "gpt2", eos_scale=2.0),
        "chat": tiny_chat_model(root / "chat"),
    }


@pytest.fixture(scope="module")
def converted(sources, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from consistest.models.ct2_convert import convert

    root = tmp_path_factory.mktemp("ct2-out")
    return {kind: convert(str(src), root / kind) for kind, src in sources.items()}


def conversations(n: int = 48, seed: int = 0) -> list[tuple[str, Conversation]]:
    """Persona sentences and 1-7 alternating turns drawn from the tiny corpus, ending with the user."""
    rng = random.Random(seed)
    lines = list(TINY_CORPUS[:-1])
    out = []
    for k in range(n):
        roles = ["user" if (t % 2 == 0) else "assistant" for t in range(rng.randrange(1, 8, 2))]
        turns = tuple(Turn(r, rng.choice(lines)) for r in roles)  # type: ignore[arg-type]
        out.append((f"c{k}", Conversation(tuple(rng.sample(lines, rng.randrange(0, 3))), turns)))
    return out


def both(sources, converted, kind: str, **kw):
    """The HF and the ct2 backend on one model, with the same rendering and decoding."""
    from consistest.models.ct2_chat import CT2ChatModel, CT2Settings
    from consistest.models.hf_chat import HFChatModel, HFSettings

    dec = Decoding(max_new_tokens=MAX_NEW, **{k: v for k, v in kw.items() if k in ("do_sample", "seed")})
    rest = {k: v for k, v in kw.items() if k not in ("do_sample", "seed")}
    hf = HFChatModel(str(sources[kind]), dec, HFSettings(device="cpu", batch_size=8, **rest), quiet=True)
    ct = CT2ChatModel(str(converted[kind]), dec, CT2Settings(device="cpu", batch_size=8, threads=1, **rest))
    return hf, ct


CASES = [
    ("bart", {}),
    ("t5", {}),
    ("gpt2", {}),
    ("gpt2", {"transcript": True}),
    ("chat", {"chat_template": True, "system_prompt": "persona"}),
]


@pytest.mark.parametrize(("kind", "render"), CASES, ids=["bart", "t5", "gpt2", "gpt2-transcript", "chat"])
def test_float32_greedy_replies_equal_the_hf_backend(sources, converted, kind: str, render) -> None:
    hf, ct = both(sources, converted, kind, **render)
    items = conversations()
    ours, theirs = replies(ct, items), replies(hf, items)
    assert ours == theirs
    assert len(set(ours.values())) > 5  # the replies vary, so equality means something
    assert ct.encode(items[3][1]) == hf.encode(items[3][1])  # the same rendering, token for token


def test_batching_by_tokens_gives_the_same_replies(sources, converted) -> None:
    from consistest.models.ct2_chat import CT2ChatModel, CT2Settings

    _, ct = both(sources, converted, "bart")
    items = conversations(24, seed=1)
    by_tokens = CT2ChatModel(
        str(converted["bart"]), ct.decoding, CT2Settings(batch_type="tokens", batch_size=300)
    )
    assert replies(by_tokens, items) == replies(ct, items)


def test_resume_skips_done_items_and_repeats_the_rest(sources, converted) -> None:
    _, ct = both(sources, converted, "gpt2")
    items = conversations(30, seed=2)
    full = replies(ct, items)
    skip = {i for i, _ in items[::2]}
    rest = dict(pair for chunk in ct.stream(items, skip) for pair in chunk)
    assert set(rest) == {i for i, _ in items} - skip
    assert rest == {i: full[i] for i in rest}


def test_sampling_is_seeded_per_item(sources, converted) -> None:
    _, ct = both(sources, converted, "chat", chat_template=True, do_sample=True, seed=3)
    items = conversations(6, seed=4)
    first = replies(ct, items)
    assert replies(ct, items[::-1]) == first  # the order (and what ran before) does not matter
    _, other = both(sources, converted, "chat", chat_template=True, do_sample=True, seed=4)
    assert replies(other, items) != first


def test_int8_runs_and_is_named(sources, tmp_path: Path) -> None:
    from consistest.models.ct2_chat import CT2ChatModel, CT2Settings
    from consistest.models.ct2_convert import convert, read_manifest
    from consistest.models.registry import ModelSpec

    out = convert(str(sources["gpt2"]), tmp_path / "gpt2-int8", "int8")
    manifest = read_manifest(out)
    assert manifest.quantization == "int8" and manifest.probe_max_diff > 0
    ct = CT2ChatModel(str(out), Decoding(max_new_tokens=MAX_NEW), CT2Settings(threads=1))
    assert ct.engine.compute_type == "int8_float32"
    got = replies(ct, conversations(8))
    assert len(got) == 8 and all(isinstance(t, str) for t in got.values())
    assert ModelSpec(f"ct2:{out}").name.endswith("-int8]")


def test_generation_config_the_engine_cannot_follow_is_refused(sources, converted, tmp_path: Path) -> None:
    import shutil

    from consistest.models.ct2_chat import CT2ChatModel

    folder = tmp_path / "gpt2"
    shutil.copytree(converted["gpt2"], folder)
    gc_file = folder / "hf" / "generation_config.json"
    gc_file.write_text(json.dumps({**json.loads(gc_file.read_text()), "repetition_penalty": 1.3}))
    with pytest.raises(InputError, match="repetition_penalty=1.3"):
        CT2ChatModel(str(folder))


def test_a_failed_check_writes_nothing(sources, tmp_path: Path, monkeypatch) -> None:
    from consistest.models import ct2_convert

    monkeypatch.setattr(ct2_convert, "FLOAT32_TOLERANCE", -1.0)  # no conversion can pass
    with pytest.raises(InputError, match="does not convert this model faithfully"):
        ct2_convert.convert(str(sources["t5"]), tmp_path / "t5")
    assert list(tmp_path.iterdir()) == []


def test_command_line_convert_generate(sources, tmp_path: Path) -> None:
    out = tmp_path / "chat-ct2"
    res = run_cli("models", "convert", sources["chat"], "--to", "ct2", "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == str(out)
    again = run_cli("models", "convert", sources["chat"], "--to", "ct2", "--out", out, "--quiet")
    assert again.exit_code == 0  # an earlier conversion is replaced
    res = run_cli("models", "convert", sources["chat"], "--to", "ct2", "--out", sources["chat"], "--quiet")
    assert res.exit_code == 2 and "choose another --out" in res.stderr  # never over its own input
    data = tmp_path / "data"
    assert run_cli("build", "--demo", "--out", data, "--quiet").exit_code == 0
    run = tmp_path / "run"
    args = ["--dataset", data, "--chat-template", "--max-new-tokens", "6", "--quiet", "--out", run]
    res = run_cli("generate", "--model", f"ct2:{out}", "--limit", "5", *args)
    assert res.exit_code == 0, res.output
    info = json.loads((run / "generation.json").read_text())
    assert (
        "[ctranslate2-" in info["signature"]
        and "-float32]|input:standard|prompt:chat-persona-v1" in (info["signature"])
    )
    res = run_cli(
        "generate", "--model", f"ct2:{sources['chat']}", "--limit", "5", *args[:-1], tmp_path / "r2"
    )
    assert res.exit_code == 2 and "not a ct2 conversion" in res.stderr
