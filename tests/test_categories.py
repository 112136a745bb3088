"""Failure categories: hand-computable cases of each rule, the NLI pairs they ask for, Table 7, and the
categories in a real score run (scores.jsonl, summary, report)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.records import Sample, ScoredItem
from consistest.metrics.categories import (
    clauses,
    decide,
    evasive,
    long_answer,
    nli_pairs,
    returned_question,
)
from consistest.metrics.rules import final_score, judge
from consistest.tasks.consistest.categories import categorise
from consistest.tasks.consistest.report import table7


def sample(question: str, truth: str, qtype: str, fact: str, history: tuple[str, ...] = ()) -> Sample:
    return Sample(
        id=f"{question}|{truth}", qa_id="q", dialog_id="d", persona=[fact], history=[*history, question],
        question=question, answer=truth, fact=fact, nli_premise=fact, source="pers", type=qtype, distance=0,
        turn=-1,
    )  # fmt: skip


def scored(s: Sample, response: str, nli_label: str | None = None) -> ScoredItem:
    """The item the scorer makes (rules, then the given NLI label where the rules ask for one)."""
    v = judge(s.question, s.answer, s.type, response)
    label = nli_label if v.need.value != "none" else None
    return ScoredItem(
        id=s.id, qa_id=s.qa_id, question=s.question, truth=s.answer, response=response, cleaned=v.cleaned,
        outcome=v.outcome.value, rule_score=v.rule_score, nli_use=v.need.value, nli_label=label,
        score=final_score(v, label), source=s.source, type=s.type, distance=s.distance,
    )  # fmt: skip


def plus_scored(s: Sample, response: str) -> ScoredItem:
    """The item ``--method plus`` makes where its rules decide alone (no NLI label)."""
    from consistest.metrics.plus import final_plus, judge_plus

    v = judge_plus(s.question, s.answer, s.type, response, s.fact, fact=s.fact)
    return ScoredItem(
        id=s.id, qa_id=s.qa_id, question=s.question, truth=s.answer, response=response, cleaned=v.cleaned,
        outcome=v.outcome, rule_score=v.rule_score, nli_use="none", nli_label=None, score=final_plus(v),
        source=s.source, type=s.type, distance=s.distance,
    )  # fmt: skip


BAR = sample("do you work at a bar ?", "yes", "yn", "i work at a bar at night .")
BMW = sample("do you drive a mercedes ?", "no", "yn", "i drive a bmw .")
NAME = sample("what is your name ?", "ashley", "wh", "my name is ashley .")
PETS = sample(
    "do you have any pets ?", "yes", "yn", "i have two dogs .",
    history=("i am a nurse and i have three kids .", "nice , i love kids ."),
)  # fmt: skip
YACHT_NO = sample("do you own a yacht ?", "no", "yn", "i do not own a yacht .")
YACHT_YES = sample("do you own a yacht ?", "yes", "yn", "i own a yacht .")
MERC = sample("do you drive a mercedes ?", "yes", "yn", "i drive a mercedes .")
MATH = sample("do you like math ?", "no", "yn", "i hate math .")
CAR = sample("what car do you drive ?", "mercedes", "wh", "i drive a mercedes .")
PIGS = sample("when will you get pigs ?", "spring", "wh", "we are getting some pigs in the spring .")
AGE = sample("how old are you ?", "23", "wh", "i am 23 years old .")
HAIR = sample("what color is your hair ?", "red", "wh", "i have red hair .")
KAY = sample("what is your name ?", "kay", "wh", "i am kay .")
CAT = sample("what is the name of your cat ?", "contraband", "wh", "i have a cat , his name is contraband .")
DOCS = sample(
    "what type of documentaries do you watch ?", "war documentaries", "wh", "i like war documentaries ."
)
FAITH = sample("what religion do you follow ?", "buddhism", "wh", "i am a buddhist .")
DOG = sample("what color is your dog ?", "black", "wh", "i have a black lab named trooper .")

# sample, response, NLI labels by (premise, hypothesis), the scorer's guard label, category, why holds
C, E = "contradiction", "entailment"
CASES = [
    (BAR, "yes , i do . i work at a bar .", {}, "entailment", "consistent", "score 1"),
    (BAR, "yes , i don't .", {}, None, "intra", "disagree"),
    (BAR, "yes i work at a school", {}, "contradiction", "intra", "right short answer"),
    (
        BMW,
        "i do . i drive a bmw .",
        {("i drive a bmw .", "i drive a bmw"): E},
        None,
        "intra",
        "wrong short answer, but",
    ),
    # the truth and another value in the fact's frame: intra by rule, whatever its score (1 here)
    (NAME, "my name is ashley . my name is kim .", {}, E, "intra", "names both 'kim'"),
    (AGE, "i'm 22 years old . i'm 23 years old .", {}, E, "intra", "names both '22'"),
    (NAME, "i love my name , ashley .", {}, E, "consistent", "score 1"),
    # the question's own statement is a frame when the fact words it otherwise
    (KAY, "my name is elena .", {}, None, "history", "names 'elena'"),
    (CAT, "my cat is named elfie .", {}, None, "history", "names 'elfie'"),
    (NAME, "i am kim , my name is jo", {("i am kim", "my name is jo"): C}, None, "intra", "clause"),
    (NAME, "what is your name ?", {}, None, "role", "returns the question"),
    (PETS, "i am a nurse and i have three kids .", {}, None, "role", "claims the user's fact"),
    (PETS, "no .", {}, None, "history", "wrong short answer"),
    (NAME, "i go by kim .", {("my name is ashley .", "i go by kim ."): C}, None, "history", "NLI"),
    # cat:17: another value of the asked type (a name to "what is your name ?") is history by the rules
    (NAME, "i am called kim .", {}, "neutral", "history", "names 'kim', not 'ashley'"),
    # a wrong value or polarity is history by the rules, whatever NLI says (here: neutral)
    (YACHT_NO, "i own a yacht , it's a luxury vessel .", {}, "neutral", "history", "as 'yes' (truth 'no')"),
    (YACHT_YES, "i have never owned a yacht .", {}, "neutral", "history", "as 'no' (truth 'yes')"),
    (MERC, "i drive a bmw .", {}, "neutral", "history", "names 'bmw'"),
    (BMW, "i drive a toyota .", {}, "neutral", "history", "names 'toyota'"),
    (BMW, "i drive a mercedes .", {}, "neutral", "history", "as 'yes' (truth 'no')"),
    (CAR, "i drive a bmw .", {}, None, "history", "names 'bmw' where the fact has 'mercedes'"),
    (NAME, "my name is kim .", {}, None, "history", "names 'kim'"),
    (HAIR, "i have blonde hair .", {}, None, "history", "names 'blonde'"),
    (AGE, "i'm 32 years old .", {}, None, "history", "names '32'"),
    (AGE, "my age is 32 .", {}, None, "history", "says 32"),
    (PIGS, "in the fall .", {}, None, "history", "answers 'in the fall'"),
    (DOCS, "nature documentaries mostly .", {}, "neutral", "history", "a word of the question"),
    # cat:4: another value in the question's frame
    (FAITH, "i follow hinduism .", {}, None, "history", "names 'hinduism'"),
    (DOG, "my dog is a golden retriever named max .", {}, None, "history", "names 'golden'"),
    (DOG, "my dog loves to play .", {}, None, "uninformative", "generic"),
    # cat:5: a manner adverb is no value in the question's frame
    (CAR, "i drive carefully .", {}, None, "uninformative", "generic"),
    # what the rules see as self-contradictions
    (YACHT_YES, "yes , i have never owned a yacht .", {}, "neutral", "intra", "says 'no'"),
    (MERC, "yes . i drive a bmw .", {}, "neutral", "intra", "names 'bmw'"),
    (BMW, "yes , i drive a bmw .", {}, None, "intra", "restates the fact"),
    (MATH, "yes , i hate math .", {}, None, "intra", "says 'no'"),
    (YACHT_NO, "i own a yacht . i don't own a yacht .", {}, "neutral", "intra", "both ways"),
    # not a wrong value: the right value, a like-verb's other object, an unrelated use of the verb
    (MATH, "i hate math .", {("i hate math .", "i hate math ."): E}, E, "consistent", "score 1"),
    (CAR, "i like to drive fast .", {}, None, "uninformative", "generic"),
    (NAME, "As an AI, I don't have a name.", {}, None, "uninformative", "out of persona"),
    (NAME, "i don't know .", {}, None, "uninformative", "evasive"),
    (
        NAME,
        "i like to hike .",
        {("my name is ashley .", "i like to hike ."): "neutral"},
        None,
        "uninformative",
        "off",
    ),
]


@pytest.mark.parametrize(("s", "response", "labels", "guard", "category", "why"), CASES)
def test_categories_table(s, response, labels, guard, category, why) -> None:
    item = scored(s, response, guard)
    asked: list[tuple[str, str]] = []

    def lookup(p: str, h: str) -> str | None:
        asked.append((p, h))
        return labels.get((p, h), "neutral")

    got, explanation = decide(item, s, lookup)
    assert (got, why in explanation) == (category, True), explanation
    assert set(asked) <= set(nli_pairs(item, s)), "decide asked for a pair nli_pairs does not list"


@pytest.mark.parametrize(
    ("s", "response", "category"),
    [
        (BAR, "i work at a bar .", "not_judged"),  # right polarity, but only NLI can credit it
        (NAME, "i like to hike .", "not_judged"),  # generic, or a contradiction in other words
        (YACHT_NO, "i don't own a boat .", "not_judged"),
        (BAR, "no .", "history"),
        (NAME, "my name is kim .", "history"),
        (YACHT_NO, "i own a yacht .", "history"),
        (NAME, "what is your name ?", "role"),
        (NAME, "not sure", "uninformative"),
        (NAME, "", "uninformative"),
    ],
)
def test_without_nli_what_needs_nli_is_not_judged(s, response, category) -> None:
    assert decide(scored(s, response), s, None)[0] == category


def test_a_turn_without_truth_is_judged_for_contradictions_only() -> None:
    short = sample("ok .", "", "yn", "i have two dogs .")
    item = scored(short, "cool , i have no pets .")
    assert item.score is None and item.outcome == "no_truth"
    bad = {("i have two dogs .", "cool , i have no pets ."): "contradiction"}
    assert decide(item, short, lambda p, h: bad.get((p, h)))[0] == "history"
    assert decide(item, short, lambda p, h: "neutral")[0] == "consistent"
    assert decide(item, short, None)[0] == "not_judged"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yes i work at a school", ["yes i work at a school"]),
        ("i am a teacher , i work at a school .", ["i am a teacher", "i work at a school"]),
        ("i like cats but i hate dogs . ok", ["i like cats", "i hate dogs"]),
        ("i drive and i fly", ["i drive", "i fly"]),
    ],
)
def test_clauses(text, expected) -> None:
    assert list(clauses(text)) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("do you work at a bar ?", "yes , i do . i work at a school .", "i work at a school"),
        ("are you married ?", "no i'm not", ""),
        ("do you drive a mercedes ?", "i do. i drive a bmw.", "i drive a bmw"),
        ("what is your name ?", "ashley", "ashley"),
    ],
)
def test_long_answer(question, reply, expected) -> None:
    assert long_answer(question, reply) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("i don't know .", True), ("Not sure, sorry", True), ("i have a dog", False), ("ok", True),
     ("i don't know what to cook tonight for my kids", False)],
)  # fmt: skip
def test_evasive(text, expected) -> None:
    assert evasive(text) is expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("do you have kids ?", "any kids ?", "any kids ?"),
        ("where do you live ?", "i do not know . what about you ?", "what about you ?"),
        ("do you have kids ?", "what is your job ?", None),
        ("do you have kids ?", "i have kids .", None),
    ],
)
def test_returned_question(question, reply, expected) -> None:
    assert returned_question(question, reply) == expected


def test_table7_by_hand() -> None:
    yes, no = sample("do you x ?", "yes", "yn", "i x ."), sample("do you x ?", "no", "yn", "i do not x .")
    items = [
        scored(yes, "yes ."),  # right
        scored(yes, "no ."),  # wrong, wrong short answer
        scored(no, "i do ."),  # wrong, wrong short answer
        scored(no, "i x a lot .", "contradiction"),  # wrong, no short answer: NLI decided
        scored(no, "i x a lot ."),  # undecided: not counted
    ]
    t = table7(items)
    assert t["yes"] == {"items": 2, "wrong": 1, "wrong_short_answer": 1}
    assert t["no"] == {"items": 2, "wrong": 2, "wrong_short_answer": 1}
    assert t["all"] == {"items": 4, "wrong": 3, "wrong_short_answer": 2}


class FakeNLI:
    """Contradiction when the hypothesis holds "not"/"never", entailment when it repeats the premise."""

    name, signature = "fake", "fake[c,n,e]"

    def predict(self, pairs):
        out = []
        for p, h in pairs:
            if " not " in f" {h} " or "never" in h:
                out.append("contradiction")
            elif h.strip(" .") in p:
                out.append("entailment")
            else:
                out.append("neutral")
        return out


def test_score_run_writes_categories_and_reports_them(tmp_path: Path) -> None:
    from consistest.tasks.consistest.build import BuildConfig, build_dataset
    from consistest.tasks.consistest.report_text import render
    from consistest.tasks.consistest.score import ScoreConfig, run_score

    ds = build_dataset(BuildConfig(out=tmp_path / "demo", demo=True, quiet=True)).out
    samples = {
        s.id: s for s in build_dataset(BuildConfig(out=tmp_path / "demo", demo=True, quiet=True)).samples
    }
    replies = {i: ("i do not know ." if k % 3 == 0 else s.fact) for k, (i, s) in enumerate(samples.items())}
    res = run_score(ScoreConfig(dataset=ds, out=tmp_path / "run", responses=replies, nli=FakeNLI(), n_boot=0))
    rows = [json.loads(x) for x in (tmp_path / "run" / "scores.jsonl").read_text().splitlines()]
    assert all(r["category"] and r["category_why"] for r in rows)
    assert {r["category"] for r in rows} >= {"consistent", "history"}
    counts = res.summary["categories"]["counts"]
    assert sum(counts.values()) == len(rows) and counts["consistent"] == sum(r["score"] == 1 for r in rows)
    assert "|cat:18|" in res.summary["signature"]
    text = render(res.summary)
    assert "uninformative" in text and "paper Table 7" in text


def test_categorise_runs_one_nli_call() -> None:
    class Counting(FakeNLI):
        calls = 0

        def predict(self, pairs):
            Counting.calls += 1
            return super().predict(pairs)

    items = [scored(NAME, "i like to hike ."), scored(BAR, "yes i work at a school", "contradiction")]
    out = categorise(items, [NAME, BAR], Counting())
    assert Counting.calls == 1 and [it.category for it in out] == ["uninformative", "intra"]


def test_compare_reads_runs_scored_before_categories(tmp_path: Path) -> None:
    from consistest.tasks.consistest.compare import load_scored_run

    row = scored(NAME, "my name is ashley .").to_dict()
    for k in ("category", "category_why", "trigger"):
        row.pop(k)
    (tmp_path / "scores.jsonl").write_text(json.dumps(row) + "\n")
    (tmp_path / "summary.json").write_text(json.dumps({"signature": "consistest:v1|v:0.1.0"}))
    assert load_scored_run(tmp_path).items[row["id"]].category is None


def test_another_number_read_by_plus_is_history() -> None:
    """cat:3: a reply ``--method plus`` scores as another value ("about once a year" for "twice a year") is
    a history contradiction, not ``not_judged`` or ``uninformative``."""
    s = sample("how often do you visit europe ?", "twice a year", "wh", "i visit europe twice a year .")
    item = plus_scored(s, "about once a year .")
    assert item.outcome == "another_value"
    assert decide(item, s, None)[0] == "history"
    assert decide(scored(s, "about once a year ."), s, None)[0] != "history"  # paper: no such outcome


@pytest.mark.parametrize(
    ("truth", "reply", "category"),
    [
        ("no", "i'm a native of alaska , i love the outdoors .", "history"),  # plus: said yes, truth no
        ("yes", "i am not a native of alaska , i love the outdoors .", "history"),  # plus: said no, truth yes
    ],
)
def test_a_yn_reply_plus_reads_the_other_way_is_history(truth: str, reply: str, category: str) -> None:
    """cat:4: a Y/N reply ``--method plus`` reads as the question's proposition said the other way is a
    history contradiction, even where the categories' own reading finds no restatement."""
    s = sample(
        "do you live in alaska ?", truth, "yn", "i live in alaska ." if truth == "yes" else "i live in ohio ."
    )
    item = plus_scored(s, reply)
    assert item.outcome in ("restates_question", "negates_question") and item.score == 0
    assert decide(item, s, None)[0] == category


@pytest.mark.parametrize(
    ("s", "reply", "outcome", "category"),
    [
        # cat:8: a right yes/no word whose long part plus reads the other way contradicts itself
        (YACHT_NO, "no , i own a yacht .", "long_part_disagrees", "intra"),
        # cat:8: already being what the fact only wishes (plus-11) is a wrong value
        (sample("do you want to be a lawyer ?", "yes", "yn", "i want to be a lawyer ."), "i'm a lawyer .",
         "claims_aspired", "history"),
        (sample("do you want to be a judge ?", "no", "yn", "i want to be a lawyer ."),
         "i'm a lawyer , but i like horses .", "claims_aspired", "history"),
        # cat:11: a reply plus-15 reads as contradicting itself, with no NLI to find it
        (sample("do you like taking pictures ?", "yes", "yn", "i like taking pictures ."),
         "i'm a photographer but i'm not a photographer .", "contradicts_itself", "intra"),
        (sample("are you 65 years old ?", "no", "yn", "i'm 60 years old ."),
         "i'm 60 years old now . i'm 50 years old now .", "contradicts_itself", "intra"),
        # cat:12: another value than the question's and the fact's (plus-17) is a wrong value
        (sample("do you work at a bar ?", "no", "yn", "i work at a school ."), "i work at a small cafe .",
         "other_value_unlike_fact", "history"),
        # cat:13: a clause denying a part of the fact the question does not ask about (plus-19)
        (sample("do you like the treadmill ?", "yes", "yn", "i like the treadmill and rowing machine ."),
         "i love the treadmill , but i'm not a fan of the rowing machine .", "denies_fact_part", "history"),
        # cat:14: a member of the asked kind the fact does not name (plus-20), or one named when truth is no
        (sample("do you have a pet ?", "yes", "yn", "i've a pet turtle ."), "i have a dog , he is fluffy .",
         "other_member_than_fact", "history"),
        (sample("do you have pets ?", "no", "yn", "i don't have pets ."), "i have a dog , he is fluffy .",
         "kind_member", "history"),
        # cat:15: a partner of the other sex than the fact's (plus-22), whatever the yes/no word
        (sample("are you married ?", "yes", "yn", "my husband is adopted ."),
         "yes , i'm married to a woman named jenna .", "other_partner", "history"),
        # cat:16: a WH truth said only negated (plus-23)
        (sample("are you thin or fat ?", "fat", "wh", "now i am fat ."), "i'm not fat .", "negates_truth",
         "history"),
    ],
)  # fmt: skip
def test_what_plus_reads_as_wrong_is_placed_without_nli(
    s: Sample, reply: str, outcome: str, category: str
) -> None:
    item = plus_scored(s, reply)
    assert (item.outcome, item.score) == (outcome, 0.0)
    assert decide(item, s, None)[0] == category


def test_plus_reading_the_question_the_other_way_outranks_nli_on_clauses() -> None:
    """cat:9: a reply ``--method plus`` reads as the question's proposition the other way is ``history``,
    even where NLI finds two of its clauses at odds (which made it ``intra`` before)."""
    s = sample("did you move here a long time ago ?", "no", "yn", "i recently moved here .")
    item = plus_scored(s, "i moved here a long time ago , it's a beautiful place .")
    assert (item.outcome, item.score) == ("restates_question", 0.0)
    clash = {("i moved here a long time ago", "it's a beautiful place"): "contradiction"}
    assert decide(item, s, lambda p, h: clash.get((p, h)))[0] == "history"


def test_another_value_unlike_the_fact_outranks_nli_on_clauses() -> None:
    """cat:12: a reply ``--method plus`` reads as another value than the question's and the fact's is
    ``history``, even where NLI finds two of its clauses at odds."""
    s = sample("do you work at a bar ?", "no", "yn", "i work at a school .")
    item = plus_scored(s, "i work at a small cafe , i love my job .")
    assert (item.outcome, item.score) == ("other_value_unlike_fact", 0.0)
    clash = {("i work at a small cafe", "i love my job"): "contradiction"}
    assert decide(item, s, lambda p, h: clash.get((p, h)))[0] == "history"
