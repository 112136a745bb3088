"""The AIH model judge (``converse``/``judge-run --judge-model``, ``rank --judge model``): strict labels,
retry then undecided with the raw replies kept, the cache resuming a crashed run to identical files, a judge
added to a finished run, ranking by the model judge and its signature."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence, Set
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, content_hash
from consistest.models.base import BatchedChatModel, Chunk, Item
from consistest.models.judging import judge_spec
from consistest.tasks.aih.config import ConverseConfig, parse_bot
from consistest.tasks.aih.converse import CONVERSATIONS_FILE, INQUIRIES_FILE, RUN_FILE, run_converse
from consistest.tasks.aih.human import agreement
from consistest.tasks.aih.judge_run import judge_run
from consistest.tasks.aih.model_judge import (
    ModelJudge,
    add_model_verdicts,
    cohen_kappa,
    inquiry_conversation,
    read_label,
)
from consistest.tasks.aih.rank import RankConfig, rank
from tests.aih_fixtures import OverlapNLI, write_personas
from tests.helpers import run_cli

pytest.importorskip("spacy")
np = pytest.importorskip("numpy")

BOTS = ("zero=baseline:persona-bot:0", "low=baseline:persona-bot:0.2", "high=baseline:persona-bot:0.5")
TRUE_ORDER = ["zero", "low", "high"]
FILES = (RUN_FILE, CONVERSATIONS_FILE, INQUIRIES_FILE)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("contradiction", 1.0),
        ("Consistent.", 0.0),
        ("**Contradiction**", 1.0),
        ("Label: consistent", 0.0),
        ('{"label": "contradiction"}', 1.0),
        ("contradictory", None),  # another word is not the label
        ("not consistent", None),  # a negation is not the label it negates
        ("The answer is consistent with the utterance", 0.0),
        ("I think it is a contradiction", None),  # not at the start: never guessed
        ("unrelated", None),
        ("", None),
    ],
)
def test_labels_are_read_strictly(text: str, value: float | None) -> None:
    assert read_label(text) == value


INQUIRY = {"id": "a>b#0:q3", "utterance": "i have 2 dogs . you ?", "question": "how many dogs do you have?",
           "answer": "i have 3 dogs ."}  # fmt: skip


def test_the_prompt_shows_utterance_question_and_answer_and_the_retry() -> None:
    conv = inquiry_conversation("aih-v1", INQUIRY)
    assert "consistent or contradiction" in conv.persona[0]
    assert conv.turns[0].text.splitlines() == [
        "Utterance: i have 2 dogs . you ?", "Question: how many dogs do you have?",
        "Answer: i have 3 dogs .", "Label (consistent or contradiction):",
    ]  # fmt: skip
    retry = inquiry_conversation("aih-v1", INQUIRY, first="hmm")
    assert [t.role for t in retry.turns] == ["user", "assistant", "user"]
    assert retry.turns[2].text == "Answer with only one word: consistent or contradiction."
    with pytest.raises(InputError, match="unknown judge prompt 'aih-v0'"):
        ModelJudge(model=judge_spec("models/smollm2"), prompt="aih-v0")


def test_the_tag_names_judge_model_prompt_and_decoding() -> None:
    assert ModelJudge(judge_spec("models/smollm2")).tag() == "judge-1[models/smollm2@aih-v1,greedy-8]"
    served = ModelJudge(
        judge_spec("openai:qwen,api_base=http://h:1/v1,max_new_tokens=4", field="judge-model")
    )
    assert served.tag() == "judge-1[openai:qwen@aih-v1,greedy-4]"
    assert served.info()["settings"] == served.model.settings()


def _fields(c: Conversation) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in c.turns[0].text.splitlines()[:3])


class LabelJudge(BatchedChatModel):
    """A fake judge: contradiction when the answer holds a word the utterance lacks; no label for about one
    answer in eight (by its hash), and ``retry`` when asked again. Counts what it is asked."""

    name = "label-judge"
    batch_size = 3

    def __init__(self, retry: str = "still unsure") -> None:
        self.retry, self.asked = retry, []

    def reply(self, conversations: Sequence[Conversation]) -> list[str]:
        out = []
        for c in conversations:
            f = _fields(c)
            self.asked.append((f["Answer"], len(c.turns)))
            if len(c.turns) == 3:
                out.append(self.retry)
            elif content_hash(f["Answer"])[0] in "01":
                out.append("I am not sure.")
            else:
                new = OverlapNLI._words(f["Answer"]) - OverlapNLI._words(f["Utterance"])
                out.append("Contradiction." if new else "consistent")
        return out


class CrashAfter(LabelJudge):
    """The fake judge killed after ``n`` chunks."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.left = n

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        for chunk in super().stream(items, skip):
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield chunk


def test_undecided_after_the_retry_with_the_raw_replies_kept() -> None:
    same = ("i have 2 dogs .", "i have 2 dogs", "2 dogs .", "i have 2 dogs . you ?", "dogs : 2 .")
    other = {**INQUIRY, "id": "x", "answer": next(a for a in same if content_hash(a)[0] not in "01")}
    unsure = next(a for k in range(50) if content_hash(a := f"i have {k} dogs .")[0] in "01")
    third = {**INQUIRY, "id": "y", "answer": unsure}
    judged, record = add_model_verdicts([INQUIRY, other, third], ModelJudge(LabelJudge()), None)
    assert [q["model"] for q in judged] == [1.0, 0.0, None]
    assert judged[2]["model_raw"] == ["I am not sure.", "still unsure"] and judged[0]["model_raw"] == [
        "Contradiction."
    ]
    assert {k: record[k] for k in ("judged", "decided", "undecided", "retried")} == {
        "judged": 3, "decided": 2, "undecided": 1, "retried": 1,
    }  # fmt: skip
    fixed, record = add_model_verdicts([third], ModelJudge(LabelJudge(retry="contradiction")), None)
    assert fixed[0]["model"] == 1.0 and record["retried"] == 1 and record["undecided"] == 0


def _config(root: Path, out: str, judge: ModelJudge | None = None, **kw) -> ConverseConfig:
    kw = {"conversations": 4, "turns": 4, **kw}
    return ConverseConfig(bots=tuple(parse_bot(b) for b in BOTS), out=root / out,
                          dialogues=write_personas(root / "personas.json"), nli="none", quiet=True,
                          model_judge=judge, **kw)  # fmt: skip


def _files(run: Path) -> dict[str, bytes]:
    return {name: (run / name).read_bytes() for name in FILES}


def test_a_run_crashed_while_judging_resumes_asking_only_what_is_missing(tmp_path: Path) -> None:
    ref = run_converse(_config(tmp_path, "ref", ModelJudge(LabelJudge())), nli=OverlapNLI())
    calls = (ref / "judge.jsonl").read_bytes().splitlines(keepends=True)
    inquiries = [json.loads(x) for x in (ref / INQUIRIES_FILE).read_text().splitlines()]
    undecided = sum(q["model"] is None for q in inquiries)
    assert 0 < undecided < len(inquiries) and len(calls) == len(inquiries) + undecided
    info = json.loads((ref / RUN_FILE).read_text())
    assert info["model_judge"]["tag"] == "judge-1[label-judge@aih-v1,none]"
    assert info["model_judge"]["undecided"] == undecided and "model_judge" not in info["signature"]

    with pytest.raises(KeyboardInterrupt):
        run_converse(_config(tmp_path, "crashed", ModelJudge(CrashAfter(2))), nli=OverlapNLI())
    crashed = tmp_path / "crashed"
    assert not (crashed / INQUIRIES_FILE).exists()
    assert not json.loads((crashed / RUN_FILE).read_text())["complete"]
    with (crashed / "judge.jsonl").open("ab") as f:
        f.write(calls[-1][:12])  # a line cut by a kill
    assert (crashed / "judge.jsonl").read_bytes().count(b"\n") == 6
    fake = LabelJudge()
    run_converse(_config(tmp_path, "crashed", ModelJudge(fake)), nli=OverlapNLI())
    assert len(fake.asked) == len(calls) - 6
    assert _files(crashed) == _files(ref)
    idle = LabelJudge()
    run_converse(_config(tmp_path, "crashed", ModelJudge(idle)), nli=OverlapNLI())
    assert idle.asked == [] and _files(crashed) == _files(ref)


def test_a_judge_added_to_a_finished_run_gives_the_same_files(tmp_path: Path) -> None:
    ref = run_converse(_config(tmp_path, "ref", ModelJudge(LabelJudge())), nli=OverlapNLI())
    old = run_converse(_config(tmp_path, "old"), nli=OverlapNLI())
    before = _files(old)
    assert "model_judge" not in json.loads(before[RUN_FILE])
    record = judge_run(old, ModelJudge(LabelJudge()), quiet=True)
    assert record == json.loads((ref / RUN_FILE).read_text())["model_judge"]
    assert _files(old) == _files(ref) and before[CONVERSATIONS_FILE] == _files(old)[CONVERSATIONS_FILE]
    # converse rerun with the judge: everything cached, nothing asked, nothing changed.
    idle = LabelJudge()
    run_converse(_config(tmp_path, "old", ModelJudge(idle)), nli=OverlapNLI())
    assert idle.asked == [] and _files(old) == _files(ref)


def test_judge_run_needs_a_finished_run(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a consistest converse run"):
        judge_run(tmp_path, ModelJudge(LabelJudge()))
    with pytest.raises(KeyboardInterrupt):
        run_converse(_config(tmp_path, "crashed", ModelJudge(CrashAfter(0))), nli=OverlapNLI())
    with pytest.raises(InputError, match="not complete"):
        judge_run(tmp_path / "crashed", ModelJudge(LabelJudge()))


@pytest.fixture(scope="module")
def judged_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("aih-model-judge")
    return run_converse(
        _config(root, "run", ModelJudge(LabelJudge()), conversations=12, turns=6), nli=OverlapNLI()
    )


def test_rank_by_the_model_judge_counts_its_undecided(judged_run: Path) -> None:
    inquiries = [json.loads(x) for x in (judged_run / INQUIRIES_FILE).read_text().splitlines()]
    undecided = sum(q["model"] is None for q in inquiries)
    report = rank(RankConfig(run=judged_run, judges=("model",), n_boot=200, repetitions=100))
    j = report["judges"]["model"]
    assert j["ranking"] == TRUE_ORDER and j["bots"]["zero"]["C"] == 0.0
    assert j["undecided"] == undecided > 0 and j["inquiries"] == len(inquiries) - undecided
    assert sum(f["inquiries"] for f in j["bots"].values()) == j["inquiries"]
    assert j["label"] == "model: judge-1[label-judge@aih-v1,none]"
    assert "|judges:model|model_judge:judge-1[label-judge@aih-v1,none]|tau:" in report["signature"]
    # The fake judge reads answers as OverlapNLI does: it agrees with the paper judge wherever both decide.
    assert j["agreement"]["paper"]["agree"] == 1.0 and j["agreement"]["paper"]["n"] == j["inquiries"]
    # Ranking the NLI judges does not name the model judge: their figures do not depend on it.
    paper = rank(RankConfig(run=judged_run, judges=("paper",), n_boot=0, repetitions=10))
    assert "model_judge" not in paper["signature"]


def test_rank_cli_judge_model_and_all(judged_run: Path, tmp_path: Path) -> None:
    args = ["--n-boot", "0", "--repetitions", "10", "--no-plots", "-q"]
    r = run_cli("rank", judged_run, "--judge", "all", "--out", tmp_path / "all", *args)
    assert r.exit_code == 0, r.output
    assert "judge model: judge-1[label-judge@aih-v1,none] (" in r.stdout
    assert (
        "undecided:" in r.stdout
        and "agreement on the inquiries both judges decided: paper 100.0%" in r.stdout
    )
    report = json.loads((tmp_path / "all" / "rank.json").read_text())
    assert sorted(report["judges"]) == ["hybrid", "model", "paper"]
    assert "|judges:paper,hybrid,model|model_judge:judge-1[label-judge@aih-v1,none]|" in report["signature"]


def test_rank_model_without_a_model_judge_says_how_to_add_one(tmp_path: Path) -> None:
    run = run_converse(_config(tmp_path, "plain"), nli=OverlapNLI())
    with pytest.raises(InputError, match="consistest judge-run .* --judge-model SPEC"):
        rank(RankConfig(run=run, judges=("model",), n_boot=0, repetitions=10))
    r = run_cli("rank", run, "--judge", "all", "--n-boot", "0", "--no-plots", "-q")
    assert r.exit_code == 2 and "judge-run" in r.stderr


def test_cli_converse_then_judge_run_with_a_baseline_judge(tmp_path: Path) -> None:
    personas = write_personas(tmp_path / "personas.json")
    base = ["converse", "--bot", "a=baseline:persona-bot:0", "--bot", "b=baseline:persona-bot:1",
            "--dialogues", personas, "--conversations", "2", "--turns", "3", "--nli", "none",
            "-q"]  # fmt: skip
    r = run_cli(*base, "--out", tmp_path / "run", "--judge-model", "baseline:generic")
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in (tmp_path / "run" / INQUIRIES_FILE).read_text().splitlines()]
    assert rows and all(q["model"] is None and q["model_raw"] == ["i don't know ."] * 2 for q in rows)
    r = run_cli("rank", tmp_path / "run", "--judge", "model", "--n-boot", "0", "--no-plots", "-q")
    assert r.exit_code == 0, r.output
    assert f"(0 judged, {len(rows)} not)" in r.stdout and "left every inquiry undecided" in r.stdout
    assert "model_judge:judge-1[baseline:generic@aih-v1,none]" in r.stdout
    plain = run_cli(*base, "--out", tmp_path / "plain")
    assert plain.exit_code == 0
    bad = run_cli(
        "judge-run", tmp_path / "plain", "--judge-model", "baseline:generic", "--judge-prompt", "v9"
    )
    assert bad.exit_code == 2
    bad = run_cli("judge-run", tmp_path / "plain", "--judge-model", "openai:x,chat_templte=true")
    assert bad.exit_code == 2 and "unknown key" in bad.stderr
    ok = run_cli("judge-run", tmp_path / "plain", "--judge-model", "baseline:generic", "-q")
    assert ok.exit_code == 0 and f"0 decided, {len(rows)} undecided" in ok.stdout
    assert (tmp_path / "plain" / INQUIRIES_FILE).read_bytes() == (
        tmp_path / "run" / INQUIRIES_FILE
    ).read_bytes()


@pytest.mark.parametrize(
    ("pairs", "kappa"),
    [
        ([(1, 1), (0, 0)], 1.0),
        ([(1, 0), (0, 1)], -1.0),
        ([(1, 1), (1, 0), (0, 0), (0, 0)], 0.5),  # observed 3/4, chance 1/2*1/4 + 1/2*3/4 = 1/2
        ([(1, 1), (1, 1)], None),  # one label only: chance agreement 1
        ([], None),
    ],
)
def test_cohen_kappa_by_hand(pairs: list[tuple[int, int]], kappa: float | None) -> None:
    assert cohen_kappa(pairs) == (None if kappa is None else pytest.approx(kappa))


def test_human_agreement_has_a_model_row_when_the_run_has_a_model_judge() -> None:
    def inquiry(i: int, model: float | None) -> dict:
        return {"id": f"q{i}", "bot": "b", "nli": {"contradiction": 0.5}, "ours_score": 1.0, "model": model}

    inquiries = [inquiry(0, 1.0), inquiry(1, 0.0), inquiry(2, None), inquiry(3, 1.0)]
    out = agreement(inquiries, {"q0": 1, "q1": 0, "q2": 1, "q3": 0}, taus=(0.15,), tau=0.15)
    row = next(a for a in out["agreement"] if a["judge"] == "model")
    assert row["n"] == 3 and row["f1"] == pytest.approx(2 / 3)  # tp 1, fp 1, fn 0
    assert out["by_bot"]["b"]["model"] == pytest.approx(2 / 3)


def test_a_choice_judge_decides_every_inquiry_from_its_label_scores(tiny_chat_dir: Path) -> None:
    from consistest.models.judging import judge_spec

    judge = ModelJudge(judge_spec(str(tiny_chat_dir), field="judge-model"), output="choice")
    answers = [INQUIRY, {**INQUIRY, "id": "x", "answer": "i have 2 dogs ."}]
    judged, record = add_model_verdicts(answers, judge, None)
    assert [q["model"] in (0.0, 1.0) for q in judged] == [True, True] and record["undecided"] == 0
    scores = json.loads(judged[0]["model_raw"][0])
    assert set(scores["logprobs"]) == {"consistent", "contradiction"}
    assert judge.tag().endswith("@aih-v1,choice]")
