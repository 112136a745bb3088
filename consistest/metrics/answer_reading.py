"""How a reply answers the user's question: whether the user asked one, the yes/no answer a reply gives,
and the statement that answer makes ("no ." to "do you have a dog ?" says "i don't have a dog ."). The
readings :mod:`.answers`' rules and the detectors' pair selection share; they decide nothing themselves."""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.metrics.clean import clean_response
from consistest.metrics.numbers import tokens
from consistest.metrics.plus import long_part
from consistest.metrics.propositions import content_stems, proposition
from consistest.metrics.rules import _phrase_at, question_forms, skip_fillers
from consistest.metrics.yesno import Polarity

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
ASKS = re.compile(r"\?[\s!?.:;()*'\"~-]*$")
WH = frozenset({"what", "where", "who", "whom", "whose", "when", "why", "how", "which"})


def _plain(text: str) -> str:
    return str(text).replace("\u2019", "'")


def is_question(turn: str) -> bool:
    """The user's turn asks something: it ends with a question mark (emoticons and "!" may follow), or it
    opens with a WH word and ends no sentence ("what did you buy ")."""
    text = _plain(turn).strip()
    if ASKS.search(text):
        return True
    words = text.lower().split()
    return bool(words) and words[0] in WH and not re.search(r"[.!]", text)


def answer_polarity(question: str, reply: str) -> Polarity | None:
    """``yes``/``no`` when the reply opens (after fillers) with a yes/no phrase ("of course not": no; "yes
    and no": neither), or with a short form of the question standing alone ("i do ." to "do you ...?")."""
    toks = [t for t in tokens(clean_response(_plain(reply))) if t.strip()]
    i = skip_fillers(toks)
    said = _phrase_at(toks, i)
    if said is not None:
        j = i + said[1]
        while j < len(toks) and (not toks[j][0].isalnum() or toks[j] in ("and", "or", "but")):
            j += 1
        other = _phrase_at(toks, j)  # "yes and no", "yes . no .": neither
        return None if other is not None and other[0] != said[0] else said[0]
    for form, polarity in question_forms(question)[0].get(toks[i] if i < len(toks) else "", []):
        j = i + len(form)
        if tuple(toks[i:j]) == form and (j == len(toks) or not toks[j][0].isalnum()):
            return polarity  # type: ignore[return-value]
    return None


def answer_statement(question: str, reply: str) -> str:
    """The reply with its yes/no answer spelled out as the question's statement or negation, then the rest
    ("yes i do . i have two" to "do you have kids ?" -> "i have kids . i have two"); the reply unchanged
    when the user asked no Y/N question or the reply gives no yes/no answer."""
    prop = proposition(_plain(question)) if is_question(question) else None
    said = answer_polarity(question, reply) if prop is not None else None
    if prop is None or said is None:
        return reply
    head = prop.statement() if said == "yes" else prop.negation()
    rest = long_part(clean_response(_plain(reply)))
    words, leftover = rest.split(), (",", ".", "not") if said == "no" else (",", ".")
    while words:  # what is left of "no , of course not", "yes yes"
        got = _phrase_at(words, 0)
        if got is not None and got[0] == said:
            words = words[got[1] :]
        elif words[0] in leftover:
            words = words[1:]
        else:
            break
    rest = " ".join(words)
    return f"{head} . {rest}" if rest else f"{head} ."


def on_topic(question: str, premises: Sequence[str]) -> list[str]:
    """The premises sharing a content word with the question."""
    want = content_stems(question)
    return [p for p in premises if content_stems(p) & want]


def returns_question(question: str, reply: str) -> bool:
    """The reply is nothing but the user's question asked back: no statement, and one of its questions
    holds every content word of the user's (for a Y/N question, opening with the same word: "what do you
    like to grill ?" follows "do you like to grill ?" up, it does not return it)."""
    want = content_stems(question)
    if not want or not is_question(question) or re.search(r"\w", clean_response(_plain(reply))):
        return False
    opener = question.split()[0].lower()
    opens = (lambda s: s.split()[0].lower() == opener) if proposition(_plain(question)) else (lambda s: True)
    asked = [s for s in SENTENCE_END.split(_plain(reply).strip()) if s.endswith("?")]
    return any(want <= content_stems(s) and opens(s) for s in asked)
