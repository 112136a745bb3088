"""The ``slot`` reading: the speaker's age, sex or job said again with another value."""

from __future__ import annotations

import pytest

from consistest.data.decode_reader import make_example
from consistest.metrics.answers import qa_evidence
from consistest.metrics.self_facts import age, job, other_value, sex
from consistest.tasks.cdconv.pairwise import PairSettings, premises, rule_evidence


@pytest.mark.parametrize(
    ("clause", "value"),
    [
        ("i'm 16", 16),
        ("i am 30 years old", 30),
        ("oh , i'm 16 now", 16),
        ("i feel like i'm 80 years old", None),  # a clause that is more than the statement
        ("when i am 70 years old i want to retire", None),
        ("i'm 5 years old at heart", None),
        ("i'm a 5 year old at heart", None),
        ("i am one", None),  # under 3: no age
        ("i\u2019m 40", 40),  # a curly apostrophe
        ("i'm 60years old", 60),
        ("i'm a 42 year old male working as a specialist", 42),
        ("i am twenty two now", 22),
        ("my age is 9", 9),
        ("i'm 16 minutes away", None),  # not an age
        ("i have 3 kids", None),
        ("i'm a 12-year-old girl", 12),
    ],
)
def test_age(clause: str, value: int | None) -> None:
    assert age(clause) == value


@pytest.mark.parametrize(
    ("clause", "value"),
    [
        ("because i'm a boy", "male"),
        ("i'm a little girl", "female"),
        ("i am a 46 year old single dad", "male"),
        ("i'm a woman", "female"),
        ("i'm a big fan", None),
        ("i'm a big boy", None),  # idioms
        ("i'm a yes man", None),
        ("i'm a family guy", None),
        ("i am female", "female"),
        ("i\u2019m a girl", "female"),
        ("i'm a girl scout leader", None),  # what she is comes last: a leader
        ("my mom is a woman", None),  # not the speaker
    ],
)
def test_sex(clause: str, value: str | None) -> None:
    assert sex(clause) == value


@pytest.mark.parametrize(
    ("reply", "own", "clash"),
    [
        ("i'm 16 .", ["i'm 27 years old ."], ("i'm 16", "i'm 27 years old")),
        ("oh i see . i'm 10 .", ["i like candy .", "i am 5 ."], ("i'm 10", "i am 5")),
        ("oh i see . i'm 10 .", ["i like candy .", "i am 5"], None),  # "5" may be cut from "55"
        ("i'm 25 .", ["i'm 25 years old .", "i'm 15 ."], None),  # it agrees with one of them
        ("no i'm 31 .", ["i'm 25 years old ."], ("no i'm 31", "i'm 25 years old")),
        (
            "because i'm a boy .",
            ["i'm a 12 year old girl ."],
            ("because i'm a boy", "i'm a 12 year old girl"),
        ),  # noqa: E501
        ("i'm 27 .", ["i'm 27 years old ."], None),  # the same value
        ("i'm not 16 .", ["i'm 27 years old ."], None),  # negated: no statement of an age
        ("are you 16 ?", ["i'm 27 years old ."], None),  # asked
        ("i'm 16 .", ["are you 27 ?"], None),  # the bot's question holds no age
        ("i love to run . i'm 100 years old . i'm 1", ["i'm 100 years old ."], None),  # cut off at "i'm 1"
        ("lol ! i'm 2", ["i'm 25 years old ."], None),  # cut off, and under 3
        ("i'm 16", ["i'm 27 years old ."], None),  # a number that ends an unpunctuated turn may be cut
        ("i'm a teacher .", ["i am a nurse ."], ("i'm a teacher", "i am a nurse")),  # another job
        ("i'm a teacher .", ["i am a nurse .", "i work as a custodian ."], None),  # two jobs: one more may be
        ("i'm a cook .", ["i am a chef ."], None),  # a job of the same kind
        ("i'm a piano teacher .", ["i am a nurse .", "i teach piano ."], None),  # its statements hold it
        ("i'm a retired teacher .", ["i am a nurse ."], None),  # not a job held now
        ("i am a dj .", ["i am a nurse .", "i adjust beds ."], ("i am a dj", "i am a nurse")),  # whole words
        ("i'm a good cook .", ["i am a nurse ."], None),  # a skill, not a job
        ("i'm a teacher .", ["i'm a good cook ."], None),  # nor on the speaker's side
        ("i'm a writer at heart .", ["i am a nurse ."], None),  # a pastime
        ("i'm a fan of singers .", ["i am a nurse ."], None),
        ("i'm a nurse manager .", ["i am a nurse ."], None),  # it names the speaker's own job too
        ("i'm a teacher . i'm a nurse .", ["i am a nurse ."], None),
        ("i'm a teacher .", ["i am a chef .", "i am a cook at a diner ."], ("i'm a teacher", "i am a chef")),
        # one job said two ways is one
    ],
)
def test_other_value(reply: str, own: list[str], clash: tuple[str, str] | None) -> None:
    assert other_value(reply, own) == clash


@pytest.mark.parametrize(
    ("clause", "value"),
    [
        ("i'm a teacher", "teacher"),
        ("yes , i'm a waitress", "waitress"),
        ("i work as a nurse at the clinic now", "nurse"),
        ("i am a music director at a music venue", "director"),
        ("i'm a social media manager", "manager"),
        ("i'm a retired teacher", None),  # not now
        ("i'm not a nurse", None),
        ("i'm a big fan", None),  # no job
        ("my mom is a nurse", None),  # not the speaker
        ("i'm a teacher and i love it", None),  # more than the statement (clauses split it before)
        ("i'm a part-time nurse", "nurse"),
        ("i'm a backseat driver", None),  # idioms
        ("i'm such a teacher", None),
        ("i'm the cook in my family", None),  # a pastime
        ("i'm a singer in the shower", None),
        ("i'm a chef at a diner", "chef"),  # a living
        ("i'm a teacher lol", "teacher"),
        ("i'm a fan of teachers", None),
        ("i'm a nurses", "nurse"),  # plural heads read singular
    ],
)
def test_job(clause: str, value: str | None) -> None:
    assert job(clause) == value


@pytest.mark.parametrize(
    ("question", "reply", "slot"),
    [
        ("are you a waitress ?", "yes .", True),
        ("are you a waitress ?", "yeah i am !", True),
        ("are you 30 ?", "yes .", True),  # ages too
        ("are you a dentist ?", "yes .", False),  # the speaker's kind of job
        ("are you a waitress ?", "yes , i was .", False),  # not now
        ("are you a waitress ?", "yes , in college .", False),  # more than a yes
        ("are you a waitress ?", "yes ! i'm also a nurse .", False),  # it names its own job too
        ("are you a good cook ?", "yes .", False),  # a skill
    ],
)
def test_a_bare_yes_to_a_question_is_read_as_its_statement(question: str, reply: str, slot: bool) -> None:
    ev = qa_evidence(question, reply, ["i am a doctor .", "i'm 25 years old ."])
    assert (ev is not None and (ev.rule, ev.category) == ("slot", "history")) is slot


def test_slot_decides_after_any_user_turn_and_after_the_role_readings() -> None:
    persona = ["i'm 27 years old .", "i like cats ."]
    ex = make_example(["hi", "hello , i like cats .", "i am eighteen and i hate math .", "i'm 16 ."], None,
                      persona=persona)  # fmt: skip
    (ev,) = rule_evidence([ex], PairSettings(qa=True))
    assert ev is not None and (ev.rule, ev.category) == ("slot", "history")
    assert [p for p, _ in premises(ex)][-2:] == persona
    echo = qa_evidence("i'm 16 years old and i love cats .", "i'm 16 years old and i love cats .", persona)
    assert echo is not None and echo.rule == "echo"  # the user's turn said back: role first
