"""Quality of the automatic question builders (issue 5) against the curated ConsisTest QA files.

Runs ``make_qas`` on the ConsisTest JSON and on the ConvAI2 text layout of the same dialogues and
prints, for each: persona coverage (curated persona sentences with >=1 generated Y/N, WH, both),
curated questions reproduced (rapidfuzz ratio >= 90 against a generated question on the same fact:
same persona sentence, or same dialogue and turn), well-formed share of generated questions, and QA
counts by source/type beside the curated files and the paper's Table 2.

    .venv/bin/python benchmarks/builder_quality.py [--wh-generator rules] [--limit N]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from pathlib import Path

from rapidfuzz import fuzz

from consistest.core.records import QA
from consistest.data.dialogues import read_dialogues
from consistest.data.qa_files import iter_qas, read_history_qas, read_persona_qas
from consistest.tasks.consistest.qagen.filters import well_formed
from consistest.tasks.consistest.qagen.pipeline import QAGenConfig, QAGenResult, make_qas
from consistest.text.sentences import strip_punct

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
REPRO = 90.0


def _key(text: str) -> str:
    return strip_punct(text)


def _by_fact(persona: dict[str, list[QA]], history: dict[str, list[QA]], ids: dict[str, str]):
    """Questions grouped by fact: ("pers", normalised sentence) or ("hist", json dialog id, turn)."""
    out: dict[tuple, list[QA]] = defaultdict(list)
    for sent, qas in persona.items():
        out[("pers", _key(sent))].extend(qas)
    for did, qas in history.items():
        for qa in qas:
            out[("hist", ids.get(did, did), qa.turn)].append(qa)
    return out


def evaluate(result: QAGenResult, cur_p: dict, cur_h: dict, ids: dict[str, str]) -> dict[str, object]:
    gen = _by_fact(result.persona_qas, result.history_qas, ids)
    cur = _by_fact(cur_p, cur_h, {})
    sents = [k for k in cur if k[0] == "pers"]
    has = {k: {qa.type for qa in gen.get(k, [])} for k in sents}
    figures: dict[str, object] = {
        "persona sentences (curated)": len(sents),
        "  with >=1 generated Y/N": sum("yn" in v for v in has.values()) / len(sents),
        "  with >=1 generated WH": sum("wh" in v for v in has.values()) / len(sents),
        "  with both": sum({"yn", "wh"} <= v for v in has.values()) / len(sents),
    }
    hit, tot, agree = Counter(), Counter(), Counter()
    for k, qas in cur.items():
        cands = [_key(g.q) for g in gen.get(k, [])]
        for qa in qas:
            group = f"{qa.source}/{qa.type}"
            tot[group] += 1
            best = max((fuzz.ratio(_key(qa.q), c) for c in cands), default=0.0)
            if best >= REPRO:
                hit[group] += 1
                g = max(gen[k], key=lambda g, q=qa: fuzz.ratio(_key(q.q), _key(g.q)))
                agree[group] += _key(g.a) in {_key(a) for a in qa.a.split("|")}
    for group in sorted(tot):
        figures[f"reproduced {group}"] = f"{hit[group] / tot[group]:.1%} ({hit[group]}/{tot[group]})"
    figures["reproduced all"] = f"{sum(hit.values()) / sum(tot.values()):.1%}"
    figures["truth agrees on reproduced"] = f"{sum(agree.values()) / max(1, sum(hit.values())):.1%}"
    all_gen = [qa for qas in gen.values() for qa in qas]
    figures["generated well-formed"] = f"{sum(map(well_formed, all_gen)) / max(1, len(all_gen)):.1%}"
    return figures


def counts_table(result: QAGenResult, cur_p: dict, cur_h: dict) -> list[str]:
    gen_qas = iter_qas({**result.persona_qas, **_prefix(result.history_qas)})
    gen = Counter(f"{q.source}/{q.type}" for q in gen_qas)
    cur = Counter(f"{q.source}/{q.type}" for q in iter_qas({**cur_p, **_prefix(cur_h)}))
    rows = [f"{'source/type':<14}{'generated':>10}{'curated':>9}   paper Table 2"]
    paper = {
        "pers/wh": "492",
        "pers/yn": "608",
        "hist/wh": "1,613 (hist+ext WH)",
        "hist/yn": "412 (hist+ext Y/N)",
        "hist_ext/wh": "588 extracted (WH+Y/N)",
        "hist_ext/yn": "",
    }
    for k in ("pers/wh", "pers/yn", "hist/wh", "hist/yn", "hist_ext/wh", "hist_ext/yn"):
        rows.append(f"{k:<14}{gen[k]:>10}{cur[k]:>9}   {paper[k]}")
    rows.append(f"{'total':<14}{sum(gen.values()):>10}{sum(cur.values()):>9}   3,125")
    return rows


def _prefix(history: dict[str, list[QA]]) -> dict[str, list[QA]]:
    return {f"h:{k}": v for k, v in history.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dialogues", default=str(SHARED / "personachat" / "consistest_valid.json"))
    ap.add_argument("--convai2", default=str(SHARED / "personachat" / "convai2_valid_both_triples.txt"))
    ap.add_argument("--persona-qas", default=str(SHARED / "consistest" / "persona_qas.json"))
    ap.add_argument("--history-qas", default=str(SHARED / "consistest" / "history_qas.json"))
    ap.add_argument("--wh-generator", default="rules", choices=("rules", "neural", "auto"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N dialogues")
    args = ap.parse_args()
    cur_p, cur_h = read_persona_qas(args.persona_qas), read_history_qas(args.history_qas)
    reference = read_dialogues(args.dialogues)
    for label, path in (("ConsisTest JSON", args.dialogues), ("ConvAI2 text", args.convai2)):
        dialogues = read_dialogues(path)
        if args.limit:
            dialogues = dialogues[: args.limit]
        ids = {d.dialog_id: r.dialog_id for d, r in zip(dialogues, reference, strict=False)}  # same order
        keep = set(ids.values())
        sub_p = cur_p if not args.limit else _persona_subset(cur_p, reference[: args.limit])
        sub_h = {k: v for k, v in cur_h.items() if k in keep}
        t0 = time.perf_counter()
        result = make_qas(dialogues, QAGenConfig(wh_generator=args.wh_generator), quiet=True)
        secs = time.perf_counter() - t0
        wh = result.info["wh_generator"]
        print(f"\n== {label}: {path} ({len(dialogues)} dialogues, {secs:.1f}s, wh={wh})")
        for k, v in evaluate(result, sub_p, sub_h, ids).items():
            print(f"  {k:<34}{v:.1%}" if isinstance(v, float) else f"  {k:<34}{v}")
        for row in counts_table(result, sub_p, sub_h):
            print(f"  {row}")
        print(f"  dropped by filters (before well-formed): {result.info['dropped']}")


def _persona_subset(cur_p: dict, dialogues: list) -> dict:
    sents = {s for d in dialogues for s in d.persona}
    return {k: v for k, v in cur_p.items() if k in sents}


if __name__ == "__main__":
    main()
