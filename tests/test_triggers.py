"""Trigger variants: each rule on hand-computable questions, the well-formedness check, the second dataset
config (the default split untouched), and scoring it per trigger."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from consistest.cli.main import main
from consistest.core.errors import InputError
from consistest.tasks.consistest import triggers as T


@pytest.mark.parametrize(
    ("question", "truth", "expected"),
    [
        ("do you like cats ?", "yes", ("do you dislike cats ?", "no", "like->dislike")),
        ("are you married ?", "no", ("are you single ?", "yes", "married->single")),
        ("are you still married ?", "yes", ("are you still single ?", "no", "married->single")),
        ("do you dislike rain?", "no", ("do you like rain ?", "yes", "dislike->like")),
        ("do you have a married sister ?", "yes", None),  # not the predicate slot
        ("are you like your mom ?", "yes", None),  # a verb antonym after "are you"
        ("do you like cats ?", "cats", None),  # no yes/no truth to flip
    ],
)
def test_antonym_flips_the_truth_in_the_predicate_slot(question, truth, expected) -> None:
    assert T.antonym(question, "yn", truth) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("do you have a dog ?", "don't you have a dog ?"),
        ("is your mom a nurse ?", "isn't your mom a nurse ?"),
        ("can you swim ?", "can't you swim ?"),
        ("do you have any pets ?", None),  # a quantifier: the expected answer would be ambiguous
        ("do you not like tea ?", None),  # already negative
        ("am i right ?", None),
    ],
)
def test_negation_only_where_the_answer_stays_unambiguous(question, expected) -> None:
    got = T.negation(question, "yn")
    assert (got[0] if got else None) == expected
    assert T.negation(question, "wh") is None


YN_FRAMES = ("is it true that {} ?", "would you say that {} ?")
WH_FRAMES = ("can you tell me {} ?", "would you tell me {} ?")
CASUAL = ("{} , if i may ask ?", "{} , by the way ?")


@pytest.mark.parametrize(
    ("question", "qtype", "frames", "body"),
    [
        ("do you have pets ?", "yn", YN_FRAMES, "you have pets"),
        ("what is your name ?", "wh", WH_FRAMES, "what your name is"),
        ("how many kids do you have ?", "wh", WH_FRAMES, "how many kids you have"),
        ("is your dog big ?", "yn", CASUAL, "is your dog big"),
    ],
)
def test_paraphrase_templates(question, qtype, frames, body) -> None:
    for seed in range(4):
        got, _rule = T.paraphrase(question, qtype, random.Random(seed))
        assert got in {f.format(body) for f in frames}


def test_synonym_swaps_one_word_and_fixes_the_article() -> None:
    syn = {"lawyer": ["attorney"], "kids": ["children"]}.get
    got, rule = T.synonym("do you want to be a lawyer ?", lambda w: syn(w, []), random.Random(0))
    assert (got, rule) == ("do you want to be an attorney ?", "lawyer->attorney")
    assert T.synonym("do you swim ?", lambda w: [], random.Random(0)) is None


@pytest.mark.parametrize(
    ("question", "truth", "qtype", "trigger", "why"),
    [
        ("don't you like cats ?", "yes", "yn", "negation", None),
        ("do you like cats", "yes", "yn", "paraphrase", "not a question"),
        ("does he like cats ?", "yes", "yn", "paraphrase", "no second person"),
        ("do you you like cats ?", "yes", "yn", "synonym", "doubled word"),
        ("you like cats , right ?", "yes", "yn", "paraphrase", "no short forms"),
        ("ok .", "", "yn", "short", None),
        ("can you tell me what your name is ?", "ashley", "wh", "paraphrase", None),
    ],
)
def test_well_formed(question, truth, qtype, trigger, why) -> None:
    assert T.well_formed(question, truth, qtype, trigger) == why


@pytest.mark.slow
def test_wordnet_is_used_when_installed(monkeypatch) -> None:
    assert T.synonym_source()[0] == T.trigger_lexicon()["version"]  # no WordNet data on our machines
    monkeypatch.setattr(T, "wordnet_synonyms", lambda: lambda w: ["automobile"] if w == "car" else [])
    name, syn = T.synonym_source()
    assert name == "wordnet" and syn("car") == ["automobile"] and syn("kids") == ["children"]


def test_parse_triggers() -> None:
    assert T.parse_triggers("short, antonym") == ("antonym", "short")
    with pytest.raises(InputError, match="unknown trigger 'shorts'"):
        T.parse_triggers("shorts")


def _build(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / name
    res = CliRunner().invoke(main, ["build", "--demo", "--out", str(out), "-q", *extra])
    assert res.exit_code == 0, res.output
    return out


def test_triggers_config_leaves_the_default_split_byte_identical(tmp_path: Path) -> None:
    plain = _build(tmp_path, "plain")
    trig = _build(tmp_path, "trig", "--triggers", "paraphrase,synonym,antonym,negation,short")
    assert (plain / "data/test.parquet").read_bytes() == (trig / "data/test.parquet").read_bytes()
    info_plain = json.loads((plain / "build_info.json").read_text())
    info_trig = json.loads((trig / "build_info.json").read_text())
    assert (
        "triggers" not in info_plain and {k: v for k, v in info_trig.items() if k != "triggers"} == info_plain
    )
    assert (trig / "README.md").read_text().count("config_name") == 4  # configs and dataset_info, twice each
    from datasets import load_dataset

    rows = list(load_dataset(str(trig), "triggers", split="test"))
    base = {r["id"]: r for r in load_dataset(str(plain), split="test")}
    assert {r["base_id"] for r in rows} == set(base) and len(rows) == info_trig["triggers"]["rows"]
    for r in rows:
        b = base[r["base_id"]]
        assert r["history"][:-1] == b["history"][:-1] and r["history"][-1] == r["question"]
        if r["trigger"] == "antonym":
            assert {r["answer"], b["answer"]} == {"yes", "no"}
        elif r["trigger"] == "short":
            assert r["answer"] == "" and r["question"] in T.trigger_lexicon()["short_turns"]
        else:
            assert r["answer"] == b["answer"]
            assert (r["trigger"] == "original") == (r["question"] == b["question"])
    assert {r["trigger"] for r in rows} == {"original", *T.TRIGGERS}


def test_score_reports_per_trigger(tmp_path: Path) -> None:
    trig = _build(tmp_path, "trig", "--triggers", "antonym,negation,short")
    run = tmp_path / "run"
    args = ["score", "--dataset", str(trig), "--config", "triggers", "--model", "baseline:oracle"]
    res = CliRunner().invoke(main, [*args, "--nli", "none", "--out", str(run), "--n-boot", "0", "-q"])
    assert res.exit_code == 0, res.output
    assert "Trigger antonym" in res.output and "Trigger short" in res.output
    summary = json.loads((run / "summary.json").read_text())
    assert "|config:triggers|trig:1-triggers-lexicon-1|" in summary["signature"]
    figs = summary["figures"]
    assert figs["trigger=antonym"]["mean"] == 1.0  # the oracle answers the flipped truth
    assert figs["trigger=short"]["decided"] == 0 and summary["no_truth"] == figs["trigger=short"]["n"]
    rows = [json.loads(x) for x in (run / "scores.jsonl").read_text().splitlines()]
    assert {r["trigger"] for r in rows} == {"original", "antonym", "negation", "short"}
    assert all(r["category"] == "not_judged" for r in rows if r["trigger"] == "short")  # --nli none
    from consistest.tasks.cdconv.inputs import read_dialogues

    examples = read_dialogues(run, trig)  # a detector can read the run: triggers' histories too
    assert len(examples) == len(rows) and {e.trigger for e in examples} == {r["trigger"] for r in rows}


def test_triggers_config_needs_a_triggers_build(tmp_path: Path) -> None:
    plain = _build(tmp_path, "plain")
    args = [
        "score",
        "--dataset",
        str(plain),
        "--config",
        "triggers",
        "--model",
        "baseline:oracle",
        "--nli",
        "none",
    ]
    res = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "built without --triggers" in res.output


def test_a_paraphrase_model_replaces_templates_when_its_rewrite_is_well_formed(tmp_path: Path) -> None:
    from consistest.data.dataset_dir import load_samples

    class Fake:
        name = "fake-para"

        def paraphrase(self, texts):
            return [
                ["is that a question"] + ([f"tell me , {t}"] if t.startswith("do you") else []) for t in texts
            ]

    samples = load_samples(_build(tmp_path, "plain"))
    rows, info = T.make_trigger_rows(samples, ("paraphrase",), Fake())
    para = [r for r in rows if r["trigger"] == "paraphrase"]
    by_model = [r for r in para if r["trigger_rule"] == "model:fake-para"]
    assert by_model and all(r["question"].startswith("tell me , do you") for r in by_model)
    assert len(para) == len(samples)  # the others fell back to the templates
    assert info["lexicon"].endswith("+fake-para")


@pytest.mark.slow
def test_hf_paraphraser_on_a_tiny_t5(tmp_path: Path) -> None:
    from consistest.models.paraphrase import HFParaphraser
    from tests.tiny_models import tiny_generator

    model = HFParaphraser(str(tiny_generator(tmp_path / "t5", "t5", speaker_tokens=())), num_candidates=2)
    out = model.paraphrase(["do you have a dog ?", "what is your name ?"])
    assert len(out) == 2 and all(isinstance(c, str) for cands in out for c in cands)


def test_an_edited_triggers_file_is_refused(tmp_path: Path) -> None:
    from consistest.tasks.consistest.trigger_config import open_config

    trig = _build(tmp_path, "trig", "--triggers", "short", "--format", "jsonl")
    ds, by_id = open_config(trig, "triggers")
    assert len(ds.samples) == len(by_id) and set(by_id.values()) == {"original", "short"}
    path = trig / "data" / "triggers.jsonl"
    path.write_text(path.read_text().replace('"ok ."', '"okay ."', 1))
    with pytest.raises(InputError, match="edited after the build"):
        open_config(trig, "triggers")
