"""``consistest judge-run RUNDIR --judge-model SPEC``: add a model judge's verdicts to a finished converse
run, without generating or NLI-judging again (the conversations and the paper and hybrid verdicts stay as
they are). The judge's calls are cached in RUNDIR/judge.jsonl, so a killed judge-run asks only what is
missing when run again; another judge replaces the stored one (its cached calls stay)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl
from consistest.core.rundir import JUDGE_FILE, run_lock
from consistest.tasks.aih.converse import INQUIRIES_FILE, RUN_FILE
from consistest.tasks.aih.model_judge import ModelJudge, add_model_verdicts
from consistest.tasks.aih.rank import load_converse_run

JUDGED_FIELDS = ("utterance", "question", "answer")


def judge_run(path: Path, judge: ModelJudge, quiet: bool = False) -> dict[str, Any]:
    """Judge every inquiry of the run at ``path``; rewrite inquiries.jsonl and aih.json (which says
    ``complete: false`` while they are replaced); return the judge's record (tag and counts)."""
    out = Path(path)
    with run_lock(out):
        run = load_converse_run(out)
        for q in run.inquiries:
            if missing := [k for k in JUDGED_FIELDS if not isinstance(q.get(k), str)]:
                raise InputError("expected a string", path=str(out / INQUIRIES_FILE), record=q["id"],
                                 field=missing[0])  # fmt: skip
        judged, model = add_model_verdicts(run.inquiries, judge, out / JUDGE_FILE, quiet)
        info = {k: v for k, v in run.info.items() if k != "model_judge"}
        atomic_write_json(out / RUN_FILE, {**info, "complete": False})
        atomic_write_jsonl(out / INQUIRIES_FILE, judged)
        atomic_write_json(out / RUN_FILE, {**info, "model_judge": model})
    return model
