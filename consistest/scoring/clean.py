"""Response cleaning: drop the interrogative sentences and clauses a chatbot appends ("... , do you ?").

A sentence is interrogative when it ends with ``?`` or its first word (whole word, not a prefix:
"however" and "dogs" are not "how" and "do") is a question word or an auxiliary used as a question.
Inside a sentence ending in ``?`` only the trailing interrogative clauses are dropped ("i love
hiking , do you ?" keeps "i love hiking"). A statement is never cleaned away: if every sentence looks
interrogative, the ones without ``?`` are kept.
"""

from __future__ import annotations

import re

CLEAN_VERSION = 1

QUESTION_WORDS: frozenset[str] = frozenset(
    [
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "which",
        "do",
        "does",
        "did",
        "don't",
        "doesn't",
        "didn't",
        "am",
        "are",
        "is",
        "was",
        "were",
        "aren't",
        "isn't",
        "wasn't",
        "weren't",
        "can",
        "could",
        "can't",
        "couldn't",
        "have",
        "has",
        "had",
        "haven't",
        "hasn't",
        "hadn't",
        "will",
        "would",
        "won't",
        "wouldn't",
        "shall",
        "should",
        "shouldn't",
        "may",
        "might",
        "must",
    ]
)

_SENTENCE = re.compile(r"[^.!?]*(?:[.!?]+|$)")
_FIRST_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def _first_word(text: str) -> str:
    m = _FIRST_WORD.search(text.lower().replace("\u2019", "'"))
    return m.group(0) if m else ""


def is_interrogative(sentence: str) -> bool:
    """Ends with ``?`` or starts with a question word (whole-word match)."""
    s = sentence.strip()
    return s.endswith("?") or _first_word(s) in QUESTION_WORDS


def split_sentences(text: str) -> list[str]:
    """Sentences with their end punctuation kept ("i do . do you ?" -> ["i do .", "do you ?"])."""
    return [s.strip() for s in _SENTENCE.findall(str(text)) if s.strip()]


def _strip_question_clauses(sentence: str) -> str:
    """In a ``?`` sentence, drop trailing comma clauses that are questions; return what is left."""
    clauses = [c.strip() for c in sentence.rstrip("?!. ").split(",")]
    while clauses and (len(clauses) == 1 or _first_word(clauses[-1]) in QUESTION_WORDS or not clauses[-1]):
        clauses.pop()
        if clauses and _first_word(clauses[-1]) not in QUESTION_WORDS:
            break
    kept = " , ".join(c for c in clauses if c)
    return kept if kept and _first_word(kept) not in QUESTION_WORDS else ""


def clean_response(text: str) -> str:
    """The response minus its questions; "" only when it held no statement."""
    sentences = split_sentences(text)
    kept = []
    for s in sentences:
        if s.endswith("?"):
            rest = _strip_question_clauses(s)
            if rest:
                kept.append(rest)
        elif not is_interrogative(s):
            kept.append(s)
    if not kept:  # every sentence looked like a question: keep the statements that lack a "?"
        kept = [s for s in sentences if not s.endswith("?")]
    return " ".join(kept).strip()
