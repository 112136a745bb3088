"""More WH rules (issue 23): exclusive attributes PersonaChat personas state that the first rules missed.

Each asks for something a person has one of (or the whole of), so another true answer cannot exist:

- ``wh.age_decade``: i am in my thirties / i am 60years old -> how old are you?
- ``wh.major``: i am an economics major -> what is your major? / economics
- ``wh.religion``, ``wh.diet``: i am a buddhist -> what is your religion?; i am a vegan -> what diet do you
  follow?
- ``wh.spouse``: i am married to a doctor -> who are you married to?; i married a model -> who did you marry?
- ``wh.employer``: i am employed by the post office / i have a part time job at burger king -> where do you
  work?
- ``wh.aim``: i want to be a lawyer -> what do you want to be?; i am studying to be a nurse -> what are you
  studying to be?; i went to school to be a vet -> what did you go to school to be?
- ``wh.how_often``: i visit europe twice a year -> how often do you visit europe? / twice a year
- ``wh.raised``: i was raised on a farm -> where were you raised? / farm
- ``wh.favorite_kind``: my favorite type of music to sing is folk music -> what is your favorite type of
  music to sing?
- ``wh.their_work``: my father used to work for home depot -> where did your father use to work?
- ``wh.colors``: my bedroom is purple and lime green -> what color is your bedroom?
- ``wh.languages``: i am fluent in english and french -> what languages are you fluent in?
- ``wh.grade``: i am in the third grade -> what grade are you in? / third grade; i am in high school -> what
  level of school are you in? / high school
- ``wh.hair``: i am a blonde girl with short hair -> what color is your hair? / blonde
- ``wh.when_future``: i am getting married in the spring -> when are you getting married? / the spring
- ``wh.born_when``: i was born in the early 80 s -> when were you born? / early 80 s
- ``wh.job_more``: i am a famous twitch streamer -> what do you do for a living? / twitch streamer (jobs
  the lexicon lacks); my father was a door to door salesman -> what did your father do?
- ``wh.descendant``: i am a descendant of christopher columbus -> who are you a descendant of?
- ``wh.military``: i am in the army -> what branch of the military are you in? / army
- ``wh.spent``: i spent a decade working in the field -> how long did you work in the field? / a decade
- ``wh.gender``: i am a woman -> what is your gender? / woman
- ``wh.marital``: i am divorced -> what is your relationship status? / divorced
- ``wh.moved``: i moved to the city from texas -> where did you move to? / city; where did you move from?
- ``wh.height``, ``wh.weight``: i am 6 feet tall -> how tall are you?; i weigh 200 pounds -> how much do you
  weigh?
- ``wh.job_past``: i used to be a teacher -> what was your job? / teacher; i retired from nursing -> what did
  you retire from?
- ``wh.degree``: i have a degree in biology / a biology degree -> what is your degree in? / biology
- ``wh.parent_of``: i am a mother of two -> how many children do you have? / two
- ``wh.their_age``: my son is 5 years old -> how old is your son? / 5
- ``wh.school``: i graduated from harvard / i attend yale -> where did you graduate from? / where do you go
  to school?

Versioned (WH_MORE_VERSION, in the builders' ``qagen`` version and the AIH inquirer's signature).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from consistest.text.lexicon import lexicon
from consistest.text.parse import Tok, subtree
from consistest.text.questions.yn_templates import Question, yn_question

WH_MORE_VERSION = 1
_DECADES = "teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties"
RELIGIONS = frozenset(
    [
        "buddhist",
        "christian",
        "catholic",
        "protestant",
        "muslim",
        "jewish",
        "hindu",
        "atheist",
        "agnostic",
        "mormon",
        "pagan",
        "sikh",
    ]
)
DIETS = frozenset(["vegan", "vegetarian", "pescatarian", "omnivore", "carnivore"])
MORE_JOBS = frozenset(
    ["streamer", "gamer", "salesperson", "sales rep", "firefighter", "housekeeper", "coder"]
)
MILITARY = frozenset(["army", "navy", "air force", "marines", "marine corps", "coast guard", "military"])
GENDERS = frozenset(["man", "woman", "male", "female", "guy", "girl", "boy", "lady", "gentleman"])
_DEICTIC = frozenset(["this", "that", "these", "those", "here", "there"])  # "this country": no answer
MARITAL = frozenset(["married", "single", "divorced", "widowed", "engaged", "separated"])
_NUMBER = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_ART = r"(?:an? |the )?"
_NP = r"(\w+(?: \w+){0,3})"  # a short answer: one to four words
_DAYS = "day|week|month|year|morning|night|weekend|summer|winter|" + "|".join(
    ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
)
_FREQ = re.compile(
    r"\b((?:once|twice|three times|four times|\d+ times|(?:one|two|three|four|five|six|seven) times) "
    rf"(?:a|per|every|each) (?:day|week|month|year)|(?:every|each) (?:{_DAYS})|"
    r"regularly|daily|weekly|monthly|most days|every other (?:day|week))$"
)


def _plain(toks: Sequence[Tok]) -> str:
    drop = set(lexicon()["drop_adverbs"])
    return " ".join(t.text for t in toks if t.text not in drop)


def _one(q: str, a: str, template: str) -> list[Question]:
    return [Question(q, a.strip(), template)]


def rule_age_decade(toks: Sequence[Tok]) -> list[Question]:
    """i am in my (early|late) thirties -> how old are you? / thirties."""
    text = _plain(toks)
    m = re.match(rf"^i am in my ((?:early |mid |late )?(?:{_DECADES}))$", text)
    return _one("how old are you?", m.group(1), "wh.age_decade") if m else []


def rule_major(toks: Sequence[Tok]) -> list[Question]:
    """i am an economics major (in college) -> what is your major? / economics."""
    m = re.match(r"^i am an? (\w+(?: \w+)?) major(?: in college| at \w+)?$", _plain(toks))
    return _one("what is your major?", m.group(1), "wh.major") if m else []


def rule_belief_diet(toks: Sequence[Tok]) -> list[Question]:
    """i am a buddhist -> what is your religion?; i am a vegan -> what diet do you follow?"""
    m = re.match(r"^i am (?:an? )?(?:strict |devout |proud )?(\w+)$", _plain(toks))
    if not m:
        return []
    if m.group(1) in RELIGIONS:
        return _one("what is your religion?", m.group(1), "wh.religion")
    if m.group(1) in DIETS:
        return _one("what diet do you follow?", m.group(1), "wh.diet")
    return []


def rule_spouse(toks: Sequence[Tok]) -> list[Question]:
    """i am married to a doctor -> who are you married to?; i married a model -> who did you marry?"""
    text = _plain(toks)
    if m := re.match(rf"^i am (?:happily )?married to {_ART}{_NP}$", text):
        return _one("who are you married to?", m.group(1), "wh.spouse")
    if m := re.match(rf"^i married {_ART}{_NP}$", text):
        return _one("who did you marry?", _before_from(m.group(1)), "wh.spouse")
    return []


def _before_from(np: str) -> str:
    """ "super model from italy" -> "super model" (the person, not where they come from)."""
    return np.split(" from ")[0]


def rule_employer(toks: Sequence[Tok]) -> list[Question]:
    """i am employed by the post office / i have a (part time) job at burger king -> where do you work?"""
    text = _plain(toks)
    m = re.match(rf"^i am employed (?:by|at) {_ART}{_NP}$", text) or re.search(
        rf"(?:^|\b)i (?:have|got) an? (?:new |part time |full time )?job (?:at|with) {_ART}{_NP}$", text
    )
    return _one("where do you work?", m.group(1), "wh.employer") if m else []


def rule_aim(toks: Sequence[Tok]) -> list[Question]:
    """What one wants, studies or went to school to be (a job noun phrase after "be")."""
    text = _plain(toks)
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
        if m and _job_like(m.group(1)):
            return _one(question, m.group(1), "wh.aim")
    return []


def _job_like(np: str) -> bool:
    jobs = set(lexicon()["occupations"])
    words = np.split()
    return words[-1].rstrip("s") in jobs or " ".join(words[-2:]) in jobs


def rule_how_often(toks: Sequence[Tok]) -> list[Question]:
    """i visit europe twice a year -> how often do you visit europe? / twice a year."""
    text = " ".join(t.text for t in toks)
    m = _FREQ.search(text)
    if not m or not text.startswith("i "):
        return []
    n = len(m.group(1).split())
    rest = list(toks[: len(toks) - n])
    q = yn_question(rest)
    if q is None or q.a != "yes" or not q.q.startswith(("do ", "did ")) or len(rest) < 3:
        return []
    return _one(f"how often {q.q[:-1]}?", m.group(1), "wh.how_often")


def rule_raised(toks: Sequence[Tok]) -> list[Question]:
    """i was raised on a horse farm -> where were you raised? / horse farm."""
    m = re.match(rf"^i was (?:raised|brought up) (?:on|in) {_ART}{_NP}$", _plain(toks))
    return _one("where were you raised?", m.group(1), "wh.raised") if m else []


def rule_favorite_kind(toks: Sequence[Tok]) -> list[Question]:
    """my favorite type of music to sing is folk music -> what is your favorite type of music to sing?"""
    pattern = (
        rf"^my (?:favorite|favourite) (type|kind|sort|genre) of (\w+(?: to \w+)?) (?:is|are) {_ART}{_NP}$"
    )
    m = re.match(pattern, _plain(toks))
    if not m:
        return []
    return _one(f"what is your favorite {m.group(1)} of {m.group(2)}?", m.group(3), "wh.favorite_kind")


def rule_their_work(toks: Sequence[Tok]) -> list[Question]:
    """my father used to work for home depot -> where did your father use to work? / home depot."""
    people = set(lexicon()["person_nouns"])
    m = re.match(rf"^my (\w+) (works|worked|used to work) (?:at|for|in) {_ART}{_NP}$", _plain(toks))
    if not m or m.group(1) not in people:
        return []
    verb = {
        "works": "does your {} work",
        "worked": "did your {} work",
        "used to work": "did your {} use to work",
    }
    return _one(f"where {verb[m.group(2)].format(m.group(1))}?", m.group(3), "wh.their_work")


def rule_colors(toks: Sequence[Tok]) -> list[Question]:
    """my bedroom is purple and lime green -> what color is your bedroom? / purple and lime green."""
    colors = "|".join(lexicon()["colors"])
    shade = rf"(?:(?:light|dark|lime|bright|navy|pale) )?(?:{colors})"
    m = re.match(rf"^my (\w+) (is|are) ({shade}(?: and | , ){shade})$", _plain(toks))
    return _one(f"what color {m.group(2)} your {m.group(1)}?", m.group(3), "wh.colors") if m else []


def rule_languages(toks: Sequence[Tok]) -> list[Question]:
    """i am fluent in english and french / i speak english and spanish -> what languages ...?"""
    text = _plain(toks)
    if m := re.match(r"^i am fluent in ((?:\w+ ){0,4}\w+)$", text):
        return _one("what languages are you fluent in?", m.group(1), "wh.languages")
    if m := re.match(r"^i speak ((?:\w+ )?\w+ (?:and|,) (?:\w+ ){0,2}\w+)$", text):
        return _one("what languages do you speak?", m.group(1), "wh.languages")
    return []


def rule_grade(toks: Sequence[Tok]) -> list[Question]:
    """i am in the third grade -> what grade are you in?; i am in high school -> what level of school are you
    in? / high school."""
    text = _plain(toks)
    if m := re.match(r"^i am in (?:the )?(\w+ grade)$", text):
        return _one("what grade are you in?", m.group(1), "wh.grade")
    levels = r"(high school|middle school|elementary school|junior high|grade school|grad school|college)"
    if m := re.match(rf"^i am (?:still )?in {levels}$", text):
        return _one("what level of school are you in?", m.group(1), "wh.grade")
    return []


def rule_hair(toks: Sequence[Tok]) -> list[Question]:
    """i am a blonde (girl with short hair) / i am a redhead -> what color is your hair? / blonde."""
    m = re.match(r"^i am an? (?:natural )?(blonde|blond|brunette|redhead)\b", _plain(toks))
    return _one("what color is your hair?", m.group(1), "wh.hair") if m else []


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
                return _one(f"when {q.q[:-1]}?", " ".join(date), "wh.when_future")
    return []


def rule_born_when(toks: Sequence[Tok]) -> list[Question]:
    """i was born in the early 80 s / in the nineties -> when were you born?"""
    decade = rf"(?:\d0 ?s|19\d0 ?s|(?:{_DECADES}))"
    m = re.match(rf"^i was born in (?:the )?((?:early |mid |late )?{decade})$", _plain(toks))
    return _one("when were you born?", m.group(1), "wh.born_when") if m else []


def rule_job_more(toks: Sequence[Tok]) -> list[Question]:
    """Jobs the occupation lexicon lacks (i am a famous twitch streamer), and long job names of relatives
    (my father was a door to door salesman -> what did your father do?)."""
    jobs = set(lexicon()["occupations"]) | MORE_JOBS
    text = _plain(toks)
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
        return _one(f"what {aux} your {m.group(1)} do?", m.group(3), "wh.job_more")
    return []


def rule_descendant(toks: Sequence[Tok]) -> list[Question]:
    """i am a descendant of christopher columbus -> who are you a descendant of?"""
    m = re.match(rf"^i am an? (?:direct )?descendant of {_ART}{_NP}$", _plain(toks))
    return _one("who are you a descendant of?", m.group(1), "wh.descendant") if m else []


def rule_military(toks: Sequence[Tok]) -> list[Question]:
    """i am in the army / i served in the navy -> what branch of the military are (were) you in?"""
    text = _plain(toks)
    if (m := re.match(r"^i am (?:in|with) the (\w+(?: \w+)?)$", text)) and m.group(1) in MILITARY:
        return _one("what branch of the military are you in?", m.group(1), "wh.military")
    if (m := re.match(r"^i (?:served|was) in the (\w+(?: \w+)?)$", text)) and m.group(1) in MILITARY:
        return _one("what branch of the military did you serve in?", m.group(1), "wh.military")
    return []


def rule_spent(toks: Sequence[Tok]) -> list[Question]:
    """i spent a decade working in the human services field -> how long did you work in the human services
    field? / a decade."""
    span = r"(a decade|two decades|a year|\w+ years|\w+ months)"
    m = re.match(rf"^i spent {span} (\w+ing) (.+)$", _plain(toks))
    verb = next((t.lemma for t in toks if m and t.text == m.group(2)), None)
    if not m or not verb or len(m.group(3).split()) > 6:
        return []
    rest = " ".join("your" if w == "my" else w for w in m.group(3).split())
    return _one(f"how long did you {verb} {rest}?", m.group(1), "wh.spent")


def rule_gender(toks: Sequence[Tok]) -> list[Question]:
    """i am a woman / i am male -> what is your gender? / woman."""
    m = re.match(r"^i am (?:an? )?(\w+)$", _plain(toks))
    return _one("what is your gender?", m.group(1), "wh.gender") if m and m.group(1) in GENDERS else []


def rule_marital(toks: Sequence[Tok]) -> list[Question]:
    """i am divorced / i am happily married -> what is your relationship status? / divorced."""
    m = re.match(r"^i am (?:happily |recently |newly )?(\w+)$", _plain(toks))
    ok = m and m.group(1) in MARITAL
    return _one("what is your relationship status?", m.group(1), "wh.marital") if ok else []  # type: ignore[union-attr]


def rule_moved(toks: Sequence[Tok]) -> list[Question]:
    """i (recently) moved to the city from texas -> where did you move to? / city; where did you move from?"""
    text = _plain(toks)
    place = r"(\w+(?: \w+)?)"
    m = re.match(
        rf"^i (?:recently |just )?moved (?:here |over )?(?:to {_ART}{place})?(?: ?from {_ART}{place})?$", text
    )
    if not m or not (m.group(1) or m.group(2)) or any(g and g.split()[0] in _DEICTIC for g in m.groups()):
        return []
    out = [Question("where did you move to?", m.group(1), "wh.moved")] if m.group(1) else []
    return out + ([Question("where did you move from?", m.group(2), "wh.moved")] if m.group(2) else [])


def rule_body(toks: Sequence[Tok]) -> list[Question]:
    """i am 6 feet tall -> how tall are you? / 6 feet; i weigh 200 pounds -> how much do you weigh?"""
    text = _plain(toks)
    if m := re.match(rf"^i am ({_NUMBER} (?:feet|foot|ft|inches|cm)(?: {_NUMBER}(?: inches)?)?) tall$", text):
        return _one("how tall are you?", m.group(1), "wh.height")
    if m := re.match(rf"^i weigh (?:over |about |around )?({_NUMBER} (?:pounds|lbs|kilos|kg))$", text):
        return _one("how much do you weigh?", m.group(1), "wh.weight")
    return []


def rule_job_past(toks: Sequence[Tok]) -> list[Question]:
    """i used to be a teacher / i was a nurse for 20 years -> what was your job? / teacher; i retired from
    teaching -> what did you retire from? / teaching."""
    text = _plain(toks)
    m = re.match(r"^i (?:used to be|was|worked as) an? ((?:\w+ ){0,2}\w+?)(?: for .+)?$", text)
    if m and _job_like(m.group(1)):
        return _one("what was your job?", m.group(1), "wh.job_past")
    if m := re.match(r"^i (?:am )?retired from (?:being an? )?((?:\w+ ){0,2}\w+)$", text):
        return _one("what did you retire from?", m.group(1), "wh.job_past")
    return []


def rule_degree(toks: Sequence[Tok]) -> list[Question]:
    """i have a degree in biology / i have a biology degree -> what is your degree in? / biology."""
    text = _plain(toks)
    m = re.match(r"^i (?:have|got|earned|hold) an? (?:\w+ )?degree in ((?:\w+ ){0,2}\w+)$", text) or re.match(
        r"^i (?:have|got|earned|hold) an? ((?:\w+ )?\w+) degree$", text
    )
    if not m or m.group(1) in ("college", "university", "masters", "bachelors", "master", "bachelor"):
        return []
    return _one("what is your degree in?", m.group(1), "wh.degree")


def rule_parent_of(toks: Sequence[Tok]) -> list[Question]:
    """i am a mother of two (kids) -> how many children do you have? / two."""
    m = re.match(rf"^i am an? (?:single |proud |stay at home )?(?:mother|father|mom|dad|parent) of {_NUMBER}"
                 r"(?: \w+)?(?: kids| children| boys| girls)?$", _plain(toks))  # fmt: skip
    return _one("how many children do you have?", m.group(1), "wh.parent_of") if m else []


def rule_their_age(toks: Sequence[Tok]) -> list[Question]:
    """my son is 5 (years old) -> how old is your son? / 5."""
    m = re.match(rf"^my (\w+) (is|are) {_NUMBER}(?: years old| months old)?$", _plain(toks))
    if not m or m.group(1) not in lexicon()["person_nouns"]:
        return []
    return _one(f"how old {m.group(2)} your {m.group(1)}?", m.group(3), "wh.their_age")


def rule_school(toks: Sequence[Tok]) -> list[Question]:
    """i graduated from harvard -> where did you graduate from?; i attend yale university -> where do you go
    to school?"""
    text = _plain(toks)
    if m := re.match(rf"^i (?:recently |just )?graduated from {_ART}{_NP}$", text):
        return _one("where did you graduate from?", m.group(1), "wh.school")
    if m := re.match(
        rf"^i (?:attend|go to) {_ART}(\w+(?: \w+){{0,2}} (?:university|college|school|academy))$", text
    ):
        return _one("where do you go to school?", m.group(1), "wh.school")
    return []


MORE_RULES: tuple[Callable[[Sequence[Tok]], list[Question]], ...] = (
    rule_age_decade,
    rule_major,
    rule_belief_diet,
    rule_spouse,
    rule_employer,
    rule_aim,
    rule_how_often,
    rule_raised,
    rule_favorite_kind,
    rule_their_work,
    rule_colors,
    rule_languages,
    rule_grade,
    rule_hair,
    rule_when_future,
    rule_born_when,
    rule_job_more,
    rule_descendant,
    rule_military,
    rule_spent,
    rule_gender,
    rule_marital,
    rule_moved,
    rule_body,
    rule_job_past,
    rule_degree,
    rule_parent_of,
    rule_their_age,
    rule_school,
)
