"""Tiny random BART / T5 / GPT-2 generators end to end: every input variant, encoding, dedup, sampling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Sample
from consistest.data.dataset_dir import write_samples
from consistest.models.base import replies
from consistest.models.decoding import Decoding
from consistest.models.registry import ModelSpec
from consistest.models.rendering import system_message
from consistest.tasks.consistest.generation import RespondConfig, respond
from consistest.tasks.consistest.prompts import VARIANTS, conversation
from tests.helpers import run_cli
from tests.tiny_models import tiny_generator

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

PERSONA = ["i have two dogs and a cat .", "i work as a teacher in a small town ."]


def toy_samples() -> list[Sample]:
    """Persona and history questions at distances 0 and 2 (the d=0/d=2 persona pair shares one fact)."""
    hist = [
        "hi there",
        "i am a nurse .",
        "do you have any pets ?",
        "i have a dog .",
        "what do you do for a living ?",
    ]
    q = "do you have any pets ?"
    pers = dict(qa_id="qp", question=q, answer="yes", fact=PERSONA[0], source="pers", type="yn", turn=-1)
    hist_q = dict(
        qa_id="qh", question=hist[4], answer="nurse", fact="i am a nurse .", source="hist", type="wh"
    )
    common = dict(dialog_id="d1", persona=PERSONA, nli_premise="", generator="curated")
    return [
        Sample(id="p0", history=[q], distance=0, **pers, **common),
        Sample(id="p2", history=hist[:4] + [q], distance=2, **pers, **common),
        Sample(id="h0", history=hist[:2] + [hist[4]], distance=0, turn=0, fact_index=1, **hist_q, **common),
        Sample(id="h2", history=hist, distance=2, turn=0, fact_index=1, **hist_q, **common),
    ]


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("gen-models")
    return {kind: tiny_generator(root / kind, kind) for kind in ("bart", "t5", "gpt2")}


@pytest.fixture(scope="module")
def dataset_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("gen-data")
    write_samples(d, toy_samples(), "jsonl")
    return d


DECODING = {"max_new_tokens", "num_beams", "do_sample", "temperature", "top_p", "seed"}


def hf(model: Path | str, *, log=None, quiet: bool = True, **kw):
    """A tiny HFChatModel on CPU with 6 new tokens; ``kw`` are decoding or HF settings."""
    from consistest.models.hf_chat import HFChatModel, HFSettings

    dec = Decoding(**{"max_new_tokens": 6, **{k: v for k, v in kw.items() if k in DECODING}})
    settings = HFSettings(device="cpu", **{k: v for k, v in kw.items() if k not in DECODING})
    return HFChatModel(str(model), dec, settings, quiet=quiet, log=log)


def items(samples: list[Sample], variant: str = "standard") -> list:
    return [(s.id, conversation(s, variant)) for s in samples]


def reply(model, samples: list[Sample], variant: str = "standard") -> list[str]:
    got = replies(model, items(samples, variant))
    return [got[s.id] for s in samples]


def respond_cfg(model: Path | str, **kw) -> RespondConfig:
    return RespondConfig(ModelSpec(str(model), Decoding(max_new_tokens=6), {"device": "cpu"}), **kw)


@pytest.mark.parametrize("kind", ["bart", "t5", "gpt2"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_model_and_variant_end_to_end(models, dataset_dir, tmp_path, kind: str, variant: str) -> None:
    out = tmp_path / "run"
    args = ["--input-variant", variant, "--max-new-tokens", "6", "--device", "cpu", "--quiet"]
    res = run_cli("generate", "--dataset", dataset_dir, "--model", models[kind], "--out", out, *args)
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in (out / "responses.jsonl").read_text().splitlines()]
    assert [r["id"] for r in rows] == ["p0", "p2", "h0", "h2"]  # dataset order, one line each
    assert all(isinstance(r["response"], str) for r in rows)
    info = json.loads((out / "generation.json").read_text())
    assert info["complete"] and info["settings"]["input_variant"] == variant
    assert f"input:{variant}" in info["signature"]


def test_bart_encoding_token_by_token(models) -> None:
    r = hf(models["bart"], utterance_max_tokens=4)
    s = toy_samples()[2]  # history: "hi there", "i am a nurse .", "what do you do for a living ?"
    tokens = r.tok.convert_ids_to_tokens(r.encode(conversation(s)))
    # <s>, then the agent token and the whole persona (never cut) ...
    assert tokens[:4] == ["<s>", "<agent>", "Ġi", "Ġhave"]
    cut = tokens.index("<user>")
    assert r.tok.convert_tokens_to_string(tokens[2:cut]).strip() == " ".join(PERSONA)
    # ... then each utterance with its speaker counted from the end, cut to 4 tokens, then </s>
    assert tokens[cut:] == [
        "<user>", "Ġ", "h", "i",  # "hi there"
        "<agent>", "Ġi", "Ġa", "m",  # "i am a nurse ."
        "<user>", "Ġ", "w", "ha",  # "what do you do for a living ?"
        "</s>",
    ]  # fmt: skip


def test_gpt2_generates_after_agent_token_with_left_padding(models) -> None:
    r = hf(models["gpt2"])
    ids = r.encode(conversation(toy_samples()[0]))
    assert r.tok.convert_ids_to_tokens(ids[-1:]) == ["<agent>"] and r.tok.convert_ids_to_tokens(ids[:1]) == [
        "<agent>"
    ]
    alone = r.generate([ids])
    batched = r.generate([ids, r.encode(conversation(toy_samples()[3]))])  # the shorter input is left-padded
    assert batched[0] == alone[0]


def test_identical_inputs_generated_once(models) -> None:
    r = hf(models["t5"])
    plan = r.plan(items(toy_samples(), "fact-question"))
    assert sorted(len(sids) for batch in plan for _, sids in batch) == [2, 2]  # p0=p2 and h0=h2
    out = reply(r, toy_samples(), "fact-question")
    assert out[0] == out[1] and out[2] == out[3]


@pytest.mark.slow
def test_sampling_is_seeded_per_sample_id(models) -> None:
    r = hf(models["gpt2"], do_sample=True, seed=3, temperature=1.5)
    samples = toy_samples()
    forward = dict(zip([s.id for s in samples], reply(r, samples), strict=True))
    backward = dict(zip([s.id for s in samples[::-1]], reply(r, samples[::-1]), strict=True))
    assert forward == backward
    r2 = hf(models["gpt2"], do_sample=True, seed=4, temperature=1.5)
    assert reply(r2, samples) != [forward[s.id] for s in samples]


def test_unknown_speaker_tokens_warn(tmp_path) -> None:
    plain = tiny_generator(tmp_path / "plain", "bart", speaker_tokens=())
    logs: list[str] = []
    hf(plain, log=logs.append, quiet=False)
    assert len(logs) == 1 and "<user>, <agent>" in logs[0] and "not fine-tuned" in logs[0]
    logs.clear()
    hf(plain, log=logs.append, quiet=False, speaker_tokens=("i", "a"))
    assert logs == []


def test_missing_model_is_one_line_error(dataset_dir, tmp_path) -> None:
    res = run_cli(
        "generate", "--dataset", dataset_dir, "--model", tmp_path / "nope", "--out", tmp_path / "r", "-q"
    )
    assert (
        res.exit_code == 2
        and "model folder not found" in res.stderr
        and len(res.stderr.strip().splitlines()) == 1
    )


def test_generate_defaults_to_the_dataset_score_reads(tmp_path, monkeypatch) -> None:
    """Like score, generate reads data/built/consistest-02 when --dataset is not given."""
    monkeypatch.chdir(tmp_path)
    res = run_cli("generate", "--model", "baseline:oracle", "--out", tmp_path / "r", "-q")
    assert res.exit_code == 2 and res.stderr.startswith("consistest: error: data/built/consistest-02:")
    assert not (tmp_path / "r").exists()


def test_limit_then_full_run_reuses_done_ids(models, tmp_path) -> None:
    samples = toy_samples()
    out = respond(respond_cfg(models["bart"], limit=2), samples, tmp_path, quiet=True)
    first = out.read_text().splitlines()
    assert [json.loads(x)["id"] for x in first] == ["p0", "p2"]
    respond(respond_cfg(models["bart"]), samples, tmp_path, quiet=True)
    assert out.read_text().splitlines()[:2] == first and len(out.read_text().splitlines()) == 4


TEMPLATE = (
    "{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}[assistant]{% endif %}"
)


def test_chat_template_persona_as_system(tmp_path) -> None:
    from transformers import AutoTokenizer

    path = tiny_generator(tmp_path / "chat", "gpt2")
    tok = AutoTokenizer.from_pretrained(path)
    tok.chat_template = TEMPLATE
    tok.save_pretrained(str(path))
    r = hf(path, chat_template=True, utterance_max_tokens=0)
    text = r.tok.decode(r.encode(conversation(toy_samples()[2])))
    assert text == (
        f"[system] {system_message(PERSONA)}\n[user] hi there\n[assistant] i am a nurse .\n"
        "[user] what do you do for a living ?\n[assistant]"
    )
    assert len(reply(r, toy_samples()[:2])) == 2
    with pytest.raises(InputError, match="no chat template"):
        hf(tiny_generator(tmp_path / "plain", "gpt2"), chat_template=True)
