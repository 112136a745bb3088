"""Trigger variants of the benchmark (``consistest build --triggers``): CDConv's ways of provoking a
contradiction, applied to each sample's final user turn, each with a correctly derived truth.

- ``paraphrase``: the same question in other words (offline templates: a declarative frame for Y/N, an
  embedded question for WH, or a casual opener); same truth.
- ``synonym``: one word swapped for a synonym (WordNet nouns when its data is installed, else the versioned
  lexicon); same truth.
- ``antonym``: a complementary antonym in the predicate slot ("do you like cats ?" -> "do you dislike
  cats ?"); Y/N only, the truth flips.
- ``negation``: the negative question ("don't you like cats ?"); Y/N only, same truth (English answers a
  negative question by the proposition: "yes, i do"); not when negation or a quantifier would make the
  expected answer ambiguous.
- ``short``: an uninformative turn ("ok .") in place of the question: no truth, only contradiction
  categories are judged.

Every variant is checked well formed (a question with a second person; for Y/N the scorer's short forms
read the truth back from it) or dropped and counted. Rows are the base sample with the question replaced,
plus ``trigger``, ``base_id`` and ``trigger_rule``; each base sample's ``original`` row comes first.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib import resources
from typing import Any, Literal, Protocol, get_args

from consistest.core.errors import InputError
from consistest.core.records import Sample, content_hash
from consistest.metrics.rules import judge, truth_polarity
from consistest.metrics.shortforms import short_forms

Trigger = Literal["paraphrase", "synonym", "antonym", "negation", "short"]
TRIGGERS: tuple[Trigger, ...] = get_args(Trigger)
TRIGGERS_VERSION = 1  # bump when a rule changes the variants (the lexicon has its own version)
ORIGINAL = "original"
Variant = tuple[str, str, str]  # (question, truth, rule)


@functools.cache
def trigger_lexicon() -> dict[str, Any]:
    """The versioned word lists and templates (data/triggers.json)."""
    text = resources.files("consistest.tasks.consistest").joinpath("data/triggers.json").read_text("utf-8")
    return json.loads(text)


def parse_triggers(text: str) -> tuple[Trigger, ...]:
    """``"paraphrase,short"`` -> ("paraphrase", "short") in canonical order; unknown names are errors."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in names if t not in TRIGGERS]
    if not names:
        raise InputError(f"names no trigger ({text!r}); choose from {', '.join(TRIGGERS)}", field="triggers")
    if bad:
        raise InputError(f"unknown trigger {bad[0]!r}; choose from {', '.join(TRIGGERS)}", field="triggers")
    return tuple(t for t in TRIGGERS if t in names)


def words(text: str) -> list[str]:
    """Lower-cased word and punctuation tokens ("pets?" -> pets, ?)."""
    return re.findall(r"[\w']+|[^\w\s]", text.lower())


def join(toks: Sequence[str]) -> str:
    return " ".join(toks)


# ---------------------------------------------------------------- synonym sources
def wordnet_synonyms() -> Callable[[str], list[str]] | None:
    """Noun synonyms of a word's most frequent WordNet sense, when nltk's WordNet data is installed."""
    try:
        from nltk.corpus import wordnet as wn

        wn.ensure_loaded()
    except (ImportError, LookupError, OSError):
        return None

    def synonyms(word: str) -> list[str]:
        senses = wn.synsets(word, pos=wn.NOUN)
        if not senses:
            return []
        names = [n.replace("_", " ") for n in senses[0].lemma_names()]
        return [n for n in names if n != word and n.isalpha() and n.islower()]

    return synonyms


def synonym_source() -> tuple[str, Callable[[str], list[str]]]:
    """(name for the signature, word -> synonyms): WordNet when installed, else the lexicon."""
    lex = trigger_lexicon()
    wordnet = wordnet_synonyms()
    if wordnet is not None:
        return "wordnet", lambda w: wordnet(w) or list(lex["synonyms"].get(w, []))
    return lex["version"], lambda w: list(lex["synonyms"].get(w, []))


# ---------------------------------------------------------------- the rules
def paraphrase(question: str, qtype: str, rng: random.Random) -> tuple[str, str] | None:
    """A frame that keeps the meaning: Y/N "is it true that you ...", WH "can you tell me what ...",
    else a casual opener ("just curious , ...")."""
    lex = trigger_lexicon()
    toks = [t for t in words(question) if t != "?"]
    text = join(toks)
    table, frames = (
        (lex["declarative_yn"], lex["yn_frames"]) if qtype == "yn" else (lex["embedded_wh"], lex["wh_frames"])
    )
    for head, body in table.items():
        if qtype == "yn" and text.startswith(head + " "):
            frame = rng.choice(frames)
            return frame.format(s=body + text[len(head) :]), f"declarative:{head}"
        if qtype == "wh" and toks and toks[0] in WH_WORDS and f" {head} " in f" {text} ":
            before, _, after = text.partition(f" {head} ")
            if head in ("is your", "are your"):
                after = f"{after} {head.split()[0]}"
            if len(before.split()) <= 4 and after:
                return rng.choice(frames).format(s=f"{before} {body} {after}"), f"embedded:{head}"
    if qtype == "yn":  # the auxiliary must stay first: the scorer builds its short forms from it
        return rng.choice(lex["casual_suffixes"]).format(q=text), "casual"
    return rng.choice(lex["casual_frames"]).format(q=join(words(question))), "casual"


WH_WORDS = frozenset({"what", "where", "who", "which", "how", "when", "why", "whose"})


def synonym(
    question: str, synonyms: Callable[[str], list[str]], rng: random.Random
) -> tuple[str, str] | None:
    """One content word replaced by a synonym (a content-seeded choice among the candidates)."""
    toks = words(question)
    cands = [(i, s) for i, t in enumerate(toks) if t not in FUNCTION_WORDS for s in synonyms(t)]
    if not cands:
        return None
    i, s = rng.choice(cands)
    before = toks[:i]
    if before and before[-1] in ("a", "an"):  # a lawyer -> an attorney
        before[-1] = "an" if s[0] in "aeiou" else "a"
    return join([*before, s, *toks[i + 1 :]]), f"{toks[i]}->{s}"


FUNCTION_WORDS = frozenset(
    ["do", "does", "did", "you", "your", "are", "is", "was", "were", "have", "has", "had", "can", "could",
     "will", "would", "i", "my", "me", "a", "an", "the", "to", "of", "in", "on", "at", "for", "with", "and",
     "or", "any", "some"]
)  # fmt: skip
_SLOT = re.compile(
    r"^(?P<head>(?:do|does|did) you|(?:are|were) you)(?P<adv> (?:really|still|currently|now))? (?P<w>\w+)\b"
)


def antonym(question: str, qtype: str, truth: str) -> tuple[str, str, str] | None:
    """A complementary antonym in the predicate slot; the Y/N truth flips."""
    polarity = truth_polarity(truth)
    if qtype != "yn" or polarity is None:
        return None
    lex = trigger_lexicon()
    text = join(words(question))
    m = _SLOT.match(text)
    if m is None or m["w"] not in lex["antonyms"]:
        return None
    verb = m["head"].split()[0] in ("do", "does", "did")
    if verb != (m["w"] in lex["antonym_verbs"]):
        return None
    new = text[: m.start("w")] + lex["antonyms"][m["w"]] + text[m.end("w") :]
    return new, "no" if polarity == "yes" else "yes", f"{m['w']}->{lex['antonyms'][m['w']]}"


def negation(question: str, qtype: str) -> tuple[str, str] | None:
    """The negative Y/N question ("do you ..." -> "don't you ..."), not when the question already holds a
    negation or a quantifier (the expected answer would be ambiguous)."""
    lex = trigger_lexicon()
    toks = words(question)
    if qtype != "yn" or len(toks) < 3 or toks[1] not in ("you", "your"):
        return None
    if toks[0] not in lex["negations"] or set(toks) & set(lex["negation_blockers"]):
        return None
    return join([lex["negations"][toks[0]], *toks[1:]]), f"{toks[0]}->{lex['negations'][toks[0]]}"


# ---------------------------------------------------------------- checks and rows
def well_formed(question: str, truth: str, qtype: str, trigger: str) -> str | None:
    """Why a variant is malformed, or None: a question with a second person, no doubled word, and for Y/N
    short forms the scorer can build, reading the truth back (its yes/no word scores 1, the other 0)."""
    toks = words(question)
    if trigger == "short":
        return None
    if not toks or toks[-1] != "?":
        return "not a question"
    if not {"you", "your", "u"} & set(toks):
        return "no second person"
    if any(a == b and a.isalpha() for a, b in zip(toks, toks[1:], strict=False)):
        return "doubled word"
    if qtype == "yn":
        polarity = truth_polarity(truth)
        if polarity is None or short_forms(toks) is None:
            return "no short forms"
        other = "no" if polarity == "yes" else "yes"
        if judge(question, truth, "yn", f"{polarity} .").rule_score != 1.0:
            return "truth not read back"
        if judge(question, truth, "yn", f"{other} .").rule_score != 0.0:
            return "opposite not read back"
    return None


class Paraphraser(Protocol):
    """A model that rewrites questions (``models.paraphrase.HFParaphraser``), candidates best first."""

    name: str

    def paraphrase(self, texts: Sequence[str]) -> list[list[str]]: ...


def model_paraphrase(s: Sample, candidates: Sequence[str], name: str) -> Variant | None:
    """The first model candidate that is well formed and says something else than the question."""
    for c in candidates:
        text = join(words(c))
        if text != join(words(s.question)) and well_formed(text, s.answer, s.type, "paraphrase") is None:
            return text, s.answer, f"model:{name}"
    return None


def variants_of(
    s: Sample,
    triggers: Sequence[Trigger],
    synonyms: Callable[[str], list[str]],
    neural: Variant | None = None,
) -> list[tuple[Trigger, Variant]]:
    """The candidate variants of one sample (before the well-formedness check), content-seeded; ``neural``
    is a model's paraphrase, used instead of the templates when there is one."""
    out: list[tuple[Trigger, Variant]] = []
    for t in triggers:
        rng = random.Random(f"{TRIGGERS_VERSION}:{t}:{s.id}")
        if t == "paraphrase":
            got = paraphrase(s.question, s.type, rng)
            v = neural or ((got[0], s.answer, got[1]) if got else None)
        elif t == "synonym":
            got = synonym(s.question, synonyms, rng)
            v = (got[0], s.answer, got[1]) if got else None
        elif t == "antonym":
            v = antonym(s.question, s.type, s.answer)
        elif t == "negation":
            got = negation(s.question, s.type)
            v = (got[0], s.answer, got[1]) if got else None
        else:
            v = (rng.choice(trigger_lexicon()["short_turns"]), "", "short")
        if v is not None:
            out.append((t, v))
    return out


def trigger_row(s: Sample, trigger: str, variant: Variant) -> dict[str, Any]:
    """The base sample with its final turn replaced (and its truth, for antonyms) plus the trigger fields."""
    question, truth, rule = variant
    history = [*s.history[:-1], question]
    new = replace(
        s, id=content_hash(s.id, trigger, question), history=history, question=question, answer=truth
    )
    return {**new.to_dict(), "trigger": trigger, "base_id": s.id, "trigger_rule": rule}


def make_trigger_rows(
    samples: Sequence[Sample], triggers: Sequence[Trigger], paraphraser: Paraphraser | None = None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Rows (each base sample's original, then its well-formed variants) and counts for build_info."""
    lexicon, synonyms = synonym_source()
    neural: dict[str, list[str]] = {}
    if paraphraser is not None and "paraphrase" in triggers:
        questions = sorted({s.question for s in samples})
        neural = dict(zip(questions, paraphraser.paraphrase(questions), strict=True))
    rows: list[dict[str, Any]] = []
    made, dropped = Counter(), Counter()
    for s in samples:
        rows.append(trigger_row(s, ORIGINAL, (s.question, s.answer, "")))
        by_model = model_paraphrase(s, neural.get(s.question, []), paraphraser.name) if paraphraser else None
        for t, v in variants_of(s, triggers, synonyms, by_model):
            why = well_formed(v[0], v[1], s.type, t)
            if why is None and v[0] != s.question:
                rows.append(trigger_row(s, t, v))
                made[t] += 1
            else:
                dropped[f"{t}: {why or 'unchanged'}"] += 1
    info = {
        "triggers": list(triggers),
        "version": TRIGGERS_VERSION,
        "lexicon": lexicon + (f"+{paraphraser.name}" if paraphraser is not None else ""),
        "counts": {t: made[t] for t in triggers},
        "dropped": dict(sorted(dropped.items())),
    }
    return rows, info
