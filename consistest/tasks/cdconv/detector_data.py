"""English training data for the contradiction detector without DECODE's training split
(``consistest detector-pairs``): dialogue windows of PersonaChat/ConvAI2 with DNLI triples, labelled by how
their last (agent) turn was made.

- ``none`` (real): the dialogue as it was, ending at an agent turn;
- ``none`` (repeat): the last agent turn replaced by another sentence with the same triple as one of the
  agent's earlier turns in the window (a consistent repetition, a hard negative);
- ``history``: the last agent turn replaced by a sentence whose triple contradicts one of the agent's
  earlier turns in the window (a single-valued relation with another object, or an opposite relation);
- ``history`` (persona) and ``none`` (persona repeat): the last agent turn replaced by a sentence that
  contradicts one of the agent's persona sentences, or that states the same triple in other words;
- ``intra``: the agent's real turn followed by a sentence contradicting it, in one turn;
- ``role``: the agent repeats the user's own statement as its own, or returns the user's question.

Every example carries the agent's persona (what a persona-aware detector reads before the dialogue).
Contradicting and repeating sentences come from the same split; dialogues go to train or dev by their agent
persona (content-seeded), so no persona is in both. All choices depend on content, not order.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from consistest.core.records import Dialogue, DialogueExample, content_hash
from consistest.data.decode_reader import make_example
from consistest.training.nli_relations import RELATIONS_VERSION, Triple, contradicts, usable
from consistest.training.nli_sentences import Sentence, collect_sentences

DETECTOR_DATA_VERSION = "2"  # 2: persona on every example; persona contradictions and repeats
INTRA_JOINS = ("{a} {b}", "{a} , but {b}")
ROLE_OPENERS = ("", "yes , ", "oh , ")
# Greetings are returned by people too ("hi , how are you ?"): not role confusion.
GREETING = re.compile(r"\b(how are you|how's it going|how are things|how about you|and you|what about you)\b")


@dataclass(frozen=True)
class DetectorPairsConfig:
    dialogues: str
    out: str
    seed: int = 0
    dev_fraction: float = 0.15
    window: int = 6  # turns per example, the judged one included
    real_per_dialogue: int = 2
    quiet: bool = False


def _one_triple(triples: Sequence[Triple]) -> Triple | None:
    good = {t for t in triples if usable(t)}
    return next(iter(good)) if len(good) == 1 else None


def split_of_dialogue(d: Dialogue, seed: int, dev_fraction: float) -> str:
    key = content_hash("persona", sorted(d.persona))
    return "dev" if int(content_hash(seed, "split", key), 16) / 16**16 < dev_fraction else "train"


class Pool:
    """The split's sentences by triple and by (subject, relation), to find repeats and contradictions."""

    def __init__(self, sentences: Sequence[Sentence]) -> None:
        self.by_triple: dict[Triple, list[str]] = defaultdict(list)
        self.by_subj: dict[str, list[Sentence]] = defaultdict(list)
        for s in sentences:
            self.by_triple[s.triple].append(s.text)
            self.by_subj[s.triple[0]].append(s)

    def repeat(self, t: Triple, not_text: str, rng: random.Random) -> str | None:
        cands = [x for x in self.by_triple.get(t, []) if x != not_text]
        return rng.choice(sorted(cands)) if cands else None

    def contradiction(self, t: Triple, rng: random.Random) -> Sentence | None:
        cands = [s for s in self.by_subj.get(t[0], []) if contradicts(t, s.triple)]
        return rng.choice(sorted(cands, key=lambda s: s.text)) if cands else None


def dialogue_examples(d: Dialogue, split: str, pool: Pool, cfg: DetectorPairsConfig) -> list[DialogueExample]:
    """The real, repeat, history, intra and role examples of one dialogue (at most one of each made kind)."""
    rng = random.Random(f"{cfg.seed}:{d.dialog_id}")
    utts = list(d.utterances)
    triples = [_one_triple(ts) for ts in d.utterance_triples] if d.utterance_triples else [None] * len(utts)
    agent_turns = [j for j in range(1, len(utts), 2)]
    out: list[DialogueExample] = []

    def window(j: int, last: str) -> list[str]:
        start = max(0, j - cfg.window + 1)
        start += start % 2  # begin with a user turn (even index): speakers alternate up to the agent's last
        return [*utts[start:j], last]

    def add(j: int, last: str, label: str, origin: str) -> None:
        ex = make_example(window(j, last), label, origin=origin, split=split, persona=d.persona)  # type: ignore[arg-type]
        out.append(ex)

    for j in rng.sample(agent_turns, min(cfg.real_per_dialogue, len(agent_turns))):
        add(j, utts[j], "none", "real")
    # earlier agent statements with one triple, visible within the window of a later agent turn
    facts = [(k, triples[k]) for k in agent_turns if triples[k] is not None]
    later = [(k, t, j) for k, t in facts for j in agent_turns if k < j <= k + cfg.window - 2]
    rng.shuffle(later)
    for kind in ("history", "repeat"):
        for k, t, j in later:
            if kind == "history":
                c = pool.contradiction(t, rng)  # type: ignore[arg-type]
                if c is not None:
                    add(j, c.text, "history", f"history:{t[1]}~{c.triple[1]}")  # type: ignore[index]
                    break
            else:
                r = pool.repeat(t, utts[k], rng)  # type: ignore[arg-type]
                if r is not None:
                    add(j, r, "none", f"repeat:{t[1]}")  # type: ignore[index]
                    break
    persona_examples(d, pool, rng, agent_turns, add)
    for j, t in rng.sample(facts, len(facts)):
        c = pool.contradiction(t, rng)  # type: ignore[arg-type]
        if c is not None:
            a, b = (utts[j].rstrip(" ."), c.text) if rng.random() < 0.5 else (c.text.rstrip(" ."), utts[j])
            add(j, rng.choice(INTRA_JOINS).format(a=a, b=b), "intra", f"intra:{t[1]}")  # type: ignore[index]
            break
    for j in rng.sample(agent_turns, len(agent_turns)):
        user = utts[j - 1]
        if user.rstrip().endswith("?") and len(user.split()) >= 5 and not GREETING.search(user):
            add(j, user, "role", "role:question")
            break
        if triples[j - 1] is not None and user.split()[:1] in (["i"], ["my"]) and len(user.split()) >= 4:
            add(j, rng.choice(ROLE_OPENERS) + user, "role", "role:claims-user-fact")
            break
    return out


def persona_examples(d: Dialogue, pool: Pool, rng: random.Random, agent_turns: list[int], add) -> None:
    """One persona contradiction (``history``) and one persona repeat (``none``) at a random agent turn,
    each from a persona sentence with one usable triple that has a contradicting / repeating sentence."""
    triples = [_one_triple(ts) for ts in d.persona_triples] if d.persona_triples else []
    facts = [(d.persona[k], t) for k, t in enumerate(triples) if t is not None]
    if not facts or not agent_turns:
        return
    for kind in ("history", "repeat"):
        for text, t in rng.sample(facts, len(facts)):
            j = rng.choice(agent_turns)
            if kind == "history":
                c = pool.contradiction(t, rng)
                if c is not None:
                    add(j, c.text, "history", f"persona-history:{t[1]}~{c.triple[1]}")
                    break
            else:
                r = pool.repeat(t, text, rng)
                if r is not None:
                    add(j, r, "none", f"persona-repeat:{t[1]}")
                    break


def make_detector_examples(
    dialogues: Sequence[Dialogue], cfg: DetectorPairsConfig
) -> tuple[list[DialogueExample], dict[str, Any]]:
    """Examples of every dialogue (sorted by split and id) and counts by split, label and origin."""
    splits = {d.dialog_id: split_of_dialogue(d, cfg.seed, cfg.dev_fraction) for d in dialogues}
    pools = {}
    for split in ("train", "dev"):
        sents, _ = collect_sentences([d for d in dialogues if splits[d.dialog_id] == split])
        pools[split] = Pool(sents)
    rows = [
        ex
        for d in dialogues
        for ex in dialogue_examples(d, splits[d.dialog_id], pools[splits[d.dialog_id]], cfg)
    ]
    rows = sorted(dict((e.id, e) for e in rows).values(), key=lambda e: (e.split != "train", e.id))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    origins: Counter[str] = Counter()
    for e in rows:
        counts[e.split][e.label or "none"] += 1
        origins[e.origin.split(":")[0] if not e.origin.startswith("role") else e.origin] += 1
    stats = {
        "version": DETECTOR_DATA_VERSION,
        "relations_version": RELATIONS_VERSION,
        "seed": cfg.seed,
        "dev_fraction": cfg.dev_fraction,
        "window": cfg.window,
        "counts": {s: dict(sorted(c.items())) for s, c in sorted(counts.items())},
        "origins": dict(sorted(origins.items())),
    }
    return rows, stats


def build_detector_pairs(cfg: DetectorPairsConfig) -> dict[str, Any]:
    """Read dialogues with DNLI triples, write the examples JSONL and ``<out>.stats.json``; return stats."""
    from pathlib import Path

    from consistest.core import log
    from consistest.core.errors import InputError
    from consistest.core.io import atomic_write_json, atomic_write_jsonl
    from consistest.data.dialogues import read_dialogues

    if not 0.0 <= cfg.dev_fraction < 1.0:
        raise InputError("must be in [0, 1)", field="dev-fraction")
    if cfg.window < 2:
        raise InputError("must be at least 2", field="window")
    dialogues = read_dialogues(cfg.dialogues)
    if not any(d.utterance_triples for d in dialogues):
        raise InputError(
            "the dialogues carry no DNLI triples (use the ConvAI2 'both' layout with triples)",
            path=cfg.dialogues,
        )
    rows, stats = make_detector_examples(dialogues, cfg)
    atomic_write_jsonl(cfg.out, [r.to_dict() for r in rows])
    atomic_write_json(str(Path(cfg.out).with_suffix("")) + ".stats.json", stats)
    log.info(f"wrote {len(rows)} examples to {cfg.out}: {stats['counts']}", quiet=cfg.quiet)
    return stats
