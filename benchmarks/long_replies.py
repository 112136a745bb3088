"""Seconds to score the demo when some replies are huge (1 MB, 10 MB of repeated text), rules only.

    .venv/bin/python benchmarks/long_replies.py                 # 1 MB and 10 MB
    .venv/bin/python benchmarks/long_replies.py --sizes 1e5,1e6

Before the cut at MAX_REPLY_CHARS (and the linear short-form scan) one 1 MB reply took minutes and a
10 MB one never finished: the Y/N rule rescanned the clause at each short form it met, and the categories
compare every pair of a reply's clauses. Each line: size, the two worst texts (a Y/N reply repeating
"yes i do", a WH one of comma-separated clauses), seconds end to end through ``run_score``, replies cut.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TEXTS = {"yn": "yes i do , yes i do and i do . ", "wh": "i like dogs , i like cats , my mom is a nurse , "}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e6,1e7", help="Reply sizes in characters, comma-separated.")
    args = ap.parse_args()

    from consistest.data.dataset_dir import load_samples
    from consistest.tasks.consistest.build import BuildConfig, build_dataset
    from consistest.tasks.consistest.score import ScoreConfig, run_score
    from consistest.tasks.consistest.scoring import MAX_REPLY_CHARS

    with tempfile.TemporaryDirectory() as tmp:
        demo = Path(tmp) / "demo"
        build_dataset(BuildConfig(out=demo, demo=True, quiet=True))
        samples = load_samples(demo)
        ids = {s.type: s.id for s in reversed(samples)}  # the first sample of each type
        for size in (int(float(x)) for x in args.sizes.split(",")):
            replies = {s.id: "yes i do ." for s in samples}
            for qtype, sid in ids.items():
                replies[sid] = (TEXTS[qtype] * (size // len(TEXTS[qtype]) + 1))[:size]
            path = Path(tmp) / f"responses-{size}.jsonl"
            path.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in replies.items()))
            t0 = time.perf_counter()
            res = run_score(
                ScoreConfig(demo, None, responses=path, nli=None, n_boot=0, quiet=True, method="paper")
            )
            secs = time.perf_counter() - t0
            print(
                f"replies of {size:,} characters (one Y/N, one WH): {len(res.items)} items scored in "
                f"{secs:.2f} s, {res.summary.get('replies_cut', 0)} reply(s) cut to {MAX_REPLY_CHARS:,} chars"
            )


if __name__ == "__main__":
    main()
