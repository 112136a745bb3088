"""Response cleaning: drop the interrogative sentences and clauses a chatbot appends ("... , do you ?").

A sentence is interrogative when it ends with ``?``, or (whole words, not prefixes: "however" and
"dogs" are not "how" and "do") it opens with a question word, or with an auxiliary followed by a subject
("is your dog big", "do you"). A chat statement that drops its "i" ("am a nurse myself", "can't wait to
see it") is not a question.
Inside a sentence ending in ``?`` only the trailing interrogative clauses are dropped ("i love
hiking , do you ?" keeps "i love hiking"). A statement is never cleaned away: if every sentence looks
interrogative, the ones without ``?`` are kept.
"""

from __future__ import annotations

import re

CLEAN_VERSION = 2  # 2: an auxiliary opens a question only when a subject follows it

WH_WORDS: frozenset[str] = frozenset(["who", "whom", "whose", "what", "when", "where", "why", "how", "which"])
# Words that follow a question's auxiliary ("do you", "is your dog", "did he", "is there").
QUESTION_SUBJECTS: frozenset[str] = frozenset(
    ["you", "u", "ya", "i", "he", "she", "we", "they", "it", "your", "ur", "my", "his", "her", "their"]
    + ["there", "this", "that", "these", "those", "anyone", "anybody", "someone"]
)

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


def _first_words(text: str, n: int) -> list[str]:
    return _FIRST_WORD.findall(text.lower().replace("\u2019", "'"))[:n]


def _first_word(text: str) -> str:
    return next(iter(_first_words(text, 1)), "")


def is_interrogative(sentence: str) -> bool:
    """Ends with ``?``, or opens with a question word or an auxiliary + subject (whole words)."""
    s = sentence.strip()
    if s.endswith("?"):
        return True
    words = _first_words(s, 2)
    if not words:
        return False
    if words[0] in WH_WORDS:
        return True
    return words[0] in QUESTION_WORDS and len(words) == 2 and words[1] in QUESTION_SUBJECTS


def reply_sentences(text: str) -> list[str]:
    """Sentences with their end punctuation kept ("i do . do you ?" -> ["i do .", "do you ?"]).

    The scoring rules' own splitter of replies (part of what RULES_VERSION names; a change moves scores);
    ``text.sentences.split_sentences`` splits dialogue utterances for the question builders."""
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
    sentences = reply_sentences(text)
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
