"""Greedy refill decoding gives, for every input, the tokens of ``model.generate`` on that input alone."""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path

import pytest

from tests.tiny_models import TINY_CORPUS, talking_bart, talking_tokenizer, tiny_generator

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

MAX_NEW = 12


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """BART, T5 and GPT-2 whose greedy replies end after varied numbers of tokens."""
    root = tmp_path_factory.mktemp("refill-models")
    tok = talking_tokenizer(None, list(TINY_CORPUS) * 2, vocab=300, min_frequency=1)
    return {
        "bart": talking_bart(root / "bart", tok, max_positions=256, eos_bias=-1.0),
        "t5": tiny_generator(root / "t5", "t5", eos_scale=3.0),
        "gpt2": tiny_generator(root / "gpt2", "gpt2", eos_scale=2.0),
    }


def load(path: Path):
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(path))
    auto = AutoModelForCausalLM if "gpt2" in path.name else AutoModelForSeq2SeqLM
    return tok, auto.from_pretrained(str(path)).eval()


def inputs(tok, kind: str, n: int = 40, seed: int = 0) -> list[list[int]]:
    """Random inputs of 3-60 tokens (ending with </s> for the encoder-decoders, as their encodings do)."""
    rng = random.Random(seed)
    suffix = [] if kind == "gpt2" else [tok.eos_token_id]
    return [[rng.randrange(7, len(tok)) for _ in range(rng.randrange(3, 60))] + suffix for _ in range(n)]


def alone(model, x: list[int], **kwargs) -> list[int]:
    """What ``generate`` returns for one input, without padding, cut after the first stop token."""
    ids = torch.tensor([x])
    out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), **kwargs)[0].tolist()
    out = out[len(x) :] if not model.config.is_encoder_decoder else out[1:]
    stops = kwargs.get("eos_token_id") or [model.generation_config.eos_token_id]
    for i, t in enumerate(out):
        if t in stops:
            return out[: i + 1]
    return out


def refill(model, xs: list[list[int]], batch_size: int, fast: bool = True, **kwargs) -> dict[int, list[int]]:
    from consistest.models.refill import RefillDecoder

    gc = copy.deepcopy(model.generation_config)
    gc.update(**kwargs)
    pad = kwargs.get("pad_token_id", model.generation_config.pad_token_id)
    dec = RefillDecoder(model, gc, batch_size=batch_size, max_new_tokens=MAX_NEW, pad_id=pad)
    dec.fast = dec.fast and fast
    return {i: ids for chunk in dec.run(xs) for i, ids in chunk}


CASES = [("bart", True), ("bart", False), ("t5", False), ("gpt2", False)]


@pytest.fixture(scope="module")
def alone_replies(models) -> dict[str, tuple]:
    """Per kind: tokenizer, model, generate kwargs, inputs, and each input's ``generate`` reply alone."""
    out = {}
    for kind, path in models.items():
        tok, model = load(path)
        kwargs = {"max_new_tokens": MAX_NEW, "do_sample": False, "num_beams": 1}
        if kind == "gpt2":
            kwargs.update(pad_token_id=tok.pad_token_id, eos_token_id=[tok.eos_token_id, tok.pad_token_id])
        xs = inputs(tok, kind)
        with torch.inference_mode():
            out[kind] = (model, kwargs, xs, [alone(model, x, **kwargs) for x in xs])
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "fast"), CASES, ids=["bart-slots", "bart-cache", "t5", "gpt2"])
@pytest.mark.parametrize("batch_size", [1, 4, 16])
def test_refill_equals_generate_alone(alone_replies, kind: str, fast: bool, batch_size: int) -> None:
    model, kwargs, xs, expected = alone_replies[kind]
    with torch.inference_mode():
        got = refill(model, xs, batch_size, fast, **kwargs)
    assert [got[i] for i in range(len(xs))] == expected
    lengths = {len(e) for e in expected}
    assert len(lengths) >= 3 and MAX_NEW in lengths and min(lengths) < MAX_NEW  # rows end at varied steps


def test_bart_slots_are_used_for_bart(models) -> None:
    from consistest.models.refill import RefillDecoder
    from consistest.models.refill_support import bart_fast_path

    _, model = load(models["bart"])
    assert bart_fast_path(model) is None
    dec = RefillDecoder(model, model.generation_config, batch_size=4, max_new_tokens=MAX_NEW, pad_id=1)
    assert type(dec.rows([[5, 6, 2]])).__name__ == "BartSlots"
    _, t5 = load(models["t5"])
    assert bart_fast_path(t5) == "not a BartForConditionalGeneration"


@pytest.mark.parametrize(
    ("setting", "value", "reason"),
    [
        ("no_repeat_ngram_size", 3, "no_repeat_ngram_size=3"),
        ("repetition_penalty", 1.2, "repetition_penalty=1.2"),
        ("forced_bos_token_id", 0, "forced_bos_token_id=0"),
        ("min_new_tokens", 2, "min_new_tokens=2"),
        ("no_repeat_ngram_size", 0, None),
        ("repetition_penalty", 1.0, None),
    ],
)
def test_unsupported_generation_settings(models, setting: str, value, reason: str | None) -> None:
    from consistest.models.refill_support import unsupported

    _, model = load(models["bart"])
    gc = copy.deepcopy(model.generation_config)
    setattr(gc, setting, value)
    why = unsupported(model, gc)
    assert (why is None) if reason is None else (reason in why)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bart", "t5", "gpt2"])
def test_chat_model_replies_equal_plain_generate(models, kind: str, tmp_path: Path, capsys) -> None:
    """The HF chat model decodes greedily with refill, and its texts equal plain generate per input; a
    generation config that adds a logits processor falls back to plain generate batches, and says so."""
    from transformers import GenerationConfig

    from tests.test_generation_models import hf, items, toy_samples

    model = hf(models[kind], max_new_tokens=MAX_NEW, batch_size=2, log=lambda m: None)
    got = dict(pair for chunk in model.stream(items(toy_samples())) for pair in chunk)
    assert got == {i: model.generate([model.encode(conv)])[0] for i, conv in items(toy_samples())}
    assert "plain generate" not in capsys.readouterr().err
    shutil.copytree(models[kind], tmp_path / kind)
    gc = GenerationConfig.from_pretrained(str(tmp_path / kind))
    gc.no_repeat_ngram_size = 2
    gc.save_pretrained(str(tmp_path / kind))
    model = hf(tmp_path / kind, max_new_tokens=MAX_NEW, batch_size=2, log=lambda m: None, quiet=False)
    got = dict(pair for chunk in model.stream(items(toy_samples())) for pair in chunk)
    assert got == {i: model.generate([model.encode(conv)])[0] for i, conv in items(toy_samples())}
    assert "plain generate batches" in capsys.readouterr().err
