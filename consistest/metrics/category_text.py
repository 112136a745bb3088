"""The text tools of the failure categories: clauses, the long answer after a yes/no word, evasive
replies, topic words, returned questions and the user's own statements. Pure and memoised; their word
lists are versioned with ``CATEGORIES_VERSION`` (categories.py)."""

from __future__ import annotations

import re
from functools import lru_cache

from consistest.core.records import Sample
from consistest.metrics.clean import reply_sentences
from consistest.metrics.numbers import tokens
from consistest.metrics.rules import PHRASES_BY_FIRST, content_tokens, question_forms

# Replies that commit to nothing (matched as whole normalised replies or openings).
EVASIVE = (
    "i don't know", "i do not know", "i dont know", "idk", "not sure", "i'm not sure", "i am not sure",
    "no idea", "i have no idea", "maybe", "i can't remember", "i cannot remember", "i don't remember",
    "hard to say", "it depends", "i'd rather not say", "i would rather not say", "i'm an ai", "as an ai",
    "i see", "ok", "okay", "cool", "nice", "that's nice", "that's cool", "that's interesting", "interesting",
    "haha", "lol", "good question", "that is a good question",
)  # fmt: skip
_EVASIVE = frozenset(EVASIVE)
_WORDS = re.compile(r"[\w']+")
# A question returned to the user ("and you ?").
RETURNED = frozenset({"you", "and you", "what about you", "how about you", "do you", "are you", "have you"})
MIN_OVERLAP = 0.6  # share of the asked question's content words a returned question repeats
COPY_OVERLAP = 0.8  # share of a user sentence's content words a reply clause copies
SUPPORT = 0.5  # share of a long answer's content words the fact must hold for NLI's entailment to count


_CLAUSE_BREAK = re.compile(r"\s*(?:,|;|\bbut\b|\band\b(?=\s+(?:i|my|it|we)\b)|\bso\b(?=\s+(?:i|my)\b))\s*")


@lru_cache(maxsize=1 << 15)
def _sentences(text: str) -> tuple[str, ...]:
    return tuple(reply_sentences(text))


@lru_cache(maxsize=1 << 15)
def clauses(text: str) -> tuple[str, ...]:
    """Statements of a reply: sentences split at commas and at "and/but/so" before a new subject."""
    out: list[str] = []
    for sent in _sentences(text):
        parts = _CLAUSE_BREAK.split(sent)
        out += [p.strip(" .!") for p in parts if len(re.findall(r"\w+", p)) >= 2]
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _openers(question: str) -> dict[str, list[tuple[list[str], bool]]]:
    """What ``long_answer`` tries at a position, by its first token, in order: the yes/no phrases, then the
    question's short forms (whole clauses only), each longest first, as the rules index them."""
    forms, _ = question_forms(question)
    return {
        first: [(list(w), False) for _, w in PHRASES_BY_FIRST.get(first, ())]
        + [(list(f), True) for f, _ in forms.get(first, ())]
        for first in {*PHRASES_BY_FIRST, *forms}
    }


@lru_cache(maxsize=1 << 15)
def long_answer(question: str, cleaned: str) -> str:
    """The reply without its opening yes/no word and short form ("yes , i do . i have 2" -> "i have 2")."""
    toks = [t for t in tokens(cleaned) if t.strip()]
    openers = _openers(question)
    i, moved = 0, True
    while moved and i < len(toks):
        moved = False
        if not re.match(r"\w", toks[i]):
            i, moved = i + 1, True
            continue
        for ph, whole in openers.get(toks[i], ()):
            end = i + len(ph)
            # a short form counts only as a whole clause ("i do ." but not "i do have a dog")
            if toks[i:end] == ph and not (whole and end < len(toks) and re.match(r"\w", toks[end])):
                i, moved = end, True
                break
    return " ".join(toks[i:]).strip(" .,!")


@lru_cache(maxsize=1 << 15)
def evasive(text: str) -> bool:
    """The whole reply is an evasive or phatic phrase (trailing punctuation and fillers aside)."""
    words = _WORDS.findall(text.lower())
    # an evasive phrase, followed by at most two more words ("i don't know really", "ok then")
    return any(" ".join(words[:m]) in _EVASIVE for m in range(max(1, len(words) - 2), len(words) + 1))


QUESTION_WORDS = frozenset(
    ["do", "does", "did", "are", "is", "was", "were", "have", "has", "can", "will", "would", "you", "your",
     "u", "what", "where", "who", "which", "how", "when", "why", "any", "some", "ever", "to", "of", "in",
     "i", "am", "my", "me", "i'm", "im", "be", "been", "too", "also", "really", "so", "very", "just", "that",
     "it", "not", "don't", "t", "m", "s", "re", "ve", "ll", "d", "the", "a", "an", "and", "or", "but", "on",
     "at", "for", "with", "mine", "yes", "no", "well", "honestly", "actually", "oh"]
)  # fmt: skip


@lru_cache(maxsize=1 << 16)
def topic_words(text: str) -> frozenset[str]:
    """Stems of the content words, without auxiliaries, question words and pronouns."""
    return frozenset(stem(w) for w in content_tokens(text) if w not in QUESTION_WORDS)


def stem(word: str) -> str:
    """A crude stem, enough to match "hating" with "hate" and "retired" with "retire"."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def returned_question(question: str, response: str) -> str | None:
    """A question of the reply that hands the asked one back to the user, else None (content words
    compared without auxiliaries and pronouns)."""
    asked = topic_words(question)
    for sent in _sentences(response):
        if not sent.rstrip().endswith("?"):
            continue
        words = " ".join(_WORDS.findall(sent.lower()))
        mine = topic_words(sent)
        if words in RETURNED or (asked and len(asked & mine) / len(asked) >= MIN_OVERLAP):
            return sent.strip()
    return None


def repeats(question: str, asked: str) -> bool:
    """A question that repeats the asked one's topic (not just "what about you ?")."""
    want = topic_words(asked)
    return bool(want) and len(want & topic_words(question)) / len(want) >= MIN_OVERLAP


def supported(text: str, fact: str) -> bool:
    """Most of the text's content words are the fact's ("i drive a bmw" / "i drive a bmw .", not "i have
    brown eyes" / "i have blue eyes"): a check on an NLI entailment from a small model."""
    mine = topic_words(text)
    return bool(mine) and len(mine & topic_words(fact)) / len(mine) >= SUPPORT


_TO_USER = re.compile(r"^(?:(?:oh|so|wow|wait|hmm|ah|ok|okay|really)\W+)*(?:you|your|you're)\b")


def gives_fact_to_user(response: str, fact: str) -> str | None:
    """A sentence that tells or asks the user the agent's own fact ("oh , you speak chinese ?" for "i speak
    chinese ."): it opens with you/your and repeats most of the fact's content words."""
    want = topic_words(fact)
    for sent in _sentences(response):
        if (
            _TO_USER.match(sent.lower().strip())
            and want
            and len(want & topic_words(sent)) / len(want) >= MIN_OVERLAP
        ):
            return sent.strip()
    return None


def user_statements(sample: Sample) -> list[str]:
    """The user's first-person statements in the history before the question (the user spoke last)."""
    return list(_user_statements(tuple(sample.history[-1::-2][1:])))


@lru_cache(maxsize=1 << 14)
def _user_statements(users: tuple[str, ...]) -> tuple[str, ...]:
    """Memoised on the user turns: the samples of one dialogue share most of them."""
    out: list[str] = []
    for utt in users:
        out += [
            c
            for c in clauses(utt)
            if re.match(r"(i|my|i'm|i've|i am)\b", c.lower()) and len(topic_words(c)) >= 2
        ]
    return tuple(out)


def copied(user: str, clause: str) -> bool:
    """A reply clause that repeats most of a user sentence's content words."""
    u = topic_words(user)
    return len(u) >= 2 and len(u & topic_words(clause)) / len(u) >= COPY_OVERLAP
