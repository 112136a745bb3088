"""Contractions spelled out for the NLI guard (``qa:21``).

guard-v3 reads a negation only when it is spelled out: P(contradiction) of "i have a dog ." against "i do
not have a dog ." is .98, against "i don't have a dog ." .004; of "i am a nurse ." against "i am not a nurse
." .98, against "i'm not a nurse ." .008. Its synthetic training pairs spell negations out ("do not"), and
its tokenizer splits "don't" into "don", "'", "t". So the detector hands the guard its pairs with negative
and pronoun contractions spelled out. "'s" and "'d" are left as they are: "she's" is "she is" or "she has",
"the dog's" a possessive, "i'd" "i would" or "i had".
"""

from __future__ import annotations

import re

from consistest.metrics.propositions import EXPANDED, content_stems, is_negated, words_of

_NOT = {
    "don": "do", "doesn": "does", "didn": "did", "isn": "is", "aren": "are", "wasn": "was", "weren": "were",
    "haven": "have", "hasn": "has", "hadn": "had", "won": "will", "wouldn": "would", "can": "can",
    "couldn": "could", "shouldn": "should", "mustn": "must", "needn": "need",
}  # fmt: skip
_APOSTROPHE = "['\u2019]"
_NEGATIVE = re.compile(rf"\b({'|'.join(_NOT)})\s?{_APOSTROPHE}?\s?t\b", re.IGNORECASE)  # "don't", "dont"
_SPACED = re.compile(rf"\s{_APOSTROPHE}?n{_APOSTROPHE}t\b", re.IGNORECASE)  # "do n't", as PersonaChat writes
_PRONOUN = re.compile(
    rf"\b(i|you|we|they|he|she|it|that|there|what|who)\s?{_APOSTROPHE}\s?(m|ve|re|ll)\b", re.IGNORECASE
)
_FULL = {k: EXPANDED[k] for k in ("m", "ve", "re", "ll")}  # not "'s", "'d"
_IM = re.compile(r"\bim\b", re.IGNORECASE)


def spelled_out(text: str) -> str:
    """``text`` with negative and pronoun contractions spelled out ("i don't" -> "i do not", "i can't" ->
    "i can not", "do n't" -> "do not", "i'm" and "im" -> "i am", "we've" -> "we have")."""
    text = _NEGATIVE.sub(lambda m: f"{_NOT[m[1].lower()]} not", text)
    text = _SPACED.sub(" not", text)
    text = _PRONOUN.sub(lambda m: f"{m[1]} {_FULL[m[2].lower()]}", text)
    return _IM.sub("i am", text)


def _plain(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .!?")


def _restates(premise: str, hypothesis: str) -> bool:
    """Every content word of the hypothesis is the premise's, and both are negated or neither: "i love to
    travel ." after "i am retired so i love to travel ." (``qa:22``)."""
    said = content_stems(hypothesis)
    negated = [is_negated(words_of(t), past=True) for t in (premise, hypothesis)]
    return bool(said) and said <= content_stems(premise) and negated[0] == negated[1]


def guard_reading(premise: str, hypothesis: str) -> tuple[str, str] | None:
    """The pair as the guard reads it, spelled out; None when the hypothesis says the premise again, word
    for word (case, spacing and final punctuation aside; ``qa:21``) or in fewer of its words (``qa:22``): a
    statement said again does not contradict itself, though guard-v3 gave some repeats, spelled out, a high
    P(contradiction) ("i am sorry to hear that ." twice: .82; "i am sorry ." after "i am so sorry .")."""
    pair = spelled_out(premise), spelled_out(hypothesis)
    return None if _plain(pair[0]) == _plain(pair[1]) or _restates(*pair) else pair
