"""Human-written data for the guard beside the DNLI pairs: DECODE ``rct`` hard negatives, ANLI and SNLI.

- **DECODE rct** (Nie et al., 2021): human dialogues whose contradicting turns were removed, so each last
  turn is consistent with its speaker's earlier turns. Pairs (earlier statement of the same speaker, last
  turn) and (a persona line of that speaker, last turn) are neutral: hard non-contradictions that share
  topic and words. Questions are no premises; a pair whose hypothesis repeats more than half of its
  words in the premise is left out (it may be an entailment). A dialogue that shares a text with a held-out
  (dev/test) PersonaChat dialogue or persona sentence goes to that split (``nli_splits``); the rest are
  split by content with the frozen test draw.
- **ANLI** rounds 1-3 dev (``context``/``hypothesis``/``label`` e/n/c): a seeded share of contexts is
  held out as dev, the rest is trained on. ANLI's test sets are never read.
- **SNLI** dev (premise/hypothesis/label): a seeded 10% of premises held out, as ``train-nli`` does.

Every row is ``{id, premise, hypothesis, label, split, source, kind}`` like the DNLI pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.records import content_hash
from consistest.metrics.rules import content_tokens
from consistest.training.nli_data import ID2LABEL, holdout, read_nli_file, subsample
from consistest.training.nli_splits import held_out_texts, split_of_key, split_seed, uniform

ANLI_LABELS = {"e": "entailment", "n": "neutral", "c": "contradiction"}
OVERLAP_MAX = 0.5  # a DECODE pair whose hypothesis has more of its words in the premise is skipped


def _row(premise: str, hypothesis: str, label: str, split: str, source: str, kind: str) -> dict[str, Any]:
    return {
        "id": content_hash(source, premise, hypothesis, label),
        "premise": premise,
        "hypothesis": hypothesis,
        "label": label,
        "split": split,
        "source": source,
        "kind": kind,
    }


def overlap(premise: str, hypothesis: str) -> float:
    """Share of the hypothesis's distinct words (``content_tokens``: lower-cased, articles and punctuation
    dropped, numbers as digits) that the premise has too; 0 when it has none."""
    h = set(content_tokens(hypothesis))
    return len(h & set(content_tokens(premise))) / len(h) if h else 0.0


def _text(turn: Any, path: Path, record: str, i: int) -> tuple[str, str]:
    if not isinstance(turn, dict) or not isinstance(turn.get("text"), str) or "agent_id" not in turn:
        raise InputError(f"turn {i} needs text and agent_id", path=str(path), record=record, field="turns")
    return str(turn["agent_id"]), " ".join(turn["text"].split())


def _persona(obj: dict[str, Any], agent: str, path: Path, record: str) -> list[str]:
    agents = obj.get("agents") or {}
    if not isinstance(agents, dict):
        raise InputError("must be an object of agents", path=str(path), record=record, field="agents")
    lines = (agents.get(agent) or {}).get("persona_lines") or []
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise InputError("must be a list of strings", path=str(path), record=record, field="persona_lines")
    return [" ".join(x.split()) for x in lines if x.strip()]


def decode_dialogue_pairs(
    turns: Sequence[tuple[str, str]],
    persona: Sequence[str],
    key: str,
    *,
    seed: int | str,
    turns_max: int = 2,
    persona_max: int = 1,
) -> list[tuple[str, str, str]]:
    """(premise, last turn, kind) hard negatives of one consistent dialogue: up to ``turns_max`` earlier
    statements of the last speaker and ``persona_max`` of its persona lines, content-seeded."""
    agent, last = turns[-1]
    out = []
    for kind, cands, k in (
        ("decode-turn", [t for a, t in turns[:-1] if a == agent and not t.rstrip().endswith("?")], turns_max),
        ("decode-persona", list(persona), persona_max),
    ):
        good = sorted({c for c in cands if c and c != last and overlap(c, last) <= OVERLAP_MAX})
        good.sort(key=lambda c: content_hash(seed, "decode", key, c))
        out += [(c, last, kind) for c in good[:k]]
    return out


def decode_rows(
    path: str | Path,
    *,
    seed: int,
    dev_fraction: float,
    split_by_text: Mapping[str, str] | None = None,
    turns_max: int = 2,
    persona_max: int = 1,
) -> list[dict[str, Any]]:
    """Neutral rows from the consistent dialogues of a DECODE file (contradicting ones are skipped)."""
    path = Path(path)
    rows = []
    for n, obj in read_jsonl(path):
        record = f"line {n}"
        raw = obj.get("turns")
        if not isinstance(raw, list) or len(raw) < 2:
            raise InputError("expected at least 2 turns", path=str(path), record=record, field="turns")
        if obj.get("is_contradiction", False) is not False:
            continue  # only dialogues whose last turn is consistent give hard negatives
        turns = [_text(t, path, record, i) for i, t in enumerate(raw)]
        persona = _persona(obj, turns[-1][0], path, record)
        key = str(obj.get("conversation_id") or content_hash([t for _, t in turns]))
        all_persona = [x for a in (obj.get("agents") or {}) for x in _persona(obj, a, path, record)]
        split = held_out_texts(split_by_text or {}, [t for _, t in turns] + all_persona)
        split = split or split_of_key(f"decode:{key}", seed, dev_fraction)
        pairs = decode_dialogue_pairs(
            turns, persona, key, seed=split_seed(split, seed), turns_max=turns_max, persona_max=persona_max
        )
        rows += [_row(p, h, "neutral", split, "decode", kind) for p, h, kind in pairs]
    if not rows:
        raise InputError("no consistent dialogue gave a pair", path=str(path))
    return rows


def anli_rows(paths: Sequence[str | Path], *, seed: int, dev_fraction: float) -> list[dict[str, Any]]:
    """ANLI dev files as train rows and held-out dev rows (by context, so a context is in one split)."""
    rows = []
    for path in map(Path, paths):
        for n, obj in read_jsonl(path):
            where = {"path": str(path), "record": f"line {n}"}
            for field in ("context", "hypothesis"):
                if not isinstance(obj.get(field), str) or not obj[field].strip():
                    raise InputError("must be a non-empty string", field=field, **where)
            label = ANLI_LABELS.get(str(obj.get("label", "")).strip().lower())
            if label is None:
                raise InputError(f"unknown label {obj.get('label')!r} (use e/n/c)", field="label", **where)
            split = "dev" if uniform(seed, "anli", obj["context"]) < dev_fraction else "train"
            rows.append(_row(obj["context"], obj["hypothesis"], label, split, "anli", "anli"))
    return rows


def snli_rows(
    path: str | Path, *, seed: int, holdout_fraction: float, max_train: int | None
) -> list[dict[str, Any]]:
    """SNLI (or any premise/hypothesis/label file): a held-out slice of premises as dev, the rest (at
    most ``max_train``, content-seeded) as train."""
    train, dev = holdout(read_nli_file(path), holdout_fraction, seed)
    out = []
    for split, examples in (("train", subsample(train, max_train, seed)), ("dev", dev)):
        out += [_row(e.premise, e.hypothesis, ID2LABEL[e.label], split, "snli", "snli") for e in examples]
    return out
