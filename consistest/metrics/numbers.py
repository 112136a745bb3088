"""Number words -> digits ("twenty one" -> 21, "a hundred and five" -> 105), total: no input raises.

The lexicon is word2number's ``american_number_system``; the arithmetic is a small validating parser,
because ``w2n.word_to_num`` itself mis-reads runs ("one two" -> 3, "a hundred and five" -> 500,
"one million two hundred thousand" -> 1201200). A run of number words is split wherever the grammar
breaks ("one two" -> "1 2"), so each emitted number is one the words really spell.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1)
def _lexicon() -> dict[str, int]:
    try:
        from word2number import w2n

        lex = {k: v for k, v in w2n.american_number_system.items() if isinstance(v, int)}
    except Exception:  # pragma: no cover - word2number is a dependency; keep working without it
        lex = {}
    if not lex:  # pragma: no cover
        units = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        units += " fifteen sixteen seventeen eighteen nineteen"
        lex = {w: i for i, w in enumerate(units.split())}
        tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        lex.update({w: 20 + 10 * i for i, w in enumerate(tens)})
        lex.update({"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9})
    return lex


# The ordinal words, by their number (0..12): the one list the readers of ranks take their share of.
ORDINAL_WORDS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                 "ninth", "tenth", "eleventh", "twelfth")  # fmt: skip


def _kind(word: str) -> str | None:
    v = _lexicon().get(word)
    if v is None:
        return None
    if v == 100:
        return "hundred"
    if v >= 1000:
        return "scale"
    return "small"  # 0..99


def tokens(text: str) -> list[str]:
    """Lowercase word/number/punctuation tokens (contractions kept as one token: "don't")."""
    text = str(text).lower().replace("\u2019", "'").replace("`", "'")
    text = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", text)  # "twenty-one", "x-ray"
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?|[^\sa-z0-9]", text)


def normalize_numbers(text: str) -> str:
    """Spelled-out numbers become digits; other tokens pass through (space-joined, lowercased)."""
    return " ".join(normalize_number_tokens(tokens(text)))


def normalize_number_tokens(toks: list[str]) -> list[str]:
    """Token-level ``normalize_numbers`` (tokens as made by ``tokens``)."""
    flat = list(toks)
    lex = _lexicon()
    if not any(t in lex for t in flat):  # every number starts at or right after a number word
        return flat
    out: list[str] = []
    i = 0
    while i < len(flat):
        value, used = _parse_number(flat, i)
        if used:
            out.append(str(value))
            i += used
        else:
            out.append(flat[i])
            i += 1
    return out


def _parse_number(toks: list[str], start: int) -> tuple[int, int]:
    """Longest valid number at ``start``: (value, tokens used); (0, 0) if none."""
    i = start
    lead_a = toks[i] in ("a", "an") and i + 1 < len(toks) and _kind(toks[i + 1]) in ("hundred", "scale")
    if lead_a:
        i += 1
    elif _kind(toks[i]) != "small":
        return 0, 0  # a bare "hundred"/"million" stays a word
    total = current = 0
    last: str | None = "one" if lead_a else None  # "a" acts as "one"
    if lead_a:
        current = 1
    best = (0, 0)
    last_scale = float("inf")
    while i < len(toks):
        w = toks[i]
        kind = _kind(w)
        if (
            w == "and"
            and last in ("hundred", "scale")
            and i + 1 < len(toks)
            and _kind(toks[i + 1]) == "small"
        ):
            i += 1
            continue
        if kind is None or not _fits(last, kind, _lexicon()[w], current):
            break
        if kind == "scale" and _lexicon()[w] >= last_scale:
            break  # "thousand million": scales must shrink
        v = _lexicon()[w]
        if kind == "small":
            current += v
            last = "tens" if v >= 20 and v % 10 == 0 else ("teen" if v >= 10 else "unit")
        elif kind == "hundred":
            current = (current or 1) * 100
            last = "hundred"
        else:
            total += (current or 1) * v
            current, last_scale = 0, v
            last = "scale"
        i += 1
        best = (total + current, i - start)
    return best


def _fits(last: str | None, kind: str, value: int, current: int) -> bool:
    """Grammar of spelled numbers: which word may follow which."""
    if last is None:
        return kind == "small"
    if kind == "small":
        if last in ("unit", "teen"):
            return False  # "one two", "twelve three"
        if last == "tens":
            return 0 < value < 10  # "twenty one"
        if last == "hundred":
            return current % 100 == 0 and value > 0
        return value > 0  # after a scale word: "thousand five"
    if kind == "hundred":
        return last in ("unit", "teen", "one") and current < 100  # "five hundred", "twelve hundred"
    return last != "scale"  # "two hundred thousand", not "million thousand"
