"""Yes/no questions by rule templates: first-person statement -> second-person question + truth.

Template ids (kept on each QA): ``yn.be`` (i am X -> are you X?), ``yn.aux`` (i can / i will / i have
V-en -> can you / will you / have you), ``yn.do`` (i like X -> do you like X?, i drove -> did you drive),
suffix ``.neg`` when the statement is negated (truth ``no``), ``.cf_number`` / ``.cf_slot`` for
counterfactual questions (truth ``no``) made by swapping a number or an object for another one of the
same kind seen elsewhere in the corpus.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from consistest.text.lexicon import lexicon
from consistest.text.parse import Tok, subtree
from consistest.text.polarity import drop_negation, swap_person

MAX_QUESTION_WORDS = 22
_LIKE = ("love", "enjoy", "adore")  # asked as "do you like ...?", the curated phrasing (and implied)


@dataclass(frozen=True)
class Question:
    """A generated question with its truth and the template that made it."""

    q: str
    a: str
    template: str


def _verb_pos(toks: Sequence[Tok]) -> int | None:
    """Position of the first finite verb/auxiliary after a first-person subject, else None."""
    if not toks or toks[0].text not in ("i", "my"):
        return None
    for k, t in enumerate(toks[1:], start=1):
        if t.tag in ("MD", "VBP", "VBZ", "VBD"):
            return k
        if toks[0].text == "i" and t.tag not in ("RB", "RBR", "RBS"):
            return None
    return None


def _clean_tail(ws: list[str]) -> list[str]:
    drop = set(lexicon()["drop_adverbs"])
    ws = [w for w in ws if w not in drop]
    if ws[-2:] == ["as", "well"]:
        ws = ws[:-2]
    return ws


def _head_word(verb: Tok, subj: list[str], nxt: Tok | None, after: str) -> tuple[str, str, bool] | None:
    """(question head word, template kind, whether the verb itself is consumed by the head)."""
    aux_q = lexicon()["aux_questions"]
    if verb.lemma == "do" and ((nxt is not None and nxt.tag == "VB") or after in ("not", "never")):
        return verb.text, "do", True  # "i do not eat meat" -> "do you eat meat"
    if verb.text in aux_q and (verb.lemma != "have" or (nxt is not None and nxt.tag in ("VBN", "VBG"))):
        word = aux_q[verb.text] if subj == ["i"] else verb.text
        return word, ("be" if verb.lemma == "be" else "aux"), True
    if verb.tag in ("VBP", "VBZ", "VBD"):
        tag = "VBP" if verb.tag == "VBD" and verb.text == verb.lemma and subj == ["i"] else verb.tag
        return lexicon()["do_support"][tag], "do", False  # "i read" is present more often than past
    return None


def yn_question(toks: Sequence[Tok]) -> Question | None:
    """The main yes/no question of a statement, truth by its polarity (None when no template fits)."""
    v = _verb_pos(toks)
    if v is None:
        return None
    ws = [t.text for t in toks]
    subj, adverbs = (["i"], ws[1:v]) if ws[0] == "i" else (ws[:v], [])
    verb, rest = toks[v], ws[v + 1 :]
    nxt = next((t for t in toks[v + 1 :] if t.tag != "RB"), None)
    head = _head_word(verb, subj, nxt, toks[v + 1].text if v + 1 < len(toks) else "")
    if head is None:
        return None
    word, kind, consumed = head
    neg = any(w in lexicon()["negations"] for w in adverbs + rest)
    lemma = "like" if verb.lemma in _LIKE and not neg else verb.lemma  # i love x -> do you like x?
    body = rest if consumed else [lemma, *rest]
    body = _clean_tail(drop_negation([w for w in adverbs if w not in ("not", "never")] + body))
    if not body:
        return None
    q_words = [word, *swap_person(subj), *swap_person(body)]
    if len(q_words) > MAX_QUESTION_WORDS:
        return None
    return Question(" ".join(q_words) + "?", "no" if neg else "yes", f"yn.{kind}" + (".neg" if neg else ""))


def fix_articles(text: str) -> str:
    """a/an agreement after a word swap ("a engineer" -> "an engineer")."""
    text = re.sub(r"\ba (?=[aeiou])", "an ", text)
    return re.sub(r"\ban (?=[^aeiou\W])", "a ", text)


def history_worthy(toks: Sequence[Tok], max_words: int = 10) -> bool:
    """Ask Y/N about a history statement only when it is short, its verb states a lasting fact
    (be, have, live, work, like, ...) and it holds no transient time word (today, now, ...)."""
    v = _verb_pos(toks)
    if v is None or len(toks) > max_words or set(t.text for t in toks) & set(lexicon()["transient_words"]):
        return False
    main = next(
        (t for t in toks[v:] if t.tag.startswith("VB") and t.tag not in ("VBG",) or t.lemma == "be"), None
    )
    lemma = toks[v].lemma if toks[v].tag != "MD" else (main.lemma if main else "")
    if lemma == "do":  # "i do not like clowns": the fact is in the main verb
        lemma = next((t.lemma for t in toks[v + 1 :] if t.tag == "VB"), lemma)
    content = any(t.tag.startswith(("NN", "JJ", "CD")) for t in toks[v + 1 :])
    if any(t.text in ("not", "never") for t in toks[v:]):  # "i can not drive", "i do not knit"
        return lemma in lexicon()["fact_verbs"]
    return lemma in lexicon()["fact_verbs"] and content and toks[v].tag != "MD"


# ---- counterfactual "no" questions ---------------------------------------------------------------


def _num_form(word: str) -> str:
    return "digit" if word.isdigit() else "word"


def number_slots(toks: Sequence[Tok]) -> list[str]:
    """Counting numbers in a statement (years and ordinals left out)."""
    out = []
    for t in toks:
        counting = t.text in lexicon()["number_words"] or (t.text.isdigit() and 1 < int(t.text) < 1000)
        if t.tag == "CD" and counting:
            out.append(t.text)
    return out


def object_slots(toks: Sequence[Tok]) -> list[tuple[str, str]]:
    """(kind, object) pairs whose object is exclusive for its kind: i drive a bmw -> ("drive", "bmw")."""
    kinds = set(lexicon()["counterfactual_kinds"])
    out: list[tuple[str, str]] = []
    for t in toks:
        if t.dep == "dobj" and toks[t.head].lemma in kinds:
            out.append((toks[t.head].lemma, _bare_np(toks, t.i)))
        elif t.dep == "pobj" and toks[t.head].dep == "prep":
            prep = toks[t.head]
            key = f"{toks[prep.head].lemma}:{prep.text}"
            if key in kinds:
                out.append((key, _bare_np(toks, t.i)))
        elif t.dep == "attr" and toks[t.head].lemma == "be" and t.text in lexicon()["occupations"]:
            out.append(("be:attr_job", _bare_np(toks, t.i)))
    ws = [t.text for t in toks]
    m = re.match(r"my (?:favorite|favourite) (\w+) (?:is|are) (.+)$", " ".join(ws))
    if m and len(m.group(2).split()) <= 3:
        out.append((f"favorite:{m.group(1)}", m.group(2)))
    return [(k, o) for k, o in out if o and len(o.split()) <= 3]


def _bare_np(toks: Sequence[Tok], root: int) -> str:
    """A noun phrase without determiners/possessives and without trailing clauses."""
    keep = [t for t in subtree(toks, root) if t.i <= root or t.dep in ("compound",)]
    keep = [t for t in keep if t.dep not in ("det", "poss", "predet") and t.tag not in ("PRP$",)]
    return " ".join(t.text for t in keep if t.i >= min(k.i for k in keep))


def counterfactual(
    toks: Sequence[Tok], base: Question, pool: Mapping[str, Sequence[str]], rng: random.Random
) -> Question | None:
    """A "no" question: the positive question with a number or an exclusive object swapped."""
    if base.a != "yes":
        return None
    q = base.q
    nums = number_slots(toks)
    if nums:
        old = nums[0]
        cands = [n for n in pool.get("number", ()) if _num_form(n) == _num_form(old) and n != old]
        new = rng.choice(cands) if cands else None
        if new and re.search(rf"\b{re.escape(old)}\b", q):
            new_q = re.sub(rf"\b{re.escape(old)}\b", new, q, count=1)
            return Question(new_q, "no", base.template + ".cf_number")
    fact = " ".join(t.text for t in toks)
    for kind, obj in object_slots(toks):
        cands = [o for o in pool.get(kind, ()) if o != obj and o not in fact and obj not in o]
        if cands and re.search(rf"\b{re.escape(obj)}\b", q):
            new = rng.choice(cands)
            new_q = fix_articles(re.sub(rf"\b{re.escape(obj)}\b", new, q, count=1))
            return Question(new_q, "no", base.template + ".cf_slot")
    return None


def build_pool(parsed: Sequence[Sequence[Tok]]) -> dict[str, list[str]]:
    """Numbers and exclusive objects by kind over the corpus, sorted (the choice is seeded by content)."""
    pool: dict[str, set[str]] = {"number": set()}
    for toks in parsed:
        pool["number"].update(number_slots(toks))
        for kind, obj in object_slots(toks):
            pool.setdefault(kind, set()).add(obj)
    return {k: sorted(v) for k, v in pool.items()}
