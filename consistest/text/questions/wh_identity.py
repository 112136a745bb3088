"""Wider WH rules about who one is: age, study, belief, diet, gender, status, body, hair, origin, service,
children, relatives' age, jobs (now, past, aimed at), degree, school grade, birth (see :mod:`.wh_more`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.text.lexicon import lexicon
from consistest.text.parse import Tok
from consistest.text.questions.wh_more_common import (
    ART,
    DECADES,
    DIETS,
    GENDERS,
    MARITAL,
    MILITARY,
    MORE_JOBS,
    NP,
    NUMBER,
    RELIGIONS,
    job_like,
    one_question,
    plain_text,
)
from consistest.text.questions.yn_templates import Question


def rule_age_decade(toks: Sequence[Tok]) -> list[Question]:
    """i am in my (early|late) thirties -> how old are you? / thirties."""
    text = plain_text(toks)
    m = re.match(rf"^i am in my ((?:early |mid |late )?(?:{DECADES}))$", text)
    return one_question("how old are you?", m.group(1), "wh.age_decade") if m else []


def rule_major(toks: Sequence[Tok]) -> list[Question]:
    """i am an economics major (in college) -> what is your major? / economics."""
    m = re.match(r"^i am an? (\w+(?: \w+)?) major(?: in college| at \w+)?$", plain_text(toks))
    return one_question("what is your major?", m.group(1), "wh.major") if m else []


def rule_belief_diet(toks: Sequence[Tok]) -> list[Question]:
    """i am a buddhist -> what is your religion?; i am a vegan -> what diet do you follow?"""
    m = re.match(r"^i am (?:an? )?(?:strict |devout |proud )?(\w+)$", plain_text(toks))
    if not m:
        return []
    if m.group(1) in RELIGIONS:
        return one_question("what is your religion?", m.group(1), "wh.religion")
    if m.group(1) in DIETS:
        return one_question("what diet do you follow?", m.group(1), "wh.diet")
    return []


def rule_gender(toks: Sequence[Tok]) -> list[Question]:
    """i am a woman / i am male -> what is your gender? / woman."""
    m = re.match(r"^i am (?:an? )?(\w+)$", plain_text(toks))
    return (
        one_question("what is your gender?", m.group(1), "wh.gender") if m and m.group(1) in GENDERS else []
    )


def rule_marital(toks: Sequence[Tok]) -> list[Question]:
    """i am divorced / i am happily married -> what is your relationship status? / divorced."""
    m = re.match(r"^i am (?:happily |recently |newly )?(\w+)$", plain_text(toks))
    ok = m and m.group(1) in MARITAL
    return one_question("what is your relationship status?", m.group(1), "wh.marital") if ok else []  # type: ignore[union-attr]


def rule_body(toks: Sequence[Tok]) -> list[Question]:
    """i am 6 feet tall -> how tall are you? / 6 feet; i weigh 200 pounds -> how much do you weigh?"""
    text = plain_text(toks)
    if m := re.match(rf"^i am ({NUMBER} (?:feet|foot|ft|inches|cm)(?: {NUMBER}(?: inches)?)?) tall$", text):
        return one_question("how tall are you?", m.group(1), "wh.height")
    if m := re.match(rf"^i weigh (?:over |about |around )?({NUMBER} (?:pounds|lbs|kilos|kg))$", text):
        return one_question("how much do you weigh?", m.group(1), "wh.weight")
    return []


def rule_hair(toks: Sequence[Tok]) -> list[Question]:
    """i am a blonde (girl with short hair) / i am a redhead -> what color is your hair? / blonde."""
    m = re.match(r"^i am an? (?:natural )?(blonde|blond|brunette|redhead)\b", plain_text(toks))
    return one_question("what color is your hair?", m.group(1), "wh.hair") if m else []


def rule_descendant(toks: Sequence[Tok]) -> list[Question]:
    """i am a descendant of christopher columbus -> who are you a descendant of?"""
    m = re.match(rf"^i am an? (?:direct )?descendant of {ART}{NP}$", plain_text(toks))
    return one_question("who are you a descendant of?", m.group(1), "wh.descendant") if m else []


def rule_military(toks: Sequence[Tok]) -> list[Question]:
    """i am in the army / i served in the navy -> what branch of the military are (were) you in?"""
    text = plain_text(toks)
    if (m := re.match(r"^i am (?:in|with) the (\w+(?: \w+)?)$", text)) and m.group(1) in MILITARY:
        return one_question("what branch of the military are you in?", m.group(1), "wh.military")
    if (m := re.match(r"^i (?:served|was) in the (\w+(?: \w+)?)$", text)) and m.group(1) in MILITARY:
        return one_question("what branch of the military did you serve in?", m.group(1), "wh.military")
    return []


def rule_parent_of(toks: Sequence[Tok]) -> list[Question]:
    """i am a mother of two (kids) -> how many children do you have? / two."""
    m = re.match(rf"^i am an? (?:single |proud |stay at home )?(?:mother|father|mom|dad|parent) of {NUMBER}"
                 r"(?: \w+)?(?: kids| children| boys| girls)?$", plain_text(toks))  # fmt: skip
    return one_question("how many children do you have?", m.group(1), "wh.parent_of") if m else []


def rule_their_age(toks: Sequence[Tok]) -> list[Question]:
    """my son is 5 (years old) -> how old is your son? / 5."""
    m = re.match(rf"^my (\w+) (is|are) {NUMBER}(?: years old| months old)?$", plain_text(toks))
    if not m or m.group(1) not in lexicon()["person_nouns"]:
        return []
    return one_question(f"how old {m.group(2)} your {m.group(1)}?", m.group(3), "wh.their_age")


def rule_job_more(toks: Sequence[Tok]) -> list[Question]:
    """Jobs the occupation lexicon lacks (i am a famous twitch streamer), and long job names of relatives
    (my father was a door to door salesman -> what did your father do?)."""
    jobs = set(lexicon()["occupations"]) | MORE_JOBS
    text = plain_text(toks)
    m = re.match(
        r"^i am an? (?:famous |professional |successful |full time |part time )?((?:\w+ )?(\w+))$", text
    )
    if m and m.group(2) in MORE_JOBS:
        return [
            Question(q, m.group(1), "wh.job_more")
            for q in ("what do you do for a living?", "what do you do?")
        ]
    m = re.match(r"^my (\w+) (is|are|was|were) (?:an? )?((?:\w+ ){3}(\w+))$", text)
    if m and m.group(1) in lexicon()["person_nouns"] and m.group(4).rstrip("s") in jobs:
        aux = {"is": "does", "are": "do", "was": "did", "were": "did"}[m.group(2)]
        return one_question(f"what {aux} your {m.group(1)} do?", m.group(3), "wh.job_more")
    return []


def rule_job_past(toks: Sequence[Tok]) -> list[Question]:
    """i used to be a teacher / i was a nurse for 20 years -> what was your job? / teacher; i retired from
    teaching -> what did you retire from? / teaching."""
    text = plain_text(toks)
    m = re.match(r"^i (?:used to be|was|worked as) an? ((?:\w+ ){0,2}\w+?)(?: for .+)?$", text)
    if m and job_like(m.group(1)):
        return one_question("what was your job?", m.group(1), "wh.job_past")
    if m := re.match(r"^i (?:am )?retired from (?:being an? )?((?:\w+ ){0,2}\w+)$", text):
        return one_question("what did you retire from?", m.group(1), "wh.job_past")
    return []


def rule_aim(toks: Sequence[Tok]) -> list[Question]:
    """What one wants, studies or went to school to be (a job noun phrase after "be")."""
    text = plain_text(toks)
    specs = (
        (r"^i (?:want|plan|hope|would like) to (?:be|become) ", "what do you want to be?"),
        (
            r"^i am (?:studying|training|going to school|in school) to (?:be|become) ",
            "what are you studying to be?",
        ),
        (r"^i went to school to (?:be|become) ", "what did you go to school to be?"),
    )
    for prefix, question in specs:
        m = re.match(prefix + r"an? ((?:\w+ ){0,2}\w+)(?: but .*)?$", text)
        if m and job_like(m.group(1)):
            return one_question(question, m.group(1), "wh.aim")
    return []


def rule_degree(toks: Sequence[Tok]) -> list[Question]:
    """i have a degree in biology / i have a biology degree -> what is your degree in? / biology."""
    text = plain_text(toks)
    m = re.match(r"^i (?:have|got|earned|hold) an? (?:\w+ )?degree in ((?:\w+ ){0,2}\w+)$", text) or re.match(
        r"^i (?:have|got|earned|hold) an? ((?:\w+ )?\w+) degree$", text
    )
    if not m or m.group(1) in ("college", "university", "masters", "bachelors", "master", "bachelor"):
        return []
    return one_question("what is your degree in?", m.group(1), "wh.degree")


def rule_grade(toks: Sequence[Tok]) -> list[Question]:
    """i am in the third grade -> what grade are you in?; i am in high school -> what level of school are you
    in? / high school."""
    text = plain_text(toks)
    if m := re.match(r"^i am in (?:the )?(\w+ grade)$", text):
        return one_question("what grade are you in?", m.group(1), "wh.grade")
    levels = r"(high school|middle school|elementary school|junior high|grade school|grad school|college)"
    if m := re.match(rf"^i am (?:still )?in {levels}$", text):
        return one_question("what level of school are you in?", m.group(1), "wh.grade")
    return []


def rule_born_when(toks: Sequence[Tok]) -> list[Question]:
    """i was born in the early 80 s / in the nineties -> when were you born?"""
    decade = rf"(?:\d0 ?s|19\d0 ?s|(?:{DECADES}))"
    m = re.match(rf"^i was born in (?:the )?((?:early |mid |late )?{decade})$", plain_text(toks))
    return one_question("when were you born?", m.group(1), "wh.born_when") if m else []
