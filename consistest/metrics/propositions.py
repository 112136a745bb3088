"""Y/N questions as propositions, and where a reply stands on one (a rule of ``--method plus``).

"do you own a yacht ?" is the proposition "i own a yacht" (its negation: "i don't own a yacht"); its keys are
the verb ("own") and the value ("yacht"). A clause of a reply *restates* it ("i own a yacht , it's a luxury
vessel": ``yes``), *negates* it ("i've never owned a yacht": ``no``), states *another value* in the same
frame ("i own a sailboat"; "i was born in somalia" to "were you born in kenya ?": ``other``), or says
nothing about it (``None``). A fact is read the same way ("i have five sons": keys "5", "son"), so a reply
can be checked against the fact too: "i have six sons" states another value than the fact.

Pure token rules, no parser: the question's auxiliary and subject come from :mod:`.shortforms`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from consistest.metrics.numbers import normalize_numbers
from consistest.metrics.rules import QUESTION_FUNCTION_WORDS, _fold
from consistest.metrics.shortforms import _NEG, AUXILIARIES, NEG_QUESTION, _person_aux, subject_pronouns
from consistest.metrics.words import CLITICS, FUNCTION_WORDS, WH_WORDS, is_negation, lex

Stance = Literal["yes", "no", "other"]
DETERMINERS = frozenset({"your", "ur", "the", "this", "that", "my"})
MODIFIERS = lex("favorite favourite best older younger oldest youngest little big new old first last")
ADVERBS = lex("ever still really usually often also even currently actually always sometimes now")
IRREGULAR = {"children": "child", "kids": "child", "kid": "child", "people": "person", "men": "man",
             "women": "woman", "feet": "foot", "teeth": "tooth", "wives": "wife",
             # plus-4: degree adverbs of one meaning ("i'm totally deaf" says "are you completely deaf ?")
             "totally": "completely", "entirely": "completely", "fully": "completely",
             # plus-10: "go" is too short for the suffix cut ("i love going to the bake sale" says "do you
             # like to go to the bake sale ?", not another value in the place of "go")
             "going": "go", "goes": "go",
             # plus-11: words of one meaning ("i play multiple instruments" restates "i play several
             # instruments"; "i'm a man" restates "i am a male")
             "multiple": "several", "various": "several", "male": "man", "female": "woman", "males": "man",
             "females": "woman",
             # plus-17: "i live in the countryside" says "rural" ("i live is a rural farming community")
             "countryside": "rural",
             # plus-18: "i got some meds" says "medications"
             "meds": "medication"}  # fmt: skip
LIGHT_VERBS = frozenset({"hav", "like", "get", "go", "do", "mak", "tak", "want", "need"})  # stems
LIKE = frozenset({"like", "love", "enjoy", "adore", "hate", "dislike"})  # one verb for matching
SWAP = {"your": "my", "you": "me", "yours": "mine", "yourself": "myself", "ur": "my", "u": "me", "my": "your",
        "me": "you", "mine": "yours", "myself": "yourself"}  # fmt: skip
PARTICIPLE = re.compile(
    r"^(?:\w+(?:ed|en|ing)|been|born|seen|gone|done|had|made|got|lost|won|met|heard|read)$"
)
CLAUSE_BREAK = re.compile(r"[.!?;,]+|\b(?:but|though|although|however|except|whereas)\b")
WORD = re.compile(r"[0-9]+|[^\W\d_]+(?:'[a-z]+)?")
ARTICLES = frozenset({"a", "an", "the"})
NOT_VALUES = lex("yes yeah yep nope nah a an the and or both either")
# plus-25: how many, said without a number, is no value ("i play a lot of different instruments" says "i play
# several instruments"; "more than one instrument" asks about instruments)
QUANTIFIERS = lex("several many multiple various numerous lot lots different wide range variety bunch plenty")
MORE_THAN_ONE = re.compile(r"\bmore than (?:one|1)\b")


@dataclass(frozen=True)
class Proposition:
    """What a yes answers: ``subject`` (in the answer's person), the question's base ``aux``, the main
    ``verb`` when the auxiliary is not it (None for "are you married ?"-style predicates), ``rest`` (the
    predicate after the verb), and the keys a reply is matched on."""

    subject: tuple[str, ...]
    pronoun: str
    aux: str
    verb: str | None
    rest: tuple[str, ...]
    adverbs: tuple[str, ...] = ()  # before the verb: "are you happily married ?"

    def _aux(self) -> str:
        return _person_aux(self.aux, self.pronoun)

    def _predicate(self) -> str:
        return " ".join([*self.adverbs, *([self.verb] if self.verb else []), *self.rest])

    def statement(self) -> str:
        """ "i own a yacht", "i am married", "my favorite color is blue", "i did finish high school"."""
        aux = "" if self.aux == "do" else self._aux()
        return " ".join(w for w in (*self.subject, aux, self._predicate()) if w)

    def negation(self) -> str:
        """ "i don't own a yacht", "i'm not married", "my favorite color isn't blue"."""
        aux = self._aux()
        if self.subject == ("i",) and aux == "am":
            neg = "'m not"
        else:
            neg = " " + (_NEG[aux][0] if aux in _NEG else f"{aux}n't")
        return f"{' '.join(self.subject)}{neg} {self._predicate()}".strip()


@lru_cache(maxsize=1 << 14)
def proposition(question: str) -> Proposition | None:
    """The proposition of a Y/N question opening with an auxiliary and a subject, else None."""
    words = [w for w in words_of(question) if w not in ("so", "and", "but", "oh", "well", "ok", "okay")]
    if len(words) < 3 or NEG_QUESTION.get(words[0], words[0]) not in AUXILIARIES:
        return None
    aux, rest = NEG_QUESTION.get(words[0], words[0]), words[1:]
    if any(is_negation(w) for w in rest):
        return None  # "have you never ...": which answer is "yes" is unclear
    pronouns = subject_pronouns(rest[:2])
    if pronouns:
        n = 1
        if rest[0] in DETERMINERS:
            n = 2
            while n < len(rest) - 1 and rest[n - 1] in MODIFIERS:
                n += 1
        subject = tuple(SWAP.get(w, w) for w in rest[:n]) if rest[0] not in ("you", "u", "ya") else ("i",)
        pronoun = pronouns[0]
    else:  # "were women allowed to vote ...": a bare noun subject
        n, subject = 1, (rest[0],)
        pronoun = "they" if rest[0].endswith("s") or rest[0] in ("women", "men", "people") else "it"
    if n >= len(rest):
        return None  # "is your dog ?": a subject and no predicate
    pred = [_swap(w, nxt) for w, nxt in zip(rest[n:], [*rest[n + 1 :], ""], strict=True)]
    verb, k = None, 0
    while k < len(pred) - 1 and (pred[k] in ADVERBS or pred[k].endswith("ly")):
        k += 1
    head = pred[k]
    if aux in ("am", "are", "is", "was", "were"):
        verb = head if PARTICIPLE.match(head) and head not in FUNCTION_WORDS - {"been"} else None
    elif aux in ("have", "has", "had"):
        verb = head if head not in DETERMINERS | ARTICLES | {"any", "some", "no"} else None
    else:
        verb = head
    if verb is None:
        return Proposition(subject, pronoun, aux, None, tuple(pred))
    return Proposition(subject, pronoun, aux, verb, tuple(pred[k + 1 :]), tuple(pred[:k]))


def _swap(word: str, nxt: str) -> str:
    """Second person -> first ("your" -> "my"; "you" -> "i" before a verb, else "me") and back."""
    if word in ("you", "u") and nxt in AUXILIARIES | {"like", "want", "need", "think", "know"}:
        return "i"
    return SWAP.get(word, word)


CONTRACTIONS = re.compile(r"\b(i|you|we|they|he|she|it|that|there)'(m|ve|re|ll|s|d)\b")
LIVE_IS = re.compile(r"\blive is (a|an|the)\b")
POSSESSIVE_OWN = re.compile(r"\b(my|your|his|her|their|our) own\b")
PRONOUN_ONE = re.compile(
    r"\bones?\b(?=\s*(?:[^\w\s]|$|(?:and|but|of|that|which|who|i|too|for|in|on|at|with)\b))"
)
EXPANDED = {"m": "am", "ve": "have", "re": "are", "ll": "will", "s": "is", "d": "would"}


def words_of(text: str) -> list[str]:
    """Lowercase words, numbers as digits, pronoun contractions expanded ("i'm" -> "i am"; "don't" stays)."""
    text = str(text).lower().replace("\u2019", "'")
    text = CONTRACTIONS.sub(lambda m: f"{m.group(1)} {EXPANDED[m.group(2)]}", text)
    text = re.sub(r"\bim\b", "i am", text)
    text = LIVE_IS.sub(r"live in \1", text)  # plus-12: PersonaChat's "i live is a rural farming community"
    text = POSSESSIVE_OWN.sub(r"\1", text)  # plus-13: "your own studio" is "your studio"
    text = PRONOUN_ONE.sub("onepron", text)  # "a small one .": a pronoun, not a number
    return WORD.findall(normalize_numbers(text))


def stem(word: str) -> str:
    """A crude stem for matching ("dancing", "danced", "dance" -> "danc"; "runner" -> "run"; "children" ->
    "child")."""
    w = IRREGULAR.get(word, _fold(word))
    for suf in ("ing", "ed", "er", "es", "e"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            if suf in ("ing", "ed") and w.endswith("er") and len(w) >= 5:  # plus-11: "volunteering"
                w = w[:-2]  # stems as "volunteer" does
            break
    if len(w) > 3 and w[-1] == w[-2]:
        w = w[:-1]
    return w[:-1] + "y" if w.endswith("i") else w


def is_content(word: str) -> bool:
    """A word that can carry a value: not a function word, negation, clitic or contraction."""
    return not (
        word in FUNCTION_WORDS or word in QUESTION_FUNCTION_WORDS or word in CLITICS or word in WH_WORDS
        or word in NOT_VALUES or "'" in word or is_negation(word)
    )  # fmt: skip


def content_stems(text: str) -> frozenset[str]:
    """The stems of a text's content words (no function words, pronouns or negations)."""
    return frozenset(stem(w) for w in words_of(text) if is_content(w))


@dataclass(frozen=True)
class Keys:
    """A statement to match against: its verb stem (None: none), its value stems in order, the raw words
    (for frames), and whether it is negated."""

    verb: str | None
    value: tuple[str, ...]
    words: tuple[str, ...]
    negated: bool = False
    subject: tuple[str, ...] = ("i",)
    past: bool = False  # asked in the past ("did you ever skate ?"): "i used to skate" answers yes


def question_keys(p: Proposition) -> Keys:
    words = ((p.verb,) if p.verb else ()) + p.rest
    value = tuple(stem(w) for w in _value_words(p.rest))
    past = p.aux in ("did", "was", "were", "had")
    return Keys(verb_stem(p.verb) if p.verb else None, value, words, subject=p.subject, past=past)


def _value_words(words: tuple[str, ...] | list[str]) -> list[str]:
    """The words of a statement's value: content words but adverbs and quantifiers (plus-25: "more than
    one" and "several" say how many, not what)."""
    text = MORE_THAN_ONE.sub(" ", " ".join(words))
    return [w for w in text.split() if is_content(w) and w not in ADVERBS and w not in QUANTIFIERS]


SUBJECTS = frozenset({"i", "we", "he", "she", "they", "it", "that", "this", "there"})
BE = frozenset({"am", "is", "are", "was", "were", "be", "been"})
HELPERS = frozenset({"do", "does", "did", "will", "would", "can", "could", "should", "may", "might", "must"})


@lru_cache(maxsize=1 << 14)
def statement_keys(clause: str) -> Keys | None:
    """The keys of a statement ("i drive a nissan pathfinder": verb drive, value nissan pathfinder; "i am a
    teacher": no verb, value teacher); None when it has no content word."""
    words = words_of(clause)
    if not any(is_content(w) for w in words):
        return None
    i = 0
    if words[0] in SUBJECTS:
        i = 1
    elif words[0] in DETERMINERS and len(words) > 1:  # "my favorite music genre is ..."
        i = next((j for j in range(2, min(len(words), 5)) if words[j] in BE or words[j] in HELPERS), 2)
    subject = tuple(words[:i])
    be = False
    while i < len(words) - 1 and (
        words[i] in HELPERS
        or words[i] in BE
        or is_negation(words[i])
        or is_adverb(words[i])
        or (words[i] in FUNCTION_WORDS and words[i] not in LIKE | {"have", "has", "had"})
        or (words[i] == "have" and words[i + 1] == "been")
    ):
        be |= words[i] in BE
        i += 1  # auxiliaries, negations and adverbs before the verb ("i just bought")  # fmt: skip
    verb = words[i] if i < len(words) and (not be or PARTICIPLE.match(words[i])) else None
    if verb is not None and not (is_content(verb) or verb in LIKE or verb in ("have", "had", "has")):
        verb = None
    value = tuple(stem(w) for w in _value_words(tuple(words[(i + 1 if verb else i) :])))
    return Keys(verb_stem(verb) if verb else None, value, tuple(words), is_negated(words), subject)


def is_negated(words: list[str] | tuple[str, ...], past: bool = False) -> bool:
    """A negation, or "used to" where the present is asked ("i used to paint": not now)."""
    used_to = not past and any(a == "used" and b == "to" for a, b in zip(words, words[1:], strict=False))
    return used_to or any(is_negation(w) for w in words)


def is_adverb(word: str) -> bool:
    return word in ADVERBS or (word.endswith("ly") and len(word) > 4)


def verb_stem(verb: str) -> str:
    return "like" if verb in LIKE else stem(verb)


def clauses(text: str) -> list[str]:
    """The clauses of a reply: split at sentence and comma punctuation and at "but", "though" ..."""
    return [c.strip() for c in CLAUSE_BREAK.split(str(text).lower()) if c and c.strip()]


# words that state nothing the guard could contradict ("cool !", "hi !", "yes .", "i'm good")
_PHATIC = frozenset(
    stem(w)
    for w in lex(
        "hi hello hey ok okay lol haha hah hehe thanks thank cool wow sure great nice awesome yes yeah "
        "yep yup nope oh well right true alright good fine"
    )
)  # fmt: skip


def states_something(text: str) -> bool:
    """A content word beyond greetings, thanks and interjections: the guard's scores of parts without one
    ("yes .", "cool !", "hi !") were noise."""
    return bool(content_stems(text) - _PHATIC)


def shares_topic(a: str, b: str) -> bool:
    """Two statements speak of one thing: a content word in common (by stem, or by its first five letters:
    "retire", "retirement"), greetings and interjections aside, or a number in each ("i am 37" and "i am
    25"). Statements that share none were the guard's false alarms ("i have a boyfriend ." and "i love you")
    far more often than its contradictions (`qa:20`, where no question picks the premises)."""
    x, y = content_stems(a) - _PHATIC, content_stems(b) - _PHATIC
    if x & y or (any(w.isdigit() for w in x) and any(w.isdigit() for w in y)):
        return True
    return any(len(u) >= 5 and len(v) >= 5 and u[:5] == v[:5] for u in x for v in y)
