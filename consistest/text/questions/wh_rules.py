"""WH questions by rules over a spaCy parse; the answer is the span the template consumed.

Each rule is a small function ``toks -> list[Question]``; their ids are the ``template`` of the QA.
Rules only ask for exclusive attributes (how many, how old, name, favorite, where one lives/works/is
from, job, colour, kind of a thing one has, when): see filters.is_exclusive for the neural side.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from consistest.text.lexicon import lexicon
from consistest.text.parse import Tok, subtree
from consistest.text.polarity import is_negated
from consistest.text.questions.wh_generic import GENERIC_RULES
from consistest.text.questions.wh_more import MORE_RULES
from consistest.text.questions.yn_templates import Question, number_slots, yn_question

NUM = r"(\d+|" + "|".join(lexicon()["number_words"]) + r")"


def _text(toks: Sequence[Tok]) -> str:
    return " ".join(t.text for t in toks)


def _plain(toks: Sequence[Tok]) -> str:
    """The statement without filler adverbs ("i actually have purple hair" -> "i have purple hair")."""
    drop = set(lexicon()["drop_adverbs"])
    return " ".join(t.text for t in toks if t.text not in drop)


def _without(toks: Sequence[Tok], drop: set[int]) -> str | None:
    """The yes/no question body of the statement with the tokens ``drop`` removed (no '?')."""
    kept = [t for t in toks if t.i not in drop]
    q = yn_question(kept)
    if q is None or q.a != "yes":
        return None
    return q.q[:-1]


def _np(toks: Sequence[Tok], root: int) -> list[Tok]:
    """The noun phrase of ``root`` up to the root itself plus compounds (no relative clauses)."""
    span = [t for t in subtree(toks, root) if t.i <= root]
    lo = root
    for t in reversed(span):
        if t.i == lo - 1:
            lo = t.i
    return [t for t in toks if lo <= t.i <= root]


def _bare(toks: Sequence[Tok]) -> list[Tok]:
    return [t for t in toks if t.dep not in ("det", "poss", "predet") and t.tag != "PRP$"]


def rule_count(toks: Sequence[Tok]) -> list[Question]:
    """i have two dogs -> how many dogs do you have? / two."""
    out = []
    nums = set(number_slots(toks))
    for t in toks:
        noun = toks[t.head]
        if t.text in nums and t.dep == "nummod" and noun.tag == "NNS" and toks[noun.head].dep == "ROOT":
            np = _np(toks, t.head)
            noun = [x for x in _bare(np) if x.i != t.i and x.dep not in ("quantmod", "advmod")]
            coord = {
                x.i for c in toks if c.head == t.head and c.dep in ("cc", "conj") for x in subtree(toks, c.i)
            }
            body = _without(toks, {x.i for x in np} | coord)  # "two dogs and a cat": the dogs only
            if body and noun and not body.startswith(("are", "is", "were", "was")):
                out.append(Question(f"how many {_text(noun)} {body}?", t.text, "wh.count"))
    return out[:1] or _count_owned(toks)


def _plural(noun: str) -> str:
    irregular = {"child": "children", "person": "people", "man": "men", "woman": "women", "wife": "wives"}
    if noun in irregular or noun.endswith("s"):
        return irregular.get(noun, noun)
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("ch", "sh", "x")) else "s")


def _count_owned(toks: Sequence[Tok]) -> list[Question]:
    """i am married with two kids / i have a collection of 1000 hats / i have one brother ->
    how many kids / hats / brothers do you have?"""
    text = _plain(toks)
    num = NUM[:-1] + "|one)"
    m = re.search(rf"\b(?:with|of|have|own) (?:over |about |almost |nearly )?{num} (\w+)$", text)
    if not m or not text.startswith(("i have ", "i own ", "i am ", "i live ")):
        return []
    noun = m.group(2)
    kinds = ("NN", "NNS") if m.group(1) == "one" else ("NNS",)
    if not any(t.text == noun and t.tag in kinds for t in toks) or noun in ("years", "times", "hours"):
        return []
    return [Question(f"how many {_plural(noun)} do you have?", m.group(1), "wh.count")]


def rule_age(toks: Sequence[Tok]) -> list[Question]:
    """i am 33 years old / i am 33 / i turned 18 -> how old are you? / 33."""
    text = _plain(toks)
    m = re.search(rf"\bi (?:am|turned|will be|just turned) (?:an? )?{NUM} ?years? old\b", text) or re.match(
        rf"^i (?:am|turned|will be|just turned) {NUM}$", text
    )
    return [Question("how old are you?", m.group(1), "wh.age")] if m else []


def rule_name(toks: Sequence[Tok]) -> list[Question]:
    """my name is X -> what is your name? ; i have a dog named X / my dog's name is X -> your dog's name."""
    text = _plain(toks)
    if m := re.match(r"^my name is (\w+(?: \w+)?)$", text):
        return [Question("what is your name?", m.group(1), "wh.name")]
    m = re.match(r"^(?:i have an? (?:\w+ )*?|my )(\w+) (?:is )?(?:named|called) (\w+(?: \w+)?)$", text)
    m = m or re.match(r"^my (\w+) 's name is (\w+(?: \w+)?)$", text)
    m = m or re.match(r"^my (\w+?)s name is (\w+(?: \w+)?)$", text)  # "my pets name is charlie"
    if m:
        return [Question(f"what is your {m.group(1)}'s name?", m.group(2), "wh.name_of")]
    return []


def rule_favorite(toks: Sequence[Tok]) -> list[Question]:
    """my favorite color is blue / blue is my favorite color -> what is your favorite color? / blue."""
    text = _plain(toks)
    m = re.match(r"^my (?:favorite|favourite) ([a-z]+(?: [a-z]+)?) (?:is|are) (.+)$", text)
    if m:
        return [Question(f"what is your favorite {m.group(1)}?", m.group(2), "wh.favorite")]
    m = re.match(r"^(.+?) (?:is|are) my (?:favorite|favourite) ([a-z]+(?: [a-z]+)?)$", text)
    if m and m.group(1) not in ("it", "that", "this", "they"):
        return [Question(f"what is your favorite {m.group(2)}?", m.group(1), "wh.favorite")]
    return []


def rule_color(toks: Sequence[Tok]) -> list[Question]:
    """my hair is purple / i have purple hair -> what color is your hair? / purple."""
    colors = "|".join(lexicon()["colors"])
    text = _plain(toks)
    m = re.match(rf"^my (\w+) (is|are) ({colors})$", text)
    if m:
        return [Question(f"what color {m.group(2)} your {m.group(1)}?", m.group(3), "wh.color")]
    if not text.startswith(("i have ", "i got ")):
        return []
    out = []  # "i have light skin with big brown eyes and red hair": both colours are asked
    for m in re.finditer(rf"\b({colors}) (?:\w+ )?(hair|eyes)\b", text):
        verb = "are" if m.group(2) == "eyes" else "is"
        out.append(Question(f"what color {verb} your {m.group(2)}?", m.group(1), "wh.color"))
    return out


def _pobj_after(toks: Sequence[Tok], lemmas: tuple[str, ...], preps: tuple[str, ...]) -> list[Tok] | None:
    for t in toks:
        if t.dep == "pobj" and toks[t.head].text in preps and toks[toks[t.head].head].lemma in lemmas:
            return _bare(_np(toks, t.i))
    return None


def rule_place(toks: Sequence[Tok]) -> list[Question]:
    """Where one lives, works, is from, grew up, was born (the place is the answer)."""
    text = _plain(toks)
    specs = (
        (
            r"^i (?:now |still )?(?:live|reside)\b",
            ("live", "reside"),
            ("in", "on"),
            "where do you live?",
            "wh.live",
        ),
        (r"^i (?:volunteer)\b", ("volunteer",), ("at", "in"), "where do you volunteer?", "wh.volunteer_at"),
        (r"^i work\b", ("work",), ("at", "for", "in"), "where do you work?", "wh.work_at"),
        (r"^i am from\b", ("be",), ("from",), "where are you from?", "wh.from"),
        (r"^i grew up\b", ("grow",), ("in",), "where did you grow up?", "wh.grew_up"),
        (r"^i was born\b", ("bear",), ("in",), "where were you born?", "wh.born"),
    )
    for pattern, lemmas, preps, q, template in specs:
        if re.match(pattern, text):
            np = _pobj_after(toks, lemmas, preps)
            if np:
                return [Question(q, _text(np), template)]
    return []


def rule_job(toks: Sequence[Tok]) -> list[Question]:
    """i work as a nurse / i am a baby delivery nurse -> what do you do for a living? / nurse."""
    jobs = set(lexicon()["occupations"])
    for t in toks:
        as_job = t.dep == "pobj" and toks[t.head].text == "as" and toks[toks[t.head].head].lemma == "work"
        be = toks[t.head]
        is_job = (
            t.dep == "attr"
            and be.lemma == "be"
            and be.dep == "ROOT"
            and t.text in jobs
            and toks[0].text == "i"
        )
        if (as_job or is_job) and t.tag.startswith("NN") and toks[t.head].i < 4:
            np = _bare(_np(toks, t.i))
            jobs_q = ("what do you do for a living?", "what do you do?")
            out = [Question(q, _text(np), "wh.job") for q in jobs_q]
            mods = [x for x in np if x.i < t.i and x.dep in ("amod", "compound") and not x.is_num]
            if mods and is_job:  # i am a mechanical engineer -> what type of engineer are you?
                out.append(Question(f"what type of {t.text} are you?", _text(np), "wh.job_type"))
            return out
    return []


def rule_kind(toks: Sequence[Tok]) -> list[Question]:
    """i have a black lab -> what kind of lab do you have? / black lab."""
    for t in toks:
        head = toks[t.head]
        owned = t.dep == "dobj" and head.lemma in ("have", "own") and head.i == 1
        if owned and t.tag == "NN" and len(toks) <= 8:
            np = _bare(_np(toks, t.i))
            mods = [x for x in np if x.i != t.i and x.dep in ("amod", "compound") and not x.is_num]
            clause = any(x.head == t.i and x.dep in ("acl", "relcl") for x in toks)
            if mods and len(np) <= 4 and not clause:
                body = _without(toks, {x.i for x in _np(toks, t.i)})
                if body and body.startswith(("do ", "did ")):
                    return [Question(f"what type of {t.text} {body}?", _text(np), "wh.kind")]
    return []


def rule_when(toks: Sequence[Tok]) -> list[Question]:
    """i won a medal in 1992 -> when did you win a medal? / 1992 (DATE entities only)."""
    for t in toks:
        if t.ent == "DATE" and t.dep == "pobj" and toks[t.head].text in ("in", "on", "since"):
            drop = {x.i for x in subtree(toks, t.head)}
            date = [x for x in toks if x.i in drop and x.i != t.head]
        elif t.ent == "DATE" and t.dep == "npadvmod":
            drop = {x.i for x in subtree(toks, t.i)}
            date = [x for x in toks if x.i in drop]
        else:
            continue
        body = _without(toks, drop)
        if body and body.split()[0] in ("did", "will", "were") and len(date) <= 4:
            return [Question(f"when {body}?", _text(date), "wh.when")]
    return []


def rule_drive(toks: Sequence[Tok]) -> list[Question]:
    """i drive a ford pinto -> what kind of car do you drive? / ford pinto."""
    text = _plain(toks)
    m = re.match(r"^i (?:now )?drive (?:a |an |the )?(\w+(?: \w+){0,2})$", text)
    if m and m.group(1).split()[-1] not in ("car", "lot", "much", "everywhere", "around"):
        return [Question("what kind of car do you drive?", m.group(1), "wh.drive")]
    return []


def rule_their_job(toks: Sequence[Tok]) -> list[Question]:
    """my parents were teachers / my mom is a nurse -> what do your parents do? / teachers."""
    jobs = set(lexicon()["occupations"])
    m = re.match(r"^my (\w+) (is|are|was|were) (?:an? )?((?:\w+ ){0,2}(\w+))$", _plain(toks))
    if not m or m.group(4).rstrip("s") not in jobs:
        return []
    aux = {"is": "does", "are": "do", "was": "did", "were": "did"}[m.group(2)]
    return [Question(f"what {aux} your {m.group(1)} do?", m.group(3), "wh.their_job")]


def rule_started_age(toks: Sequence[Tok]) -> list[Question]:
    """i started playing guitar when i was three -> how old were you when you started playing guitar?"""
    m = re.match(rf"^i (started|began) (.+) when i was {NUM}(?: years old)?$", _plain(toks))
    if m and len(m.group(2).split()) <= 4:
        return [
            Question(f"how old were you when you {m.group(1)} {m.group(2)}?", m.group(3), "wh.started_age")
        ]
    return []


RULES: tuple[Callable[[Sequence[Tok]], list[Question]], ...] = (
    rule_age,
    rule_name,
    rule_favorite,
    rule_color,
    rule_count,
    rule_place,
    rule_job,
    rule_kind,
    rule_when,
    rule_drive,
    rule_their_job,
    rule_started_age,
)


def wh_questions(toks: Sequence[Tok], max_answer_tokens: int = 5) -> list[Question]:
    """All rule WH questions of a positive statement (negated statements have no WH answer)."""
    if not toks or is_negated([t.text for t in toks]):
        return []
    out: list[Question] = []
    for rule in (*RULES, *GENERIC_RULES, *MORE_RULES):
        for q in rule(toks):
            if 0 < len(q.a.split()) <= max_answer_tokens:
                out.append(q)
    return out
