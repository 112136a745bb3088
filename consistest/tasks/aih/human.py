"""Human judging: export inquiries for people to label, read their labels back, compare with the judges.

The export is blind (no bot names, no verdicts; rows in an order seeded by content) with columns
``id, utterance, question, answer, label``; people fill ``label`` with ``consistent`` or
``contradiction`` (also 0/1). Reading it back gives, per tau, the paper judge's F1 on the contradiction
class and its Pearson correlation with the labels (the paper's Table 7), the same for our judge, and each
bot's contradiction rate by the people and by the judges on the labelled inquiries.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_text, read_text
from consistest.core.records import content_hash
from consistest.metrics.classification import classification_metrics
from consistest.tasks.aih.judges import MODEL_KEY, contradiction

COLUMNS = ("id", "utterance", "question", "answer", "label")
CONTRADICTION = frozenset({"contradiction", "contradict", "contradicts", "c", "1", "yes", "true"})
CONSISTENT = frozenset({"consistent", "ok", "0", "no", "false", "n"})


def export_key(inquiry: Mapping[str, Any]) -> str:
    """The blind id of an inquiry in an export (a hash: it names no bot)."""
    return content_hash("aih-inquiry", inquiry["id"], n=12)


def export_for_judges(inquiries: Sequence[Mapping[str, Any]], path: Path, seed: int = 0) -> int:
    """Write the CSV for people to label; never replaces a file (it may hold labels). Returns the rows."""
    path = Path(path)
    if path.exists():
        raise InputError("exists; it may hold labels: remove it or choose another file", path=str(path))
    rows = sorted(inquiries, key=lambda q: content_hash(seed, "export", q["id"]))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for q in rows:
        w.writerow([export_key(q), q["utterance"], q["question"], q["answer"], ""])
    atomic_write_text(path, buf.getvalue())
    return len(rows)


def read_labels(path: Path, inquiries: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Inquiry id -> 1 (contradiction) / 0 (consistent) from a labelled export; blank labels are skipped."""
    by_key = {export_key(q): q["id"] for q in inquiries}
    reader = csv.DictReader(io.StringIO(read_text(path)))
    if not reader.fieldnames or not {"id", "label"} <= set(reader.fieldnames):
        raise InputError(
            "expected a CSV with columns id and label (from --export-for-judges)", path=str(path)
        )
    out: dict[str, int] = {}
    for line, row in enumerate(reader, start=2):
        where = {"path": str(path), "record": f"line {line}"}
        label = (row.get("label") or "").strip().lower()
        if not label:
            continue
        if row["id"] not in by_key:
            raise InputError(f"id {row['id']!r} is not an inquiry of this run", field="id", **where)
        if label not in CONTRADICTION | CONSISTENT:
            raise InputError(
                f"unknown label {label!r}: use consistent or contradiction", field="label", **where
            )
        out[by_key[row["id"]]] = int(label in CONTRADICTION)
    if not out:
        raise InputError("no labelled rows (fill the label column with consistent or contradiction)",
                         path=str(path))  # fmt: skip
    return out


def agreement(
    inquiries: Sequence[Mapping[str, Any]], labels: Mapping[str, int], taus: Sequence[float], tau: float
) -> dict[str, Any]:
    """Judge-vs-human F1 and Pearson per tau (paper judge), for the hybrid judge and the model judge (when
    the run has one), and rates by bot."""
    labelled = [q for q in inquiries if q["id"] in labels]
    model = any(MODEL_KEY in q for q in labelled)
    rows = []
    for t in taus:
        rows.append(_agree(f"paper tau={t:g}", labelled, labels, lambda q, t=t: contradiction(q, "paper", t)))
    rows.append(
        _agree("hybrid (score < 0.5)", labelled, labels, lambda q: contradiction(q, "hybrid", tau), 0.5)
    )
    if model:
        rows.append(_agree("model", labelled, labels, lambda q: contradiction(q, "model", tau)))
    by_bot: dict[str, dict[str, Any]] = {}
    for bot in sorted({q["bot"] for q in labelled}):
        mine = [q for q in labelled if q["bot"] == bot]
        by_bot[bot] = {"labelled": len(mine), "human": _mean([labels[q["id"]] for q in mine]),
                       f"paper tau={tau:g}": _mean([contradiction(q, "paper", tau) for q in mine]),
                       "hybrid": _mean([contradiction(q, "hybrid", tau) for q in mine])}  # fmt: skip
        if model:
            by_bot[bot]["model"] = _mean([contradiction(q, "model", tau) for q in mine])
    return {"labelled": len(labelled), "human_rate": _mean([labels[q["id"]] for q in labelled]),
            "agreement": rows, "by_bot": by_bot}  # fmt: skip


def _mean(values: Sequence[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def _agree(name: str, labelled: Sequence[Mapping[str, Any]], labels: Mapping[str, int], score: Any,
           cut: float = 0.5) -> dict[str, Any]:  # fmt: skip
    """F1 of the contradiction class (score > cut) and Pearson r of the score with the labels."""
    from scipy.stats import pearsonr

    pairs = [(labels[q["id"]], s) for q in labelled if (s := score(q)) is not None]
    if not pairs:
        return {"judge": name, "n": 0, "f1": None, "pearson": None}
    gold, scores = [g for g, _ in pairs], [s for _, s in pairs]
    pred = [int(s > cut) for s in scores]
    per_class = classification_metrics(gold, pred, ["consistent", "contradiction"])["per_class"]
    f1 = per_class["contradiction"]["f1"]
    constant = len(set(gold)) < 2 or len(set(scores)) < 2
    r = None if constant else float(pearsonr(scores, gold).statistic)
    return {"judge": name, "n": len(pairs), "f1": f1, "pearson": None if r is None or math.isnan(r) else r}
