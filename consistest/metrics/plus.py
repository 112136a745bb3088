"""The improved hybrid (``--method plus``): four versioned rules on top of the paper's, each switchable so
their effects can be measured one at a time (``consistest agree --ablation``).

- ``function-words``: function words ("my", "in", "about") never count as truth keywords, so "my mom"
  gets nothing for truth "my dad" (the guidelines: only function words shared -> 0).
- ``paraphrase``: a WH reply that recalls no keyword gets full credit when the NLI guard says the reply
  entails the fact ("i fix people's teeth" for dentist); replies sharing a keyword are left to recall
  (partial answers such as "a honda" for honda civic would otherwise get full credit from a guard that
  reads entailment loosely).
- ``extras``: a WH answer that lists other values beside the truth ("pizza , sushi and tacos" for pizza)
  that neither the fact nor the persona supports scores at most 0.5, as the guidelines say.
- ``yn-long``: the long part of a Y/N reply (what follows the yes/no word and short form) is checked on
  its own: against the fact by NLI (contradiction -> 0) and against the question by polarity ("yes , i
  can not stand cats" to "do you love cats ?" -> 0): the yes/no word and the long part must agree.
- ``out-of-persona``: a reply in which the bot says it is an AI, a language model or a chatbot ("As an AI,
  I don't have a dog") is not grounded in the fact and scores 0, as the guidelines say, even when its
  polarity happens to match.

Pure functions over strings; the NLI labels come in through :func:`final_plus`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from consistest.metrics.rules import (
    FILLERS,
    MAX_KEYWORDS,
    QUESTION_FUNCTION_WORDS,
    Need,
    _phrase_at,
    content_tokens,
    judge,
    keyword_recall,
    truth_polarity,
)

PLUS_VERSION = 1  # bump when any rule below or its lexicons change a score
Rule = Literal["function-words", "paraphrase", "extras", "yn-long", "out-of-persona"]
RULES: tuple[Rule, ...] = get_args(Rule)
EXTRAS_CAP = 0.5

# Function words: never keywords of a truth (versioned with PLUS_VERSION).


def _lex(words: str) -> frozenset[str]:
    """A lexicon written as one space-separated string."""
    return frozenset(words.split())


FUNCTION_WORDS = _lex(
    "i me my mine myself you your yours he him his she her hers it its we us our they them their this that "
    "these those in on at to of for with about from by into onto over under around near up down out off "
    "a an the some any all each every much many lot lots is am are was were be been being do does did have "
    "has had will would can could should just very really so too also then than there here but because "
    "though since if when while as like yet"
)
NEGATIONS = _lex("not n't never no don't can't cannot won't isn't aren't wasn't didn't doesn't")
NEGATIVE_VERBS = _lex("hate hates dislike dislikes")
# Persona-breaking self-descriptions (versioned with PLUS_VERSION).
OUT_OF_PERSONA = re.compile(
    r"\b(?:as an ai|i'?m an ai|i am an ai|since i'?m an ai|as a language model|ai language model|"
    r"i'?m (?:just )?a (?:chat)?bot|i am (?:just )?a (?:chat)?bot|as a (?:chat)?bot)\b",
    re.IGNORECASE,
)
LIST_JOINERS = frozenset({",", "and", "or", "&", "plus", "/"})
COORDINATORS = frozenset({"and", "or", "&", "plus", "/"})


def method_tag(method: str, rules: Sequence[Rule] = RULES) -> str:
    """The signature's ``method:`` value: ``paper``, ``plus-1``, or ``plus-1[rule+rule]`` for a subset."""
    if method == "paper":
        return "paper"
    if tuple(sorted(rules)) == tuple(sorted(RULES)):
        return f"plus-{PLUS_VERSION}"
    return f"plus-{PLUS_VERSION}[{'+'.join(r for r in RULES if r in rules) or 'none'}]"


def truth_keywords(truth: str, drop_function_words: bool) -> list[list[str]]:
    """The truth's ``|`` alternatives as keyword lists (1..MAX_KEYWORDS each); with the function-words
    rule those words are dropped, unless nothing else is left ("not really" keeps its words)."""
    out = []
    for alt in str(truth).split("|"):
        toks = content_tokens(alt)
        if drop_function_words:
            toks = [t for t in toks if t not in FUNCTION_WORDS] or toks
        if 0 < len(toks) <= MAX_KEYWORDS:
            out.append(toks)
    return out


def extra_values(cleaned: str, truth_tokens: Sequence[str], support: str) -> list[str]:
    """Values listed beside a recalled truth keyword ("pizza , sushi and tacos") that the support text
    (fact + persona) does not contain. A list item is one or two words, none of them a function word."""
    words = re.findall(r"[0-9]+|[^\W\d_]+(?:'[a-z]+)?|[,&/]", cleaned.lower())
    folded = [content_tokens(w)[0] if content_tokens(w) else w for w in words]
    have = set(content_tokens(support)) | set(truth_tokens)
    extras: list[str] = []
    for i, t in enumerate(folded):
        if t not in truth_tokens:
            continue
        for step in (-1, 1):
            found, coordinated, j = [], False, i + step
            while 0 <= j < len(words) and words[j] in LIST_JOINERS:
                while 0 <= j < len(words) and words[j] in LIST_JOINERS:  # ", and"
                    coordinated |= words[j] in COORDINATORS
                    j += step
                item, j = _item(words, folded, j, step)
                if not item:
                    break
                found += item
            if coordinated:  # "pizza , sushi and tacos", not "yellow , it's beautiful"
                extras += [w for w in found if w not in have and w not in extras]
    return extras


def _value_word(w: str) -> bool:
    """Whether a word can be (part of) a listed value: no function word, filler, contraction or -ly."""
    bad = w in FUNCTION_WORDS or w in NEGATIONS or w in FILLERS or "'" in w or w.endswith("ly")
    return not bad and w[0].isalnum()


def _item(words: list[str], folded: list[str], j: int, step: int) -> tuple[list[str], int]:
    """The list item starting at ``j`` going in direction ``step``: up to two content words (an article
    may precede it); returns (its folded words, the index after it)."""
    item: list[str] = []
    while 0 <= j < len(words) and words[j] in ("a", "an", "the", "some"):
        j += step
    while 0 <= j < len(words) and len(item) < 2 and words[j] not in LIST_JOINERS:
        if not _value_word(words[j]):
            return item, j  # the item ends before a word that is no value
        item.append(folded[j])
        j += step
    return item, j


def long_part(cleaned: str) -> str:
    """What follows the opening yes/no word and short form: "yes , i do . i have two" -> "i have two"."""
    toks = re.findall(r"[\w']+|[^\w\s]", cleaned.lower())
    i = 0
    while i < len(toks) and (toks[i] in FILLERS or not toks[i][0].isalnum()):
        i += 1
    said = _phrase_at(toks, i)
    if said is not None:
        i += said[1]
    rest = toks[i:]
    m = re.match(
        r"^(?:[,.!]\s*)*(?:i|it|we|they|he|she)\s+(?:\w+(?:\s+not|n't)?)\s*(?:[,.!]|$)", " ".join(rest)
    )
    text = " ".join(rest)[m.end() :] if m else " ".join(rest)
    return text.strip(" ,.!")


def long_polarity(long: str, question: str) -> str | None:
    """``no`` when the long part negates the question's last content word (its object: "i can not stand
    cats" for "do you love cats ?"), ``yes`` when it repeats the question's content words in order without
    a negation ("i work at a bar" for "do you work at a bar ?"; not "blonde hair and blue eyes" for "do you
    have blue hair ?"), else ``None`` (NLI decides)."""
    q = [t for t in content_tokens(question) if t not in FUNCTION_WORDS and t not in QUESTION_FUNCTION_WORDS]
    if not q or not long:
        return None
    words = re.findall(r"[\w']+", long.lower())
    said = [t for t in content_tokens(long) if t not in FUNCTION_WORDS and t not in NEGATIONS]
    negated = any(w in NEGATIONS or w.endswith("n't") or w in NEGATIVE_VERBS for w in words)
    if negated and q[-1] in said:
        return "no"
    if not negated and any(said[i : i + len(q)] == q for i in range(len(said) - len(q) + 1)):
        return "yes"
    return None


Ask = Literal["guard", "decide", "credit", "long"]


@dataclass(frozen=True)
class PlusVerdict:
    """What the plus rules decided and which NLI labels they still need, by the question each answers:
    ``guard`` (premise -> reply: contradiction gives 0), ``decide`` (premise -> reply: 1 iff entailment),
    ``credit`` (reply -> premise: entailment gives full WH credit), ``long`` (premise -> long part of a
    Y/N reply: contradiction gives 0)."""

    outcome: str
    rule_score: float | None
    cleaned: str
    asks: tuple[Ask, ...] = ()
    long_part: str = ""
    capped: bool = False  # the extras rule applies: at most EXTRAS_CAP

    def pairs(self, premise: str) -> list[tuple[str, str]]:
        """The (premise, hypothesis) pair of each ask, in order."""
        hyp = {"guard": self.cleaned, "decide": self.cleaned, "long": self.long_part}
        return [(self.cleaned, premise) if a == "credit" else (premise, hyp[a]) for a in self.asks]


def judge_plus(
    question: str, truth: str, qtype: str, response: str, support: str = "", rules: Sequence[Rule] = RULES
) -> PlusVerdict:
    """Score one response with the paper's rules changed by ``rules``; ``support`` is the fact and the
    persona (what extra values may be taken from)."""
    v = judge(question, truth, qtype, response)
    if "out-of-persona" in rules and OUT_OF_PERSONA.search(response.replace("\u2019", "'")):
        return PlusVerdict("out_of_persona", 0.0, v.cleaned)
    paper: tuple[Ask, ...] = () if v.need is Need.NONE else (v.need.value,)  # type: ignore[assignment]
    if v.outcome.value == "keyword_recall":
        alts = truth_keywords(truth, "function-words" in rules)
        have = set(content_tokens(v.cleaned))
        best = max(alts, key=lambda a: keyword_recall(a, have))
        score = keyword_recall(best, have)
        asks: tuple[Ask, ...] = ("guard",) if score > 0 else ()
        if "paraphrase" in rules and score == 0:  # a reply sharing keywords is judged by its recall
            asks += ("credit",)
        capped = "extras" in rules and score > 0 and bool(extra_values(v.cleaned, best, support))
        return PlusVerdict(
            "extra_values" if capped else v.outcome.value, score, v.cleaned, asks, capped=capped
        )
    if qtype == "yn" and "yn-long" in rules and v.need is Need.GUARD:
        rest = long_part(v.cleaned)
        said, truth_said = long_polarity(rest, question), truth_polarity(truth)
        if said is not None and truth_said is not None and said != truth_said:
            return PlusVerdict("long_part_disagrees", 0.0, v.cleaned)
        if re.search(r"[^\W\d_]{2}", rest) and set(content_tokens(rest)) - FUNCTION_WORDS:
            return PlusVerdict(v.outcome.value, v.rule_score, v.cleaned, ("guard", "long"), long_part=rest)
    return PlusVerdict(v.outcome.value, v.rule_score, v.cleaned, paper)


def final_plus(v: PlusVerdict, labels: Sequence[str | None] = ()) -> float | None:
    """The score from the NLI labels of ``v.asks`` (in order; ``None`` labels: no NLI model)."""
    got = dict(zip(v.asks, labels, strict=False))
    if got.get("guard") == "contradiction" or got.get("long") == "contradiction":
        return 0.0
    if "decide" in v.asks:
        return None if got.get("decide") is None else float(got["decide"] == "entailment")
    score = v.rule_score
    if got.get("credit") == "entailment":
        score = 1.0
    if score is not None and v.capped:
        score = min(score, EXTRAS_CAP)
    return score
