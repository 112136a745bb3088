"""Wider WH rules about one's life: spouse, employer, how often, where raised, favourite kinds, relatives'
work, colours, languages, future dates, how long, moves, school (see :mod:`.wh_more`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.text.lexicon import lexicon
from consistest.text.parse import Tok, subtree
from consistest.text.questions.wh_more_common import (
    ART,
    DEICTIC,
    FREQ,
    NP,
    before_from,
    one_question,
    plain_text,
)
from consistest.text.questions.yn_templates import Question, yn_question


def rule_spouse(toks: Sequence[Tok]) -> list[Question]:
    """i am married to a doctor -> who are you married to?; i married a model -> who did you marry?"""
    text = plain_text(toks)
    if m := re.match(rf"^i am (?:happily )?married to {ART}{NP}$", text):
        return one_question("who are you married to?", m.group(1), "wh.spouse")
    if m := re.match(rf"^i married {ART}{NP}$", text):
        return one_question("who did you marry?", before_from(m.group(1)), "wh.spouse")
    return []


def rule_employer(toks: Sequence[Tok]) -> list[Question]:
    """i am employed by the post office / i have a (part time) job at burger king -> where do you work?"""
    text = plain_text(toks)
    m = re.match(rf"^i am employed (?:by|at) {ART}{NP}$", text) or re.search(
        rf"(?:^|\b)i (?:have|got) an? (?:new |part time |full time )?job (?:at|with) {ART}{NP}$", text
    )
    return one_question("where do you work?", m.group(1), "wh.employer") if m else []


def rule_how_often(toks: Sequence[Tok]) -> list[Question]:
    """i visit europe twice a year -> how often do you visit europe? / twice a year."""
    text = " ".join(t.text for t in toks)
    m = FREQ.search(text)
    if not m or not text.startswith("i "):
        return []
    n = len(m.group(1).split())
    rest = list(toks[: len(toks) - n])
    q = yn_question(rest)
    if q is None or q.a != "yes" or not q.q.startswith(("do ", "did ")) or len(rest) < 3:
        return []
    return one_question(f"how often {q.q[:-1]}?", m.group(1), "wh.how_often")


def rule_raised(toks: Sequence[Tok]) -> list[Question]:
    """i was raised on a horse farm -> where were you raised? / horse farm."""
    m = re.match(rf"^i was (?:raised|brought up) (?:on|in) {ART}{NP}$", plain_text(toks))
    return one_question("where were you raised?", m.group(1), "wh.raised") if m else []


def rule_favorite_kind(toks: Sequence[Tok]) -> list[Question]:
    """my favorite type of music to sing is folk music -> what is your favorite type of music to sing?"""
    pattern = rf"^my (?:favorite|favourite) (type|kind|sort|genre) of (\w+(?: to \w+)?) (?:is|are) {ART}{NP}$"
    m = re.match(pattern, plain_text(toks))
    if not m:
        return []
    return one_question(
        f"what is your favorite {m.group(1)} of {m.group(2)}?", m.group(3), "wh.favorite_kind"
    )


def rule_their_work(toks: Sequence[Tok]) -> list[Question]:
    """my father used to work for home depot -> where did your father use to work? / home depot."""
    people = set(lexicon()["person_nouns"])
    m = re.match(rf"^my (\w+) (works|worked|used to work) (?:at|for|in) {ART}{NP}$", plain_text(toks))
    if not m or m.group(1) not in people:
        return []
    verb = {
        "works": "does your {} work",
        "worked": "did your {} work",
        "used to work": "did your {} use to work",
    }
    return one_question(f"where {verb[m.group(2)].format(m.group(1))}?", m.group(3), "wh.their_work")


def rule_colors(toks: Sequence[Tok]) -> list[Question]:
    """my bedroom is purple and lime green -> what color is your bedroom? / purple and lime green."""
    colors = "|".join(lexicon()["colors"])
    shade = rf"(?:(?:light|dark|lime|bright|navy|pale) )?(?:{colors})"
    m = re.match(rf"^my (\w+) (is|are) ({shade}(?: and | , ){shade})$", plain_text(toks))
    return one_question(f"what color {m.group(2)} your {m.group(1)}?", m.group(3), "wh.colors") if m else []


def rule_languages(toks: Sequence[Tok]) -> list[Question]:
    """i am fluent in english and french / i speak english and spanish -> what languages ...?"""
    text = plain_text(toks)
    if m := re.match(r"^i am fluent in ((?:\w+ ){0,4}\w+)$", text):
        return one_question("what languages are you fluent in?", m.group(1), "wh.languages")
    if m := re.match(r"^i speak ((?:\w+ )?\w+ (?:and|,) (?:\w+ ){0,2}\w+)$", text):
        return one_question("what languages do you speak?", m.group(1), "wh.languages")
    return []


def rule_when_future(toks: Sequence[Tok]) -> list[Question]:
    """i am getting married in the spring -> when are you getting married? / the spring (a DATE entity)."""
    for t in toks:
        if t.ent == "DATE" and t.dep == "pobj" and toks[t.head].text in ("in", "on", "next", "this"):
            drop = {x.i for x in subtree(toks, t.head)}
            date = [x.text for x in toks if x.i in drop and x.i != t.head]
            q = yn_question([x for x in toks if x.i not in drop])
            if (
                q
                and q.a == "yes"
                and q.q.startswith(("are you", "will you"))
                and any(x.tag == "VBG" for x in toks)
            ):
                return one_question(f"when {q.q[:-1]}?", " ".join(date), "wh.when_future")
    return []


def rule_spent(toks: Sequence[Tok]) -> list[Question]:
    """i spent a decade working in the human services field -> how long did you work in the human services
    field? / a decade."""
    span = r"(a decade|two decades|a year|\w+ years|\w+ months)"
    m = re.match(rf"^i spent {span} (\w+ing) (.+)$", plain_text(toks))
    verb = next((t.lemma for t in toks if m and t.text == m.group(2)), None)
    if not m or not verb or len(m.group(3).split()) > 6:
        return []
    rest = " ".join("your" if w == "my" else w for w in m.group(3).split())
    return one_question(f"how long did you {verb} {rest}?", m.group(1), "wh.spent")


def rule_moved(toks: Sequence[Tok]) -> list[Question]:
    """i (recently) moved to the city from texas -> where did you move to? / city; where did you move from?"""
    text = plain_text(toks)
    place = r"(\w+(?: \w+)?)"
    m = re.match(
        rf"^i (?:recently |just )?moved (?:here |over )?(?:to {ART}{place})?(?: ?from {ART}{place})?$", text
    )
    if not m or not (m.group(1) or m.group(2)) or any(g and g.split()[0] in DEICTIC for g in m.groups()):
        return []
    out = [Question("where did you move to?", m.group(1), "wh.moved")] if m.group(1) else []
    return out + ([Question("where did you move from?", m.group(2), "wh.moved")] if m.group(2) else [])


def rule_school(toks: Sequence[Tok]) -> list[Question]:
    """i graduated from harvard -> where did you graduate from?; i attend yale university -> where do you go
    to school?"""
    text = plain_text(toks)
    if m := re.match(rf"^i (?:recently |just )?graduated from {ART}{NP}$", text):
        return one_question("where did you graduate from?", m.group(1), "wh.school")
    if m := re.match(
        rf"^i (?:attend|go to) {ART}(\w+(?: \w+){{0,2}} (?:university|college|school|academy))$", text
    ):
        return one_question("where do you go to school?", m.group(1), "wh.school")
    return []
