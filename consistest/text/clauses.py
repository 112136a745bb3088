"""Clause surgery on a parse: split coordinated verb phrases and trim a statement to its core.

Curated yes/no questions ask about one thing in few words ("do you work at a bar?" for "i work at a bar
at night to pay for college"); a question that copies a whole coordinated or padded statement rarely
matches one, and a negation inside a dropped relative clause must not flip the truth of the core.
"""

from __future__ import annotations

from collections.abc import Sequence

from consistest.text.parse import Tok, children, subtree

_CONJ_TAGS = ("VBP", "VBZ", "VBD", "VB")
_TRIM_DEPS = ("advcl", "npadvmod", "relcl", "acl", "parataxis")
_FILLER = {"always", "now", "still", "usually", "even", "often", "currently", "sometimes"}


def _root(toks: Sequence[Tok]) -> Tok | None:
    return next((t for t in toks if t.dep == "ROOT"), None)


def _join(toks: Sequence[Tok]) -> str:
    return " ".join(t.text for t in sorted(toks, key=lambda t: t.i))


def coordinated(toks: Sequence[Tok]) -> list[str]:
    """ "i drive a truck and live in the country" -> ["i drive a truck", "i live in the country"]:
    the root clause and each conjoined verb phrase that shares its subject; [] when nothing to split."""
    root = _root(toks)
    if root is None:
        return []
    subj = next((t for t in children(toks, root.i) if t.dep in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.i > root.i:
        return []
    conjs = [
        c
        for c in children(toks, root.i)
        if c.dep == "conj" and c.tag in _CONJ_TAGS and c.i > root.i
        and not any(k.dep in ("nsubj", "nsubjpass", "expl") for k in children(toks, c.i))
    ]  # fmt: skip
    if not conjs:
        return []
    drop = {x.i for c in conjs for x in subtree(toks, c.i)}
    drop |= {t.i for t in children(toks, root.i) if t.dep in ("cc", "punct") and t.i > root.i}
    first = [t for t in toks if t.i not in drop]
    subj_span = subtree(toks, subj.i)
    out = [_join(first)]
    for c in conjs:
        span = [t for t in subtree(toks, c.i) if t.dep not in ("cc",) or t.head != c.i]
        out.append(_join([*subj_span, *span]))
    return [s for s in out if len(s.split()) >= 2]


def core(toks: Sequence[Tok], max_words: int = 7) -> list[Tok]:
    """The statement without filler adverbs and, when longer than ``max_words``, without adverbial
    clauses, relative clauses and every root prepositional phrase after the first complement."""
    kept = [t for t in toks if not (t.text in _FILLER and t.dep == "advmod")]
    root = _root(kept)
    if root is None or len(kept) <= max_words:
        return kept
    cuts: list[set[int]] = []
    complement_seen = False
    for c in children(kept, root.i):
        if c.i < root.i:
            continue
        if c.dep in _TRIM_DEPS or (c.dep == "prep" and complement_seen):
            cuts.append({x.i for x in subtree(kept, c.i)})
        elif c.dep in ("dobj", "attr", "acomp", "prep", "xcomp", "ccomp", "oprd"):
            complement_seen = True
    # relative clauses on the complement ("two children who never visit")
    rel = [t for t in kept if t.dep in ("relcl", "acl") and t.head != root.i]
    cuts += [{x.i for x in subtree(kept, t.i)} for t in rel]
    drop: set[int] = set()
    for cut in cuts:  # a cut that would orphan a kept word ("bird [watching]") is not made
        if not any(t.head in cut and t.i not in cut | drop for t in kept):
            drop |= cut
    out = [t for t in kept if t.i not in drop]
    return out if len(out) >= 3 else kept
