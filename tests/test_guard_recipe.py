"""train-guard: the recipe's data (DECODE hard negatives, ANLI, splits) by hand, and the whole command on
excerpts of the real data with a tiny encoder: output folder, stored tau, resume after a kill, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.tasks.guard.data import anli_rows, decode_dialogue_pairs, decode_rows, overlap
from consistest.training.nli_splits import (
    TEST_SALT,
    assign_splits,
    held_out_texts,
    normalise,
    split_of_key,
    split_seed,
)
from tests.helpers import run_cli


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# --- splits ----------------------------------------------------------------------------------------------


def test_the_test_draw_ignores_seed_and_dev_fraction() -> None:
    keys = [f"speaker-{i}" for i in range(400)]
    test = {k for k in keys if split_of_key(k, 0, 0.15) == "test"}
    assert 40 < len(test) < 120  # about 20%
    for seed, dev in ((1, 0.3), (7, 0.05)):
        assert {k for k in keys if split_of_key(k, seed, dev) == "test"} == test
    assert {k for k in keys if split_of_key(k, 0, 0.15) == "dev"} != {
        k for k in keys if split_of_key(k, 1, 0.15) == "dev"
    }
    assert split_seed("test", 5) == TEST_SALT and split_seed("dev", 5) == 5


def _unit(split: str) -> str:
    """A speaker key that falls in ``split`` (seed 0, dev fraction 0.5)."""
    return next(f"u{i}" for i in range(1000) if split_of_key(f"u{i}", 0, 0.5) == split)


def _persona(split: str) -> str:
    """A persona sentence that falls in ``split`` by its text."""
    return next(
        f"i am persona {i} ."
        for i in range(1000)
        if split_of_key(f"persona-sentence:i am persona {i} .", 0, 0.5) == split
    )


def test_assign_splits_by_speaker_and_drops_paraphrases_of_held_out_personas() -> None:
    dog, tall = ("i", "have_pet", "dog"), ("i", "physical_attribute", "tall")
    p_test = _persona("test")
    train_u, test_u, dev_u = _unit("train"), _unit("test"), _unit("dev")
    texts = {
        p_test: dog,
        "my dog is called max .": dog,  # said by a train speaker whose own persona has the test sentence
        "i am very tall .": tall,  # the same speaker, a fact of no held-out persona sentence: kept
        "i walk my dog daily .": dog,  # a test speaker
        "i love my dog .": dog,  # said by a test and a dev speaker: train
    }
    units = {
        p_test: {train_u},
        "my dog is called max .": {train_u},
        "i am very tall .": {train_u},
        "i walk my dog daily .": {test_u},
        "i love my dog .": {test_u, dev_u},
    }
    got = assign_splits(texts, units, 0, 0.5, frozenset({p_test}), {train_u: {p_test}})
    assert got == {
        p_test: "test",
        "my dog is called max .": "drop",
        "i am very tall .": "train",
        "i walk my dog daily .": "test",
        "i love my dog .": "train",
    }


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["I've been there!"], "test"),  # normalised: "i ve been there"
        (["nothing known", "i ve been there ."], "test"),
        (["hello there"], "dev"),
        (["hello there", "i ve been there"], "test"),  # the most held-out split wins
        (["unknown text"], None),
    ],
)
def test_held_out_texts(texts, expected) -> None:
    by_text = {normalise("i 've been there ."): "test", normalise("Hello, there."): "dev", "x": "train"}
    assert held_out_texts(by_text, texts) == expected


# --- DECODE and ANLI --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("premise", "hypothesis", "share"),
    [
        ("i have a dog named max .", "my dog max is great .", 2 / 5),  # dog, max of my dog max is great
        ("i like tea .", "the weather is nice .", 0.0),
        ("what ?", "the weather is nice .", 0.0),
        ("i like tea .", "?", 0.0),  # no content words: nothing repeated
    ],
)
def test_overlap_by_hand(premise, hypothesis, share) -> None:
    assert overlap(premise, hypothesis) == pytest.approx(share)


def test_decode_dialogue_pairs_by_hand() -> None:
    turns = [
        ("0", "i work at a bakery downtown ."),
        ("1", "cool , i am a nurse ."),
        ("0", "do you like bread ?"),  # a question is no premise
        ("0", "i wake up at four every day ."),
        ("1", "that is early !"),  # the other speaker: never a premise
        ("0", "my bakery is downtown , i work there ."),
        ("0", "yes , and i love my job ."),
    ]
    persona = ["i bake bread .", "i love my job ."]  # the last turn repeats 4 of its 5 words: skipped
    got = decode_dialogue_pairs(turns, persona, "d1", seed=0, turns_max=5, persona_max=5)
    assert sorted(got) == sorted(
        [
            ("i work at a bakery downtown .", "yes , and i love my job .", "decode-turn"),
            ("i wake up at four every day .", "yes , and i love my job .", "decode-turn"),
            ("my bakery is downtown , i work there .", "yes , and i love my job .", "decode-turn"),
            ("i bake bread .", "yes , and i love my job .", "decode-persona"),
        ]
    )
    assert len(decode_dialogue_pairs(turns, persona, "d1", seed=0, turns_max=1, persona_max=0)) == 1


def _decode(turns: list[tuple[int, str]], contradiction: bool = False, persona=None) -> dict:
    return {
        "conversation_id": f"c-{turns[0][1]}",
        "agents": {"0": {"persona_lines": persona or []}, "1": {"persona_lines": ""}},
        "turns": [{"turn_id": i, "agent_id": a, "text": t} for i, (a, t) in enumerate(turns)],
        "is_contradiction": contradiction,
    }


def test_decode_rows_follow_held_out_texts_and_skip_contradictions(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "rct.jsonl",
        [
            _decode([(0, "i live in ohio ."), (1, "nice ."), (0, "i grew up on a farm .")]),
            _decode([(0, "i am a chef ."), (1, "wow ."), (0, "i never cook .")], contradiction=True),
            _decode([(0, "i drive a truck ."), (1, "ok ."), (0, "it is red .")], persona=["i am tall ."]),
        ],
    )
    rows = decode_rows(path, seed=0, dev_fraction=0.2, split_by_text={"i am tall": "test"})
    assert {r["hypothesis"] for r in rows} == {
        "i grew up on a farm .",
        "it is red .",
    }  # contradiction skipped
    assert all(r["label"] == "neutral" and r["source"] == "decode" for r in rows)
    assert {r["split"] for r in rows if r["hypothesis"] == "it is red ."} == {"test"}  # a test persona line
    kinds = {(r["premise"], r["kind"]) for r in rows if r["hypothesis"] == "it is red ."}
    assert kinds == {("i drive a truck .", "decode-turn"), ("i am tall .", "decode-persona")}


def test_decode_bad_record_names_line_and_field(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "bad.jsonl", [_decode([(0, "a ."), (1, "b .")]), {"turns": [{"text": "x"}]}]
    )
    with pytest.raises(InputError) as e:
        decode_rows(path, seed=0, dev_fraction=0.2)
    assert "bad.jsonl" in str(e.value) and "line 2" in str(e.value) and "'turns'" in str(e.value)


def test_anli_rows_map_labels_and_split_by_context(tmp_path: Path) -> None:
    rows = [
        {"context": f"context {i // 3}", "hypothesis": f"h{i}", "label": "ecn"[i % 3], "reason": ""}
        for i in range(60)
    ]
    got = anli_rows([write_jsonl(tmp_path / "r1.jsonl", rows)], seed=0, dev_fraction=0.3)
    assert [r["label"] for r in got[:3]] == ["entailment", "contradiction", "neutral"]
    by_context: dict[str, set[str]] = {}
    for r in got:
        by_context.setdefault(r["premise"], set()).add(r["split"])
    assert all(len(s) == 1 for s in by_context.values())  # a context is in one split
    assert 0 < sum(r["split"] == "dev" for r in got) < 40 and {r["source"] for r in got} == {"anli"}
    bad = write_jsonl(tmp_path / "bad.jsonl", [{"context": "c", "hypothesis": "h", "label": "x"}])
    with pytest.raises(InputError, match=r"line 1.*'label'|'label'.*line 1"):
        anli_rows([bad], seed=0, dev_fraction=0.3)


@pytest.mark.parametrize("name", ["anli_r1_dev.jsonl", "anli_r2_dev.jsonl", "anli_r3_dev.jsonl"])
def test_real_anli_dev_rounds_read(shared_data: Path, name: str) -> None:
    path = shared_data / "anli" / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    rows = anli_rows([path], seed=0, dev_fraction=0.3)
    assert len(rows) in (1000, 1200) and {r["label"] for r in rows} == {
        "entailment",
        "neutral",
        "contradiction",
    }
    assert 0.2 < sum(r["split"] == "dev" for r in rows) / len(rows) < 0.4


@pytest.mark.slow
def test_real_decode_rct_gives_hard_negatives_in_three_splits(shared_data: Path) -> None:
    path = shared_data / "decode" / "decode_rct.jsonl"
    if not path.exists():
        pytest.skip(f"{path} not found")
    rows = decode_rows(path, seed=0, dev_fraction=0.2)
    assert 3000 < len(rows) < 2011 * 3 and {r["split"] for r in rows} == {"train", "dev", "test"}
    assert {r["kind"] for r in rows} == {"decode-turn", "decode-persona"}
    assert not any(r["premise"].rstrip().endswith("?") for r in rows if r["kind"] == "decode-turn")


# --- the whole command on excerpts of the real data, with a tiny encoder ------------------------------------


@pytest.fixture(scope="module")
def excerpts(tmp_path_factory: pytest.TempPathFactory, shared_data: Path):
    """The first 150 ConvAI2 dialogues, 80 DECODE dialogues, 40 pairs of each ANLI round, 200 SNLI pairs."""
    from consistest.tasks.guard.recipe import GuardInputs

    d = tmp_path_factory.mktemp("guard-data")
    real = GuardInputs.from_data_dir(shared_data)
    for p in real.paths():
        if not Path(p).exists():
            pytest.skip(f"real data not found at {p}")
    lines, n = [], 0
    for line in Path(real.dialogues).read_text(encoding="utf-8").splitlines():
        n += line.startswith("1\t")
        if n > 150:
            break
        lines.append(line)
    (d / "dialogues.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def head(src: str, name: str, k: int) -> str:
        (d / name).write_text("\n".join(Path(src).read_text(encoding="utf-8").splitlines()[:k]) + "\n")
        return str(d / name)

    return GuardInputs(
        dialogues=str(d / "dialogues.txt"),
        decode=head(real.decode, "decode.jsonl", 80),
        anli=tuple(head(p, f"anli{i}.jsonl", 40) for i, p in enumerate(real.anli)),
        snli=head(real.snli, "snli.jsonl", 200),
    )


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.test_nli_train import tiny_bert_base

    return tiny_bert_base(tmp_path_factory.mktemp("base"))


def guard_config(excerpts, base: Path, out: Path, **overrides):
    import torch

    from consistest.tasks.guard.recipe import GuardConfig

    torch.set_num_threads(1)
    settings = dict(
        base=str(base), epochs=2, lr=5e-3, batch_size=64, max_length=48, snli_max=100, quiet=False
    )
    return GuardConfig(inputs=excerpts, out=str(out), **{**settings, **overrides})


@pytest.mark.slow
def test_train_guard_resumes_after_a_kill_and_writes_a_thresholded_model(
    excerpts, tiny_base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from consistest.models.nli import load_nli, stored_threshold
    from consistest.tasks.guard import recipe as guard_recipe
    from consistest.training import loop

    out = tmp_path / "guard"
    cfg = guard_config(excerpts, tiny_base, out)
    real_evaluate, calls = loop.evaluate, []

    def killed_in_epoch_two(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:  # 3 dev sets per epoch: the first of epoch 2
            raise KeyboardInterrupt
        return real_evaluate(*args, **kwargs)

    monkeypatch.setattr(loop, "evaluate", killed_in_epoch_two)
    with pytest.raises(KeyboardInterrupt):
        guard_recipe.train_guard(cfg)
    work = guard_recipe.work_dir(out)
    assert not out.exists() and [p.name for p in (work / "checkpoints").iterdir()] == ["epoch-1"]

    monkeypatch.setattr(loop, "evaluate", real_evaluate)
    capsys.readouterr()
    result = guard_recipe.train_guard(cfg)
    assert "resuming from" in capsys.readouterr().err and not work.exists()
    names = {p.name for p in out.iterdir()}
    assert {"config.json", "model.safetensors", "nli_threshold.json", "guard.json", "pairs.jsonl"} <= names
    provenance = json.loads((out / "guard.json").read_text())
    assert provenance["recipe"] == "guard-v3" and provenance["recipe_version"] == guard_recipe.RECIPE_VERSION
    assert set(provenance["inputs"]) == set(excerpts.paths())
    metrics = json.loads((out / "metrics.json").read_text())
    assert [h["epoch"] for h in metrics["dev_per_epoch"]] == [1, 2]
    assert set(metrics["figures"]["splits"]) == {"dev", "test"}

    tau = stored_threshold(out)
    assert tau == result["threshold"]["contradiction"] and result["threshold"]["chosen_on"] == "dev-probe"
    assert result["threshold"]["dev"]["false_alarm"] <= cfg.max_false_alarm
    guard = load_nli(str(out))
    assert guard.threshold == tau and guard.signature.endswith(f";c>{tau:.3f}]")
    rows = [json.loads(x) for x in (out / "pairs.jsonl").read_text().splitlines()]
    assert {r["split"] for r in rows} == {"train", "dev", "test", "dev-probe", "test-probe"}
    assert {r["source"] for r in rows} == {"dnli", "decode", "anli", "snli"}
    assert not {r["source"] for r in rows if r["split"] == "test"} & {"anli", "snli"}

    # eval-nli on the written folder prints dev and test side by side, with the stored tau in the signature
    res = run_cli("eval-nli", "--nli", out, "--pairs", out / "pairs.jsonl", "--n-boot", "100", "-q")
    assert res.exit_code == 0, res.output
    assert f";c>{tau:.3f}]" in res.stdout and res.stdout.splitlines()[1].split() == ["dev", "test"]

    # an earlier guard is replaced whole by a new run; a user's folder is refused and kept
    (out / "stale.txt").write_text("from before")
    guard_recipe.train_guard(guard_config(excerpts, tiny_base, out, epochs=1, quiet=True))
    assert not (out / "stale.txt").exists() and (out / "guard.json").exists()


def test_a_users_folder_is_refused_and_kept(excerpts, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    res = run_cli("train-guard", "--dialogues", excerpts.dialogues, "--decode", excerpts.decode, "--anli",
                  excerpts.anli[0], "--snli", excerpts.snli, "--out", mine)  # fmt: skip
    assert res.exit_code == 2 and "--overwrite" in res.stderr and "consistest train-guard" in res.stderr
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and (mine / "notes.txt").read_text() == "keep me"
    assert not (tmp_path / ".mine.work").exists()


def test_train_guard_needs_its_data(tmp_path: Path) -> None:
    res = run_cli("train-guard", "--out", tmp_path / "g", "--decode", "x.jsonl")
    assert res.exit_code == 2 and "--data" in res.stderr and "--dialogues, --anli, --snli" in res.stderr
