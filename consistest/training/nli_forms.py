"""Natural surface forms for the guard's training pairs (recipe ``guard-v4``).

ConvAI2's text spells nearly every negation out ("do not" 804 times, "don't" 29 in the validation file), and
the synthetic negations add "do not" or "not". A guard trained on them reads a negation only spelled out:
guard-v3 gives "i have a dog ." against "i don't have a dog ." P(contradiction) .004, and .98 against "i do
not have a dog .". Chat models write "don't" and "i'm not". ``contracted`` writes a sentence the way they
do; ``changed_count`` makes the contradiction that no synthetic kind made ("i have two dogs" / "i have
five dogs": guard-v3 read it as entailment). Both touch the train split only, so dev and test stay the
rows guard-v3 was read on. Choices are seeded by content (``random.Random(f"{seed}:...")``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from consistest.core.records import content_hash

FORMS_VERSION = "1"

# Spelled-out form -> the form chat models write; the longest first so "i am not" wins over "i am".
CONTRACTIONS: tuple[tuple[str, str], ...] = (
    ("i am not", "i'm not"), ("do not", "don't"), ("does not", "doesn't"), ("did not", "didn't"),
    ("can not", "can't"), ("cannot", "can't"), ("is not", "isn't"), ("are not", "aren't"),
    ("was not", "wasn't"), ("were not", "weren't"), ("have not", "haven't"), ("has not", "hasn't"),
    ("will not", "won't"), ("would not", "wouldn't"), ("could not", "couldn't"), ("should not", "shouldn't"),
    ("i am", "i'm"), ("it is", "it's"), ("that is", "that's"),
)  # fmt: skip
COUNT_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
NOT_COUNTED = frozenset({"years", "year", "old", "percent", "am", "pm", "o'clock", "of", "or", "and", "to"})
_NUMBER = re.compile(r"\d{1,3}")


def contracted(text: str, rng: random.Random, p: float = 0.5) -> str:
    """``text`` with probability ``p`` written as chat models write it, every spelled-out form contracted
    (one coin per sentence: a writer who contracts, contracts throughout); else ``text`` itself."""
    if rng.random() >= p:
        return text
    for long, short in CONTRACTIONS:
        text = re.sub(rf"(?<![\w']){re.escape(long)}(?![\w'])", short, text)
    return text


def changed_count(text: str, rng: random.Random) -> str | None:
    """The first count of things ("two dogs", "3 kids") changed to another of the same form (a word for
    a word, digits for digits); None when the sentence counts nothing. Ages and years are left alone."""
    toks = text.split()
    for i, t in enumerate(toks[:-1]):
        nxt = toks[i + 1]
        if not nxt.isalpha() or nxt in NOT_COUNTED or toks[i + 2 : i + 3] == ["old"]:
            continue
        if t in COUNT_WORDS:
            new = rng.choice([w for w in COUNT_WORDS if w != t])
        elif _NUMBER.fullmatch(t) and 2 <= int(t) <= 999 and nxt.endswith("s"):
            n = int(t)
            step = rng.randint(1, max(1, n // 2))
            new = str(n + step if n <= 2 or rng.random() < 0.5 else n - step)
        else:
            continue
        return " ".join([*toks[:i], new, *toks[i + 1 :]])
    return None


def natural_forms(
    rows: list[dict[str, Any]], seed: int, count_max: int = 300
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Train DNLI rows with their sentences contracted as chat models write them (each side of each row
    drawn on its own), plus up to ``count_max`` contradictions of a changed count made from train premises;
    other splits and sources untouched. Returns the rows and counts of what changed."""
    out, seen, changed = [], set(), 0
    for r in rows:
        if r["split"] != "train" or r.get("source", "dnli") != "dnli":
            out.append(r)
            continue
        p = contracted(r["premise"], random.Random(f"{seed}:forms:{r['id']}:p"))
        h = contracted(r["hypothesis"], random.Random(f"{seed}:forms:{r['id']}:h"))
        changed += (p, h) != (r["premise"], r["hypothesis"])
        new = {**r, "premise": p, "hypothesis": h, "id": content_hash(p, h, r["label"])}
        if new["id"] not in seen:
            seen.add(new["id"])
            out.append(new)
    counts = _count_rows(rows, seed, count_max, seen)
    return out + counts, {"forms_version": int(FORMS_VERSION), "contracted": changed, "count": len(counts)}


def _count_rows(
    rows: Sequence[dict[str, Any]], seed: int, count_max: int, seen: set[str]
) -> list[dict[str, Any]]:
    """Contradictions of a changed count, one per train sentence (a premise, or a natural hypothesis)
    that counts something, content-ranked."""
    train = [r for r in rows if r["split"] == "train" and r.get("source", "dnli") == "dnli"]
    texts = {r["premise"] for r in train} | {r["hypothesis"] for r in train if r.get("kind") == "natural"}
    premises = sorted(texts, key=lambda t: content_hash(seed, "count", t))
    out = []
    for text in premises:
        rng = random.Random(f"{seed}:count:{text}")
        hyp = changed_count(text, rng)
        if hyp is None:
            continue
        p, h = contracted(text, rng), contracted(hyp, rng)
        row_id = content_hash(p, h, "contradiction")
        if row_id in seen:
            continue
        seen.add(row_id)
        out.append(
            {"id": row_id, "premise": p, "hypothesis": h, "label": "contradiction", "split": "train",
             "source": "dnli", "relation": "count", "kind": "count", "premise_triple": [],
             "hypothesis_triple": []}
        )  # fmt: skip
        if len(out) == count_max:
            break
    return out
