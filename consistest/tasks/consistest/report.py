"""Summaries of scored rows (paper Table 5 layout, distances, sources, bootstrap CIs) and their rendering."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from consistest.core.records import CATEGORIES, SOURCES, QType, ScoredItem, Source
from consistest.core.stats import N_BOOT, bootstrap_ci, enough_for_interval, paired_bootstrap, too_few_text
from consistest.core.table import format_table, pct
from consistest.metrics.rules import truth_polarity
from consistest.tasks.consistest.categories import CATEGORIES_VERSION, NO_TRUTH
from consistest.tasks.consistest.methods.judge import stages_line

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


def _table_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    out = []
    for f in summary["figures"].values():
        ci = f["ci"]
        out.append(
            [
                f["label"],
                pct(f["mean"]),
                f"[{pct(ci[0])}, {pct(ci[1])}]" if ci else "-",
                str(f["decided"]),
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
    lines = format_table(HEADER, rows, fmt)
    extra = curve_lines(summary, fmt) + category_lines(summary, fmt)
    note = notes(summary)
    if fmt == "markdown":
        return "\n".join(lines + [""] + extra + note + [f"`{summary['signature']}`"])
    return "\n".join(lines + [""] + extra + note + [summary["signature"]])


def notes(summary: Mapping[str, Any]) -> list[str]:
    """What the table's numbers are over, and warnings where they could mislead."""
    figs = summary["figures"]
    stages = summary.get("judge_stages")
    who = "the judge left without an allowed label" if stages else "only an NLI model could decide"
    note = [f"n: the decided items each score is a mean over; undecided: items {who}."]
    if stages:
        note.append(stages_line(stages) + "; undecided by the judge: no allowed label after one retry "
                    "(raw replies in scores.jsonl).")  # fmt: skip
    if summary.get("undecided") and not stages:
        note.append(
            f"{summary['undecided']} item(s) need NLI to decide and are undecided (--nli none): "
            "scores are rules-only means over the decided items."
        )
    mostly = [f"{f['label']} ({f['decided']:,} of {f['decided'] + f['undecided']:,} decided)"
              for f in figs.values() if f["undecided"] > f["decided"]]  # fmt: skip
    if mostly and stages:
        note.append(
            "warning: most items are undecided in " + ", ".join(mostly) + ": the judge gave no "
            "allowed label for most of them; those scores are means over the few decided replies."
        )
    elif mostly:
        note.append(
            "warning: most items are undecided in " + ", ".join(mostly) + ": those scores are means over the "
            "few replies the rules decide alone (Y/N: a yes/no word or short form), not the benchmark's "
            "numbers; score with an NLI guard (README section 'An offline NLI guard') to decide the rest."
        )
    if summary.get("no_truth"):
        note.append(
            f"{summary['no_truth']} item(s) have no truth (trigger short): only their category counts."
        )
    boot = summary.get("bootstrap", {})
    if boot.get("resample") == "qa_id" and boot.get("n_boot"):
        note.append("95% CI: percentile bootstrap over QAs (a QA's distances and variants drawn together).")
        few = [f["label"] for f in figs.values() if f["decided"] and not f["ci"]]
        if few:
            note.append(f"no interval ( - ) where {too_few_text()}: " + ", ".join(few) + ".")
    if summary.get("replies_cut"):
        note.append("warning: " + cut_warning(summary["replies_cut"], summary.get("max_reply_chars")))
    if summary.get("responses_subset"):
        sub = summary["responses_subset"]
        note.append("warning: " + subset_warning(sub["scored"], sub["dataset"]))
    return note


def cut_warning(cut: int, limit: int | None) -> str:
    return (
        f"{cut:,} reply(s) longer than {limit or 0:,} characters were cut to their first "
        f"{limit or 0:,} for the rules and categories (scores.jsonl holds the cut text; the signature says "
        f"cut:{cut})."
    )


def subset_warning(scored: int, total: int) -> str:
    return (
        f"the responses cover {scored:,} of the dataset's {total:,} samples: only those are scored "
        "(named subset:responses-... in the signature), not the benchmark's number."
    )


def curve_lines(summary: Mapping[str, Any], fmt: str) -> list[str]:
    """The distance curve as two tables (all items; paired subset): groups by distance, mean [95% CI]."""
    c = summary.get("curve")
    if not c:
        return []
    header = ["by distance", *[f"d={d}" for d in c["distances"]]]
    lines: list[str] = []
    for part, title in (
        ("all", "all items"),
        ("paired", f"paired subset: {c['paired_qas']} QAs at every distance"),
    ):
        rows = []
        for g in c["groups"].values():
            cells = [f"{pct(f['mean'])} [{pct(f['ci'][0])}, {pct(f['ci'][1])}]" if f["ci"] else pct(f["mean"])
                     for f in g[part]]  # fmt: skip
            rows.append([g["label"], *cells, *([_change(g.get("change"))] if part == "paired" else [])])
        if part == "paired":
            header = [*header, f"d={c['distances'][-1]} - d={c['distances'][0]} (p)"]
        lines += [
            f"consistency against distance, {title} (score [95% CI])",
            *format_table(header, rows, fmt),
            "",
        ]
    return lines


def _change(ch: Mapping[str, Any] | None) -> str:
    """``-8.1 [-17.0, +0.6] p=0.07 (n=80)``: the paired change from the first to the last distance."""
    if not ch or ch.get("delta") is None:
        return "-"
    ci = f" [{100 * ch['ci_low']:+.1f}, {100 * ch['ci_high']:+.1f}]" if ch.get("ci_low") is not None else ""
    p = f" p={ch['p']:.3f}" if ch.get("p") is not None else ""
    return f"{100 * ch['delta']:+.1f}{ci}{p} (n={ch['n']})"


def category_lines(summary: Mapping[str, Any], fmt: str) -> list[str]:
    """The category table (overall, WH, Y/N, and by trigger) and the paper's Table 7 for persona Y/N."""
    cats = summary.get("categories")
    if not cats:
        return []
    total = max(1, sum(cats["counts"].values()))
    by_trigger = cats.get("by_trigger") or {}
    header = ["category", "n", "%", "WH", "Y/N", *by_trigger]
    rows = []
    for c, n in cats["counts"].items():
        row = [c, str(n), pct(n / total), str(cats["by_type"]["wh"][c]), str(cats["by_type"]["yn"][c])]
        row += [pct(v[c] / max(1, sum(v.values()))) for v in by_trigger.values()]
        rows.append(row)
    lines = format_table(header, rows, fmt)
    if by_trigger:
        lines.append("(trigger columns: % of that trigger's items)")
    not_judged, score_undecided = cats["counts"].get("not_judged", 0), summary.get("undecided", 0)
    if not_judged:
        lines.append(
            f"{not_judged} item(s) not judged: no rule places them and only an NLI model could (--nli none); "
            "they are counted in no other category."
        )
    if not_judged != score_undecided:
        lines.append(
            f"(category 'not_judged' ({not_judged}) counts replies whose category only NLI could tell; "
            f"the score table's undecided ({score_undecided}) counts those whose score only NLI could tell: "
            "a reply the rules cannot score may still be filed, e.g. as uninformative, and a scored one may "
            "lack a category)"
        )
    t7 = summary.get("table7") or {}
    if t7.get("all", {}).get("items"):
        head7 = [
            "persona Y/N (paper Table 7)",
            "items",
            "wrong",
            "% wrong",
            "wrong short answer",
            "% of wrong",
        ]
        rows7 = [
            [f"truth {k}" if k != "all" else "all", str(v["items"]), str(v["wrong"]),
             pct(v["wrong"] / max(1, v["items"])), str(v["wrong_short_answer"]),
             pct(v["wrong_short_answer"] / max(1, v["wrong"]))]
            for k, v in t7.items()
        ]  # fmt: skip
        lines += ["", *format_table(head7, rows7, fmt)]
    return [*lines, ""]
