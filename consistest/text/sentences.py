"""Sentence tools for PersonaChat-style text: normalise, split into sentences, clauses and first-person
statement pieces, and tell which pieces are informative facts about the speaker."""

from __future__ import annotations

import re

from consistest.text.lexicon import lexicon

_PUNCT = re.compile(r"\s*([.,!?;:]+)\s*")
_APOS = re.compile(r"[’`´]")


def normalise(text: str) -> str:
    """Lower case, one space around punctuation, contractions expanded ("i'm" -> "i am")."""
    text = _APOS.sub("'", text.lower())
    text = _PUNCT.sub(r" \1 ", text)
    text = re.sub(r"\s+'\s*(s|m|ve|re|ll|d|t)\b", r"'\1", text)  # "i ' m" -> "i'm"
    text = re.sub(r"(\w) n't\b", r"\1n't", text)
    contractions = lexicon()["contractions"]
    words = [contractions.get(w, w) for w in text.split()]
    return " ".join(words)


def strip_punct(text: str) -> str:
    """Normalised text without punctuation tokens (for comparisons)."""
    return " ".join(w for w in normalise(text).split() if not _is_punct(w))


def _is_punct(word: str) -> bool:
    return all(not ch.isalnum() for ch in word)


def split_sentences(text: str) -> list[str]:
    """Split raw text after . ! ? (PersonaChat spaces its punctuation; a rule splitter is enough); pieces of
    punctuation alone are dropped. Replies are split by ``metrics.clean.reply_sentences`` (the scoring
    rules' own, which keeps such pieces)."""
    parts = re.split(r"(?<=[.!?])\s+(?=[^.!?\s])", text.strip())
    return [p.strip() for p in parts if p.strip() and not _is_punct(p.strip())]


def split_clauses(sentence: str) -> list[str]:
    """Split a raw sentence at commas/semicolons; pieces that start no new subject join the previous one."""
    pieces = [p.strip() for p in re.split(r"\s*[,;]\s+", sentence) if p.strip()]
    out: list[str] = []
    for p in pieces:
        first = normalise(p).split()[:1]
        starts_subject = bool(first) and first[0] in {"i", "my", "we", "our", "me"}
        if out and not starts_subject and not _only_markers(out[-1]):
            out[-1] = f"{out[-1]} , {p}"
        else:
            out.append(p)
    return [p for p in out if not _only_markers(p)]


def _only_markers(text: str) -> bool:
    markers = set(lexicon()["discourse_markers"])
    return all(w in markers or _is_punct(w) for w in normalise(text).split())


def ends_with_question_mark(text: str) -> bool:
    """A question by its mark alone (PersonaChat keeps question marks reliably). The question builders'
    test; replies are judged by ``metrics.clean.is_interrogative``, which also knows questions without one
    ("do you ski") and is part of the scoring rules."""
    return text.rstrip().endswith("?")


def about_agent(text: str) -> bool:
    """The statement speaks about the speaker (a first-person word occurs)."""
    first = set(lexicon()["first_person"])
    return any(w in first for w in normalise(text).split())


def strip_markers(norm: str) -> str:
    """Drop leading discourse markers and trailing punctuation from normalised text."""
    markers = set(lexicon()["discourse_markers"])
    words = norm.split()
    while words and (words[0] in markers or _is_punct(words[0])):
        words.pop(0)
    while words and _is_punct(words[-1]):
        words.pop()
    return " ".join(words)


def statement_pieces(norm: str) -> list[str]:
    """Sub-statements of a normalised fact: split at commas and at 'and i', 'but my', 'so i', 'because i'
    ...; pieces that do not start with i/my are dropped unless the fact has no other piece."""
    norm = strip_markers(norm)
    conj = r"\s*(?:,\s*)?\b(?:and|but|so|because|though|although|while|since)\s+(?=(?:i|my)\b)"
    parts = [strip_markers(p) for q in re.split(conj, norm) for p in re.split(r"\s+[,;:]\s+", q)]
    parts = [p for p in parts if p]
    subj = [p for p in parts if p.split()[0] in ("i", "my")]
    return subj or parts[:1]


def informative(piece: str, max_words: int = 15) -> bool:
    """A history statement worth asking about: a lasting fact about the agent, self-contained.

    Drops phatic/opinion/transient openings ("i think", "i am good", "i am going to"), pronouns
    without antecedent in the sentence ("i love working on them"), talk about the partner (you)
    and over-long statements."""
    words = piece.split()
    if not 3 <= len(words) <= max_words or words[0] not in ("i", "my"):
        return False
    if set(words) & set(lexicon()["unresolved_pronouns"]):
        return False
    text = f"{piece} "
    return not any(text.startswith(f"{p} ") for p in lexicon()["phatic_openings"])
