"""How many persona sentences the offline question builders ask a WH (and a Y/N) question about.

The ConvAI2 validation personas (the distinct "your persona" and "partner's persona" sentences of
``convai2_valid_both_triples.txt``; no test split is used) are split in two halves by a hash of the sentence:
``dev`` (the half the issue-23 WH rules were written against) and ``held-out`` (not looked at while writing
them). For each half: the share of sentences with at least one WH question, with at least one Y/N question,
and the share of generated questions that are well formed (end with '?', second person, truth inside the
fact); then a seeded sample of generated WH questions to read. The last column counts, for comparison, the
sentences the AIH statement inquirer can ask a WH question about, open ones included ("i love hiking" ->
"what do you love?"), which the builders leave out because another true answer would score as wrong.

    python benchmarks/wh_coverage.py [--convai2 FILE] [--show 30] [--seed 0]
"""

from __future__ import annotations

import argparse
import hashlib
import random
from collections import Counter
from pathlib import Path

from consistest.core.records import Dialogue
from consistest.data.dialogues import read_dialogues
from consistest.tasks.consistest.qagen import QAGEN_VERSION
from consistest.tasks.consistest.qagen.filters import well_formed
from consistest.tasks.consistest.qagen.pipeline import QAGenConfig, make_qas

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def half(sentence: str) -> str:
    return "dev" if int(hashlib.sha256(sentence.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "held-out"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--convai2", default=str(SHARED / "personachat" / "convai2_valid_both_triples.txt"))
    ap.add_argument("--show", type=int, default=30, help="WH questions to print (a seeded sample)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    dialogues = read_dialogues(args.convai2)
    sentences = list(dict.fromkeys(s for d in dialogues for s in (*d.persona, *d.partner_persona)))
    one_each = [Dialogue(f"p{k}", (s,), ()) for k, s in enumerate(sentences)]  # persona facts only
    result = make_qas(one_each, QAGenConfig(wh_generator="rules"), quiet=True)
    print(f"{QAGEN_VERSION}: {len(sentences)} distinct persona sentences of {Path(args.convai2).name}")
    open_wh = _open_wh(sentences)
    print(f"{'half':<10}{'sentences':>10}{'WH':>8}{'Y/N':>8}{'WH QAs':>8}{'well formed':>13}{'WH+open':>9}")
    for name in ("dev", "held-out", "all"):
        pool = [s for s in sentences if name == "all" or half(s) == name]
        qas = [qa for s in pool for qa in result.persona_qas.get(s, [])]
        wh = sum(any(q.type == "wh" for q in result.persona_qas.get(s, [])) for s in pool) / len(pool)
        yn = sum(any(q.type == "yn" for q in result.persona_qas.get(s, [])) for s in pool) / len(pool)
        whs = [q for q in qas if q.type == "wh"]
        ok = sum(map(well_formed, whs)) / max(1, len(whs))
        both = sum(
            1 for s in pool if open_wh[s] or any(q.type == "wh" for q in result.persona_qas.get(s, []))
        )
        print(
            f"{name:<10}{len(pool):>10}{wh:>8.1%}{yn:>8.1%}{len(whs):>8}{ok:>13.1%}{both / len(pool):>9.1%}"
        )
    whs = [qa for s in sentences for qa in result.persona_qas.get(s, []) if qa.type == "wh"]
    print("WH templates:", dict(Counter(q.template for q in whs).most_common()))
    rng = random.Random(args.seed)
    print(f"\n{args.show} WH questions (seed {args.seed}): fact -> question / truth [template]")
    for qa in sorted(rng.sample(whs, min(args.show, len(whs))), key=lambda q: q.c):
        print(f"  {qa.c} -> {qa.q} / {qa.a} [{qa.template}]")


def _open_wh(sentences: list[str]) -> dict[str, bool]:
    """Whether the statement inquirer makes a WH question (open or not) about a sentence's pieces."""
    from consistest.text.parse import parse_all
    from consistest.text.questions.statements import statement_questions
    from consistest.text.sentences import normalise, statement_pieces

    pieces = {s: statement_pieces(normalise(s)) for s in sentences}
    parsed = parse_all([p for ps in pieces.values() for p in ps])
    return {s: any(not q.template.startswith("st.yn") for p in ps for q in statement_questions(parsed[p]))
            for s, ps in pieces.items()}  # fmt: skip


if __name__ == "__main__":
    main()
