"""train-nli: data parsing, metrics, a tiny config-built BERT that trains, resumes and loads in the scorer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from consistest.core.errors import InputError
from consistest.training.nli_data import ID2LABEL, holdout, load_sets, read_nli_file

PAIRS = [
    ("i have two dogs .", "i have a dog .", "entailment"),
    ("i have two dogs .", "i do not have pets .", "contradiction"),
    ("i have two dogs .", "i work as a teacher .", "neutral"),
    ("i am a nurse .", "i am a nurse in a small town .", "entailment"),
    ("i am a nurse .", "i am a teacher .", "contradiction"),
    ("i am a nurse .", "my favorite color is blue .", "neutral"),
]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_reads_nli_and_dnli_layouts(tmp_path) -> None:
    nli = write_jsonl(
        tmp_path / "a.jsonl", [{"premise": p, "hypothesis": h, "label": lab} for p, h, lab in PAIRS]
    )
    dnli_rows = [
        {"sentence1": "i am 30 .", "sentence2": "i am 45 .", "label": "negative", "dtype": "x"},
        {"sentence1": "i am 30 .", "sentence2": "i am thirty .", "label": "positive"},
        {"sentence1": "i am 30 .", "sentence2": "i like dogs .", "label": "neutral"},
    ]
    dnli = write_jsonl(tmp_path / "d.jsonl", dnli_rows)
    arr = tmp_path / "arr.jsonl"  # the DNLI release stores a JSON array in its .jsonl files
    arr.write_text(json.dumps(dnli_rows), encoding="utf-8")
    assert [e.label for e in read_nli_file(nli)] == [2, 0, 1, 2, 0, 1]
    assert [ID2LABEL[e.label] for e in read_nli_file(dnli)] == ["contradiction", "entailment", "neutral"]
    assert read_nli_file(arr) == read_nli_file(dnli)
    anli = write_jsonl(  # ANLI's layout: context, hypothesis, one-letter labels
        tmp_path / "anli.jsonl",
        [
            {"uid": "u", "context": "i am 30 .", "hypothesis": h, "label": lab, "reason": ""}
            for h, lab in (("i am 45 .", "c"), ("i am thirty .", "e"), ("i like dogs .", "n"))
        ],
    )
    assert read_nli_file(anli) == read_nli_file(dnli)


def test_integer_labels_are_read_as_the_hub_nli_datasets_number_them(tmp_path) -> None:
    # load_dataset("snli").to_json(...) writes 0 entailment, 1 neutral, 2 contradiction, -1 no gold label
    rows = [{"premise": "i am 30 .", "hypothesis": h, "label": lab} for h, lab in
            (("i am thirty .", 0), ("i like dogs .", 1), ("i am 45 .", 2))]  # fmt: skip
    named = [{**r, "label": n} for r, n in zip(rows, ("entailment", "neutral", "contradiction"), strict=True)]
    ints = read_nli_file(write_jsonl(tmp_path / "ints.jsonl", rows))
    assert ints == read_nli_file(write_jsonl(tmp_path / "names.jsonl", named))
    assert [ID2LABEL[e.label] for e in ints] == ["entailment", "neutral", "contradiction"]
    bad = write_jsonl(tmp_path / "gold.jsonl", [*rows, {**rows[0], "label": -1}])
    with pytest.raises(InputError, match=r"line 4.*'label'.*no gold label"):
        read_nli_file(bad)


@pytest.mark.parametrize(
    ("row", "field", "line"),
    [
        ({"premise": "a", "hypothesis": "b", "label": "maybe"}, "label", 2),
        ({"premise": "a", "hypothesis": "b", "label": 3}, "label", 2),
        ({"premise": "a", "hypothesis": "b", "label": True}, "label", 2),
        ({"premise": "a", "hypothesis": "b"}, "label", 2),
        ({"premise": "a", "label": "neutral"}, "hypothesis", 2),
        ({"premise": "", "hypothesis": "b", "label": "neutral"}, "premise", 2),
    ],
)
def test_bad_rows_name_file_line_field(tmp_path, row, field, line) -> None:
    path = write_jsonl(tmp_path / "bad.jsonl", [{"premise": "x", "hypothesis": "y", "label": "neutral"}, row])
    with pytest.raises(InputError) as e:
        read_nli_file(path)
    assert str(path) in str(e.value) and f"line {line}" in str(e.value) and repr(field) in str(e.value)


def test_split_field_and_holdout(tmp_path) -> None:
    rows = [
        {"premise": p, "hypothesis": h, "label": lab, "split": "dev" if i % 3 == 0 else "train"}
        for i, (p, h, lab) in enumerate(PAIRS)
    ]
    pairs = write_jsonl(tmp_path / "pairs.jsonl", rows)
    snli = write_jsonl(
        tmp_path / "snli.jsonl",
        [{"premise": f"p{i}", "hypothesis": "h", "label": "neutral"} for i in range(200)],
    )
    train, dev = load_sets([str(pairs), str(snli)], [], holdout_fraction=0.25, max_per_file=None, seed=0)
    assert len(dev["pairs.jsonl:dev"]) == 2
    assert 20 < len(dev["snli.jsonl:holdout"]) < 80
    assert len(train) == 4 + 200 - len(dev["snli.jsonl:holdout"])
    tr, dv = holdout(read_nli_file(snli), 0.25, 0)
    assert {e.premise for e in tr}.isdisjoint({e.premise for e in dv})


def test_classification_metrics_by_hand() -> None:
    from consistest.metrics.classification import classification_metrics

    m = classification_metrics([0, 0, 1, 2], [0, 1, 1, 2], ["contradiction", "neutral", "entailment"])
    assert m["accuracy"] == 0.75
    assert m["per_class"]["contradiction"] == {"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "support": 2}
    assert m["per_class"]["neutral"]["precision"] == 0.5
    assert m["confusion"] == [[1, 1, 0], [0, 1, 0], [0, 0, 1]]


def tiny_bert_base(directory: Path) -> Path:
    """A 2-layer BERT encoder (no classifier head, like MiniLM) with a WordPiece tokenizer trained here."""
    import torch
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    wp = BertWordPieceTokenizer(lowercase=True)
    corpus = [w for p, h, _ in PAIRS for w in (p, h)] * 3
    wp.train_from_iterator(corpus, vocab_size=200, min_frequency=1)
    tok = PreTrainedTokenizerFast(
        tokenizer_object=wp._tokenizer,
        unk_token="[UNK]",
        sep_token="[SEP]",
        cls_token="[CLS]",
        pad_token="[PAD]",
        mask_token="[MASK]",
        model_max_length=64,
    )
    tok.save_pretrained(str(directory))
    cfg = BertConfig(
        vocab_size=len(tok),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        pad_token_id=tok.pad_token_id,
    )
    torch.manual_seed(0)
    BertModel(cfg).save_pretrained(str(directory))
    return directory


def tiny_run(tmp_path: Path, out: str, **overrides: Any) -> tuple[Any, Path]:
    """A TrainNLIConfig over the 6 PAIRS (train = dev) on a fresh tiny base, and the data file."""
    import torch

    from consistest.training.nli_train import TrainNLIConfig

    torch.set_num_threads(1)
    base = tiny_bert_base(tmp_path / "base")
    data = write_jsonl(
        tmp_path / "train.jsonl", [{"premise": p, "hypothesis": h, "label": lab} for p, h, lab in PAIRS]
    )
    settings = dict(epochs=2, lr=5e-3, batch_size=3, max_length=32, holdout=0.0, quiet=True)
    settings.update(overrides)
    cfg = TrainNLIConfig(
        base=str(base), train=(str(data),), dev=(str(data),), out=str(tmp_path / out), **settings
    )
    return cfg, data


@pytest.mark.slow
def test_tiny_encoder_trains_resumes_and_loads_in_scorer(tmp_path, capsys) -> None:
    from consistest.models.nli import load_nli
    from consistest.training.nli_train import train_nli

    cfg, data = tiny_run(tmp_path, "nli", quiet=False)
    out = tmp_path / "nli"
    metrics = train_nli(cfg)
    assert metrics["steps"] == 4 and len(metrics["history"]) == 2
    assert json.loads((out / "metrics.json").read_text())["dev"]["train.jsonl"]["n"] == 6
    cfg_json = json.loads((out / "config.json").read_text())
    assert cfg_json["id2label"] == {"0": "contradiction", "1": "neutral", "2": "entailment"}

    nli = load_nli(str(out), batch_size=4)
    assert nli.label_map == ID2LABEL
    preds = nli.predict([(p, h) for p, h, _ in PAIRS])
    assert len(preds) == 6 and set(preds) <= {"contradiction", "neutral", "entailment"}

    # Re-running the finished command resumes from the last checkpoint: nothing left to train.
    assert [p.name for p in (out / "checkpoints").iterdir()] == ["epoch-2"]
    capsys.readouterr()
    again = train_nli(cfg)
    assert "resuming from" in capsys.readouterr().err
    assert again["steps"] == 4 and [h["epoch"] for h in again["history"]] == [1, 2]

    # The same command over a changed training file is a new run, not a resume of the old checkpoint.
    write_jsonl(data, [{"premise": p, "hypothesis": h, "label": lab} for p, h, lab in reversed(PAIRS[1:])])
    capsys.readouterr()
    train_nli(cfg)
    assert "resuming from" not in capsys.readouterr().err


@pytest.mark.slow
def test_interrupted_run_resumes_from_epoch_checkpoint(tmp_path, monkeypatch, capsys) -> None:
    from consistest.training import loop, nli_train

    cfg, _ = tiny_run(tmp_path, "m", quiet=False)
    real_evaluate, calls = loop.evaluate, []

    def crash_on_second_epoch(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_evaluate(*args, **kwargs)

    monkeypatch.setattr(loop, "evaluate", crash_on_second_epoch)
    with pytest.raises(KeyboardInterrupt):
        nli_train.train_nli(cfg)
    assert [p.name for p in (tmp_path / "m" / "checkpoints").iterdir()] == ["epoch-1"]
    monkeypatch.setattr(loop, "evaluate", real_evaluate)
    capsys.readouterr()
    metrics = nli_train.train_nli(cfg)
    err = capsys.readouterr().err
    assert "resuming from" in err and "(epoch 1, step 2)" in err
    assert metrics["steps"] == 4 and [h["epoch"] for h in metrics["history"]] == [1, 2]


@pytest.mark.slow
def test_tiny_encoder_learns(tmp_path) -> None:
    """Enough steps on 6 pairs: the classifier fits them (a check that training really updates the model)."""
    from consistest.training.nli_train import train_nli

    cfg, _ = tiny_run(tmp_path, "m", epochs=60, lr=3e-3, batch_size=6, warmup=0.0)
    assert train_nli(cfg)["dev"]["train.jsonl"]["accuracy"] == 1.0


def test_cli_bad_label_exits_2(tmp_path) -> None:
    from click.testing import CliRunner

    from consistest.cli.main import main

    bad = write_jsonl(tmp_path / "bad.jsonl", [{"premise": "a", "hypothesis": "b", "label": "yes"}])
    res = CliRunner().invoke(
        main, ["train-nli", "--base", "minilm", "--train", str(bad), "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 2
    assert "bad.jsonl" in res.output and "line 1" in res.output and "'label'" in res.output
