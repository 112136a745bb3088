"""Train / dev / test splits of the guard's data, by content, so that no test persona is seen in training.

- A **persona sentence** goes to a split by its own text (PersonaChat reuses persona sentences across
  persona sets, so no persona set keeps its sentences to itself).
- A **speaker** (persona set) goes to a split by its persona's hash; an **utterance** goes to test (dev)
  only when every speaker saying it is a test (dev) speaker, else to train.
- An utterance in which its speaker states the triple of one of their own persona sentences that went to a
  later split (dev or test) is dropped (split ``drop``): it would paraphrase a held-out persona sentence.

The **test split is frozen**: it depends on ``TEST_SALT`` and ``TEST_FRACTION`` only, never on ``--seed``
or ``--dev-fraction``, so tuning anything on dev cannot move a sentence in or out of test. Dev is drawn from
the rest with the seed. Other corpora (DECODE) follow the same split through :func:`held_out_texts`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, get_args

from consistest.core.records import Dialogue, content_hash

Triple = tuple[str, str, str]

Split = Literal["train", "dev", "test"]
SPLITS: tuple[Split, ...] = get_args(Split)
TEST_SALT = "guard-test-v1"  # frozen: changing it is a new test set (and a new recipe version)
TEST_FRACTION = 0.2
SPLIT_SCHEME = f"persona-sentence+speaker,test:{TEST_SALT}:{TEST_FRACTION}"
DROP = "drop"  # an utterance paraphrasing a held-out persona sentence of its own speaker


def split_seed(split: str, seed: int) -> int | str:
    """The seed of every sampling choice within a split: the frozen salt for test (so the test rows do
    not move with ``--seed`` either), the run's seed otherwise."""
    return TEST_SALT if split == "test" else seed


def uniform(*key: object) -> float:
    """A content hash as a number in [0, 1)."""
    return int(content_hash(*key), 16) / 16**16


def split_of_key(key: str, seed: int, dev_fraction: float, test_fraction: float = TEST_FRACTION) -> Split:
    """Frozen test draw first (salt only), then the seeded dev draw on the rest."""
    if uniform(TEST_SALT, key) < test_fraction:
        return "test"
    return "dev" if uniform(seed, "split", key) < dev_fraction else "train"


def normalise(text: str) -> str:
    """Lower-cased alphanumeric words: "I've been" and "i 've been ." match across corpora."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def later(a: str, b: str) -> str:
    """The more held-out of two splits (test > dev > train)."""
    return a if SPLITS.index(a) >= SPLITS.index(b) else b  # type: ignore[arg-type]


def assign_splits(
    texts: Mapping[str, tuple[str, str, str]],
    units: Mapping[str, set[str]],
    seed: int,
    dev_fraction: float,
    personas: frozenset[str] = frozenset(),
    unit_personas: Mapping[str, set[str]] | None = None,
    test_fraction: float = TEST_FRACTION,
) -> dict[str, str]:
    """Text -> train/dev/test/drop. ``texts`` maps each sentence to its triple, ``units`` each sentence to
    the speakers (persona keys) saying it, ``unit_personas`` each speaker to its persona sentences."""

    def split_of(text: str) -> str:
        if text in personas:
            return split_of_key(f"persona-sentence:{text}", seed, dev_fraction, test_fraction)
        per_unit = {split_of_key(u, seed, dev_fraction, test_fraction) for u in units[text]}
        return per_unit.pop() if len(per_unit) == 1 else "train"

    out = {t: split_of(t) for t in texts}
    for text, split in out.items():
        if text in personas or not unit_personas:
            continue
        own = {p for u in units[text] for p in unit_personas.get(u, ())}
        if any(texts.get(p) == texts[text] and later(out[p], split) != split for p in own if p in out):
            out[text] = DROP
    return out


def speaker_keys(d: Dialogue) -> tuple[str, str]:
    """The persona keys of the agent (persona + odd turns) and the user (partner persona + even turns)."""
    agent = content_hash("persona", sorted(d.persona))
    user = content_hash("persona", sorted(d.partner_persona)) if d.partner_persona else f"user:{d.dialog_id}"
    return agent, user


def speaker_units(d: Dialogue) -> Iterable[tuple[str, str, tuple[Triple, ...]]]:
    """(persona key, sentence, triples) for both speakers: agent = persona + odd turns, user = even turns."""
    agent, user = speaker_keys(d)
    for text, triples in zip(d.persona, d.persona_triples, strict=False):
        yield agent, text, triples
    for i, (text, triples) in enumerate(zip(d.utterances, d.utterance_triples, strict=False)):
        yield (agent if i % 2 else user), text, triples


def unit_persona_texts(dialogues: Sequence[Dialogue]) -> dict[str, set[str]]:
    """Speaker (persona key) -> its persona sentences, whitespace-normalised."""
    out: dict[str, set[str]] = defaultdict(set)
    for d in dialogues:
        for unit, persona in zip(speaker_keys(d), (d.persona, d.partner_persona), strict=True):
            out[unit] |= {" ".join(t.split()) for t in persona}
    return out


def dialogue_splits(dialogues: Sequence[Dialogue], seed: int, dev_fraction: float) -> dict[str, str]:
    """Normalised text -> the most held-out split it touches: persona sentences by their own split,
    every utterance of a dialogue by the later of its two speakers' splits. Other corpora sharing a text
    with a test (dev) dialogue or persona sentence go to test (dev) with it."""
    out: dict[str, str] = {}

    def mark(text: str, split: str) -> None:
        key = normalise(text)
        if key:
            out[key] = later(out.get(key, "train"), split)

    for d in dialogues:
        splits = {split_of_key(u, seed, dev_fraction) for u in speaker_keys(d)}
        worst = "test" if "test" in splits else "dev" if "dev" in splits else "train"
        for text in d.utterances:
            mark(text, worst)
        for text in (*d.persona, *d.partner_persona):
            mark(text, split_of_key(f"persona-sentence:{' '.join(text.split())}", seed, dev_fraction))
    return out


def held_out_texts(split_by_text: Mapping[str, str], texts: Iterable[str]) -> str | None:
    """The most held-out split among ``texts`` (normalised lookups), None when none is known."""
    found = [split_by_text[k] for k in (normalise(t) for t in texts) if k in split_by_text]
    if not found:
        return None
    best = "train"
    for s in found:
        best = later(best, s)
    return best
