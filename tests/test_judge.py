"""The model judge (``score --method judge``, ``agree --judge``): strict label reading, retry then undecided,
the cascade's stages, the cache of judge calls (kill and resume to identical results), the signature."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Sample
from consistest.metrics.judge_labels import labels_text, parse_choice, parse_judge_label
from consistest.models.base import BatchedChatModel
from consistest.models.judging import judge_spec
from consistest.tasks.consistest.agree import method_scores
from consistest.tasks.consistest.agree_labels import HumanLabel
from consistest.tasks.consistest.methods import JudgeMethod, get_method, judge_replies, signature_value
from consistest.tasks.consistest.methods.judge import stage_counts
from consistest.tasks.consistest.methods.judge_calls import item_conversation, prompt_sections
from tests.helpers import run_cli


@pytest.mark.parametrize(
    ("text", "qtype", "score"),
    [
        ("1", "yn", 1.0),
        ("0", "yn", 0.0),
        ("0.5", "wh", 0.5),
        ("0.5", "yn", None),  # not a Y/N label
        ("Score: 1", "wh", 1.0),
        ("**0**", "yn", 0.0),
        ("1. The reply agrees with the fact.", "yn", 1.0),
        ('{"score": 0.5}', "wh", 0.5),
        ('{"score": 1}', "yn", 1.0),
        ('{"score": true}', "yn", None),
        ("10", "yn", None),
        ("0.75", "wh", None),
        ("1/2", "wh", None),
        ("0, 0.5 or 1", "wh", None),  # the label list echoed back
        ("The score is 1", "yn", 1.0),
        ("The answer is: 0", "yn", 0.0),
        ("The correct answer is: i", "yn", None),
        ("The answer is no.", "yn", None),  # answering the question, not grading it
        ("I think 1", "yn", None),  # not at the start: never guessed
        ("yes", "yn", None),
        ("", "wh", None),
    ],
)
def test_judge_labels_are_read_strictly(text: str, qtype: str, score: float | None) -> None:
    assert parse_judge_label(text, qtype) == score


CHOICES = ("consistent", "contradiction")


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Contradiction.", "contradiction"),
        ("**consistent**", "consistent"),
        ("Label: contradiction", "contradiction"),
        ('{"label": "Consistent"}', "consistent"),
        ("not consistent", None),  # a negation is not the label it negates
        ("contradictory", None),  # a longer word is not the label
        ("consistent-ish", None),
        ('{"label": "maybe"}', None),
        ("", None),
    ],
)
def test_word_labels_are_read_strictly(text: str, label: str | None) -> None:
    assert parse_choice(text, CHOICES) == label


def test_labels_named_in_the_prompt() -> None:
    assert labels_text("yn") == "0 or 1" and labels_text("wh") == "0, 0.5 or 1"


def _sample(sid: str, question: str, truth: str, fact: str) -> Sample:
    qtype = "yn" if truth in ("yes", "no") else "wh"
    return Sample(id=sid, qa_id=sid, dialog_id="0", persona=["p ."], history=[question], question=question,
                  answer=truth, fact=fact, nli_premise=fact, source="pers", type=qtype, distance=0,
                  turn=-1)  # fmt: skip


DOG, JOB = (
    ("do you have a dog ?", "yes", "i have a dog ."),
    ("what is your job ?", "teacher", "i am a teacher ."),
)
SAMPLES = [_sample("a", *DOG), _sample("b", *JOB), _sample("c", *DOG), _sample("d", *DOG), _sample("e", *JOB)]
# a: yes word (guard, entailment), b: wrong value (rules 0), c: wrong yes/no word (rules 0), d: no short form
# (NLI decides, neutral), e: the truth (guard, neutral)
REPLIES = ["yes , i have a dog .", "i am a nurse .", "no .", "i have a dog .", "i am a teacher ."]


class Scripted(BatchedChatModel):
    """A fake judge: answers by the judged reply (first ask) and by whether it is the retry; counts calls."""

    name = "fake-judge"
    batch_size = 2

    def __init__(self, first: dict[str, str], retry: str = "garbage") -> None:
        self.first, self.retry, self.asked = first, retry, []

    def reply(self, conversations: Sequence[Conversation]) -> list[str]:
        out = []
        for c in conversations:
            judged = c.turns[0].text.split("Reply: ")[1].split("\n")[0]
            self.asked.append((judged, len(c.turns)))
            out.append(self.retry if len(c.turns) == 3 else self.first.get(judged, "1"))
        return out


class FixedNLI:
    """Entailment for the first reply, neutral for everything else."""

    name, signature = "fixed", "fixed[c,n,e]"

    def predict(self, pairs):
        return ["entailment" if h.startswith("yes") else "neutral" for _, h in pairs]


def test_prompt_file_has_the_rubric_the_item_and_the_retry() -> None:
    p = prompt_sections("consistest-v1")
    assert "Appendix" not in p["system"] and "0.5" in p["system"]
    conv = item_conversation("consistest-v1", SAMPLES[1], "i am a nurse .")
    assert conv.persona == (p["system"],)
    assert conv.turns[0].text.splitlines() == [
        "Fact: i am a teacher .", "Question: what is your job ?", "Correct answer: teacher",
        "Reply: i am a nurse .", "Score (0, 0.5 or 1):",
    ]  # fmt: skip
    retry = item_conversation("consistest-v1", SAMPLES[0], "yes", first="maybe")
    assert [t.role for t in retry.turns] == ["user", "assistant", "user"]
    assert retry.turns[2].text == "Answer with only one of: 0 or 1."


def test_cascade_rules_then_clear_guard_labels_then_the_judge() -> None:
    fake = Scripted({"i have a dog .": "0", "i am a teacher .": "0.5"})
    judge = JudgeMethod(model=fake)
    got = judge_replies(SAMPLES, REPLIES, FixedNLI(), method="judge", judge=judge)
    assert [j.detail["stage"] for j in got] == ["guard", "rules", "rules", "judge", "judge"]
    assert [j.score for j in got] == [1.0, 0.0, 0.0, 0.0, 0.5]
    assert sorted(fake.asked) == [("i am a teacher .", 1), ("i have a dog .", 1)]
    assert stage_counts([j.detail for j in got]) == {
        "rules": 2,
        "guard": 1,
        "judge": 2,
        "judge_retried": 0,
        "judge_undecided": 0,
    }
    # Without an NLI model, every reply the rules leave to NLI goes to the judge.
    got = judge_replies(SAMPLES, REPLIES, None, method="judge", judge=JudgeMethod(model=Scripted({})))
    assert [j.detail["stage"] for j in got] == ["judge", "rules", "rules", "judge", "judge"]


def test_judge_when_all_judges_every_reply() -> None:
    fake = Scripted({"no .": "0", "i am a nurse .": "0"})
    got = judge_replies(
        SAMPLES, REPLIES, FixedNLI(), method="judge", judge=JudgeMethod(model=fake, when="all")
    )
    assert [j.score for j in got] == [1.0, 0.0, 0.0, 1.0, 1.0]
    assert len(fake.asked) == 5 and all(j.detail["stage"] == "judge" for j in got)


def test_unparseable_is_retried_once_then_undecided_with_the_raw_text_kept() -> None:
    fake = Scripted({"no .": "I think it's fine", "i am a nurse .": "hmm"}, retry="still nothing")
    judge = JudgeMethod(model=fake, when="all")
    got = judge_replies(SAMPLES[1:3], REPLIES[1:3], None, method="judge", judge=judge)
    assert [j.score for j in got] == [None, None]
    assert got[1].detail["judge_raw"] == ["I think it's fine", "still nothing"]
    assert sorted(fake.asked) == [("i am a nurse .", 1), ("i am a nurse .", 3), ("no .", 1), ("no .", 3)]
    fixed = Scripted({"no .": "I think it's fine"}, retry="0")
    got = judge_replies(
        SAMPLES[1:3], REPLIES[1:3], None, method="judge", judge=JudgeMethod(model=fixed, when="all")
    )
    assert [j.score for j in got] == [1.0, 0.0]
    assert stage_counts([j.detail for j in got]) == {
        "rules": 0,
        "guard": 0,
        "judge": 2,
        "judge_retried": 1,
        "judge_undecided": 0,
    }


def test_judge_needs_a_model_and_names_it_in_the_signature() -> None:
    with pytest.raises(InputError, match="--judge SPEC"):
        get_method("judge")
    spec = judge_spec("models/smollm2")
    assert spec.options == {"chat_template": True, "system_prompt": "persona", "utterance_max_tokens": 0}
    judge = JudgeMethod(model=spec)
    assert (
        signature_value("judge", judge=judge)
        == "judge-1[models/smollm2@consistest-v1,greedy-8,uncertain-paper]"
    )
    served = JudgeMethod(model=judge_spec("openai:qwen,api_base=http://h:1/v1,max_new_tokens=16"), when="all")
    assert served.tag() == "judge-1[openai:qwen@consistest-v1,greedy-16,all]"
    assert served.model.options == {"system_prompt": "persona", "api_base": "http://h:1/v1"}
    with pytest.raises(InputError, match="unknown key"):
        judge_spec("openai:qwen,chat_templte=true")
    with pytest.raises(InputError, match="judge prompt"):
        JudgeMethod(model=spec, prompt="consistest-v0")


def test_one_reply_to_one_sample_given_twice_is_asked_once(tmp_path: Path) -> None:
    fake = Scripted({})
    judge = JudgeMethod(model=fake, when="all", cache=tmp_path / "judge.jsonl")
    got = judge_replies([SAMPLES[0]] * 2, [REPLIES[0]] * 2, None, method="judge", judge=judge)
    assert [j.score for j in got] == [1.0, 1.0] and len(fake.asked) == 1
    again = judge_replies([SAMPLES[0]] * 2, [REPLIES[0]] * 2, None, method="judge", judge=judge)
    assert again == got and len(fake.asked) == 1


def test_agree_reports_the_configured_judge_as_a_row() -> None:
    labels = [HumanLabel(s.id, r, 1.0) for s, r in zip(SAMPLES, REPLIES, strict=True)]
    assert "Hybrid (judge)" not in method_scores(SAMPLES, labels, None)
    rows = method_scores(SAMPLES, labels, None, judge=JudgeMethod(model=Scripted({"no .": "0"}), when="all"))
    assert rows["Hybrid (judge)"] == [1.0, 1.0, 0.0, 1.0, 1.0]


def test_agree_cli_prints_the_judge_row_and_its_difference_to_paper(demo: Path, tmp_path: Path) -> None:
    from consistest.data.dataset_dir import open_dataset

    samples = open_dataset(demo).samples[:12]
    lines = [{"id": s.id, "response": s.fact, "human": 1} for s in samples]
    labels = tmp_path / "dev.jsonl"
    labels.write_text("".join(json.dumps(x) + "\n" for x in lines))
    r = run_cli("agree", "--dataset", demo, "--labels", labels, "--nli", "none", "--n-boot", "0", "-q",
                "--judge", "baseline:generic", "--judge-cache", tmp_path / "j.jsonl")  # fmt: skip
    assert r.exit_code == 0, r.output
    row = next(x for x in r.stdout.splitlines() if x.startswith("Hybrid (judge)"))
    assert row.endswith("undecided)") and "judge - paper (paired bootstrap 95% CI" in r.stdout
    assert (
        "method:paper,plus-" in r.stdout
        and ",judge-1[baseline:generic@consistest-v1,none,uncertain-paper]|" in r.stdout
    )
    assert (tmp_path / "j.jsonl").exists()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("judge-demo") / "ds"
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    return out


def test_score_with_a_judge_caches_its_calls_and_resumes_a_killed_run_identically(
    demo: Path, tmp_path: Path
) -> None:
    from consistest.data.dataset_dir import open_dataset
    from consistest.tasks.consistest.score import ScoreConfig, run_score

    samples = open_dataset(demo).samples
    replies = {s.id: (s.fact if k % 2 else "well , who knows") for k, s in enumerate(samples)}
    answers = {s.fact: ("1" if k % 3 else "maybe") for k, s in enumerate(samples)}

    def run(out: Path, fake: Scripted):
        cfg = ScoreConfig(dataset=demo, out=out, responses=replies, nli=None, n_boot=0, method="judge",
                          judge=JudgeMethod(model=fake, when="all"), quiet=True)  # fmt: skip
        return run_score(cfg)

    ref = run(tmp_path / "ref", Scripted(answers, retry="0"))
    stages = ref.summary["judge_stages"]
    assert stages["judge"] == len(samples) and stages["judge_retried"] > 0
    assert "method:judge-1[fake-judge@consistest-v1,none,all]" in ref.summary["signature"]
    log = (tmp_path / "ref" / "judge.jsonl").read_bytes()
    assert log.count(b"\n") == len(samples) + stages["judge_retried"]
    # A run killed mid-write: a few whole lines and a cut one. The rerun asks only for what is missing.
    killed = tmp_path / "killed"
    killed.mkdir()
    lines = log.splitlines(keepends=True)
    (killed / "judge.jsonl").write_bytes(b"".join(lines[:5]) + lines[5][:9])
    fake = Scripted(answers, retry="0")
    again = run(killed, fake)
    assert len(fake.asked) == len(lines) - 5
    assert (killed / "scores.jsonl").read_bytes() == (tmp_path / "ref" / "scores.jsonl").read_bytes()
    assert again.summary == ref.summary
    # A complete cache: nothing is asked again.
    idle = Scripted({}, retry="")
    run(tmp_path / "ref", idle)
    assert idle.asked == []


def test_score_cli_judge_options(demo: Path, tmp_path: Path) -> None:
    base = (
        "score",
        "--dataset",
        demo,
        "--model",
        "baseline:retrieval",
        "--nli",
        "none",
        "--n-boot",
        "0",
        "-q",
    )
    no_model = run_cli(*base, "--method", "judge", "--out", tmp_path / "a")
    assert no_model.exit_code == 2 and "--judge SPEC" in no_model.stderr
    wrong = run_cli(*base, "--judge", "baseline:generic", "--out", tmp_path / "b")
    assert wrong.exit_code == 2 and "--method judge only" in wrong.stderr
    ok = run_cli(*base, "--method", "judge", "--judge", "baseline:generic", "--out", tmp_path / "c")
    assert ok.exit_code == 0, ok.output
    assert "method:judge-1[baseline:generic@consistest-v1,none,uncertain-paper]" in ok.stdout
    assert "decided by: rules" in ok.stdout
    assert "undecided: items the judge left without an allowed label" in ok.stdout
    rows = [json.loads(x) for x in (tmp_path / "c" / "scores.jsonl").read_text().splitlines()]
    asked = [r for r in rows if r["judge"]["stage"] == "judge"]
    assert asked and all(
        r["score"] is None and r["judge"]["judge_raw"] == ["i don't know ."] * 2 for r in asked
    )
    plain = run_cli(*base, "--out", tmp_path / "d")
    assert all(
        "judge" not in json.loads(x) for x in (tmp_path / "d" / "scores.jsonl").read_text().splitlines()
    )
    assert plain.exit_code == 0


def test_a_damaged_judge_cache_is_refused_with_how_to_reset_it(tmp_path: Path) -> None:
    cache = tmp_path / "judge.jsonl"
    cache.write_text('{"id": "k-1", "reply": "1"}\n{"id": "k-1", "reply": "1"}\n')
    judge = JudgeMethod(model=Scripted({}), when="all", cache=cache)
    with pytest.raises(InputError, match="duplicate id 'k-1'; delete this judge cache") as e:
        judge_replies(SAMPLES[:1], REPLIES[:1], None, method="judge", judge=judge)
    assert "--overwrite" not in str(e.value) and "line 2" in str(e.value)


def test_two_processes_never_judge_into_one_cache(tmp_path: Path) -> None:
    from consistest.models.judging import cache_lock

    cache = tmp_path / "judge.jsonl"
    method = JudgeMethod(model=Scripted({}), when="all", cache=cache)
    with cache_lock(cache), pytest.raises(InputError, match="another consistest process"):
        method.judge(SAMPLES, REPLIES, None)  # as a second agree --judge-cache FILE would
    assert [j.score for j in method.judge(SAMPLES, REPLIES, None)] == [1.0] * len(SAMPLES)
