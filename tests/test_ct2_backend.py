"""The ct2 backend's rules, without the engine: generation-config mapping, batching, settings, manifests,
specs. (Runs on tiny models with the engine: tests/test_ct2_engine.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from consistest.core.errors import InputError
from consistest.models.ct2_chat import CT2Settings
from consistest.models.ct2_convert import MANIFEST, convert, read_manifest
from consistest.models.ct2_support import batches, engine_call, generation_options
from consistest.models.hf_chat import HFSettings
from consistest.models.registry import parse_model_spec


def gc(**values) -> SimpleNamespace:
    """A generation config with only ``values`` set (getattr of anything else is None)."""
    return SimpleNamespace(**values)


@pytest.mark.parametrize(
    ("values", "encdec", "want"),
    [
        ({}, False, {}),
        ({"repetition_penalty": 1.0, "no_repeat_ngram_size": 0, "min_new_tokens": 0}, False, {}),
        ({"suppress_tokens": [3, 5]}, False, {"suppress_ids": [3, 5]}),
        ({"no_repeat_ngram_size": 3}, True, {"no_repeat_ngram_size": 3}),
        ({"min_new_tokens": 2}, False, {"min_new_tokens": 2}),
        ({"forced_bos_token_id": 0, "forced_eos_token_id": 2}, True, {"forced_bos": 0, "forced_eos": True}),
    ],
)
def test_generation_config_settings_carried_over(values, encdec: bool, want) -> None:
    assert generation_options(gc(**values), encdec) == want


@pytest.mark.parametrize(
    ("values", "encdec", "named"),
    [
        ({"repetition_penalty": 1.2}, False, "repetition_penalty=1.2"),  # the engine counts it differently
        ({"forced_bos_token_id": 0}, False, "forced_bos_token_id=0"),  # decoder-only: no target prefix
        ({"min_length": 5}, True, "min_length=5"),
        ({"bad_words_ids": [[4]]}, False, "bad_words_ids"),
    ],
)
def test_generation_config_settings_refused(values, encdec: bool, named: str) -> None:
    with pytest.raises(InputError, match=named) as e:
        generation_options(gc(**values), encdec)
    assert "HF backend" in str(e.value)


def groups(*lengths: int) -> list:
    return [(tuple(range(n)), [f"i{k}"]) for k, n in enumerate(lengths)]


@pytest.mark.parametrize(
    ("lengths", "size", "by_tokens", "want"),
    [
        ((1, 2, 3, 4, 5), 2, False, [[1, 2], [3, 4], [5]]),
        ((1, 2, 3), 5, False, [[1, 2, 3]]),
        # tokens: a batch holds inputs while (inputs x longest) <= size; a longer input is alone
        ((2, 3, 3, 4, 9), 9, True, [[2, 3, 3], [4], [9]]),
        ((5, 12), 10, True, [[5], [12]]),
    ],
)
def test_batches(lengths, size: int, by_tokens: bool, want) -> None:
    got = batches(groups(*lengths), size, by_tokens)
    assert [[len(ids) for ids, _ in b] for b in got] == want


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"batch_type": "words"}, "batch_type"),
        ({"batch_size": 0}, "batch-size"),
        ({"threads": -1}, "threads"),
        ({"transcript": True, "chat_template": True}, "transcript"),
        ({"system_prompt": "pirate"}, "system-prompt"),  # refused before the model loads, as for HF
        ({"utterance_max_tokens": -1}, "utterance-max-tokens"),
        ({"device": "tpu"}, None),
    ],
)
def test_settings_refused(kw, field) -> None:
    with pytest.raises(InputError) as e:
        CT2Settings(**kw)
    assert e.value.field == field
    if "batch_type" not in kw and "threads" not in kw:  # the settings both local backends share
        with pytest.raises(InputError) as e:
            HFSettings(**kw)
        assert e.value.field == field


def test_threads_default_follows_omp(monkeypatch) -> None:
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert CT2Settings().cpu_threads() == 1
    assert CT2Settings(threads=3).cpu_threads() == 3  # an explicit value wins
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert CT2Settings().cpu_threads() >= 1


def write_manifest(folder: Path, **over) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = dict(source="m", model_type="gpt2", encoder_decoder=False, quantization="int8",
                ctranslate2="4.8.5", transformers="5.0", probe_max_diff=0.01, format=1)  # fmt: skip
    (folder / MANIFEST).write_text(json.dumps({**data, **over}))
    return folder


def test_manifest_read_and_refused(tmp_path: Path) -> None:
    assert read_manifest(write_manifest(tmp_path / "ok")).quantization == "int8"
    with pytest.raises(InputError, match="ct2 model folder not found"):
        read_manifest(tmp_path / "missing")
    (tmp_path / "plain").mkdir()
    with pytest.raises(InputError, match="models convert MODEL --to ct2"):
        read_manifest(tmp_path / "plain")  # e.g. a HF folder given as ct2:DIR
    with pytest.raises(InputError, match="format 9"):
        read_manifest(write_manifest(tmp_path / "new", format=9))
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / MANIFEST).write_text("{not json")
    with pytest.raises(InputError, match="unreadable"):
        read_manifest(tmp_path / "bad")


def test_spec_options_and_signature_name(tmp_path: Path) -> None:
    folder = write_manifest(tmp_path / "m")
    spec = parse_model_spec(f"ct2:{folder},threads=1,batch_type=tokens,batch_size=512,chat_template=true")
    assert spec.options == {"threads": 1, "batch_type": "tokens", "batch_size": 512, "chat_template": True}
    with pytest.raises(InputError, match="did you mean 'threads'"):
        parse_model_spec(f"ct2:{folder},thread=1")
    pytest.importorskip("ctranslate2")
    import ctranslate2

    assert spec.name == f"ct2:{folder}[ctranslate2-{ctranslate2.__version__}-int8]"
    assert spec.prompt_value() == "chat-persona-v1"
    settings = spec.settings()
    assert (
        settings["quantization"] == "int8" and settings["engine"] == f"ctranslate2-{ctranslate2.__version__}"
    )
    assert "threads" not in settings and "batch_size" not in settings  # they do not change a reply
    # converted again from another model: other settings, so a run of the first model does not resume
    write_manifest(folder, source="another-model")
    assert parse_model_spec(f"ct2:{folder}").settings()["source"] == "another-model" != settings["source"]
    plain = parse_model_spec("baseline:generic")
    assert plain.name == "baseline:generic"  # backends without an engine tag keep their name


def test_convert_refuses_before_writing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown quantization 'int4'"):
        convert("m", tmp_path / "out", "int4")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    src = tmp_path / "src"
    src.mkdir()
    (src / "config.json").write_text("{}")
    pytest.importorskip("ctranslate2")
    with pytest.raises(InputError, match="not a consistest models convert output"):
        convert(str(src), busy)
    assert (busy / "notes.txt").read_text() == "mine"


def test_a_cuda_library_ctranslate2_cannot_load_is_one_line_saying_what_to_install() -> None:
    # what CTranslate2 4.8.5 raised at the first batch on a CUDA 13 machine without CUDA 12's cuBLAS
    def first_batch(*_a, **_k):
        raise RuntimeError("Library libcublas.so.12 is not found or cannot be loaded")

    with pytest.raises(InputError, match=r"libcublas\.so\.12.*nvidia-cublas-cu12.*--device cpu") as e:
        engine_call(first_batch, [["a"]], max_length=3)
    assert e.value.field == "device" and "\n" not in str(e.value)

    def other(*_a, **_k):
        raise RuntimeError("out of memory")

    with pytest.raises(RuntimeError, match="out of memory"):  # other engine errors are not reworded
        engine_call(other)
    assert engine_call(lambda x, *, y: x + y, 1, y=2) == 3


@pytest.mark.parametrize(
    ("stored", "message"),
    [
        (["<s>", "a", "b"], None),  # the model's embeddings may be larger than the tokenizer
        (["<s>", "a", "b", "<pad>"], None),
        (["<s>", "a"], "tokenizer has 3 tokens but CTranslate2 stored 2"),
        (["<s>", "b", "a"], "token 1 is 'a' but CTranslate2 stored 'b'"),
    ],
)
def test_the_stored_vocabulary_must_hold_every_token_in_order(tmp_path: Path, stored, message) -> None:
    from consistest.models.ct2_convert import check_vocabulary

    class Tok:
        pieces = ["<s>", "a", "b"]

        def __len__(self) -> int:
            return len(self.pieces)

        def convert_ids_to_tokens(self, ids):
            return [self.pieces[i] for i in ids]

    (tmp_path / "vocabulary.json").write_text(json.dumps(stored))
    if message is None:
        check_vocabulary(tmp_path, Tok(), "m")
    else:
        with pytest.raises(InputError, match=message):
            check_vocabulary(tmp_path, Tok(), "m")
