"""Summaries of scored rows (paper Table 5 layout, distances, sources, bootstrap CIs); their text is
:mod:`consistest.tasks.consistest.report_text`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from consistest.core.records import CATEGORIES, SOURCES, QType, ScoredItem, Source
from consistest.core.stats import N_BOOT, bootstrap_ci, enough_for_interval, paired_bootstrap
from consistest.metrics.rules import truth_polarity
from consistest.tasks.consistest.categories import CATEGORIES_VERSION, NO_TRUTH

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
    for trig in trigger_names(rows):
        groups.append((f"trigger={trig}", f"Trigger {trig}", lambda r, trig=trig: r.trigger == trig))
    return groups


def trigger_names(rows: Sequence[Row]) -> list[str]:
    """The triggers of a run on the triggers config, ``original`` first ([] on the default config)."""
    names = {r.trigger for r in rows if r.trigger}
    return sorted(names, key=lambda t: (t != "original", t))


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
    """Mean over decided items, counts and a seeded bootstrap 95% interval (QAs resampled whole: the
    distances and trigger variants of one QA are not independent items)."""
    kept = [r for r in rows if r.score is not None]
    decided = [float(r.score) for r in kept]  # type: ignore[arg-type]
    qas = len({r.qa_id for r in kept})
    ci = None
    if enough_for_interval(len(decided), qas):
        ci = bootstrap_ci(decided, seed=seed, name=name, n_boot=n_boot, clusters=[r.qa_id for r in kept])
    return {
        "n": len(rows),
        "decided": len(decided),
        "undecided": len(rows) - len(decided),
        "decided_qas": qas,
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
    curve: bool | None = None,
) -> dict[str, Any]:
    """The summary.json object; ``curve`` (None: when the run has more than two distances) adds the
    consistency-against-distance curve (:func:`distance_curve`)."""
    figures = {}
    for key, label, pred in figure_groups(rows):
        sub = [r for r in rows if pred(r)]
        if sub or key == "overall":
            figures[key] = {"label": label, **figure(sub, seed=seed, name=key, n_boot=n_boot)}
    no_truth = sum(r.outcome == NO_TRUTH for r in rows)
    undecided = sum(r.score is None for r in rows) - no_truth
    return {
        "signature": signature,
        "n": len(rows),
        "undecided": undecided,
        "rules_only": bool(extra and extra.get("nli") == "none" and "judge_stages" not in extra),
        "figures": figures,
        "outcomes": dict(sorted(Counter(r.outcome for r in rows).items())),
        "nli_labels": dict(sorted(Counter(r.nli_label or "none" for r in rows).items())),
        "no_truth": no_truth,
        "categories": category_summary(rows),
        "table7": table7(rows),
        "bootstrap": {"seed": seed, "n_boot": n_boot, "level": 0.95, "resample": "qa_id"},
        **({"curve": distance_curve(rows, seed=seed, n_boot=n_boot)} if _curved(rows, curve) else {}),
        **dict(extra or {}),
    }


def _curved(rows: Sequence[Row], asked: bool | None) -> bool:
    """By default a curve is reported for runs with more than two distances (for the paper's two, the
    distance rows of the table hold it); asked for, whenever there are two or more."""
    n = len({r.distance for r in rows})
    return n > 1 if asked else n > 2 and asked is None


def curve_groups() -> list[tuple[str, str, Callable[[Row], bool]]]:
    """Overall, then the paper's Table 5 groups (Persona/History x WH/Y/N)."""
    groups: list[tuple[str, str, Callable[[Row], bool]]] = [("overall", "Overall", lambda r: True)]
    for src_key, src_label, srcs in TABLE5:
        for t, tl in TYPE_LABELS.items():
            groups.append((f"{src_key}_{t}", f"{src_label} {tl}",
                           lambda r, s=srcs, t=t: r.source in s and r.type == t))  # fmt: skip
    return groups


def distance_curve(rows: Sequence[Row], *, seed: int = 0, n_boot: int = N_BOOT) -> dict[str, Any]:
    """``{"distances": [...], "groups": {key: {"label", "all": [figure...], "paired": [figure...]}}}``, one
    figure (mean, 95% interval over QAs, counts) per distance; groups without items are left out."""
    distances = sorted({r.distance for r in rows})
    paired = paired_qa_ids(rows)
    groups: dict[str, Any] = {}
    for key, label, pred in curve_groups():
        sub = [r for r in rows if pred(r)]
        if not sub:
            continue
        entry: dict[str, Any] = {"label": label, "all": [], "paired": []}
        for d in distances:
            at = [r for r in sub if r.distance == d]
            entry["all"].append(figure(at, seed=seed, name=f"curve:{key}:d{d}", n_boot=n_boot))
            both = [r for r in at if r.qa_id in paired]
            entry["paired"].append(figure(both, seed=seed, name=f"curve:{key}:paired:d{d}", n_boot=n_boot))
        entry["change"] = curve_change(sub, distances, seed=seed, name=f"curve:{key}", n_boot=n_boot)
        groups[key] = entry
    return {"distances": distances, "groups": groups, "paired_qas": len(paired)}


def curve_change(
    rows: Sequence[Row], distances: Sequence[int], *, seed: int, name: str, n_boot: int
) -> dict[str, Any]:
    """The score at the longest distance minus the score at the shortest, over the QAs decided at both
    (paired bootstrap over QAs: interval and two-sided p)."""
    first, last = distances[0], distances[-1]
    by: dict[str, dict[int, float]] = {}
    for r in rows:
        if r.score is not None and r.distance in (first, last):
            by.setdefault(r.qa_id, {})[r.distance] = float(r.score)
    qas = sorted(q for q, v in by.items() if len(v) == 2 or first == last)
    a, b = [by[q][first] for q in qas], [by[q][last] for q in qas]
    return {
        "from": first,
        "to": last,
        **paired_bootstrap(a, b, seed=seed, name=name, n_boot=n_boot, clusters=qas),
    }


WRONG_SHORT_ANSWER = frozenset({"wrong_yes_no", "wrong_short_form", "opposite_short_form"})


def category_summary(items: Sequence[ScoredItem]) -> dict[str, Any]:
    """Counts of each category: overall, by question type and (on the triggers config) by trigger."""

    def count(sub: Sequence[ScoredItem]) -> dict[str, int]:
        return {c: sum(it.category == c for it in sub) for c in CATEGORIES}

    out: dict[str, Any] = {"version": CATEGORIES_VERSION, "counts": count(items)}
    out["by_type"] = {t: count([it for it in items if it.type == t]) for t in ("wh", "yn")}
    triggers = sorted({it.trigger for it in items if it.trigger}, key=lambda t: (t != "original", t))
    if triggers:
        out["by_trigger"] = {t: count([it for it in items if it.trigger == t]) for t in triggers}
    return out


def table7(items: Sequence[ScoredItem]) -> dict[str, dict[str, int]]:
    """The paper's Table 7 for persona Y/N (decided items): wrong answers, and how many of them had a wrong
    short answer (a wrong yes/no word or short form, or one opposite to the other), by truth yes/no."""

    out = {}
    rows = [it for it in items if it.source == "pers" and it.type == "yn" and it.score is not None]
    for name in ("yes", "no", "all"):
        sub = [it for it in rows if name == "all" or truth_polarity(it.truth) == name]
        wrong = [it for it in sub if it.score == 0]
        out[name] = {
            "items": len(sub),
            "wrong": len(wrong),
            "wrong_short_answer": sum(it.outcome in WRONG_SHORT_ANSWER for it in wrong),
        }
    return out
