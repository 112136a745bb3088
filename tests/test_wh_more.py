"""The wider WH rules (wh_more), the filter fixes they needed, questions about any first-person statement,
and the statement inquirer with its judge."""

from __future__ import annotations

from collections import Counter

import pytest

from consistest.core.records import QA
from consistest.tasks.aih.inquirer import Inquirer
from consistest.tasks.aih.judges import inquiry_type, judge_inquiries
from consistest.tasks.consistest.qagen.filters import filter_qas, has_verb, is_exclusive, well_formed
from consistest.text.parse import parse
from consistest.text.questions.statements import OPEN_TEMPLATE, statement_questions
from consistest.text.questions.wh_rules import wh_questions
from consistest.text.sentences import normalise, strip_markers

OPEN = OPEN_TEMPLATE

pytest.importorskip("spacy")

WH_MORE = [
    ("i am in my thirties .", "how old are you?", "thirties", "wh.age_decade"),
    ("i am an economics major .", "what is your major?", "economics", "wh.major"),
    ("i am a buddhist .", "what is your religion?", "buddhist", "wh.religion"),
    ("i am a vegan .", "what diet do you follow?", "vegan", "wh.diet"),
    ("i am married to a doctor .", "who are you married to?", "doctor", "wh.spouse"),
    ("i married a super model from italy .", "who did you marry?", "super model", "wh.spouse"),
    ("i am employed by the us postal service .", "where do you work?", "us postal service", "wh.employer"),
    ("i want to be a lawyer .", "what do you want to be?", "lawyer", "wh.aim"),
    (
        "i am studying to be a computer programmer .",
        "what are you studying to be?",
        "computer programmer",
        "wh.aim",
    ),  # fmt: skip
    ("i visit europe twice a year .", "how often do you visit europe?", "twice a year", "wh.how_often"),
    ("i was raised on a horse farm .", "where were you raised?", "horse farm", "wh.raised"),
    (
        "my favorite type of music to sing is folk music .",
        "what is your favorite type of music to sing?",
        "folk music",
        "wh.favorite_kind",
    ),  # fmt: skip
    (
        "my father used to work for home depot .",
        "where did your father use to work?",
        "home depot",
        "wh.their_work",
    ),  # fmt: skip
    (
        "my bedroom is purple and lime green .",
        "what color is your bedroom?",
        "purple and lime green",
        "wh.colors",
    ),
    ("i am in the third grade .", "what grade are you in?", "third grade", "wh.grade"),
    ("i was born in the early 80 s .", "when were you born?", "early 80 s", "wh.born_when"),
    ("i am a famous twitch streamer .", "what do you do for a living?", "twitch streamer", "wh.job_more"),
    (
        "i am a descendant of christopher columbus .",
        "who are you a descendant of?",
        "christopher columbus",
        "wh.descendant",
    ),  # fmt: skip
    ("i am in the army .", "what branch of the military are you in?", "army", "wh.military"),
    ("i am a woman .", "what is your gender?", "woman", "wh.gender"),
    ("i am divorced .", "what is your relationship status?", "divorced", "wh.marital"),
    ("i moved here from texas .", "where did you move from?", "texas", "wh.moved"),
    ("i am 6 feet tall .", "how tall are you?", "6 feet", "wh.height"),
    ("i used to be a teacher .", "what was your job?", "teacher", "wh.job_past"),
    ("i have a degree in biology .", "what is your degree in?", "biology", "wh.degree"),
    ("i am a mother of two .", "how many children do you have?", "two", "wh.parent_of"),
    ("my son is 5 years old .", "how old is your son?", "5", "wh.their_age"),
    ("i graduated from harvard .", "where did you graduate from?", "harvard", "wh.school"),
    ("i am a blonde girl with really short hair .", "what color is your hair?", "blonde", "wh.hair"),
    # fixes of the first rules
    (
        "my main transportation is my motorbike .",
        "what is your main transportation?",
        "motorbike",
        "wh.my_attr",
    ),
    ("i have two dogs and a cat .", "how many dogs do you have?", "two", "wh.count"),
]


def _kept(fact: str, q: str, a: str, template: str) -> list[QA]:
    return filter_qas([QA(q, a, fact, "pers", "wh", template=template)], Counter())


@pytest.mark.parametrize(("fact", "question", "truth", "template"), WH_MORE)
def test_wider_wh_rules_ask_well_formed_exclusive_questions(fact, question, truth, template) -> None:
    toks = parse(strip_markers(normalise(fact)))
    got = [(q.q, q.a, q.template) for q in wh_questions(toks)]
    assert (question, truth, template) in got
    kept = _kept(fact, question, truth, template)
    assert kept and well_formed(kept[0])  # '?', second person, truth inside the fact; and not dropped


@pytest.mark.parametrize(
    "fact",
    ["i am a recluse .", "i am married .", "i like donuts .", "i am not married to anyone .",
     "my dog is in the third grade .", "i want to be happy .", "i recently moved to this country ."],
)  # fmt: skip
def test_wider_rules_leave_other_statements_alone(fact) -> None:
    templates = {q.template for q in wh_questions(parse(strip_markers(normalise(fact))))}
    assert not templates & {"wh.spouse", "wh.grade", "wh.aim", "wh.religion", "wh.gender", "wh.moved"}


@pytest.mark.parametrize(
    ("question", "ok"),
    [("what did your father do?", True), ("what does your mom do?", True), ("what do you want to be?", True),
     ("what do you love?", False), ("what do you do on weekends?", False)],
)  # fmt: skip
def test_exclusive_jobs_and_aims(question, ok) -> None:
    assert is_exclusive(question) is ok


def test_who_did_something_to_you_has_a_verb() -> None:
    assert has_verb("who taught you survival skills?") and not has_verb("who you?")


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("i love hiking",
         {("do you like hiking?", "yes", "st.yn.do"), ("what do you love?", "hiking", OPEN)}),
        ("i love to hike in the mountains", {("what do you love to do?", "hike in the mountains", OPEN)}),
        ("i do not eat meat", {("do you eat meat?", "no", "st.yn.do.neg")}),
        ("i have two dogs", {("how many dogs do you have?", "two", "wh.count")}),
        ("my dog is very cute", {("is your dog very cute?", "yes", "st.yn.be")}),
    ],
)  # fmt: skip
def test_statement_questions(statement, expected) -> None:
    got = {(q.q, q.a, q.template) for q in statement_questions(parse(statement))}
    assert expected <= got
    if statement == "i do not eat meat":
        assert all(
            not q.template.startswith(("wh", OPEN_TEMPLATE)) for q in statement_questions(parse(statement))
        )


@pytest.mark.parametrize(
    "statement", ["i think it is great", "i am glad you are here", "i really like it", "hi"]
)
def test_phatic_statements_get_no_question(statement) -> None:
    assert statement_questions(parse(statement)) == []


def test_statement_inquirer_asks_entities_first_then_statements() -> None:
    made = Inquirer("statements", 0).ask(
        [
            ("c:q3", "I work at Google. how about you ?"),
            ("c:q5", "i love hiking , do you ?"),
            ("c:q7", "hi !"),
        ]
    )
    assert made["c:q3"] is not None and made["c:q3"].label != "STATEMENT"  # an entity: asked as before
    hiking = made["c:q5"]
    assert hiking is not None and hiking.label == "STATEMENT" and hiking.candidates == 2
    assert hiking.question in ("do you like hiking?", "what do you love?")
    assert made["c:q7"] is None
    assert Inquirer("rules", 0).ask([("c:q5", "i love hiking , do you ?")])["c:q5"] is None
    assert Inquirer("statements", 0).signature_value().startswith("statements-ent1-whe2-st1-")


class _NLI:
    name = signature = "fake"

    def predict_proba(self, pairs):
        out = []
        for _, h in pairs:
            c = 0.9 if "hate" in h else 0.05
            out.append({"contradiction": c, "neutral": 0.05, "entailment": 0.95 - c})
        return out


def test_statement_inquiries_are_judged_by_type() -> None:
    base = dict(utterance="i love hiking .", sentence="i love hiking .", entity="hiking", label="STATEMENT")
    yn = {**base, "question": "do you like hiking?", "truth": "yes", "template": "st.yn.do"}
    wh = {**base, "question": "what do you love?", "truth": "hiking", "template": OPEN}
    inquiries = [
        {**yn, "answer": "no , i do not ."},
        {**wh, "answer": "i love tv ."},
        {**wh, "answer": "i hate it ."},
    ]
    assert [inquiry_type(q) for q in inquiries] == ["yn", "wh", "wh"]
    judged = judge_inquiries(inquiries, _NLI(), 0.15)  # type: ignore[arg-type]
    # "no": a contradiction; another thing loved: consistent; the guard's contradiction: not
    assert [j["ours_score"] for j in judged] == [0.0, 1.0, 0.0]
    assert judge_inquiries(inquiries[1:2], None, 0.15)[0]["ours_score"] is None  # no guard: undecided
