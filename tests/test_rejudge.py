"""``consistest rejudge``: every judge x prompt is a column with its own signature; the spread of each figure,
per-item disagreement with the paired difference, the probe set of wrong but on-topic replies, the judges'
cache (a killed rejudge resumes and ends the same), and refusals of what it cannot rejudge."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Sample
from consistest.models.base import BatchedChatModel
from consistest.tasks.consistest.probes import on_topic_probes, probe_figures
from consistest.tasks.consistest.rejudge import RejudgeConfig, run_rejudge
from consistest.tasks.consistest.rejudge_report import render
from tests.helpers import run_cli


class Grader(BatchedChatModel):
    """A fake judge: ``strict`` gives 1 when the reply names the correct answer, else 0; ``lenient`` gives
    1 to everything (a judge that passes wrong answers); ``fail_after``: raises after that many calls."""

    batch_size = 4

    def __init__(self, name: str, lenient: bool = False, fail_after: int | None = None) -> None:
        self.name, self.lenient, self.fail_after, self.calls = name, lenient, fail_after, 0

    def reply(self, conversations: Sequence[Conversation]) -> list[str]:
        out = []
        for c in conversations:
            if self.fail_after is not None and self.calls >= self.fail_after:
                raise KeyboardInterrupt("killed")
            self.calls += 1
            text = c.turns[0].text
            truth = text.split("Correct answer: ")[1].split("\n")[0]
            reply = text.split("Reply: ")[1].split("\n")[0]
            out.append("1" if self.lenient or truth.lower() in reply.lower() else "0")
        return out


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("rejudge")
    assert run_cli("build", "--demo", "--out", root / "ds", "-q").exit_code == 0
    r = run_cli("score", "--dataset", root / "ds", "--model", "baseline:retrieval", "--nli", "none",
                "--out", root / "run", "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    return root / "ds", root / "run"


def _cfg(run: tuple[Path, Path], out: Path, *judges: object, **kw: object) -> RejudgeConfig:
    ds, rundir = run
    opts = dict(when="all", nli=None, n_boot=0, probes=0, out=out, quiet=True) | kw
    return RejudgeConfig(run=rundir, dataset=ds, judges=judges, **opts)  # type: ignore[arg-type]


def test_every_judge_and_prompt_is_a_column_with_its_spread_and_signature(run, tmp_path: Path) -> None:
    strict, lenient = Grader("strict"), Grader("lenient", lenient=True)
    prompts = ("consistest-v1", "consistest-generous-v1")
    rep = run_rejudge(_cfg(run, tmp_path / "o", strict, lenient, prompts=prompts))
    cols = ["run", *(f"{j}@{p}" for j in ("strict", "lenient") for p in prompts)]
    assert rep["columns"] == cols
    assert rep["figures"]["lenient@consistest-v1"]["overall"]["mean"] == 1.0  # passes everything
    strict_mean = rep["figures"]["strict@consistest-v1"]["overall"]["mean"]
    assert 0 < strict_mean < 1
    assert rep["spread"]["overall"] == pytest.approx(1.0 - strict_mean)  # largest minus smallest judged mean
    for col in cols[1:]:
        j, p = col.split("@")
        assert f"method:judge-1[{j}@{p},none,all]" in rep["signatures"][col]
    assert "method:plus-25" in rep["signatures"]["run"]  # the run was scored with the default method
    items = [json.loads(x) for x in (tmp_path / "o" / "items.jsonl").read_text().splitlines()]
    assert len(items) == rep["n"] and set(items[0]["scores"]) == set(cols)
    assert json.loads((tmp_path / "o" / "rejudge.json").read_text())["columns"] == cols


def test_disagreement_counts_items_scored_differently_and_the_paired_difference(run, tmp_path: Path) -> None:
    rep = run_rejudge(_cfg(run, tmp_path / "o", Grader("strict"), Grader("lenient", lenient=True)))
    vs = next(d for d in rep["disagreement"] if d["reference"] == "strict@consistest-v1")
    assert vs["column"] == "lenient@consistest-v1" and vs["n"] == rep["n"]  # judge-when all: all decided
    strict = rep["figures"]["strict@consistest-v1"]["overall"]["mean"]
    assert vs["differ"] == round(rep["n"] * (1 - strict))  # exactly the items strict scored 0
    assert vs["difference"]["delta"] == pytest.approx(1 - strict)
    text = render(json.loads(json.dumps(rep, sort_keys=True)))  # as read back from rejudge.json
    assert "J1: strict@consistest-v1" in text and "J2: lenient@consistest-v1" in text
    assert text.index("J1 decided by") < text.index("J2 decided by")  # the report's order, not the file's
    assert (
        text.splitlines()[-1] == rep["signature"]
        and "judges:judge-1[strict@consistest-v1" in rep["signature"]
    )


def test_a_killed_rejudge_resumes_from_its_cache_and_ends_the_same(run, tmp_path: Path) -> None:
    whole = run_rejudge(_cfg(run, tmp_path / "whole", Grader("strict")))
    with pytest.raises(KeyboardInterrupt):
        run_rejudge(_cfg(run, tmp_path / "o", Grader("strict", fail_after=10)))
    again = Grader("strict")
    resumed = run_rejudge(_cfg(run, tmp_path / "o", again))
    assert again.calls == whole["n"] - 8  # two full batches of 4 were cached before the kill
    assert resumed["figures"] == whole["figures"] and resumed["disagreement"] == whole["disagreement"]


def _s(sid: str, dialog: str, question: str, answer: str, fact: str) -> Sample:
    return Sample(id=sid, qa_id=sid, dialog_id=dialog, persona=[fact], history=[question], question=question,
                  answer=answer, fact=fact, nli_premise=fact, source="pers", type="wh", distance=0,
                  turn=-1)  # fmt: skip


PROBE_SAMPLES = [
    _s("a", "1", "what is your job ?", "nurse", "i am a nurse ."),
    _s("b", "2", "What is your job?", "teacher", "i work as a teacher ."),
    _s("c", "3", "what is your job ?", "nurse practitioner", "i am a nurse practitioner ."),
    _s("d", "1", "what is your job ?", "baker", "i bake bread ."),  # same dialogue as a: never a's probe
    _s("e", "4", "where do you live ?", "ohio", "i live in ohio ."),  # no other persona answers it
]


def test_probes_are_another_personas_answer_to_the_same_question_and_never_the_truth() -> None:
    probes = {p.sample.id: p for p in on_topic_probes(PROBE_SAMPLES, 10)}
    assert "e" not in probes
    assert probes["a"].taken_from == "b"  # c's answer shares "nurse", d is a's own dialogue
    assert probes["c"].taken_from in {"b", "d"} and "nurse" not in probes["c"].reply
    assert len(on_topic_probes(PROBE_SAMPLES, 2)) == 2
    assert on_topic_probes(PROBE_SAMPLES, 10) == on_topic_probes(list(reversed(PROBE_SAMPLES)), 10)


def test_probe_pass_rates_show_which_judge_passes_wrong_answers() -> None:
    from consistest.tasks.consistest.methods import JudgeMethod

    methods = {"strict": JudgeMethod(model=Grader("strict"), when="all"),
               "lenient": JudgeMethod(model=Grader("lenient", lenient=True), when="all")}  # fmt: skip
    out = probe_figures(PROBE_SAMPLES, None, methods, n=10, n_boot=0)
    assert out is not None and out["n"] == 4
    assert out["columns"]["strict"]["pass_rate"] == 0.0 and out["columns"]["lenient"]["pass_rate"] == 1.0
    assert out["columns"]["paper"]["passed"] == 0  # keyword recall of a wrong value is 0


def test_what_cannot_be_rejudged_is_refused_with_one_line(run, tmp_path: Path) -> None:
    ds, rundir = run
    with pytest.raises(InputError, match="not a scored run"):
        run_rejudge(_cfg((ds, tmp_path), tmp_path / "o", Grader("strict")))
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(InputError, match="not a consistest rejudge folder"):
        run_rejudge(_cfg(run, foreign, Grader("strict")))
    assert (foreign / "notes.txt").read_text() == "keep me"
    with pytest.raises(InputError, match="at least one judge"):
        RejudgeConfig(run=rundir, dataset=ds, judges=())


def test_rejudge_cli_prints_the_spread_table(run, tmp_path: Path) -> None:
    ds, rundir = run
    r = run_cli("rejudge", rundir, "--dataset", ds, "--judge", "baseline:generic", "--judge-prompt",
                "consistest-v1", "--judge-prompt", "consistest-generous-v1", "--nli", "none", "--n-boot", "0",
                "--out", tmp_path / "o", "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "J2: baseline:generic@consistest-generous-v1" in r.stdout and "spread" in r.stdout
    assert "undecided" in r.stdout  # "i don't know ." is no label: retried, then undecided, never guessed


def test_a_cascade_over_a_plus_run_is_warned(run, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The judges' cascade starts from the paper rules: against a plus run, the run-vs-judge differences
    mix the method with the judge, and the user is told so; a judge deciding every reply is not warned."""
    run_rejudge(_cfg(run, tmp_path / "u", Grader("strict"), when="uncertain"))
    err = capsys.readouterr().err
    assert "the run was scored with plus-25 and the judges build on the paper rules" in err
    run_rejudge(_cfg(run, tmp_path / "a", Grader("strict"), when="all"))
    assert "judges build on the paper rules" not in capsys.readouterr().err
