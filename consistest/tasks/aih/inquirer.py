"""The inquirer: after an evaluated bot's utterance, one question about an entity it just stated.

Interrogative sentences are dropped; entities (spaCy named entities, numbers, proper nouns) are found in
each remaining sentence; an answer-aware generator makes a question per entity whose answer is the entity
(``rules``: :mod:`consistest.text.questions.wh_entity`; ``neural``: a T5 qg-hl model, the sentence in the
second person with the entity highlighted); one candidate is picked with ``Random(f"{seed}:{item id}")``.

``statements`` asks like ``rules`` when the utterance states an entity, and otherwise about any informative
first-person statement it makes (:mod:`consistest.text.questions.statements`: a yes/no question, the
builders' WH rules, or *what* in place of the verb's object: "i love hiking" -> *what do you love?*).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from consistest.metrics.clean import clean_response, is_interrogative, reply_sentences
from consistest.models.base import AnswerAwareQuestionGenerator
from consistest.tasks.aih.config import InquirerKind
from consistest.text.entities import ENTITIES_VERSION, Entity, entities
from consistest.text.lexicon import lexicon
from consistest.text.parse import parse_all, spacy_model_name
from consistest.text.polarity import swap_person
from consistest.text.questions.statements import STATEMENTS_VERSION, statement_questions
from consistest.text.questions.wh_entity import WH_ENTITY_VERSION, sentence_questions, texts_to_parse
from consistest.text.sentences import normalise, statement_pieces, strip_markers


@dataclass(frozen=True)
class Inquiry:
    """The question asked about one entity of an utterance, and what a consistent answer holds (truth)."""

    sentence: str
    entity: str
    label: str
    truth: str
    question: str
    template: str
    candidates: int


def declarative_sentences(utterance: str) -> list[str]:
    """The utterance's sentences without questions ("i love hiking , do you ?" keeps "i love hiking")."""
    out = []
    for s in reply_sentences(utterance):
        kept = clean_response(s) if s.endswith("?") and "," in s else s
        if kept and not is_interrogative(kept):
            out.append(kept)
    return out


class Inquirer:
    """Makes the inquiry after each utterance (None when it states no entity a question can be made for)."""

    def __init__(self, kind: InquirerKind, seed: int, qg: AnswerAwareQuestionGenerator | None = None) -> None:
        if kind == "neural" and qg is None:
            raise ValueError("the neural inquirer needs an answer-aware question generator")
        self.kind, self.seed, self.qg = kind, seed, qg

    def signature_value(self) -> str:
        """``rules-ent1-whe2-<lexicon>+<spacy>``, ``statements-ent1-whe2-st1-<lexicon>+<spacy>`` or
        ``neural-<qg model>+ent1+<spacy>``."""
        spacy = spacy_model_name()
        if self.kind == "rules":
            return f"rules-ent{ENTITIES_VERSION}-whe{WH_ENTITY_VERSION}-{lexicon()['version']}+{spacy}"
        if self.kind == "statements":
            versions = f"ent{ENTITIES_VERSION}-whe{WH_ENTITY_VERSION}-st{STATEMENTS_VERSION}"
            return f"statements-{versions}-{lexicon()['version']}+{spacy}"
        assert self.qg is not None
        return f"neural-{self.qg.name}+ent{ENTITIES_VERSION}+{spacy}"

    def ask(self, items: Sequence[tuple[str, str]]) -> dict[str, Inquiry | None]:
        """item id -> the inquiry about that utterance (one random candidate, seeded by the item id)."""
        sentences = {i: declarative_sentences(u) for i, u in items}
        flat = [s for ss in sentences.values() for s in ss]
        found = self._neural(flat) if self.kind == "neural" else self._rules(flat)
        stated = self._statements(flat) if self.kind == "statements" else {}
        out: dict[str, Inquiry | None] = {}
        for item_id, ss in sentences.items():
            cands = [c for s in ss for c in found.get(s, [])]
            cands = cands or [c for s in ss for c in stated.get(s, [])]  # entities first, as the paper asks
            out[item_id] = None
            if cands:
                pick = cands[random.Random(f"{self.seed}:{item_id}").randrange(len(cands))]
                out[item_id] = Inquiry(**pick, candidates=len(cands))
        return out

    def _rules(self, sentences: Sequence[str]) -> dict[str, list[dict[str, str]]]:
        parsed = parse_all([t for s in sentences for t in texts_to_parse(s)])
        return {
            s: [_candidate(s, e, q.a, q.q, q.template) for e, q in sentence_questions(s, parsed)]
            for s in sentences
        }

    def _statements(self, sentences: Sequence[str]) -> dict[str, list[dict[str, str]]]:
        """Questions about each sentence's first-person statements (coordinated verbs asked apart)."""
        from consistest.text.clauses import coordinated

        pieces = {s: statement_pieces(strip_markers(normalise(s))) for s in sentences}
        parsed = parse_all([p for ps in pieces.values() for p in ps])
        units = {p: coordinated(parsed[p]) or [p] for ps in pieces.values() for p in ps}
        parsed.update(parse_all([u for us in units.values() for u in us if u not in parsed]))
        out: dict[str, list[dict[str, str]]] = {}
        for s, ps in pieces.items():
            qs = {q.q: q for p in ps for u in units[p] for q in statement_questions(parsed[u])}
            out[s] = [_candidate_of(s, q) for q in qs.values()]
        return out

    def _neural(self, sentences: Sequence[str]) -> dict[str, list[dict[str, str]]]:
        assert self.qg is not None
        parsed = parse_all(list(sentences))
        spots = [(s, e) for s in sentences for e in entities(parsed[s])]
        contexts = [(_second_person(s), _words(e.text)) for s, e in spots]
        questions = self.qg.generate(contexts) if contexts else []
        out: dict[str, list[dict[str, str]]] = {s: [] for s in sentences}
        for (s, e), q in zip(spots, questions, strict=True):
            if q.strip():
                out[s].append(_candidate(s, e, _words(e.text), q.strip(), "neural"))
        return out


def _candidate(sentence: str, ent: Entity, truth: str, question: str, template: str) -> dict[str, str]:
    return dict(sentence=sentence, entity=ent.text, label=ent.label, truth=truth, question=question,
                template=template)  # fmt: skip


def _candidate_of(sentence: str, q: Any) -> dict[str, str]:
    """A statement question as a candidate (entity: the WH truth; none for yes/no)."""
    entity = "" if q.template.startswith("st.yn") else q.a
    return dict(sentence=sentence, entity=entity, label="STATEMENT", truth=q.a, question=q.q,
                template=q.template)  # fmt: skip


def _words(text: str) -> str:
    return strip_markers(normalise(text))


def _second_person(sentence: str) -> str:
    """What the bot said, as said to it ("i have two dogs" -> "you have two dogs")."""
    return " ".join(swap_person(normalise(sentence).split()))
