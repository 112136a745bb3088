"""Render a ranking report (``rank.rank``) as text tables, Markdown or JSON; rates are in percent."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from consistest.core.table import format_table, pct


def p_value(p: float | None) -> str:
    if p is None:
        return ""
    stars = "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""
    return ("p<0.001" if p < 0.001 else f"p={p:.3f}") + stars


def render(report: Mapping[str, Any], fmt: str = "table") -> str:
    if fmt == "json":
        return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False)
    md = fmt == "markdown"
    pairs = "with self-pairs" if report["self_pairs"] else "no self-pairs"
    lines = [
        f"AIH ranking of {len(report['bots'])} bots: {report['conversations']} conversations "
        f"({report['conversations_per_pair']} per ordered pair, {pairs}, {report['turns']} turns), "
        f"{report['inquiries']} inquiries"
    ]
    for j in report["judges"].values():
        title = f"judge {j['label']} ({j['inquiries']} judged, {j['undecided']} not)"
        lines += ["", f"## {title}" if md else title]
        if "agreement" in j:
            lines += _model_judge(j)
        if "note" in j:
            lines.append(j["note"])
            continue
        per = j["per_conversation"]
        lines.append(f"per conversation: {per['inquiries']:.2f} inquiries, {per['contradictions']:.2f} "
                     "contradictions")  # fmt: skip
        lines += ["", "C_ij in % (row = partner, column = evaluated bot; C_j = mean over partners)", ""]
        lines += format_table(*_matrix(report["bots"], j), fmt)
        lines += ["", "ranking (lowest contradiction rate first; test: paired bootstrap of the gap)", ""]
        lines += format_table(*_ranking(j), fmt)
        lines += ["", *_stability(j["stability"], fmt)]
        if "by_delay" in j:
            lines += ["", *_by_delay(j["by_delay"], fmt)]
        if j["ties"]:
            lines.append("note: the full-data ranking has ties (equal C_j); its order among them is by name")
        if any(f["C"] is None for f in j["bots"].values()):
            lines.append("note: bots without a judged inquiry have no rate (-) and are ranked last")
    if "human" in report:
        lines += ["", *_human(report["human"], fmt)]
    lines += ["", f"`{report['signature']}`" if md else report["signature"]]
    return "\n".join(lines)


def _model_judge(j: Mapping[str, Any]) -> list[str]:
    """The model judge's undecided inquiries (left out of every rate) and its agreement with the others."""
    agree = ", ".join(
        f"{k} {pct(a['agree'])}% (kappa {_f(a['kappa'])}, n={a['n']})" if a["n"] else f"{k}: none"
        for k, a in j["agreement"].items()
    )
    return [
        f"undecided: {j['undecided']} inquiries without a label after a retry (retried {j['retried']}), "
        "left out of every rate",
        f"agreement on the inquiries both judges decided: {agree}",
    ]


def _matrix(bots: list[str], j: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    rows = [[i, *[pct(j["matrix"][i][b]) for b in bots]] for i in bots]
    rows.append(["C_j", *[pct(j["bots"][b]["C"]) for b in bots]])
    return ["partner", *bots], rows


def _ranking(j: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    tests = {t["better"]: t for t in j["tests"]}
    rows = []
    for k, b in enumerate(j["ranking"], start=1):
        f = j["bots"][b]
        ci = f"[{pct(f['ci'][0])}, {pct(f['ci'][1])}]" if f["ci"] else "-"
        t = tests.get(b) or {"delta": None}
        gap = f"{t['worse']} +{pct(t['delta'])} {p_value(t['p'])}".strip() if t["delta"] is not None else ""
        ipc, cpc = f["inquiries_per_conversation"], f["contradictions_per_conversation"]
        rows.append([str(k), b, pct(f["C"]), ci, str(f["inquiries"]), _f(ipc), _f(cpc), gap])
    return ["rank", "bot", "C_j %", "95% CI", "inquiries", "inq/conv", "contr/conv", "next bot: gap"], rows


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _stability(s: Mapping[str, Any], fmt: str) -> list[str]:
    order = " > ".join(s["reference"])
    head = (f"stability: % of {s['repetitions']} subsamples of S conversations per pair ranked "
            f"{order} ({s['reference_from']}); -X = with bot X left out")  # fmt: skip
    header = ["S", "all", *[f"-{b}" for b in s["leave_one_out"]]]
    rows = [
        [_s_label(size, s), pct(share), *[pct(v[k]) for v in s["leave_one_out"].values()]]
        for k, (size, share) in enumerate(zip(s["grid"], s["share"], strict=True))
    ]
    return [head, "", *format_table(header, rows, fmt), "", full_data_note(s)]


def _s_label(size: int, s: Mapping[str, Any]) -> str:
    return f"{size} (all)" if size == s.get("all") else str(size)


def full_data_note(s: Mapping[str, Any]) -> str:
    """What the last point of the stability curve is: the full data, not a subsample."""
    n = s.get("all", s["grid"][-1])
    if s.get("tied"):
        pairs = ", ".join(f"{a} = {b}" for a, b in s["tied"])
        return (f"the full data ties {pairs}: at S = {n} (all) a tie is no strict rise (0%); at smaller S "
                "the share is how often chance breaks the tie the reference's way")  # fmt: skip
    if s["reference_from"] == "full data":
        return (f"S = {n} (all) draws every conversation of a pair: the full data, ranked as the reference "
                "by construction (100%); the curve's information is in the smaller S")  # fmt: skip
    return f"S = {n} (all) draws every conversation of a pair: the full data, the same ranking every time"


def _by_delay(section: Mapping[str, Any], fmt: str) -> list[str]:
    """C_j in % [95% CI] (inquiries) per bot at each delay, and the change from the first delay."""
    by = section["delays"]
    delays = list(by)
    bots = list(by[delays[0]])
    header = ["bot", *[f"delay {d}" for d in delays], *[f"{d} vs {delays[0]}" for d in delays[1:]]]
    rows = []
    for b in bots:
        cells = []
        for d in delays:
            f = by[d][b]
            ci = f" [{pct(f['ci'][0])}, {pct(f['ci'][1])}]" if f["ci"] else ""
            cells.append(f"{pct(f['C'])}{ci} ({f['inquiries']})")
        for d in delays[1:]:
            f = by[d][b]
            cells.append("-" if f["delta"] is None else f"{100 * f['delta']:+.1f} {p_value(f['p'])}".strip())
        rows.append([b, *cells])
    head = (
        "contradiction rate by delay: C_j % [95% CI] (judged inquiries); delay = bot turns between the "
        f"utterance and its inquiry; on the utterances asked at every delay (up to utterance "
        f"{section['last_turn']}); change: paired bootstrap over conversations"
    )
    return [head, "", *format_table(header, rows, fmt)]


def _human(h: Mapping[str, Any], fmt: str) -> list[str]:
    lines = [f"judges vs human labels: {h['labelled']} labelled inquiries, {pct(h['human_rate'])}% "
             "contradictions by the people (F1 of the contradiction class; Pearson r)", ""]  # fmt: skip
    rows = [[r["judge"], _f(r["f1"]), _f(r["pearson"]), str(r["n"])] for r in h["agreement"]]
    lines += format_table(["judge", "F1", "Pearson", "n"], rows, fmt)
    lines += ["", "contradiction rate in % on the labelled inquiries, by bot", ""]
    judges = [k for k in h["by_bot"][next(iter(h["by_bot"]))] if k not in ("labelled", "human")]
    rows = [
        [b, str(v["labelled"]), pct(v["human"]), *[pct(v[k]) for k in judges]] for b, v in h["by_bot"].items()
    ]
    return lines + format_table(["bot", "labelled", "human", *judges], rows, fmt)
