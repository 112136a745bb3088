"""A score summary for people: the figures table, the notes that say what a number does not mean, the
distance curve and the failure categories, as aligned text or Markdown (JSON is the summary itself)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from consistest.core.stats import too_few_text
from consistest.core.table import format_table, pct
from consistest.tasks.consistest.methods.judge import stages_line


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
