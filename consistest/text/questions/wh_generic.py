"""Generic WH rules over a parse: replace one exclusive constituent of the statement by a wh-word.

- ``wh.my_attr``: my goal is to run a k / knitting is my passion -> what is your goal? / what is your passion?
- ``wh.who_subj``: my dad taught me everything i know -> who taught you everything you know? / my dad
- ``wh.object``: i wear a helmet to protect my head -> what do you wear to protect your head? / helmet
- ``wh.prep``: i live with my husband -> who do you live with?; i compete in dog agility -> what do you
  compete in?; i play on the playground -> where do you play?
- ``wh.how_long``: i have been a nurse for ten years -> how long have you been a nurse? / ten years
- ``wh.pet_kind``: i have a pet turtle -> what type of pet do you have? / turtle

Open preferences (like, love, enjoy, eat, play, ...) are never asked about here: the agent may like
other things too (see filters.is_exclusive).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.text.lexicon import lexicon
from consistest.text.parse import Tok, children, subtree
from consistest.text.polarity import swap_person
from consistest.text.questions.yn_templates import Question, yn_question

_SKIP_VERBS = {"be", "have", "do", "get", "make", "go", "take", "need", "want", "know", "think", "feel",
               "mean", "say", "tell", "see", "hope", "guess", "try", "let", "keep", "give", "put", "find",
               "like", "love", "enjoy", "hate", "wish", "use", "spend", "come", "start", "begin", "stop",
               "prefer", "work"}  # fmt: skip
_PRONOUNS = {"it", "them", "this", "that", "these", "those", "something", "anything", "everything", "one",
             "nothing", "him", "her", "you", "lot", "lots", "some", "stuff", "things", "thing"}  # fmt: skip
_DETS = re.compile(r"^(?:a|an|the) ")
# "my X is my <role>": the role is what is asked (who is your best friend? / my pet turtle)
_ROLES = frozenset(
    ["friend", "hero", "idol", "inspiration", "passion", "life", "world", "everything", "baby"]
)


def _text(toks: Sequence[Tok]) -> str:
    return " ".join(t.text for t in sorted(toks, key=lambda t: t.i))


def _body(toks: Sequence[Tok], drop: set[int]) -> str | None:
    """The positive yes/no question of the statement without ``drop`` (no '?'), or None."""
    kept = [t for t in toks if t.i not in drop]
    q = yn_question(kept)
    if q is None or q.a != "yes" or q.q[:-1].split()[-1] in ("and", "but", "so", "or", "because"):
        return None  # a dangling conjunction: the constituent was not a clean cut
    return q.q[:-1]


question_body = _body  # public: AIH's entity questions are built the same way


def _root(toks: Sequence[Tok]) -> Tok | None:
    return next((t for t in toks if t.dep == "ROOT"), None)


def _first_person_root(toks: Sequence[Tok]) -> Tok | None:
    """The root verb of an "i VERB ..." statement (not be/have/preferences), else None."""
    root = _root(toks)
    if root is None or root.tag not in ("VBP", "VBD") or not toks or toks[0].text != "i":
        return None
    if root.lemma in _SKIP_VERBS or root.lemma in lexicon()["open_preference_verbs"]:
        return None
    if any(c.dep in ("neg", "cc", "conj") or c.text == "never" for c in children(toks, root.i)):
        return None  # negated, or coordinated (the split parts are asked on their own)
    return root


def _np_span(toks: Sequence[Tok], head: int, max_words: int = 4) -> list[Tok] | None:
    """The whole noun phrase of ``head`` when it is short and holds no clause or pronoun."""
    span = subtree(toks, head)
    if len(span) > max_words or any(t.is_verb or t.tag == "PRP" or t.text in _PRONOUNS for t in span):
        return None
    if any(t.is_num for t in span):  # numbers are asked by how many
        return None
    return span


def rule_my_attr(toks: Sequence[Tok]) -> list[Question]:
    """my X is Y / Y is my X -> what is your X? / Y (X an attribute, Y a noun phrase or to-infinitive)."""
    text = " ".join(t.text for t in toks if t.text not in lexicon()["drop_adverbs"])
    block = set(lexicon()["attribute_nouns_blocklist"]) | {"favorite", "favourite", "name"}
    root = _root(toks)
    if root is None or root.lemma != "be" or any(c.dep in ("acomp", "neg") for c in children(toks, root.i)):
        return []
    m = re.match(r"^my ((?:\w+ ){0,2}\w+) (is|are|was) (.+)$", text)
    if (
        m and m.group(3).startswith("my ") and m.group(3).split()[-1] in _ROLES
    ):  # "my turtle is my best friend"
        attr, verb, answer = m.group(3)[3:], m.group(2), f"my {m.group(1)}"
    elif m and m.group(3).startswith("my "):  # "my main transportation is my motorbike"
        attr, verb, answer = m.group(1), m.group(2), m.group(3)[3:]
    elif m:
        attr, verb, answer = m.group(1), m.group(2), _DETS.sub("", m.group(3))
    elif m := re.match(r"^((?:\w+ ){0,3}\w+) (is|are) my ((?:\w+ ){0,2}\w+)$", text):
        attr, verb, answer = m.group(3), m.group(2), m.group(1)
    else:
        return []
    words = attr.split()
    who = words[-1] in ("friend", "hero", "idol", "model", "inspiration")
    bad_answer = answer.split()[0] in (*lexicon()["unresolved_pronouns"], "i", "so", "very", "not", "a")
    person = words[-1] in lexicon()["person_nouns"] and not who
    if set(words) & block or person or bad_answer or len(answer.split()) > 5:
        return []
    wh = "who" if who else "what"
    return [Question(f"{wh} {verb} your {attr}?", answer, "wh.my_attr")]


def rule_who_subject(toks: Sequence[Tok]) -> list[Question]:
    """my dad taught me everything i know -> who taught you everything you know? / my dad."""
    root = _root(toks)
    if root is None or root.tag not in ("VBD", "VBZ") or root.lemma in ("be", "have"):
        return []
    subj = next((c for c in children(toks, root.i) if c.dep == "nsubj"), None)
    if subj is None or subj.text not in lexicon()["person_nouns"] or toks[0].text != "my":
        return []
    span = subtree(toks, subj.i)
    if len(span) > 3 or span[-1].i + 1 != root.i:
        return []
    rest = [t.text for t in toks if t.i > root.i and t.text not in lexicon()["drop_adverbs"]]
    if not rest or any(w in ("not", "never") for w in rest):
        return []
    return [Question(" ".join(["who", root.text, *swap_person(rest)]) + "?", _text(span), "wh.who_subj")]


def rule_object(toks: Sequence[Tok]) -> list[Question]:
    """i wear a motorbike helmet to protect my head -> what do you wear to protect your head?"""
    root = _first_person_root(toks)
    if root is None:
        return []
    obj = next((c for c in children(toks, root.i) if c.dep == "dobj"), None)
    span = _np_span(toks, obj.i) if obj is not None else None
    if span is None:
        return []
    body = _body(toks, {t.i for t in span})
    if body is None or not body.startswith(("do ", "did ")):
        return []
    wh = "who" if obj.text in lexicon()["person_nouns"] else "what"
    return [Question(f"{wh} {body}?", _DETS.sub("", _text(span)), "wh.object")]


def rule_prep(toks: Sequence[Tok]) -> list[Question]:
    """i live with my husband -> who do you live with?; i compete in dog agility -> what do you compete in?"""
    root = _first_person_root(toks)
    if root is None or any(c.dep == "dobj" for c in children(toks, root.i)):
        return []
    prep = next((c for c in children(toks, root.i) if c.dep == "prep" and c.i > root.i), None)
    if prep is not None and prep.text != "with" and root.lemma in ("live", "work", "volunteer", "grow"):
        return []  # rule_place asks where one lives / works
    pobj = next((c for c in children(toks, prep.i) if c.dep == "pobj"), None) if prep else None
    span = _np_span(toks, pobj.i) if pobj is not None else None
    if span is None or pobj.ent in ("DATE", "TIME"):
        return []
    body = _body(toks, {prep.i} | {t.i for t in span})
    if body is None or not body.startswith(("do ", "did ")):
        return []
    answer = _DETS.sub("", _text(span))
    place = pobj.ent in ("GPE", "LOC", "FAC") or pobj.text in lexicon()["place_nouns"]
    if prep.text in ("in", "at", "on") and place:
        return [Question(f"where {body}?", answer, "wh.where")]
    if prep.text == "with" and pobj.text in lexicon()["person_nouns"]:
        return [Question(f"who {body} with?", answer, "wh.prep")]
    if prep.text in ("in", "with", "on", "about"):
        return [Question(f"what {body} {prep.text}?", answer, "wh.prep")]
    return []


def rule_how_long(toks: Sequence[Tok]) -> list[Question]:
    """i have been a nurse for ten years -> how long have you been a nurse? / ten years."""
    units = ("years", "months", "weeks", "decades", "year", "month")
    for t in toks:
        if t.dep == "pobj" and t.text in units and toks[t.head].text == "for":
            prep = toks[t.head]
            if toks[prep.head].dep != "ROOT" or not any(c.is_num for c in children(toks, t.i)):
                continue
            span = subtree(toks, prep.i)
            body = _body(toks, {x.i for x in span})
            if body and body.startswith(("have ", "has ")):
                return [Question(f"how long {body}?", _text(span[1:]), "wh.how_long")]
    return []


def rule_pet_kind(toks: Sequence[Tok]) -> list[Question]:
    """i have a pet turtle -> what type of pet do you have? / turtle."""
    text = " ".join(t.text for t in toks if t.text not in lexicon()["drop_adverbs"])
    m = re.match(r"^i (have|own|got) (?:a|an) pet (\w+)$", text)
    if not m:
        return []
    aux = "did" if m.group(1) == "got" else "do"
    verb = "get" if m.group(1) == "got" else m.group(1)
    return [Question(f"what type of pet {aux} you {verb}?", m.group(2), "wh.pet_kind")]


GENERIC_RULES = (rule_my_attr, rule_who_subject, rule_object, rule_prep, rule_how_long, rule_pet_kind)
