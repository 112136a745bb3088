"""Y/N short answers built from the question's auxiliary and subject ("do you" -> "i do" / "i don't").

Versioned data, not a hand list of openers: ``AUXILIARIES`` lists the question openers, ``subject_pronouns``
turns the question's subject into the answer's ("you" -> i/we, "your mom" -> she, "your parents" -> they),
``short_forms`` combines them into positive and negative token sequences.
"""

from __future__ import annotations

from dataclasses import dataclass

SHORTFORMS_VERSION = 2  # 2: "my <noun>" forms agree with the noun's pronoun ("my parents do")

# Auxiliaries that open a Y/N question; answers agree with the subject (_person_aux) and negate as
# aux + "n't"/"nt"/" not", except the irregular ones listed in _NEG.
AUXILIARIES: frozenset[str] = frozenset(
    [
        "do",
        "does",
        "did",
        "am",
        "are",
        "is",
        "was",
        "were",
        "have",
        "has",
        "had",
        "can",
        "could",
        "will",
        "would",
        "shall",
        "should",
        "may",
        "might",
    ]
)
# Negative question forms -> base ("don't you like it?" is answered like "do you like it?").
NEG_QUESTION: dict[str, str] = {
    "don't": "do",
    "dont": "do",
    "doesn't": "does",
    "doesnt": "does",
    "didn't": "did",
    "didnt": "did",
    "aren't": "are",
    "arent": "are",
    "isn't": "is",
    "isnt": "is",
    "wasn't": "was",
    "weren't": "were",
    "haven't": "have",
    "hasn't": "has",
    "hadn't": "had",
    "can't": "can",
    "cant": "can",
    "couldn't": "could",
    "won't": "will",
    "wouldn't": "would",
    "shouldn't": "should",
}
_NEG: dict[str, tuple[str, ...]] = {
    "can": ("can't", "cant", "cannot", "can not"),
    "will": ("won't", "wont", "will not"),
    "shall": ("shan't", "shall not"),
    "am": ("am not",),
    "may": ("may not",),
    "might": ("might not", "mightn't"),
}
_CONTRACT: dict[str, str] = {
    "am": "'m",
    "are": "'re",
    "is": "'s",
    "have": "'ve",
    "has": "'s",
    "had": "'d",
    "will": "'ll",
    "would": "'d",
}
YOU = ("you", "u", "ya", "yo")
FEMALE = frozenset(
    [
        "mom",
        "mother",
        "mum",
        "wife",
        "sister",
        "daughter",
        "girlfriend",
        "aunt",
        "grandma",
        "grandmother",
        "niece",
        "gf",
    ]
)
MALE = frozenset(
    [
        "dad",
        "father",
        "husband",
        "brother",
        "son",
        "boyfriend",
        "uncle",
        "grandpa",
        "grandfather",
        "nephew",
        "bf",
    ]
)
PLURAL = frozenset(
    ["parents", "kids", "children", "family", "friends", "folks", "people", "siblings", "brothers", "sisters"]
)
OTHER_PRONOUNS = {
    "he": "he",
    "she": "she",
    "it": "it",
    "they": "they",
    "we": "we",
    "there": "there",
    "i": "you",
}


@dataclass(frozen=True)
class ShortForms:
    """Token sequences that answer the question yes (``positive``) or no (``negative``)."""

    aux: str
    positive: tuple[tuple[str, ...], ...]
    negative: tuple[tuple[str, ...], ...]
    question_words: frozenset[str]  # content of the question after aux + subject (for "i do have ...")


def _person_aux(aux: str, subject: str) -> str:
    """Agreement: "are you" -> "i am", "were you" -> "i was", "does your mom" -> "she does"."""
    if subject == "there":
        return aux
    if subject == "i":
        return {"are": "am", "were": "was", "is": "am", "does": "do", "has": "have"}.get(aux, aux)
    if subject in ("we", "they", "you"):
        return {"is": "are", "am": "are", "was": "were", "does": "do", "has": "have"}.get(aux, aux)
    return {"are": "is", "am": "is", "were": "was", "do": "does", "have": "has"}.get(aux, aux)


def _forms(subject: str, aux: str, agree: str | None = None) -> tuple[list[str], list[str]]:
    """Positive and negative phrases for one subject and base auxiliary; the verb agrees with ``agree``
    (the subject's pronoun: "my parents" agrees with "they") or else with the subject itself."""
    a = _person_aux(aux, agree or subject)
    pos = [f"{subject} {a}"]
    if a in _CONTRACT:
        pos.append(f"{subject}{_CONTRACT[a]}")
        if subject == "i" and a in ("am", "have"):
            pos.append({"am": "im", "have": "ive"}[a])
    negs = list(_NEG.get(a, (f"{a}n't", f"{a}nt", f"{a} not")))
    neg = [f"{subject} {n}" for n in negs] + [f"{p} not" for p in pos[1:]] + [f"{p} never" for p in pos]
    neg.append(f"{subject} never")
    return pos, neg


def subject_pronouns(subject_tokens: list[str]) -> list[str]:
    """Answer pronouns for the question's subject ("you" -> i, we; "your mom" -> she; "your dogs" -> they)."""
    if not subject_tokens:
        return []
    head = subject_tokens[0]
    if head in YOU:
        return ["i", "we"]
    if head in OTHER_PRONOUNS:
        return [OTHER_PRONOUNS[head]]
    if head in ("your", "the", "this", "that", "ur") and len(subject_tokens) > 1:
        noun = subject_tokens[1]
        if noun in FEMALE:
            return ["she"]
        if noun in MALE:
            return ["he"]
        if noun in PLURAL or (noun.endswith("s") and not noun.endswith("ss")):
            return ["they"]
        return ["it", "he", "she", "they"]
    return []


def short_forms(question_tokens: list[str]) -> ShortForms | None:
    """Find the first auxiliary followed by a subject in the question and build its short answers."""
    for i, tok in enumerate(question_tokens[:-1]):
        aux = NEG_QUESTION.get(tok, tok)
        if aux not in AUXILIARIES:
            continue
        subj = question_tokens[i + 1 : i + 3]
        pronouns = subject_pronouns(subj)
        if not pronouns:
            continue
        skip = 2 if subj[0] in ("your", "the", "this", "that", "ur") else 1
        pos: list[str] = []
        neg: list[str] = []
        for p in pronouns:
            fp, fn = _forms(p, aux)
            pos += fp
            neg += fn
        if subj[0] in ("your", "ur") and len(subj) > 1:  # "does your dog bark?" -> "my dog does"
            fp, fn = _forms(f"my {subj[1]}", aux, agree=pronouns[0])
            pos += fp[:1]
            neg += fn
        rest = frozenset(t for t in question_tokens[i + 1 + skip :] if t.isalnum())
        return ShortForms(
            aux=aux,
            positive=tuple(dict.fromkeys(tuple(f.split()) for f in pos)),
            negative=tuple(dict.fromkeys(tuple(f.split()) for f in neg)),
            question_words=rest,
        )
    return None
