"""Answer-aware WH questions by rules: a first-person statement and an entity in it -> a question whose
answer is the entity.

Two steps, over a normalised parse (``i am``, lower case; see :func:`consistest.text.sentences.normalise`):

1. the builders' WH templates (:func:`~consistest.text.questions.wh_rules.wh_questions`) whose answer span
   holds the entity ("my dog's name is max" / max -> "what is your dog's name?");
2. else the entity's slot: the entity (with its preposition) is cut out, the rest becomes a question body
   ("do you live") and a wh-word by entity type and slot leads: ``how many dogs do you have?`` (a number on
   a plural noun), ``where do you work?`` (a place after at/in), ``when did you move here?`` (a date),
   ``who do you live with?`` (a person after a preposition), ``what do you play?`` (an object of the main
   verb), ``what is your name?`` (i am sarah).

Template ids: the builders' ids, or ``ent.count``, ``ent.where``, ``ent.when``, ``ent.who``, ``ent.what``,
``ent.name``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from consistest.text.entities import Entity, entities
from consistest.text.parse import Parsed, Tok, subtree
from consistest.text.questions.wh_generic import question_body
from consistest.text.questions.wh_rules import wh_questions
from consistest.text.questions.yn_templates import Question
from consistest.text.sentences import normalise, statement_pieces, strip_markers

WH_ENTITY_VERSION = 2  # 2: the builders' WH rules gained wh_more (issue 23)
PLACE_TYPES = frozenset({"GPE", "LOC", "FAC"})
TIME_TYPES = frozenset({"DATE", "TIME"})
NUMBER_TYPES = frozenset({"CARDINAL", "NUMBER", "QUANTITY", "MONEY", "PERCENT"})


def texts_to_parse(sentence: str) -> list[str]:
    """What :func:`sentence_questions` needs parsed: the sentence as said (cased text finds entities
    best) and its normalised first-person pieces (the templates' input)."""
    return [sentence, *statement_pieces(strip_markers(normalise(sentence)))]


def sentence_questions(sentence: str, parsed: Mapping[str, Parsed]) -> list[tuple[Entity, Question]]:
    """(entity, question) for every entity of a declarative sentence that some template asks about;
    ``parsed`` maps each of :func:`texts_to_parse` to its tokens."""
    raw, *pieces = texts_to_parse(sentence)
    out = []
    for ent in entities(parsed[raw]):
        words = strip_markers(normalise(ent.text)).split()
        for piece in pieces:
            span = locate(parsed[piece], words)
            if span is not None:
                out += [(ent, q) for q in entity_questions(parsed[piece], span, ent.label)]
                break
    return out


def locate(toks: Sequence[Tok], words: Sequence[str]) -> tuple[int, int] | None:
    """The first ``[start, end)`` token span whose texts are ``words`` (normalised), else None."""
    n = len(words)
    texts = [t.text for t in toks]
    for k in range(len(texts) - n + 1):
        if n and texts[k : k + n] == list(words):
            return k, k + n
    return None


def entity_questions(toks: Sequence[Tok], span: tuple[int, int], label: str) -> list[Question]:
    """Questions whose answer is the entity at ``span`` (token indices of ``toks``) of type ``label``; each
    question's ``a`` is the truth to check a reply against: the entity, or the template's answer when that
    is the part of the entity asked for ("how old are you?" / 33 for "33 years old")."""
    start, end = span
    words = [t.text for t in toks[start:end]]
    found = []
    for q in wh_questions(toks):
        if not fits(q.q, label):
            continue
        answer = q.a.split()
        if _holds(answer, words):
            found.append(Question(q.q, " ".join(words), q.template))
        elif _holds(words, answer):
            found.append(q)
    if found:
        return found
    q = slot_question(toks, start, end, label)
    return [q] if q is not None else []


def fits(question: str, label: str) -> bool:
    """Whether a question's wh-word can have an entity of this type as answer ("where were you born?"
    asks no date, "when ...?" only dates, "how many/old/long" only numbers and dates)."""
    amounts = NUMBER_TYPES | TIME_TYPES
    if question.startswith("where "):
        return label not in amounts
    if question.startswith("when "):
        return label in TIME_TYPES
    if question.startswith(("how many ", "how old ", "how long ")):
        return label in amounts
    return True


def _holds(longer: Sequence[str], words: Sequence[str]) -> bool:
    n = len(words)
    return n > 0 and any(list(longer[k : k + n]) == list(words) for k in range(len(longer) - n + 1))


def _head(toks: Sequence[Tok], start: int, end: int) -> Tok:
    """The span's token whose head lies outside the span (its syntactic head)."""
    inside = range(start, end)
    return next((t for t in toks[start:end] if t.head not in inside or t.head == t.i), toks[end - 1])


def slot_question(toks: Sequence[Tok], start: int, end: int, label: str) -> Question | None:
    """The question that replaces the entity's slot with a wh-word (see the module docstring); its answer
    is the entity."""
    found = _slot(toks, start, end, label)
    if found is None or found[0] is None:
        return None
    return Question(found[0], " ".join(t.text for t in toks[start:end]), found[1])


def _slot(toks: Sequence[Tok], start: int, end: int, label: str) -> tuple[str | None, str] | None:
    head = _head(toks, start, end)
    governor = toks[head.head]
    main = governor.dep == "ROOT"
    if (
        label == "PERSON"
        and main
        and governor.lemma == "be"
        and head.dep in ("attr", "acomp")
        and toks[0].text == "i"
    ):
        return "what is your name?", "ent.name"  # i am sarah
    if head.dep == "nummod" and governor.tag == "NNS" and governor.dep in ("dobj", "pobj", "attr"):
        np = subtree(toks, governor.i)
        noun = " ".join(t.text for t in np if head.i < t.i <= governor.i)
        prep = toks[governor.head] if governor.dep == "pobj" else None
        drop = {t.i for t in np} | ({prep.i} if prep is not None else set())
        return _ask(toks, drop, f"how many {noun}", tail=prep.text if prep is not None else ""), "ent.count"
    if head.dep == "pobj" and governor.dep == "prep":
        drop = {t.i for t in subtree(toks, governor.i)}
        if label in PLACE_TYPES or (label == "ORG" and governor.text in ("at", "for", "in")):
            return _ask(toks, drop, "where"), "ent.where"
        if label in TIME_TYPES:
            return _ask(toks, drop, "when"), "ent.when"
        wh = "who" if label == "PERSON" else "what"
        return _ask(toks, drop, wh, tail=governor.text), f"ent.{wh}"
    if main and head.dep in ("dobj", "attr", "npadvmod", "oprd") and label not in NUMBER_TYPES:
        drop = {t.i for t in subtree(toks, head.i)}
        wh = "when" if label in TIME_TYPES else "who" if label == "PERSON" else "what"
        return _ask(toks, drop, wh), f"ent.{wh}"
    return None


def _ask(toks: Sequence[Tok], drop: set[int], wh: str, tail: str = "") -> str | None:
    """``wh + body + tail?`` where body is the statement without ``drop`` as a question ("do you live")."""
    body = question_body(toks, drop)
    if body is None or len(body.split()) < 2:
        return None
    return " ".join(x for x in (wh, body, tail) if x) + "?"
