"""``baseline:persona-bot:P``: a bot that talks from its persona and contradicts itself with probability P.

It needs no model, so a ranking of bots by self-contradiction (AIH) can be checked against a known truth:

- a last turn that asks nothing it can answer gets the next persona fact it has not said yet, then a
  question back ("what about you ?");
- a question sharing a content word (a crude stem) with a sentence it said (its earlier turns first,
  then its persona) gets that sentence back; with probability P the answer contradicts it: one value
  swapped for another of the same kind (a number, colour, animal, weekday, place or name; ``VALUES``),
  or, when the sentence holds none, the statement negated.

Draws are seeded by the conversation's content, so a reply never depends on order, batching or resume.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from consistest.core.errors import InputError
from consistest.core.records import Conversation, content_hash
from consistest.models.base import BatchedChatModel

PREFIX = "persona-bot"
PERSONA_BOT_VERSION = 1  # bump when a reply changes; stored with runs (settings)
QUESTIONS_BACK = ("what about you ?", "and you ?", "how about you ?")
VALUES: dict[str, tuple[str, ...]] = {
    "number": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "eleven", "twelve", "twenty", "thirty", "forty", "fifty"),
    "colour": ("red", "blue", "green", "yellow", "black", "white", "purple", "pink", "orange", "brown"),
    "animal": ("dog", "cat", "horse", "bird", "fish", "rabbit", "hamster", "snake", "turtle", "parrot"),
    "weekday": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    "place": ("paris", "london", "rome", "berlin", "boston", "chicago", "texas", "ohio", "florida",
              "canada", "spain", "japan"),
    "name": ("anna", "maria", "john", "max", "bella", "tom", "lucy", "sam", "emma", "jack", "kate", "leo"),
}  # fmt: skip
# Words a question shares with any sentence (they say nothing about which fact is asked about).
_STOP = frozenset(
    """a an the and or but of to in on at for with from by about as is am are was were be been do does did
    have has had i you he she it we they me my your his her its our their what who whom whose which when
    where why how that this these those there here can could will would should not no yes so if than too
    very just any some many much s t m re ve ll d i'm i've i'd i'll don't can't won't""".split()  # noqa: SIM905 (a word list reads better)
)
_WORD = re.compile(r"[A-Za-z0-9']+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def parse_rate(name: str) -> float:
    """``persona-bot:0.3`` -> 0.3 (the contradiction probability, in [0, 1])."""
    _, _, rate = name.partition(":")
    try:
        p = float(rate)
    except ValueError:
        p = -1.0
    if not 0.0 <= p <= 1.0:
        raise InputError(
            f"expected baseline:{PREFIX}:P with P in [0, 1] (e.g. baseline:{PREFIX}:0.3), got {name!r}",
            field="model",
        )
    return p


def content_words(text: str) -> set[str]:
    """Crude stems of the words that say what a sentence is about: possessive and plural s dropped, then
    the first four letters ("named" ~ "name", "brothers" ~ "brother"); "i'm 19" is about being old."""
    out, prev = set(), ""
    for w in _WORD.findall(text.lower()):
        if prev in ("i'm", "am") and (w.isdigit() or w in VALUES["number"]):
            out.add("old")
        prev, w = w, w.removesuffix("'s").rstrip("s") or w
        if w not in _STOP:
            out.add(w[:4])
    return out


def statements(text: str) -> list[str]:
    """The sentences of a reply that are not questions (what the bot said and may contradict later)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip() and not s.strip().endswith("?")]


def _kind(word: str) -> str | None:
    low = word.lower()
    if low.isdigit():
        return "digits"
    singular = low[:-1] if low.endswith("s") and low[:-1] in VALUES["animal"] else low
    for kind, values in VALUES.items():
        if singular in values:
            return kind
    return None


def lie_by_swapping(sentence: str, rng: random.Random, asked: set[str] = frozenset()) -> str | None:
    """The sentence with one value replaced by another of its kind, or None when it holds no value: the
    bot's lie, from its own small value lists (``training.nli_synth.swap_value`` makes the guard's versioned
    training contradictions from the relation's pool; they differ on purpose, each versioned apart).
    Values the question names (``asked``: "how many *dogs* ...") are kept when another one can go."""
    spots = [(m, _kind(m.group())) for m in _WORD.finditer(sentence)]
    spots = [(m, k) for m, k in spots if k is not None]
    spots = [(m, k) for m, k in spots if m.group().lower() not in asked] or spots
    if not spots:
        return None
    m, kind = spots[rng.randrange(len(spots))]
    word = m.group()
    if kind == "digits":
        new = str(int(word) + rng.randint(1, 5))
    else:
        plural = kind == "animal" and word.lower().endswith("s") and word.lower()[:-1] in VALUES["animal"]
        base = word.lower()[:-1] if plural else word.lower()
        new = rng.choice([v for v in VALUES[kind] if v != base]) + ("s" if plural else "")
        new = new.capitalize() if word[:1].isupper() else new
    return sentence[: m.start()] + new + sentence[m.end() :]


_AUX = ("am", "was", "can", "will", "could", "would", "do", "did")
_PAST = ("was", "had", "did", "won", "went", "got", "made", "took", "saw", "drove", "met", "lost", "ran")


def lie_by_negation(sentence: str) -> str:
    """The bot's lie by negation (``training.nli_synth.negate`` is the guard data's own, versioned apart):
    i am X -> i am not X; i'm X -> i'm not X; i have X -> i do not have X; my X is Y -> my X is not Y;
    i do not X -> i do X; a past tense it cannot undo -> it is not true that ..."""
    words = sentence.split()
    low = [w.lower() for w in words]
    for k, w in enumerate(low[:-1]):
        if w in ("not", "never"):
            return " ".join(words[:k] + words[k + 1 :])
    aux = low[1:2] and (low[1] in _AUX or low[1:3] == ["have", "been"])
    if low[:1] in (["i'm"], ["i'll"], ["i'd"]) or (low[:1] == ["i"] and aux):
        at = 1 if low[0] != "i" else 2
        return " ".join([*words[:at], "not", *words[at:]])
    if low[:1] == ["i've"]:
        return " ".join(["i", "do", "not", "have", *words[1:]])
    if low[:1] == ["i"] and len(words) > 2 and not (low[1] in _PAST or low[1].endswith("ed")):
        return " ".join(["i", "do", "not", *words[1:]])
    for k, w in enumerate(low[1:-1], start=1):
        if w in ("is", "are", "was", "were") and low[0] != "i":
            return " ".join([*words[: k + 1], "not", *words[k + 1 :]])
    return f"it is not true that {sentence}"


def contradict(sentence: str, rng: random.Random, asked: set[str] = frozenset()) -> str:
    """A value swapped when the sentence has one, else the statement negated."""
    return lie_by_swapping(sentence, rng, asked) or lie_by_negation(sentence)


def persona_bot_reply(conv: Conversation, rate: float) -> str:
    """The bot's reply to ``conv`` (see the module docstring)."""
    rng = random.Random(content_hash(PREFIX, PERSONA_BOT_VERSION, rate, conv.persona,
                                     [(t.role, t.text) for t in conv.turns]))  # fmt: skip
    said = [s for t in conv.turns if t.role == "assistant" for s in statements(t.text)]
    last = conv.turns[-1].text if conv.turns and conv.turns[-1].role == "user" else ""
    if "?" in last:
        asked = content_words(last)
        answer = _best_match(asked, [*said, *conv.persona])
        if answer is not None:
            return contradict(answer, rng, asked) if rng.random() < rate else answer
    return f"{_next_fact(conv.persona, said)} {rng.choice(QUESTIONS_BACK)}".strip()


def _best_match(asked: set[str], candidates: Sequence[str]) -> str | None:
    """The first sentence sharing most content words with the question (None when none shares one)."""
    best, best_overlap = None, 0
    for sentence in candidates:
        overlap = len(asked & content_words(sentence))
        if overlap > best_overlap:
            best, best_overlap = sentence, overlap
    return best


def _next_fact(persona: Sequence[str], said: Sequence[str]) -> str:
    """The first persona sentence not said yet; once all are said, they come round again."""
    if not persona:
        return "i do not know ."
    spoken = " ".join(said)
    fresh = [p for p in persona if p not in spoken]
    return fresh[0] if fresh else persona[len(said) % len(persona)]


class PersonaBot(BatchedChatModel):
    """The persona bot as a ChatModel."""

    def __init__(self, name: str) -> None:
        self.rate = parse_rate(name)
        self.name = f"baseline:{PREFIX}:{self.rate:g}"

    def reply(self, conversations: Sequence[Conversation]) -> list[str]:
        return [persona_bot_reply(c, self.rate) for c in conversations]


def settings(name: str) -> dict[str, object]:
    return {"persona_bot": PERSONA_BOT_VERSION, "contradiction_rate": parse_rate(name)}
