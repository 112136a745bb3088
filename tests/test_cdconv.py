"""CDConv detectors: readers (CDConv, DECODE, our layout, scored runs), the split by context, the three
methods' views and decisions, Table 4 figures by hand, and tiny from-scratch detectors that train, resume
and predict end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from consistest.cli.main import main
from consistest.core.errors import InputError
from consistest.data.cdconv import detect_layout, read_cdconv, read_examples
from consistest.data.decode_reader import make_example, read_decode
from consistest.tasks.cdconv.detector import STAGES, Detector, Stage, decide, stage_label, view
from consistest.tasks.cdconv.inputs import read_dialogues
from consistest.tasks.cdconv.report import detector_metrics
from consistest.tasks.cdconv.train import split_of

DECODE_STYLE = Path(__file__).parent / "data" / "decode_style.jsonl"
U1, B1, U2, B2 = "你喜欢狗吗？", "喜欢，我养了一只狗", "你不喜欢狗吗？", "我从来没养过狗"


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def cdconv_rows(n: int = 40) -> list[dict]:
    """Made-up CDConv-layout rows: four b2 per context, labels 0..3 cycling (no CDConv text)."""
    rows = []
    for i in range(n):
        ctx = i // 4
        rows.append(
            {"file": "t", "model": "m", "method": ["短句", "反义-否定词"][ctx % 2], "u1": f"{U1}{ctx}",
             "b1": B1, "u2": U2, "b2": f"{B2}{i}", "label": i % 4}
        )  # fmt: skip
    return rows


def test_cdconv_reader(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(8))
    ex = read_cdconv(path)
    assert [e.label for e in ex] == ["none", "intra", "role", "history"] * 2
    assert (
        ex[0].turns == [f"{U1}0", B1, U2, f"{B2}0"]
        and ex[0].trigger == "short"
        and ex[4].trigger == "negation"
    )
    assert len({e.context for e in ex[:4]}) == 1 and ex[0].context != ex[4].context
    assert len({e.id for e in ex}) == 8 and detect_layout(path) == "cdconv"
    bad = write_jsonl(tmp_path / "bad.jsonl", [*cdconv_rows(1), {**cdconv_rows(1)[0], "label": 7}])
    with pytest.raises(InputError, match=r"line 2.*'label'"):
        read_cdconv(bad)


def test_decode_reader_and_hand_written_set() -> None:
    ex = read_decode(DECODE_STYLE)
    assert len(ex) == 48 and detect_layout(DECODE_STYLE) == "decode"
    assert {
        lab: sum(e.label == lab for e in ex) for lab in ("none", "intra", "role", "history")
    } == dict.fromkeys(("none", "intra", "role", "history"), 12)


def test_decode_is_contradiction_is_a_history_label(tmp_path: Path) -> None:
    turns = [{"text": "i am 30 .", "agent_id": 0}, {"text": "i am 50 .", "agent_id": 0}]
    path = write_jsonl(tmp_path / "d.jsonl", [{"turns": turns, "is_contradiction": True}, {"turns": turns}])
    assert [e.label for e in read_decode(path)] == ["history", None]
    bad = write_jsonl(tmp_path / "bad.jsonl", [{"turns": [{"agent_id": 0}, {"text": "x"}]}])
    with pytest.raises(InputError, match="turn 0 has no text"):
        read_decode(bad)


def test_examples_layout_round_trip(tmp_path: Path) -> None:
    ex = make_example(["a", "b", "c"], "role", origin="x", split="dev")
    path = write_jsonl(tmp_path / "e.jsonl", [ex.to_dict()])
    assert read_examples(path) == [ex]


def test_scored_run_reader(tmp_path: Path) -> None:
    ds, run = tmp_path / "demo", tmp_path / "run"
    assert CliRunner().invoke(main, ["build", "--demo", "--out", str(ds), "-q"]).exit_code == 0
    args = [
        "score",
        "--dataset",
        str(ds),
        "--model",
        "baseline:retrieval",
        "--nli",
        "none",
        "--out",
        str(run),
    ]
    assert CliRunner().invoke(main, [*args, "--n-boot", "0", "-q"]).exit_code == 0
    ex = read_dialogues(run, ds)
    scores = [json.loads(x) for x in (run / "scores.jsonl").read_text().splitlines()]
    assert len(ex) == len(scores) and ex[0].turns[-1] == scores[0]["response"]
    assert {e.label for e in ex} >= {"none", None, "role"}  # consistent, not judged, returned questions
    assert all(e.persona for e in ex)  # the bot's persona comes with every reply
    with pytest.raises(InputError, match="--dataset"):
        read_dialogues(run)
    with pytest.raises(InputError, match="a directory"):
        read_examples(run)  # the data layer reads no ConsisTest outputs


def test_split_by_context_keeps_every_reply_to_a_context_together() -> None:
    exs = [make_example([f"u{c}", "b", "u2", f"r{i}"], "none") for c in range(200) for i in range(3)]
    for by in ("context", "row"):
        splits = {}
        for e in exs:
            splits.setdefault(e.context, set()).add(split_of(e, by, 13, (0.6, 0.2)))
        together = all(len(s) == 1 for s in splits.values())
        assert together is (by == "context")
    counts = {
        s: sum(split_of(e, "context", 13, (0.6, 0.2)) == s for e in exs) for s in ("train", "dev", "test")
    }
    assert 0.5 < counts["train"] / len(exs) < 0.7 and counts["dev"] > 0 and counts["test"] > 0


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("pair", ("b1", "b2")),
        ("intra", ("u2", "b2")),
        ("role", ("b1 | u2", "b2")),
        ("all", ("u1 | b1 | u2", "b2")),
    ],
)
def test_views(kind, expected) -> None:
    assert view(["u1", "b1", "u2", "b2"], kind) == expected
    assert view(["u2", "b2"], "pair") == ("", "b2")


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("pair", ("b1 | i am tall . i ski", "b2")),
        ("intra", ("u2", "b2")),
        ("role", ("b1 | u2", "b2")),
        ("all", ("u1 | b1 | u2 | i am tall . i ski", "b2")),
    ],
)
def test_persona_closes_the_history_views(kind, expected) -> None:
    """The persona sits right before the judged turn, so a left cut drops the oldest turns first."""
    assert view(["u1", "b1", "u2", "b2"], kind, persona=["i am tall .", " i  ski "]) == expected
    assert view(["u2", "b2"], "pair", persona=["i ski"]) == ("i ski", "b2")


@pytest.mark.parametrize(
    ("turns", "persona", "expected"),
    [
        (["u1", "b1", "u2", "b2"], (), ("b1 | u2", "b2")),
        (["u1", "b1", "u2", "b2"], ("i am tall .",), ("b1 | i am tall . | u2", "b2")),  # question last
        (["u2", "b2"], ("i ski",), ("i ski | u2", "b2")),
        (["b2"], (), ("", "b2")),  # no user turn to read
    ],
)
def test_the_pair_view_with_the_user_turn_reads_the_question_right_before_the_answer(
    turns, persona, expected
) -> None:
    assert view(turns, "pair", persona=persona, user=True) == expected
    assert view(turns, "all", persona=persona, user=True) == view(turns, "all", persona=persona)  # pair only


def test_user_turn_is_refused_for_other_architectures(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(8))
    args = ["train-detector", "--architecture", "flatten", "--data", str(data), "--out", str(tmp_path / "o")]
    res = CliRunner().invoke(main, [*args, "--user-turn"])
    assert res.exit_code != 0 and "--user-turn is a setting of the pair view" in res.output + res.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("stage", "label", "expected"),
    [("intra", "intra", 1), ("intra", "role", 0), ("role", "intra", None), ("role", "role", 1),
     ("role", "history", 0), ("history", "role", None), ("history", "history", 1), ("history", "none", 0)],
)  # fmt: skip
def test_cascade_labels(stage, label, expected) -> None:
    st = next(s for s in STAGES["hierarchical"] if s.name == stage)
    assert stage_label(st, label) == expected
    assert stage_label(STAGES["flatten"][0], label) == ("none", "intra", "role", "history").index(label)


def test_decisions() -> None:
    hier = STAGES["hierarchical"]
    p = decide(hier, "x", {"intra": [0.9, 0.1], "role": [0.3, 0.7], "history": [0.1, 0.9]})
    assert (p.category, p.probability) == ("role", 0.7)  # intra says no: role decides before history
    p = decide(hier, "x", {"intra": [0.9, 0.1], "role": [0.8, 0.2], "history": [0.5, 0.5]})
    assert p.category == "none" and p.probability == pytest.approx(0.9 * 0.8 * 0.5)
    flat = (Stage("flatten", "all", ("none", "intra", "role", "history")),)
    p = decide(flat, "x", {"flatten": [0.2, 0.1, 0.1, 0.6]})
    assert (p.category, p.probability, p.contradiction_probability) == ("history", 0.6, 0.8)


HIER = STAGES["hierarchical"]
FLAT = (Stage("flatten", "all", ("none", "intra", "role", "history")),)
PAIR = STAGES["pair"]


@pytest.mark.parametrize(
    ("stages", "probs", "tau", "category", "contradiction"),
    [
        # 4-class: P(contradiction) = 1 - P(none) = 0.4; argmax says none, a tau below 0.4 says history
        (FLAT, {"flatten": [0.6, 0.1, 0.05, 0.25]}, None, "none", 0.4),
        (FLAT, {"flatten": [0.6, 0.1, 0.05, 0.25]}, 0.3, "history", 0.4),
        (FLAT, {"flatten": [0.6, 0.1, 0.05, 0.25]}, 0.4, "none", 0.4),  # must exceed tau
        (FLAT, {"flatten": [0.2, 0.1, 0.1, 0.6]}, 0.9, "none", 0.8),  # a high tau overrules argmax
        # cascade: P(contradiction) = 1 - 0.8 * 0.7 * 0.6 = 0.664; tau takes the most probable stage
        (HIER, {"intra": [0.8, 0.2], "role": [0.7, 0.3], "history": [0.6, 0.4]}, None, "none", 0.664),
        (HIER, {"intra": [0.8, 0.2], "role": [0.7, 0.3], "history": [0.6, 0.4]}, 0.5, "history", 0.664),
        (HIER, {"intra": [0.8, 0.2], "role": [0.7, 0.3], "history": [0.6, 0.4]}, 0.7, "none", 0.664),
        # tau on a cascade takes the most probable category, not the first stage over 0.5
        (HIER, {"intra": [0.4, 0.6], "role": [0.9, 0.1], "history": [0.2, 0.8]}, None, "intra", 0.928),
        (HIER, {"intra": [0.4, 0.6], "role": [0.9, 0.1], "history": [0.2, 0.8]}, 0.5, "history", 0.928),
        # pair (the English recipe): P(contradiction) = 0.15; argmax says none, tau 0.1 the top category
        (PAIR, {"pair": [0.85, 0.05, 0.02, 0.08]}, None, "none", 0.15),
        (PAIR, {"pair": [0.85, 0.05, 0.02, 0.08]}, 0.1062, "history", 0.15),
        (PAIR, {"pair": [0.85, 0.08, 0.02, 0.05]}, 0.1062, "intra", 0.15),
        (PAIR, {"pair": [0.95, 0.01, 0.02, 0.02]}, 0.1062, "none", 0.05),
    ],
)
def test_decisions_with_a_threshold(stages, probs, tau, category, contradiction) -> None:
    p = decide(stages, "x", probs, tau)
    assert p.category == category and p.contradiction_probability == pytest.approx(contradiction)


def test_table4_figures_by_hand() -> None:
    gold = ["none", "none", "intra", "history"]
    pred = ["none", "history", "intra", "role"]
    m = detector_metrics(gold, pred)
    assert m["acc2"] == 75.0 and m["acc4"] == 50.0
    assert m["f1_2"] == pytest.approx(100 * (2 / 3 + 0.8) / 2)  # none F1 2/3, contradiction F1 0.8
    assert m["none"] == pytest.approx(100 * 2 / 3) and m["intra"] == 100.0 and m["role"] == 0.0
    assert m["f1_4"] == pytest.approx((100 * 2 / 3 + 100 + 0 + 0) / 4)
    assert m["recall"] == {"none": 50.0, "intra": 100.0, "role": 0.0, "history": 0.0}


@pytest.mark.slow
@pytest.mark.parametrize("method", ["pair", "flatten", "hierarchical"])
def test_tiny_detector_trains_resumes_and_predicts(tmp_path: Path, method: str) -> None:
    data = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(48))
    out = tmp_path / method
    args = ["train-detector", "--architecture", method, "--data", str(data), "--test", str(DECODE_STYLE)]
    args += [
        "--out",
        str(out),
        "--base",
        "scratch-1x32",
        "--epochs",
        "2",
        "--batch-size",
        "8",
        "--max-length",
        "48",
    ]
    res = CliRunner().invoke(main, [*args, "--threads", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert "decode_style.jsonl" in res.output and f"method:{method}|base:scratch-1x32" in res.output
    metrics = json.loads((out / "metrics.json").read_text())
    assert set(metrics["results"]) == {"test", "decode_style.jsonl"} and metrics["results"]["test"]["n"] > 0
    stages = [s.name for s in STAGES[method]]
    assert all((out / s / "checkpoints" / "epoch-2").is_dir() for s in stages)
    again = CliRunner().invoke(main, [*args, "--threads", "1"])
    assert again.exit_code == 0 and again.stderr.count("resuming from") == len(stages)
    preds_path = tmp_path / "p.jsonl"
    res = CliRunner().invoke(
        main, ["detect", "--detector", str(out), "--data", str(DECODE_STYLE), "--out", str(preds_path), "-q"]
    )
    assert res.exit_code == 0, res.output
    preds = [json.loads(x) for x in preds_path.read_text().splitlines()]
    assert len(preds) == 48 and all(p["category"] in ("none", "intra", "role", "history") for p in preds)
    assert all(0.0 <= p["probability"] <= 1.0 and p["gold"] for p in preds)
    assert json.loads((tmp_path / "p.metrics.json").read_text())["results"]["decode_style.jsonl"]["n"] == 48


@pytest.mark.slow
def test_decision_tau_reuses_the_trained_stages_and_is_kept_with_the_detector(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(48))
    out = tmp_path / "flat"
    args = ["train-detector", "--architecture", "flatten", "--data", str(data), "--out", str(out)]
    args += ["--base", "scratch-1x32", "--epochs", "1", "--batch-size", "8", "--max-length", "48", "-q"]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert "tau" not in json.loads((out / "detector.json").read_text())
    res = CliRunner().invoke(main, [*args[:-1], "--decision", "tau"])
    assert res.exit_code == 0, res.output
    assert "resuming from" in res.stderr and "|tau:" in res.output
    info = json.loads((out / "detector.json").read_text())
    assert 0.0 <= info["tau"] <= 1.0 and info["tau_dev"] == {"dev": info["counts"]["dev"]}
    preds = tmp_path / "p.jsonl"
    res = CliRunner().invoke(
        main, ["detect", "--detector", str(out), "--data", str(data), "--out", str(preds), "-q"]
    )
    assert res.exit_code == 0, res.output
    for row in map(json.loads, preds.read_text().splitlines()):
        assert (row["category"] != "none") == (row["contradiction_probability"] > info["tau"])
    assert "|dev:" + info["tau_dev_hash"] + "|" in info["signature"]
    back = CliRunner().invoke(main, args[:-1])  # argmax again: the stored tau goes, the stages stay
    assert back.exit_code == 0, back.output
    assert "resuming from" in back.stderr and "|tau:" not in back.output
    info = json.loads((out / "detector.json").read_text())
    assert "tau" not in info and "tau" not in info["signature"]
    assert {p.name for p in out.glob("predictions-*.jsonl")} <= {"predictions-test.jsonl"}


@pytest.mark.slow
def test_an_interrupted_tau_run_leaves_the_earlier_detector_whole_and_no_stale_predictions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from consistest.tasks.cdconv import train

    data = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(48))
    out = tmp_path / "pair"
    args = ["train-detector", "--architecture", "pair", "--data", str(data), "--out", str(out)]
    args += ["--base", "scratch-1x32", "--epochs", "1", "--batch-size", "8", "--max-length", "48", "-q"]
    res = CliRunner().invoke(main, [*args, "--decision", "tau", "--test", str(DECODE_STYLE)])
    assert res.exit_code == 0, res.output
    assert (out / "predictions-decode_style.jsonl").is_file()
    before = (out / "detector.json").read_bytes()

    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(train, "tau_on_dev", interrupted)
    CliRunner().invoke(main, [*args, "--decision", "tau"])
    assert (out / "detector.json").read_bytes() == before  # never rewritten without its tau
    monkeypatch.undo()
    res = CliRunner().invoke(main, args)  # argmax, no --test: the tau run's test predictions go
    assert res.exit_code == 0, res.output
    assert not (out / "predictions-decode_style.jsonl").exists()
    assert (out / "predictions-test.jsonl").is_file()


@pytest.mark.slow
def test_nli_first_stage(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(24))
    nli = write_jsonl(
        tmp_path / "nli.jsonl",
        [
            {
                "premise": f"我有{i}只狗",
                "hypothesis": "我没有狗",
                "label": ["contradiction", "neutral"][i % 2],
            }
            for i in range(20)
        ],
    )
    args = ["train-detector", "--architecture", "flatten", "--data", str(data), "--nli-stage", str(nli)]
    res = CliRunner().invoke(
        main, [*args, "--out", str(tmp_path / "m"), "--base", "scratch-1x32", "--epochs", "1", "-q"]
    )
    assert res.exit_code == 0, res.output
    assert (tmp_path / "m" / "nli-stage" / "config.json").is_file() and "|nli-stage:" in res.output
    assert "nli-stage:none" not in res.output
    # the same file name, other labels: another detector, not a resume of the old one under its signature
    rows = [json.loads(x) for x in nli.read_text().splitlines()]
    write_jsonl(nli, [{**r, "label": "entailment"} for r in rows])
    again = [*args, "--out", str(tmp_path / "m"), "--base", "scratch-1x32", "--epochs", "1", "-q"]
    res2 = CliRunner().invoke(main, again)
    assert res2.exit_code != 0 and "--overwrite" in res2.output + res2.stderr
    res3 = CliRunner().invoke(main, [*again, "--overwrite"])
    assert res3.exit_code == 0, res3.output
    sig = lambda out: next(p for p in out.split("|") if p.startswith("nli-stage:"))  # noqa: E731
    assert sig(res3.output) != sig(res.output)


def test_detect_refuses_a_folder_that_is_no_detector(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["detect", "--detector", str(tmp_path), "--data", str(DECODE_STYLE)])
    assert res.exit_code == 2 and "not a trained detector" in res.output


@pytest.mark.slow
def test_real_cdconv_counts(shared_data: Path) -> None:
    path = shared_data / "cdconv" / "cdconv.jsonl"
    if not path.exists():
        pytest.skip(f"CDConv not found at {path}")
    ex = read_cdconv(path)
    labels = [e.label for e in ex]
    assert len(ex) == 11660 and [labels.count(x) for x in ("none", "intra", "role", "history")] == [
        7309,
        530,
        765,
        3056,
    ]
    assert len({e.context for e in ex}) == 5606 and len({e.id for e in ex}) == 11660


@pytest.mark.parametrize("tau", ["high", True, 1.5, -0.1, None])
def test_a_detector_json_with_a_malformed_tau_is_refused(tmp_path: Path, tau) -> None:
    info = {"architecture": "pair", "max_length": 64, "tau": tau}
    (tmp_path / "detector.json").write_text(json.dumps(info))
    (tmp_path / "pair").mkdir()
    (tmp_path / "pair" / "config.json").write_text("{}")
    if tau is None:  # no threshold stored: argmax, a valid detector
        assert Detector.read_info(tmp_path)["tau"] is None
        return
    with pytest.raises(InputError, match=r"detector\.json.*'tau'.*expected a number in \[0, 1\]"):
        Detector.read_info(tmp_path)


def test_decision_tau_with_a_one_class_dev_fails_before_training(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(24))
    dev = write_jsonl(tmp_path / "dev.jsonl", [r for r in cdconv_rows(24) if r["label"] == 0])
    out = tmp_path / "det"
    args = ["train-detector", "--architecture", "pair", "--data", str(data), "--dev", str(dev)]
    args += ["--out", str(out), "--base", "scratch-1x32", "--decision", "tau", "-q"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code != 0 and "needs dev dialogues of both classes" in res.output + res.stderr
    assert not out.exists()


def test_the_signature_names_tau_to_six_digits_with_its_dev_set() -> None:
    from consistest.tasks.cdconv.train import TrainDetectorConfig, detector_signature

    cfg = TrainDetectorConfig(architecture="pair", data=("x.jsonl",), out="o")
    low = detector_signature(cfg, "d" * 12, tau={"tau": 0.00004, "tau_dev_hash": "abc"})
    lower = detector_signature(cfg, "d" * 12, tau={"tau": 0.0000049, "tau_dev_hash": "abc"})
    assert low != lower and "|tau:4e-05|dev:abc|" in low
    assert "|tau:0.106219|" in detector_signature(cfg, "d" * 12, tau={"tau": 0.1062191, "tau_dev_hash": "a"})
    assert "tau" not in detector_signature(cfg, "d" * 12) and "|nli-stage:none|" in detector_signature(
        cfg, "d"
    )


def test_the_data_hash_covers_personas_and_leaves_persona_free_data_as_it_was() -> None:
    from consistest.tasks.cdconv.train import _hashed

    a = make_example(["do you have a dog ?", "yes"], "none", persona=["i have a dog ."])
    b = make_example(["do you have a dog ?", "yes"], "none", persona=["i have a cat ."])
    c = make_example(["do you have a dog ?", "yes"], "none")
    assert a.id == b.id and _hashed(a) != _hashed(b)
    assert _hashed(c) == (c.id, c.label, c.split)


@pytest.mark.parametrize("tau", [True, 1.5, "0.1", None])
def test_an_nli_pairs_detector_with_a_malformed_tau_is_refused_before_loading_its_guard(
    tmp_path: Path, tau
) -> None:
    from consistest.tasks.cdconv.loading import load_detector

    info = {"architecture": "nli-pairs", "guard": str(tmp_path / "no-such-guard"), "tau": tau}
    (tmp_path / "detector.json").write_text(json.dumps(info))
    with pytest.raises(InputError, match=r"'tau'.*expected a number in \[0, 1\]"):
        load_detector(tmp_path)


@pytest.mark.slow
def test_a_pair_detector_trained_with_the_user_turn_reads_it_when_detecting(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "c.jsonl", cdconv_rows(24))
    out = tmp_path / "pair-user"
    args = ["train-detector", "--architecture", "pair", "--data", str(data), "--out", str(out), "--user-turn"]
    args += ["--base", "scratch-1x32", "--epochs", "1", "--batch-size", "8", "--max-length", "48", "-q"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "|persona:yes|user:yes|" in res.output
    assert json.loads((out / "detector.json").read_text())["user_turn"] is True
    assert Detector(out).user is True
