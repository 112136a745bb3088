"""nli-pairs (the guard applied pairwise, tau picked on dev), labelled replies to ConsisTest samples as
detector dialogues, and detector figures with bootstrap intervals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from consistest.cli.main import main
from consistest.core.errors import InputError
from consistest.data.decode_reader import make_example, read_decode
from consistest.metrics.answers import ANSWERS_VERSION
from consistest.metrics.propositions import shares_topic
from consistest.tasks.cdconv.inputs import labelled_dialogues, read_dialogues
from consistest.tasks.cdconv.pairwise import (
    PairSettings,
    check_qa_rules,
    contradiction_scores,
    decide,
    dialogue_score,
    example_pairs,
    pick_tau,
    rule_evidence,
    scored,
)
from consistest.tasks.cdconv.report import figures_with_intervals, point_figures
from consistest.tasks.cdconv.role_nli import ROLE_NLI_VERSION

DECODE_STYLE = Path(__file__).parent / "data" / "decode_style.jsonl"


@pytest.mark.parametrize(
    ("scores", "contradiction", "tau", "balanced"),
    [
        ([0.1, 0.2, 0.8, 0.9], [False, False, True, True], 0.5, 1.0),  # one best cut, halfway
        ([0.1, 0.7, 0.6, 0.9], [False, False, True, True], 0.35, 0.75),  # ties 0.35, 0.8: the lower
        ([0.3, 0.3, 0.3, 0.3], [False, True, False, True], 0.0, 0.5),  # nothing separates them
    ],
)
def test_pick_tau_by_hand(scores, contradiction, tau, balanced) -> None:
    assert pick_tau(scores, contradiction) == (pytest.approx(tau), pytest.approx(balanced))


def test_pick_tau_needs_both_classes() -> None:
    with pytest.raises(InputError, match="both classes"):
        pick_tau([0.2, 0.4], [False, False])


def test_pairs_of_a_dialogue() -> None:
    ex = make_example(
        ["hi .", "i am a nurse . i love it .", "cool !", "i am a pilot ."], "history", persona=["i ski ."]
    )
    pairs = example_pairs(ex, PairSettings(("history", "persona"), "sentence"))
    assert pairs == [
        ("i am a nurse .", "i am a pilot .", "history"),
        ("i love it .", "i am a pilot .", "history"),
        ("i ski .", "i am a pilot .", "persona"),
    ]
    turns = example_pairs(ex, PairSettings(("history",), "turn"))
    assert turns == [("i am a nurse . i love it .", "i am a pilot .", "history")]
    two = make_example(["hi .", "i am tall . i am short ."], "intra")
    assert example_pairs(two, PairSettings(("intra",), "turn")) == [("i am tall .", "i am short .", "intra")]


def test_qa_pairs_read_the_answer_with_its_question() -> None:
    """--qa-rules: "no ." to "do you have a dog ?" is read as "i don't have a dog .", against the premises
    on the question's topic only (all of them when none is)."""
    persona = ["i have a dog named max .", "i love tea ."]
    ex = make_example(["hi .", "i am a nurse .", "do you have a dog ?", "no ."], "history", persona=persona)
    assert example_pairs(ex, PairSettings(qa=True)) == [
        ("i have a dog named max .", "i don't have a dog .", "persona")
    ]
    assert PairSettings(qa=True).tag() == f"history+persona/sentence/qa:{ANSWERS_VERSION}"
    assert len(example_pairs(ex, PairSettings())) == 3 and PairSettings().tag() == "history+persona/sentence"
    off = make_example(  # a reply that speaks of each: every premise is read
        ["hi .", "i am a nurse .", "what do you do for fun ?", "as a nurse i love tea with my dog ."],
        "none",
        persona=persona,
    )
    assert [p for p, _, _ in example_pairs(off, PairSettings(qa=True))] == ["i am a nurse .", *persona]


@pytest.mark.parametrize(
    ("a", "b", "shared"),
    [
        ("i have two cats .", "i have five cats .", True),  # "cat"
        ("i live in ohio .", "i moved to texas and live there .", True),  # "live"
        ("at 56 i look forward to retirement", "i am too young to retire", True),  # "retir..." and "retire"
        ("i am 37 .", "i am 25 .", True),  # a number in each
        ("i am 25 .", "i have five cats .", True),  # ... even of different things
        ("i have a boyfriend .", "i love you .", False),
        ("i am doing great .", "great , i am a nurse .", False),  # "great" says nothing
        ("i hate water .", "i swim .", False),  # the cost: a contradiction in other words
    ],
)
def test_shares_topic_by_hand(a: str, b: str, shared: bool) -> None:
    assert shares_topic(a, b) is shared and shares_topic(b, a) is shared


def test_qa_pairs_share_a_topic() -> None:
    """--qa-rules: where no question picks the premises, the guard reads only the pairs of statements that
    share a content word (or a number each); statements about different things were its false alarms."""
    ex = make_example(
        ["hi .", "i have a boyfriend . i have two cats .", "cool !", "i love you . i have five cats ."],
        None,
        persona=["i am a nurse ."],
    )
    assert example_pairs(ex, PairSettings(qa=True)) == [
        ("i have two cats .", "i have five cats .", "history")
    ]
    assert len(example_pairs(ex, PairSettings())) == 6  # without the rules every pair, as before
    asked = make_example(  # a question picks the premises on its topic: the answer is read against them
        ["hi .", "i am a nurse .", "how many cats do you have ?", "i have a dog named rex ."],
        None,
        persona=["i have two cats .", "i love tea ."],
    )
    assert example_pairs(asked, PairSettings(qa=True)) == [
        ("i have two cats .", "i have a dog named rex .", "persona")
    ]


def test_qa_pairs_leave_out_parts_that_state_nothing() -> None:
    """After a statement "yes ." says nothing the guard can contradict; its scores of it were noise."""
    persona = ["i have a dog named max ."]
    bare = make_example(
        ["hi .", "i am a nurse .", "i sing in the languages i study .", "yes ."], None, persona=persona
    )
    assert example_pairs(bare, PairSettings(qa=True)) == []
    assert len(example_pairs(bare, PairSettings())) == 2  # without the rules the guard reads it, as before
    some = make_example(["hi .", "i am a nurse .", "i sing .", "cool ! i hate dogs ."], None, persona=persona)
    assert {h for _, h, _ in example_pairs(some, PairSettings(qa=True))} == {"i hate dogs ."}  # not "cool !"
    greeted = make_example(["hi .", "hi ! thanks !", "i sing .", "i hate dogs ."], None, persona=persona)
    assert [p for p, _, _ in example_pairs(greeted, PairSettings(qa=True))] == persona  # not "hi !"


@pytest.mark.parametrize(
    ("turns", "category"),
    [
        (["do you have a dog ?", "no ."], "history"),  # the other stand than the persona
        (["do you have a dog ?", "yes i do !"], "none"),
        (["do you like math ?", "yes , i hate math ."], "intra"),
        (["how old are you ?", "how old are you ?"], "role"),
        (["what do you do for fun ?", "i swim ."], None),  # the rules cannot tell: the guard decides
    ],
)
def test_qa_rules_decide_where_they_can(turns: list[str], category: str | None) -> None:
    ex = make_example(turns, None, persona=["i have a dog named max ."])
    (evidence,) = rule_evidence([ex], PairSettings(qa=True))
    assert rule_evidence([ex], PairSettings()) == [None]
    if category is None:
        assert evidence is None
        assert dialogue_score({"persona": 0.3}, evidence) == 0.3
        return
    p = decide(ex.id, {"persona": 0.9}, 0.5, evidence)  # the guard's 0.9 does not overrule the rules
    assert p.category == category
    assert p.stage_probabilities == {f"rule:{evidence.rule}": p.contradiction_probability}
    assert dialogue_score({"persona": 0.9}, evidence) == float(category != "none")


@pytest.mark.parametrize(
    ("scores", "tau", "category"),
    [
        ({"history": 0.3, "persona": 0.9}, 0.5, "history"),
        ({"history": 0.3, "persona": 0.4}, 0.5, "none"),
        ({"history": 0.3, "intra": 0.8}, 0.5, "intra"),
        ({"history": 0.5}, 0.5, "none"),  # above tau, not at it
    ],
)
def test_decide(scores, tau, category) -> None:
    p = decide("x", scores, tau)
    assert p.category == category and p.contradiction_probability == max(scores.values())


def test_figures_and_intervals_by_hand() -> None:
    gold = ["none", "none", "history", "intra", "history", "none"]
    pred = ["none", "history", "history", "none", "role", "none"]
    f = point_figures(gold, pred)
    assert f["acc2"] == pytest.approx(100 * 4 / 6) and f["recall_contradiction"] == pytest.approx(100 * 2 / 3)
    assert f["recall_none"] == pytest.approx(100 * 2 / 3) and f["recall_history"] == 50.0
    assert f["recall_role"] is None and f["acc4"] == 50.0
    assert f["balanced2"] == pytest.approx(100 * 2 / 3)  # (2/3 + 2/3) / 2
    lopsided = point_figures(["none"] * 3 + ["history"], ["none"] * 4)  # always none: 75% but 50% balanced
    assert lopsided["acc2"] == 75.0 and lopsided["balanced2"] == 50.0
    assert point_figures(["none", "none"], ["none", "history"])["balanced2"] is None  # one class only
    ci = figures_with_intervals(gold, pred, n_boot=200)
    assert ci["acc2"]["ci"][0] <= ci["acc2"]["value"] <= ci["acc2"]["ci"][1]
    assert ci["recall_role"]["ci"] is None and ci["recall_history"]["n"] == 2
    assert figures_with_intervals(gold, pred, n_boot=200) == ci  # seeded by content
    together = figures_with_intervals(gold, pred, ["a"] * 3 + ["b"] * 3, n_boot=200)
    assert together["acc2"]["value"] == ci["acc2"]["value"]


# ---------------------------------------------------------------- labelled replies to ConsisTest samples
@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    from consistest.tasks.consistest.build import BuildConfig, build_dataset

    out = tmp_path_factory.mktemp("demo") / "ds"
    built = build_dataset(BuildConfig(out=out, demo=True, quiet=True))
    return built.out, built.samples


def _labels(path: Path, samples: list, categories: list[str | None]) -> Path:
    rows = []
    for i, (s, cat) in enumerate(zip(samples, categories, strict=False)):
        reply = s.fact if cat in ("consistent", None) else f"no , i never said {s.fact}"
        rows.append({"item": f"r{i}", "id": s.id, "model": ["smollm2", "gemma"][i % 2], "response": reply,
                     "human": int(cat == "consistent"), "category": cat, "note": ""})  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_labelled_replies_become_decode_dialogues(tmp_path: Path, demo) -> None:
    ds, samples = demo
    with_history = [s for s in samples if s.distance == 2][:3] + [s for s in samples if s.distance == 0][:2]
    cats = ["history", "consistent", "uninformative", "role", None]
    path = _labels(tmp_path / "labels.jsonl", with_history, cats)
    rows = labelled_dialogues(path, ds)
    for row, s, cat in zip(rows, with_history, cats, strict=True):
        assert [t["text"] for t in row["turns"]] == [*s.history, row["turns"][-1]["text"]]
        assert row["turns"][-1]["agent_id"] == 1 and row["turns"][-2]["agent_id"] == 0  # the bot replies
        assert [t["agent_id"] for t in row["turns"]][::-1][::2] == [1] * len(row["turns"][::-2])
        assert row["agents"]["1"]["persona_lines"] == list(s.persona) and row["consistest_category"] == cat
    assert [r["category"] for r in rows] == ["history", "none", "none", "role", None]
    assert [r["is_contradiction"] for r in rows] == [True, False, False, True, None]
    written = tmp_path / "d.jsonl"
    res = CliRunner().invoke(
        main, ["detector-dialogues", "--labels", str(path), "--dataset", str(ds), "--out", str(written)]
    )
    assert res.exit_code == 0, res.output
    back = read_decode(written)  # any DECODE reader reads them: persona of the bot, the category
    direct = read_dialogues(path, ds)
    assert [e.turns for e in back] == [e.turns for e in direct] and back[0].persona == direct[0].persona
    assert [e.label for e in direct] == ["history", "none", "none", "role", None]
    assert [e.origin for e in direct] == ["smollm2", "gemma"] * 2 + ["smollm2"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"item": "a", "id": "nope", "response": "x", "category": "history"}, "line 1.*'id'"),
        ({"item": "a", "id": None, "response": 3, "category": "history"}, "'response'"),
        ({"item": "a", "id": None, "response": "x", "category": "wrong"}, "line 1.*unknown category"),
    ],
)
def test_bad_labels_are_refused(tmp_path: Path, demo, row, message) -> None:
    ds, samples = demo
    row = {**row, "id": row["id"] or samples[0].id}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(InputError, match=message):
        labelled_dialogues(path, ds)
    with pytest.raises(InputError, match="--dataset"):
        read_dialogues(path)


@pytest.mark.slow
def test_nli_pairs_calibrates_detects_and_refuses_another_guard(tmp_path: Path, demo) -> None:
    from tests.tiny_models import tiny_roberta_classifier

    guard = tiny_roberta_classifier(tmp_path / "guard")
    out = tmp_path / "pairs"
    args = ["train-detector", "--architecture", "nli-pairs", "--nli", str(guard), "--data", str(DECODE_STYLE)]
    res = CliRunner().invoke(main, [*args, "--dev", str(DECODE_STYLE), "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    info = json.loads((out / "detector.json").read_text())
    assert info["architecture"] == "nli-pairs" and 0.0 <= info["tau"] <= 1.0
    assert info["dev"]["dev:decode_style.jsonl"]
    assert (out / "predictions-dev-decode_style.jsonl").is_file()  # the set's file name, not ...jsonl.jsonl
    assert (
        info["guard_signature"].startswith("guard@") and "|method:nli-pairs|nli:guard@" in info["signature"]
    )
    ds, samples = demo
    labels = _labels(tmp_path / "labels.jsonl", samples[:12], ["history", "consistent", "intra"] * 4)
    res = CliRunner().invoke(
        main,
        ["detect", "--detector", str(out), "--data", str(labels), "--dataset", str(ds), "--n-boot", "100"],
    )
    assert res.exit_code == 0, res.output
    assert (
        "2-class accuracy" in res.output and "recall: contradiction" in res.output and "smollm2" in res.output
    )
    no_labels = CliRunner().invoke(main, ["detect", "--detector", str(out), "--data", str(DECODE_STYLE)])
    assert no_labels.exit_code == 0 and "95% CI" in no_labels.output
    tiny_roberta_classifier(guard, seed=1)  # other weights in the same folder
    res = CliRunner().invoke(main, ["detect", "--detector", str(out), "--data", str(DECODE_STYLE)])
    assert res.exit_code == 2 and "not the one tau was picked with" in res.output
    qa = tmp_path / "pairs-qa"
    res = CliRunner().invoke(main, [*args, "--dev", str(DECODE_STYLE), "--qa-rules", "--out", str(qa), "-q"])
    assert res.exit_code == 0, res.output
    info = json.loads((qa / "detector.json").read_text())
    assert info["qa_rules"] == ANSWERS_VERSION
    assert (
        f"|pairs:history+persona/sentence/qa:{ANSWERS_VERSION}+role:{ROLE_NLI_VERSION}|" in info["signature"]
    )
    assert info["role_nli"] == ROLE_NLI_VERSION
    # too few turns after a statement here: one tau, picked on the same dev dialogues as without the rules
    plain_info = json.loads((out / "detector.json").read_text())
    assert info["tau_statement"] is None and "tau-statement" not in info["signature"]
    assert info["signature"].split("|dev:")[1] == plain_info["signature"].split("|dev:")[1]
    detect = ["detect", "--detector", str(qa), "--data", str(labels), "--dataset", str(ds), "--n-boot", "50"]
    res = CliRunner().invoke(main, [*detect, "--out", str(tmp_path / "qa.jsonl")])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (tmp_path / "qa.jsonl").read_text().splitlines()]
    assert any(k.startswith("rule:") for r in rows for k in r["stage_probabilities"])  # the rules were read
    by = json.loads((tmp_path / "qa.metrics.json").read_text())["decided_by"]
    ruled = sum(next(iter(r["stage_probabilities"])).startswith("rule:") for r in rows)
    assert sum(by.values()) == len(rows) and len(rows) - by.get("guard", 0) == ruled
    assert "decided by the answer rules" in res.output
    (qa / "detector.json").write_text(json.dumps({**info, "qa_rules": True}))  # picked with qa:1
    res = CliRunner().invoke(main, detect)
    assert res.exit_code == 2 and f"qa:1, this consistest has qa:{ANSWERS_VERSION}: calibrate" in res.output
    other = ROLE_NLI_VERSION + 1
    (qa / "detector.json").write_text(json.dumps({**info, "role_nli": other}))  # another role reading
    res = CliRunner().invoke(main, detect)
    assert res.exit_code == 2 and f"role:{other}, this consistest has role:{ROLE_NLI_VERSION}" in res.output
    (qa / "detector.json").write_text(json.dumps({**info, "qa_rules": False}))  # role without the rules
    res = CliRunner().invoke(main, detect)
    assert res.exit_code == 2 and "role_nli is a reading of --qa-rules" in res.output
    plain = json.loads((out / "detector.json").read_text())
    assert plain["qa_rules"] is False
    del plain["qa_rules"]  # a folder calibrated before --qa-rules existed
    tiny_roberta_classifier(guard, seed=0)
    (out / "detector.json").write_text(json.dumps(plain))
    res = CliRunner().invoke(main, ["detect", "--detector", str(out), "--data", str(DECODE_STYLE)])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(
    ("stored", "error"),
    [(False, None), (None, None), (ANSWERS_VERSION, None),
     (True, f"qa:1, this consistest has qa:{ANSWERS_VERSION}"),
     (ANSWERS_VERSION - 1, f"qa:{ANSWERS_VERSION - 1}, this"),
     ("x", "expected a rules version number")],
)  # fmt: skip
def test_a_stored_rules_version_is_checked(stored, error) -> None:
    if error is None:
        assert check_qa_rules(stored, Path("detector.json")) is bool(stored)
    else:
        with pytest.raises(InputError, match=error):
            check_qa_rules(stored, Path("detector.json"))


def test_qa_rules_belong_to_nli_pairs(tmp_path: Path) -> None:
    args = ["train-detector", "--architecture", "pair", "--qa-rules", "--data", str(DECODE_STYLE)]
    res = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "--qa-rules is a setting of --architecture nli-pairs" in res.output


def test_without_the_guards_pairs_the_rules_decide(tmp_path: Path, demo) -> None:
    from tests.tiny_models import tiny_roberta_classifier

    guard = tiny_roberta_classifier(tmp_path / "guard")
    args = ["train-detector", "--architecture", "nli-pairs", "--nli", str(guard), "--data", str(DECODE_STYLE),
            "--dev", str(DECODE_STYLE), "--no-guard-pairs", "-q"]  # fmt: skip
    res = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "plain")])
    assert res.exit_code == 2 and "add --qa-rules" in res.output and not (tmp_path / "plain").exists()
    for extra in (["--pair-unit", "turn"], ["--pairs", "history,persona,intra"]):  # would change nothing
        res = CliRunner().invoke(main, [*args, "--qa-rules", *extra, "--out", str(tmp_path / "x")])
        assert res.exit_code == 2 and "leave them out" in res.output and not (tmp_path / "x").exists()
    out = tmp_path / "rules"
    res = CliRunner().invoke(main, [*args, "--qa-rules", "--out", str(out)])
    assert res.exit_code == 0, res.output
    info = json.loads((out / "detector.json").read_text())
    assert info["guard_pairs"] is False and "+role:" in info["signature"]
    assert info["signature"].split("|pairs:")[1].split("|")[0].endswith("/no-guard-pairs")
    ds, samples = demo
    labels = _labels(tmp_path / "labels.jsonl", samples[:12], ["history", "consistent", "intra"] * 4)
    detect = ["detect", "--detector", str(out), "--data", str(labels), "--dataset", str(ds), "--n-boot", "20"]
    res = CliRunner().invoke(main, [*detect, "--out", str(tmp_path / "rules.jsonl")])
    assert res.exit_code == 0, res.output
    by = json.loads((tmp_path / "rules.metrics.json").read_text())["decided_by"]
    assert "guard" not in by and by["no-pairs"] > 0 and "the guard reading no pairs" in res.output
    rows = [json.loads(x) for x in (tmp_path / "rules.jsonl").read_text().splitlines()]
    for r in rows:  # no guard score anywhere: a rule's verdict, or nothing found
        ruled = [k for k in r["stage_probabilities"] if k.startswith("rule:")]
        assert ruled or (r["category"] == "none" and r["contradiction_probability"] == 0.0), r
    for bad, error in (("false", "guard_pairs must be true or false"), (False, "add --qa-rules")):
        (out / "detector.json").write_text(
            json.dumps({**info, "guard_pairs": bad, "qa_rules": bad and ANSWERS_VERSION})
        )
        res = CliRunner().invoke(main, detect)
        assert res.exit_code == 2 and "detector.json" in res.output and error in res.output, res.output
    del info["guard_pairs"]  # a folder calibrated before the option existed reads the pairs
    (out / "detector.json").write_text(json.dumps(info))
    res = CliRunner().invoke(main, [*detect, "--out", str(tmp_path / "old.jsonl")])
    assert res.exit_code == 0, res.output
    assert "by the guard: 0" not in res.output and "reading no pairs" not in res.output


class NotNLI:
    """Contradiction 0.9 when exactly one side holds the word "not": a guard that reads a negation only when
    it is spelled out, as guard-v3 does. Records what it was asked."""

    name, signature = "not", "not[c,n,e]"

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def predict(self, pairs):
        return [max(d, key=d.__getitem__) for d in self.predict_proba(pairs)]

    def predict_proba(self, pairs):
        self.asked += pairs
        c = [0.9 if ("not" in p.split()) != ("not" in h.split()) else 0.0 for p, h in pairs]
        return [{"contradiction": x, "neutral": 1.0 - x, "entailment": 0.0} for x in c]


def test_the_guard_reads_contractions_spelled_out() -> None:
    """--qa-rules (qa:21): "i don't have a dog ." reaches the guard as "i do not have a dog ."; a statement
    said again word for word is not read and scores 0; without the rules the pairs go as written."""
    negated = make_example(["hi .", "i have a dog .", "i like cats .", "i don't have a dog ."], None)
    said = ["hi .", "i'm sorry to hear that .", "my cat died .", "I'm sorry to hear that!"]
    again = make_example(said, None)
    nli = NotNLI()
    scores = contradiction_scores(nli, [negated, again], PairSettings(qa=True))
    assert [s["history"] for s in scores] == [0.9, 0.0]
    assert nli.asked == [("i have a dog .", "i do not have a dog .")]
    nli = NotNLI()
    assert contradiction_scores(nli, [negated], PairSettings())[0]["history"] == 0.0
    assert ("i have a dog .", "i don't have a dog .") in nli.asked


def test_guard_pairs_are_read_unless_switched_off() -> None:
    from tests.test_role_nli import WordsNLI

    exs = [  # the token rules decide the first (an echo), the guard the second, the role reading the third
        make_example(["i'm a nurse at the city hospital .", "i'm a nurse at the city hospital ."], None),
        make_example(["what do you do for fun ?", "i swim ."], None, persona=["i hate swimming ."]),
        make_example(
            ["hi !", "hello .", "well except i am a librarian at the college .", "i am a librarian ."], None
        ),
    ]
    with pytest.raises(InputError, match="add --qa-rules"):  # nothing would decide
        PairSettings(guard_pairs=False)
    on, off = PairSettings(qa=True, roles=True), PairSettings(qa=True, roles=True, guard_pairs=False)
    assert off.tag() == on.tag() + "/no-guard-pairs"
    nli = WordsNLI()
    scores, rules = scored(nli, exs, on)
    assert rules[0] is not None and rules[1] is None and set(scores[1]) == {"history", "persona"}
    assert rules[2] is not None and rules[2].rule == "claim-nli"
    assert ("i hate swimming .", "i swim .") in nli.asked
    nli = WordsNLI()
    scores, rules_off = scored(nli, exs, off)
    assert rules_off == rules and scores == [{}, {}, {}]  # the rules and the role reading as before
    assert ("i hate swimming .", "i swim .") not in nli.asked  # ... and the guard read no contradiction pair
    assert ("i am a librarian at the college", "i am a librarian") in nli.asked


def test_nli_pairs_needs_a_guard(tmp_path: Path) -> None:
    args = [
        "train-detector",
        "--architecture",
        "nli-pairs",
        "--data",
        str(DECODE_STYLE),
        "--out",
        str(tmp_path / "o"),
    ]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2 and "--nli" in res.output
