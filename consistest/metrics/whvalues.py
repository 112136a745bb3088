"""WH answers of ``--method plus``: which truth words count as keywords, and values beside or instead of the
truth (half the truth, a hallucinated extra, another value in the truth's place).

- ``function-words``: function words ("my", "in", "i") never count ("my mom" for "my dad": 0).
- ``question-words``: truth words the question already holds are no evidence ("nature documentaries" for
  "war documentaries" to "what type of documentaries ...": only "war" counts).
- ``extras``: values listed beside the truth ("pizza , sushi and tacos"; "country music , and a bit of
  rock"; "a historian and a librarian"), other numbers beside it ("i'm 12 years old and i'm 11") or values
  in its frame elsewhere ("from india , and my dad is from nepal"; "i love classical music , i love jazz")
  that the support does not hold: 0.5.
- ``negated-truth``: every clause holding the truth negates it ("i'm not fat" for fat): 0.
- ``another-value``: the truth's number replaced by another in the truth's own frame ("once a year" for
  "twice a year", "the third grade" for "fourth grade"): 0, not the partial credit of the words kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.metrics.numbers import ORDINAL_WORDS
from consistest.metrics.propositions import Keys, clauses, is_content, stem, words_of
from consistest.metrics.rules import FILLERS, MAX_KEYWORDS, content_tokens
from consistest.metrics.stances import match_stem, substituted
from consistest.metrics.words import FUNCTION_WORDS, NEGATIONS, NEGATIVE_VERBS, is_negation, lex

LIST_JOINERS = frozenset({",", "and", "or", "&", "plus", "/"})
COORDINATORS = frozenset({"and", "or", "&", "plus", "/"})
DETERMINERS = frozenset({"a", "an", "the", "my", "some"})
NUMBER = re.compile(r"^[0-9]+$")


def truth_keywords(truth: str, drop_function_words: bool, question: str = "") -> list[list[str]]:
    """The truth's ``|`` alternatives as keyword lists (1..MAX_KEYWORDS each); with the function-words
    rule those words are dropped, with a ``question`` the words it holds too; an alternative keeps its
    words when nothing else would be left ("not really"; "documentaries" alone)."""
    asked = set(content_tokens(question))
    out = []
    for alt in str(truth).split("|"):
        toks = content_tokens(alt)
        if drop_function_words:
            toks = [t for t in toks if t not in FUNCTION_WORDS] or toks
        toks = [t for t in toks if t not in asked] or toks
        if 0 < len(toks) <= MAX_KEYWORDS:
            out.append(toks)
    return out


def forms_recall(keywords: Sequence[str], said: Sequence[str]) -> float:
    """Keyword recall where a keyword also counts in another form ("walker" for walk, by stem), inside a
    compound (a reply word spelling adjacent keywords: "supermodel" for super model; or ending in one of
    four letters or more: "motorbike" for bike), split in two ("ship yard" for shipyard), or in another
    spelling of its number ("3rd" for third, "10 years" for a decade; :func:`said_as`)."""
    stems = {stem(t) for t in said}
    distinct = list(dict.fromkeys(keywords))
    joined = {"".join(keywords[i:j]) for i in range(len(keywords)) for j in range(i + 2, len(keywords) + 1)}
    glued = [t for t in said if t in joined]
    split = {a + b for a, b in zip(said, said[1:], strict=False) if len(a) >= 3 and len(b) >= 3}
    hit = 0
    for k in distinct:
        compound = any(len(k) >= 4 and len(t) - len(k) >= 4 and t.endswith(k) for t in said) or any(
            k in g for g in glued
        )
        hit += k in said or stem(k) in stems or compound or k in split or said_as(k, said)
    return hit / len(distinct)


# other spellings of a number keyword, each a run of content tokens (``content_tokens`` makes "3rd" 3, rd)
_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
SPELLED_AS: dict[str, tuple[tuple[str, ...], ...]] = {
    **{w: ((str(n), _SUFFIXES.get(n, "th")),) for n, w in enumerate(ORDINAL_WORDS) if n},
    "decade": (("10", "year"),),
}


def said_as(keyword: str, said: Sequence[str]) -> bool:
    """The keyword's number said another way: "3rd" for third, "10 years" for decade (the run of tokens in
    order)."""
    for run in SPELLED_AS.get(keyword, ()):
        n = len(run)
        if any(tuple(said[i : i + n]) == run for i in range(len(said) - n + 1)):
            return True
    return False


def extra_values(cleaned: str, truth_tokens: Sequence[str], support: str) -> list[str]:
    """Values listed beside a recalled truth keyword ("pizza , sushi and tacos"; "country music , and a bit
    of rock": the truth's own next word may stand between) that the support text (fact + persona) lacks,
    and other numbers beside a number truth. A list item is one or two words, none a function word."""
    words = re.findall(r"[0-9]+|[^\W\d_]+(?:'[a-z]+)?|[,&/]", cleaned.lower())
    folded = [_first_token(w) or w for w in words]
    have = set(content_tokens(support)) | set(truth_tokens)
    extras: list[str] = []
    for i, t in enumerate(folded):
        if t not in truth_tokens:
            continue
        for step in (-1, 1):
            j = i + step
            while step == -1 and j > 0 and words[j] in DETERMINERS:
                j -= 1  # "a historian and a librarian": the truth's own article
            nxt = words[j] if 0 <= j < len(words) else ","
            if step == 1 and nxt not in LIST_JOINERS and _value_word(nxt) and folded[j] not in truth_tokens:
                j += 1  # "country music , and ...": the truth's head noun
            found, coordinated = [], False
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
    if any(NUMBER.match(t) for t in truth_tokens):
        extras += [
            w for w in content_tokens(cleaned) if NUMBER.match(w) and w not in have and w not in extras
        ]
    extras += [
        w for w in frame_extras(words, folded, truth_tokens, support) if w not in have and w not in extras
    ]
    extras += [
        w for w in reply_frame_extras(words, folded, truth_tokens) if w not in have and w not in extras
    ]
    return extras


def reply_frame_extras(words: list[str], folded: list[str], truth_tokens: Sequence[str]) -> list[str]:
    """Other values after the words the reply puts before the truth, said again ("i love classical music ,
    i love jazz"; "a huge fan of country music , but ... a huge fan of jazz"): the frame is three words back
    to a comma or joiner, further back to its first content word (five words at most: "i want to be a"),
    and holds a content word ("i'm a" is no frame)."""
    at = next((i for i, t in enumerate(folded) if t in truth_tokens), None)
    if at is None:
        return []
    k = at
    while k > 0 and (at - k < 3 or not any(is_content(w) for w in words[k:at])) and at - k < 5:
        if words[k - 1] in LIST_JOINERS:
            break
        k -= 1
    frame = tuple(words[k:at])
    if not any(is_content(w) for w in frame):
        return []
    n = len(frame)
    return [folded[j] for j in range(n, len(words)) if j != at and tuple(words[j - n : j]) == frame
            and _other_value(words[j], folded[j], truth_tokens)]  # fmt: skip


# after a frame, no other value: a pronoun or a quantity ("i've got a bit of ...")
NOT_OTHER = lex("her him them it me you us em bit lot few little couple ton bunch")


def _other_value(word: str, folded: str, truth_tokens: Sequence[str]) -> bool:
    """A value word that is not the truth's, nor its word spelled otherwise ("dollies" for dolls), nor an
    -ing word beside a truth without one ("i love chocolate and i love eating it")."""
    respelled = any(word.startswith(t[:4]) for t in truth_tokens if len(t) >= 4)
    activity = word.endswith("ing") and not any(t.endswith("ing") for t in truth_tokens)
    return (
        _value_word(word)
        and word not in NOT_OTHER
        and folded not in truth_tokens
        and not (respelled or activity)
    )


PREPOSITIONS = lex("from in on at to with for by about near")


def frame_extras(words: list[str], folded: list[str], truth_tokens: Sequence[str], support: str) -> list[str]:
    """Other values in the truth's own frame elsewhere in the reply: the support says "from india", the
    reply "my family is from india , and my dad is from nepal" (the preposition(s) before the truth)."""
    said = re.findall(r"[0-9]+|[^\W\d_]+(?:'[a-z]+)?", support.lower())
    heads = [i for i, w in enumerate(said) if truth_tokens and content_tokens(w)[:1] == [truth_tokens[0]]]
    if not heads:
        return []
    k = heads[0]
    while k > 0 and heads[0] - k < 2 and (said[k - 1] in PREPOSITIONS or said[k - 1] in ("a", "an", "the")):
        k -= 1
    frame = tuple(said[k : heads[0]])
    if not set(frame) & PREPOSITIONS or not any(t in folded for t in truth_tokens):
        return []
    n = len(frame)
    return [folded[j] for j in range(n, len(words)) if tuple(words[j - n : j]) == frame
            and folded[j] not in truth_tokens and _value_word(words[j])]  # fmt: skip


def _first_token(word: str) -> str | None:
    """The word's content token as truth keywords are spelled ("dogs" -> "dog"); None for a function word."""
    toks = content_tokens(word)
    return toks[0] if toks else None


def _value_word(w: str) -> bool:
    """Whether a word can be (part of) a listed value: no function word, filler, contraction or -ly."""
    bad = w in FUNCTION_WORDS or w in NEGATIONS or w in FILLERS or "'" in w or w.endswith("ly")
    return not bad and w[0].isalnum()


def _item(words: list[str], folded: list[str], j: int, step: int) -> tuple[list[str], int]:
    """The list item starting at ``j`` going in direction ``step``: up to two content words, after an
    article or "a bit of"; returns (its folded words, the index after it)."""
    item: list[str] = []
    while 0 <= j < len(words) and words[j] in ("a", "an", "the", "some", "bit", "of"):
        j += step
    while 0 <= j < len(words) and len(item) < 2 and words[j] not in LIST_JOINERS:
        if not _value_word(words[j]):
            break  # the item ends before a word that is no value
        item.append(folded[j])
        j += step
    if step == 1 and item and 0 <= j < len(words) and words[j] in VERB_OBJECTS:
        return [], j  # "my cat and make her happy": a verb, not a listed value
    return item, j


VERB_OBJECTS = lex("her him them it me you us to")
NUMBER_WORDS = lex("once twice thrice") | frozenset(ORDINAL_WORDS[1:11])  # "first" to "tenth"


def number_like(word: str) -> bool:
    """A count, frequency or rank: "12", "twice", "third", "3rd"."""
    return word in NUMBER_WORDS or bool(re.match(r"^[0-9]+(?:st|nd|rd|th|s)?$", word))


def another_value(cleaned: str, truth: str) -> bool:
    """Whether a clause keeps some of a truth alternative's words and puts another number in the place of
    one it drops, behind the same function words ("about once a year" for "twice a year"). Other words in
    the place are most often paraphrases ("my motorcycle helmet" for motorbike helmet): not judged here."""
    for alt in str(truth).split("|"):
        words = tuple(words_of(alt))
        value = tuple(stem(w) for w in words if is_content(w))
        if len(value) < 2:
            continue
        keys = Keys(None, value, words)
        for c in clauses(cleaned):
            got = words_of(c)
            stems = [match_stem(w, keys) for w in got]
            swap = None if set(value) <= set(stems) else substituted(keys, got, stems)
            if swap is not None and number_like(swap[0]) and number_like(swap[1]):
                return True
    return False


# what a negation may be followed by without negating what comes after: a hedge ("i'm not sure i ...")
_HEDGED = lex("sure certain know")


def _negates(word: str) -> bool:
    """A negation (:func:`.words.is_negation`) but a verb of dislike, which the question may hold ("what
    color do you hate ?")."""
    return is_negation(word) and word not in NEGATIVE_VERBS


def negated_truth(cleaned: str, keywords: Sequence[str], question: str, truth: str) -> bool:
    """Whether every clause holding a truth keyword negates it ("i'm not fat" for fat; "it's not the color
    orange"): a negation before the keyword in its clause (a clause ends at "and" too), not a hedge ("i'm not
    sure i'm ready to live forever"); never where the question or the truth holds a negation."""
    if any(_negates(w) for w in words_of(f"{question} {truth}")):
        return False
    said = False
    for c in (part for clause in clauses(cleaned) for part in re.split(r"\band\b", clause)):
        ws = words_of(c)
        at = next((i for i, w in enumerate(ws) if _first_token(w) in keywords), None)
        if at is None:
            continue
        if not any(_negates(ws[j]) and not (j + 1 < len(ws) and ws[j + 1] in _HEDGED) for j in range(at)):
            return False
        said = True
    return said
