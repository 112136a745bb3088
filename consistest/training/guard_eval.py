"""How well an NLI guard catches contradictions (``consistest eval-nli``).

Two views of a pairs file written by ``consistest nli-pairs``:

- **per kind** on the ``dev`` rows (unseen sentences): for each contradiction kind (natural, negation,
  antonym, swap) the share the guard calls contradiction (recall); for each consistent kind (natural
  entailment and neutral, swap-neutral, evasive) the share it wrongly calls contradiction (false alarms);
- **probe** (``split: probe``): persona sentences of unseen personas against real utterances that
  contradict them or not: contradiction recall and false-alarm rate, with bootstrap 95% intervals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.stats import bootstrap_ci
from consistest.metrics.classification import classification_metrics
from consistest.models.base import NLI
from consistest.training.nli_build import PROBE_SPLIT
from consistest.training.nli_pairs import LABELS

C = "contradiction"


@dataclass(frozen=True)
class GuardRow:
    premise: str
    hypothesis: str
    label: str
    split: str
    kind: str


def contradiction_rates(gold: Sequence[str], pred: Sequence[str]) -> dict[str, float | int | None]:
    """Recall = share of gold contradictions predicted contradiction; false alarm = share of the other
    (consistent) pairs predicted contradiction. ``None`` where there is nothing to divide by."""
    hits = [p == C for g, p in zip(gold, pred, strict=True) if g == C]
    alarms = [p == C for g, p in zip(gold, pred, strict=True) if g != C]
    return {
        "recall": sum(hits) / len(hits) if hits else None,
        "false_alarm": sum(alarms) / len(alarms) if alarms else None,
        "n_contradiction": len(hits),
        "n_consistent": len(alarms),
    }


def read_guard_rows(path: str | Path) -> list[GuardRow]:
    """The dev and probe rows of an nli-pairs file (``kind`` defaults to natural for older files)."""
    rows = []
    for n, obj in read_jsonl(Path(path)):
        for key in ("premise", "hypothesis", "label", "split"):
            if not isinstance(obj.get(key), str):
                raise InputError("missing or not a string", path=str(path), record=f"line {n}", field=key)
        if obj["label"] not in LABELS:
            raise InputError(
                f"unknown label {obj['label']!r}", path=str(path), record=f"line {n}", field="label"
            )
        if obj["split"] in ("dev", PROBE_SPLIT):
            kind = obj.get("kind") or "natural"
            rows.append(GuardRow(obj["premise"], obj["hypothesis"], obj["label"], obj["split"], kind))
    if not rows:
        raise InputError("no dev or probe rows (write the file with consistest nli-pairs)", path=str(path))
    return rows


def evaluate_guard(
    nli: NLI, rows: Sequence[GuardRow], *, seed: int = 0, n_boot: int = 1000
) -> dict[str, Any]:
    """Per-kind rates on the dev rows, 3-way metrics, and the probe's recall / false alarms with CIs."""
    pred = nli.predict([(r.premise, r.hypothesis) for r in rows])
    out: dict[str, Any] = {"nli": nli.signature}
    dev = [(r, p) for r, p in zip(rows, pred, strict=True) if r.split == "dev"]
    if dev:
        ids = {lab: i for i, lab in enumerate(LABELS)}
        out["dev"] = classification_metrics([ids[r.label] for r, _ in dev], [ids[p] for _, p in dev], LABELS)
        by_kind: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for r, p in dev:
            by_kind[f"{r.label}/{r.kind}"].append((r.label, p))
        out["kinds"] = {k: _rate(v) for k, v in sorted(by_kind.items())}
    probe = [(r, p) for r, p in zip(rows, pred, strict=True) if r.split == PROBE_SPLIT]
    if probe:
        out["probe"] = _probe(probe, seed, n_boot)
    return out


def _rate(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """For a contradiction kind its recall, for a consistent kind its false-alarm rate."""
    hit = sum(p == C for _, p in pairs) / len(pairs)
    return {"n": len(pairs), "measure": "recall" if pairs[0][0] == C else "false_alarm", "value": hit}


def _probe(probe: list[tuple[GuardRow, str]], seed: int, n_boot: int) -> dict[str, Any]:
    rates = contradiction_rates([r.label for r, _ in probe], [p for _, p in probe])
    hits = [float(p == C) for r, p in probe if r.label == C]
    alarms = [float(p == C) for r, p in probe if r.label != C]
    rates["recall_ci"] = bootstrap_ci(hits, seed=seed, name="probe:recall", n_boot=n_boot)
    rates["false_alarm_ci"] = bootstrap_ci(alarms, seed=seed, name="probe:false_alarm", n_boot=n_boot)
    for lab in ("entailment", "neutral"):
        sub = [p == C for r, p in probe if r.label == lab]
        rates[f"false_alarm_{lab}"] = sum(sub) / len(sub) if sub else None
    return rates


def render_guard_eval(result: dict[str, Any]) -> str:
    """A plain-text report: probe first (the figure that matters), then per kind, then 3-way dev."""
    lines = [f"guard: {result['nli']}"]
    if "probe" in result:
        p = result["probe"]
        lines.append(
            f"probe: persona sentence vs utterance, unseen personas ({p['n_contradiction']} "
            f"contradictions, {p['n_consistent']} consistent)"
        )
        lines.append(f"  contradiction recall  {_pct(p['recall'])}  {_ci(p['recall_ci'])}")
        lines.append(
            f"  false alarms          {_pct(p['false_alarm'])}  {_ci(p['false_alarm_ci'])}  "
            f"(entailed {_pct(p['false_alarm_entailment'])}, neutral {_pct(p['false_alarm_neutral'])})"
        )
    if "kinds" in result:
        lines.append("dev rows by kind            n   measure       value")
        for k, v in result["kinds"].items():
            lines.append(f"  {k:<24} {v['n']:>5}   {v['measure']:<12} {_pct(v['value'])}")
        d = result["dev"]
        f1 = " / ".join(f"{d['per_class'][lab]['f1']:.2f}" for lab in LABELS)
        lines.append(
            f"dev 3-way: n={d['n']} accuracy={d['accuracy']:.3f} macro F1={d['macro_f1']:.3f} "
            f"(F1 {' / '.join(LABELS)}: {f1})"
        )
    return "\n".join(lines)  # fmt: skip


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{100 * x:5.1f}"


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
