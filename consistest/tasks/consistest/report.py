"""Summaries of scored rows (paper Table 5 layout, distances, sources, bootstrap CIs) and their rendering."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from consistest.core.records import SOURCES, QType, ScoredItem, Source
from consistest.core.stats import N_BOOT, bootstrap_ci
from consistest.core.table import format_table

Row = ScoredItem
# The paper's Table 5 groups: Persona = pers; History = hist + hist_ext.
TABLE5: tuple[tuple[str, str, tuple[Source, ...]], ...] = (
    ("persona", "Persona", ("pers",)),
    ("history", "History", ("hist", "hist_ext")),
)
TYPE_LABELS: dict[QType, str] = {"wh": "WH", "yn": "Y/N"}


def figure_groups(rows: Sequence[Row]) -> list[tuple[str, str, Callable[[Row], bool]]]:
    """(key, label, predicate) for every reported figure, in print order."""
    groups: list[tuple[str, str, Callable[[Row], bool]]] = [("overall", "Overall", lambda r: True)]
    for src_key, src_label, srcs in TABLE5:
        for t, tl in TYPE_LABELS.items():
            groups.append((f"{src_key}_{t}", f"{src_label} {tl}", _pred(srcs, t)))
    distances = sorted({r.distance for r in rows})
    for d in distances:
        groups.append((f"d={d}", f"Distance {d}", lambda r, d=d: r.distance == d))
    paired = paired_qa_ids(rows)
    if len(distances) > 1:
        for d in distances:
            groups.append(
                (
                    f"paired_d={d}",
                    f"Distance {d} (paired)",
                    lambda r, d=d: r.distance == d and r.qa_id in paired,
                )
            )
    for s in SOURCES:
        groups.append((f"source={s}", f"Source {s}", lambda r, s=s: r.source == s))
    for t in TYPE_LABELS:
        groups.append((f"type={t}", f"Type {t}", lambda r, t=t: r.type == t))
    return groups


def _pred(sources: tuple[str, ...], qtype: str) -> Callable[[Row], bool]:
    return lambda r: r.source in sources and r.type == qtype


def paired_qa_ids(rows: Sequence[Row]) -> set[str]:
    """qa_ids present at every distance of the run (the paired subset)."""
    distances = {r.distance for r in rows}
    seen: dict[str, set[int]] = {}
    for r in rows:
        seen.setdefault(r.qa_id, set()).add(r.distance)
    return {q for q, ds in seen.items() if ds == distances}


def figure(rows: Sequence[Row], *, seed: int, name: str, n_boot: int) -> dict[str, Any]:
    """Mean over decided items, counts and a seeded bootstrap 95% interval."""
    decided = [float(r.score) for r in rows if r.score is not None]
    ci = bootstrap_ci(decided, seed=seed, name=name, n_boot=n_boot)
    return {
        "n": len(rows),
        "decided": len(decided),
        "undecided": len(rows) - len(decided),
        "mean": sum(decided) / len(decided) if decided else None,
        "ci": list(ci) if ci else None,
    }


def summarize(
    rows: Sequence[Row],
    *,
    signature: str,
    seed: int = 0,
    n_boot: int = N_BOOT,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The summary.json object."""
    figures = {}
    for key, label, pred in figure_groups(rows):
        sub = [r for r in rows if pred(r)]
        if sub or key == "overall":
            figures[key] = {"label": label, **figure(sub, seed=seed, name=key, n_boot=n_boot)}
    undecided = sum(r.score is None for r in rows)
    return {
        "signature": signature,
        "n": len(rows),
        "undecided": undecided,
        "rules_only": bool(extra and extra.get("nli") == "none"),
        "figures": figures,
        "outcomes": dict(sorted(Counter(r.outcome for r in rows).items())),
        "nli_labels": dict(sorted(Counter(r.nli_label or "none" for r in rows).items())),
        "bootstrap": {"seed": seed, "n_boot": n_boot, "level": 0.95},
        **dict(extra or {}),
    }


def pct(x: float | None) -> str:
    """A mean in [0, 1] as a percentage with one decimal, ``-`` when there is none."""
    return "-" if x is None else f"{100 * x:.1f}"


def _table_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    out = []
    for f in summary["figures"].values():
        ci = f["ci"]
        out.append(
            [
                f["label"],
                pct(f["mean"]),
                f"[{pct(ci[0])}, {pct(ci[1])}]" if ci else "-",
                str(f["n"]),
                str(f["undecided"]),
            ]
        )
    return out


HEADER = ["figure", "score", "95% CI", "n", "undecided"]


def render(summary: Mapping[str, Any], fmt: str = "table") -> str:
    """The summary as an aligned text table, a Markdown table or JSON; the signature closes the text forms."""
    if fmt == "json":
        return json.dumps(summary, indent=2, sort_keys=True, ensure_ascii=False)
    rows = _table_rows(summary)
    note = []
    if summary.get("undecided"):
        note.append(
            f"{summary['undecided']} item(s) need NLI to decide and are undecided (--nli none): "
            "scores are rules-only means over the decided items."
        )
    lines = format_table(HEADER, rows, fmt)
    if fmt == "markdown":
        return "\n".join(lines + [""] + note + [f"`{summary['signature']}`"])
    return "\n".join(lines + note + [summary["signature"]])
