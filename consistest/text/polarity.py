"""Polarity (negation) and person (first <-> second) of short statements, on normalised words."""

from __future__ import annotations

from collections.abc import Sequence

from consistest.text.lexicon import lexicon


def is_negated(words: Sequence[str]) -> bool:
    """A statement is negative when it holds not/never, or no/zero as a determiner-like word."""
    return any(w in lexicon()["negations"] for w in words)


def drop_negation(words: Sequence[str]) -> list[str]:
    """Remove not/never; turn 'no'/'zero' into 'any' ("i have no pets" -> "i have any pets")."""
    out: list[str] = []
    for w in words:
        if w in ("not", "never"):
            continue
        out.append("any" if w in ("no", "zero") else w)
    return out


def swap_person(words: Sequence[str]) -> list[str]:
    """First person <-> second person: my->your, me->you, mine->yours, myself->yourself, i am->you are."""
    table = lexicon()["pronoun_swap"]
    out: list[str] = []
    for k, w in enumerate(words):
        prev = words[k - 1] if k else ""
        if w in ("am", "was") and prev != "i":
            out.append(w)
        elif w == "was":
            out.append("were")
        else:
            out.append(table.get(w, w))
    return out


def answer_polarity(norm_answer: str, opener: str = "") -> str | None:
    """'yes' / 'no' from the start of a reply to a yes/no question opened by ``opener``; None if unclear.

    "i do ..." counts as yes only after "do you ...?" (the reply mirrors the auxiliary), so that
    "do you have a cat?" / "i have a bird" is not read as yes.
    """
    text = " " + " ".join(norm_answer.split()) + " "
    mirror = {"are": "am", "were": "was"}.get(opener, opener)
    for phrase in sorted(lexicon()["no_words"], key=len, reverse=True):
        if text.startswith(f" {phrase} "):
            return "no"
    for phrase in sorted(lexicon()["yes_words"], key=len, reverse=True):
        ws = phrase.split()
        if ws[0] == "i" and ws[-1] != mirror:
            continue
        if text.startswith(f" {phrase} "):
            return "yes"
    return None
