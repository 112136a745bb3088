"""How well an NLI guard catches contradictions (``consistest eval-nli``), dev and test side by side.

Views of a pairs file written by ``consistest nli-pairs`` or ``consistest train-guard``, each on the
``dev`` split (what thresholds and recipes are chosen on) and the frozen ``test`` split (what we report):

- **probe** (``dev-probe`` / ``test-probe`` rows): persona sentences of unseen personas against real
  utterances that contradict them or not: contradiction recall and false-alarm rate, with bootstrap 95%
  intervals. Files written before the test split have one ``probe``, read as the dev probe.
- **per kind** (DNLI and DECODE rows): for each contradiction kind (natural, negation, antonym, swap) the
  share the guard calls contradiction (recall); for each consistent kind (natural entailment and neutral,
  restate, swap-neutral, evasive, DECODE hard negatives) the share it wrongly calls contradiction.
- **3-way accuracy** per source (dnli, snli, anli), so that drift on general NLI stays visible.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.stats import bootstrap_ci
from consistest.core.table import pct
from consistest.metrics.classification import classification_metrics
from consistest.models.base import NLI
from consistest.tasks.guard.pairs_build import LEGACY_PROBE, PROBE_SPLITS
from consistest.training.nli_pairs import LABELS

C = "contradiction"
HELD_OUT = ("dev", "test")
PROBE_OF = {name: split for split, name in PROBE_SPLITS.items()} | {LEGACY_PROBE: "dev"}
ACCURACY_ONLY = ("snli", "anli")  # general NLI: 3-way accuracy, no per-kind rates


@dataclass(frozen=True)
class GuardRow:
    premise: str
    hypothesis: str
    label: str
    split: str  # dev or test
    probe: bool
    kind: str
    source: str


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
    """The dev, test and probe rows of a pairs file (``kind`` defaults to natural, ``source`` to dnli)."""
    return parse_guard_rows(read_jsonl(Path(path)), str(path))


def parse_guard_rows(records: Iterable[tuple[int, dict[str, Any]]], path: str) -> list[GuardRow]:
    """The held-out rows among (line number, pair record)s; ``path`` names them in errors."""
    rows = []
    for n, obj in records:
        for key in ("premise", "hypothesis", "label", "split"):
            if not isinstance(obj.get(key), str):
                raise InputError("missing or not a string", path=str(path), record=f"line {n}", field=key)
        if obj["label"] not in LABELS:
            raise InputError(
                f"unknown label {obj['label']!r}", path=str(path), record=f"line {n}", field="label"
            )
        split, probe = (PROBE_OF[obj["split"]], True) if obj["split"] in PROBE_OF else (obj["split"], False)
        if split in HELD_OUT:
            kind, source = obj.get("kind") or "natural", obj.get("source") or "dnli"
            rows.append(GuardRow(obj["premise"], obj["hypothesis"], obj["label"], split, probe, kind, source))
    if not rows:
        raise InputError("no dev, test or probe rows (write it with consistest nli-pairs)", path=str(path))
    return rows


def evaluate_guard(
    nli: NLI, rows: Sequence[GuardRow], *, seed: int = 0, n_boot: int = 1000
) -> dict[str, Any]:
    """Per held-out split: the probe's rates with CIs, per-kind rates with CIs, 3-way accuracy by source."""
    pred = nli.predict([(r.premise, r.hypothesis) for r in rows])
    out: dict[str, Any] = {"nli": nli.signature, "splits": {}}
    for split in HELD_OUT:
        part = [(r, p) for r, p in zip(rows, pred, strict=True) if r.split == split]
        if part:
            out["splits"][split] = split_figures(part, split, seed, n_boot)
    return out


def split_figures(part: list[tuple[GuardRow, str]], split: str, seed: int, n_boot: int) -> dict[str, Any]:
    block: dict[str, Any] = {}
    probe = [(r, p) for r, p in part if r.probe]
    if probe:
        block["probe"] = _probe(probe, f"{split}:probe", seed, n_boot)
    by_kind: dict[str, list[tuple[str, str]]] = defaultdict(list)
    by_source: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r, p in part:
        if not r.probe:
            by_source[r.source].append((r.label, p))
            if r.source not in ACCURACY_ONLY:
                by_kind[f"{r.label}/{r.kind}"].append((r.label, p))
    block["kinds"] = {k: _rate(v, f"{split}:{k}", seed, n_boot) for k, v in sorted(by_kind.items())}
    ids = {lab: i for i, lab in enumerate(LABELS)}
    block["accuracy"] = {
        src: _brief(classification_metrics([ids[g] for g, _ in v], [ids[p] for _, p in v], LABELS))
        for src, v in sorted(by_source.items())
    }
    return block


def _brief(m: dict[str, Any]) -> dict[str, Any]:
    return {"n": m["n"], "accuracy": m["accuracy"], "macro_f1": m["macro_f1"]}


def _rate(pairs: list[tuple[str, str]], name: str, seed: int, n_boot: int) -> dict[str, Any]:
    """For a contradiction kind its recall, for a consistent kind its false-alarm rate, with a CI."""
    hits = [float(p == C) for _, p in pairs]
    return {
        "n": len(pairs),
        "measure": "recall" if pairs[0][0] == C else "false_alarm",
        "value": sum(hits) / len(hits),
        "ci": bootstrap_ci(hits, seed=seed, name=name, n_boot=n_boot),
    }


def _probe(probe: list[tuple[GuardRow, str]], name: str, seed: int, n_boot: int) -> dict[str, Any]:
    rates: dict[str, Any] = contradiction_rates([r.label for r, _ in probe], [p for _, p in probe])
    hits = [float(p == C) for r, p in probe if r.label == C]
    alarms = [float(p == C) for r, p in probe if r.label != C]
    rates["recall_ci"] = bootstrap_ci(hits, seed=seed, name=f"{name}:recall", n_boot=n_boot)
    rates["false_alarm_ci"] = bootstrap_ci(alarms, seed=seed, name=f"{name}:false_alarm", n_boot=n_boot)
    for lab in ("entailment", "neutral"):
        sub = [p == C for r, p in probe if r.label == lab]
        rates[f"false_alarm_{lab}"] = sum(sub) / len(sub) if sub else None
    return rates


@dataclass(frozen=True)
class Threshold:
    tau: float
    recall: float
    false_alarm: float
    n_contradiction: int
    n_consistent: int


def select_threshold(
    contradictions: Sequence[float], consistent: Sequence[float], max_false_alarm: float
) -> Threshold:
    """The rule tau is chosen by: the highest recall (share of ``contradictions`` with P(c) > tau) whose
    false-alarm rate (share of ``consistent`` with P(c) > tau) is at most ``max_false_alarm``; among
    equal recalls the highest tau. Candidate taus lie midway between neighbouring distinct scores (so a
    small change of a score does not flip a decision), plus the top score (flag nothing) and half the
    lowest (flag everything)."""
    if not contradictions or not consistent:
        raise InputError("choosing a threshold needs contradictions and consistent pairs on dev")
    values = sorted(set(contradictions) | set(consistent), reverse=True)
    cands = [values[0]] + [(a + b) / 2 for a, b in zip(values, values[1:], strict=False)] + [values[-1] / 2]
    best: Threshold | None = None
    for tau in cands:  # descending: recall and false alarms only grow
        recall = sum(x > tau for x in contradictions) / len(contradictions)
        fa = sum(x > tau for x in consistent) / len(consistent)
        if fa > max_false_alarm + 1e-12:
            break
        if best is None or recall > best.recall:
            best = Threshold(tau, recall, fa, len(contradictions), len(consistent))
    assert best is not None  # the top candidate flags nothing, so it is always allowed
    return best


def render_guard_eval(result: dict[str, Any]) -> str:
    """A plain-text report, dev and test side by side: probe first (the figure that matters), then per
    kind, then 3-way accuracy by source."""
    splits = result["splits"]
    cols = [s for s in HELD_OUT if s in splits]
    lines = [f"guard: {result['nli']}", f"{'':<30}" + "".join(f"{s:>30}" for s in cols)]
    if any("probe" in splits[s] for s in cols):
        lines.append("probe: persona sentence vs real utterance, unseen personas")
        lines.append(_line("  contradiction recall", cols, splits, lambda b: _probe_cell(b, "recall")))
        lines.append(_line("  false alarms", cols, splits, lambda b: _probe_cell(b, "false_alarm")))
        for lab in ("entailment", "neutral"):
            lines.append(_line(f"    of which {lab}", cols, splits, lambda b, lab=lab: _fa_of(b, lab)))
    kinds = sorted({k for s in cols for k in splits[s]["kinds"]})
    if kinds:
        lines.append("by kind (recall for contradictions, false alarms for the rest)")
        for k in kinds:
            lines.append(_line(f"  {k}", cols, splits, lambda b, k=k: _kind_cell(b["kinds"].get(k))))
    sources = sorted({k for s in cols for k in splits[s]["accuracy"]})
    if sources:
        lines.append("3-way accuracy (macro F1)")
        for src in sources:
            cell = lambda b, src=src: _acc_cell(b["accuracy"].get(src))  # noqa: E731
            lines.append(_line(f"  {src}", cols, splits, cell))
    return "\n".join(lines)


def _line(label: str, cols: list[str], splits: dict[str, Any], cell: Any) -> str:
    return f"{label:<30}" + "".join(f"{cell(splits[s]):>30}" for s in cols)


def _probe_cell(block: dict[str, Any], measure: str) -> str:
    p = block.get("probe")
    if not p:
        return "-"
    n = p["n_contradiction"] if measure == "recall" else p["n_consistent"]
    return f"{pct(p[measure])} {_ci(p[f'{measure}_ci'])} n={n}"


def _fa_of(block: dict[str, Any], lab: str) -> str:
    p = block.get("probe")
    return "-" if not p else pct(p[f"false_alarm_{lab}"])


def _kind_cell(v: dict[str, Any] | None) -> str:
    return "-" if v is None else f"{pct(v['value'])} {_ci(v['ci'])} n={v['n']}"


def _acc_cell(v: dict[str, Any] | None) -> str:
    return "-" if v is None else f"{v['accuracy']:.3f} ({v['macro_f1']:.3f}) n={v['n']}"


def _ci(ci: tuple[float, float] | list[float] | None) -> str:
    return "" if ci is None else f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
