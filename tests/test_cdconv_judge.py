"""A chat model as the CDConv detector (``detect --judge``): strict labels, the prompt, retry then undecided
with the raw replies kept, undecided dialogues counted beside the figures, the cache (kill and resume to
identical predictions and metrics), the signature, and the CLI's choice of --detector or --judge."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import DETECTOR_LABELS, Conversation
from consistest.data.decode_reader import make_example
from consistest.metrics.judge_labels import parse_choice
from consistest.models.base import BatchedChatModel
from consistest.models.judging import cache_lock
from consistest.models.registry import ModelSpec
from consistest.tasks.cdconv.detect import DetectConfig, run_detect
from consistest.tasks.cdconv.model_judge import JudgeDetector, item_conversation, parse_label
from tests.helpers import run_cli


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("history", "history"),
        ("History.", "history"),
        ("**role**", "role"),
        ("Label: intra", "intra"),
        ('{"label": "none"}', "none"),
        ("none - the bot agrees with its persona", "none"),
        ("none, intra, role or history", None),  # the choices echoed back
        ("None, intra, role or history.", None),
        ("history or none", None),
        ("intra/role", None),
        ("- intra: the last turn contradicts itself", None),  # a rubric line copied, not an answer
        ("historic", None),
        ("no contradiction", None),
        ("The Bot's last turn contradicts itself.", None),
        ('{"label": "contradiction"}', None),
        ("", None),
    ],
)
def test_labels_are_read_strictly(text: str, label: str | None) -> None:
    assert parse_label(text) == label


def test_an_echoed_list_of_word_labels_is_no_label() -> None:
    assert parse_choice("Consistent or contradiction", ("consistent", "contradiction")) is None
    assert parse_choice("consistent, it agrees", ("consistent", "contradiction")) == "consistent"


PERSONA = ["i have two dogs .", "i am a nurse ."]
DIALOGUES = [  # (turns, gold label, persona)
    (["do you have pets ?", "yes , two dogs .", "their names ?", "i have no pets ."], "history", PERSONA),
    (["hi !", "hello , i am a nurse .", "do you like it ?", "i love my job as a nurse ."], "none", PERSONA),
    (["what do you do ?", "i teach .", "i am a doctor .", "i am a doctor too , i heal people ."], "role", []),
    (["where are you from ?", "ohio .", "nice !", "i was born in ohio , i was never in ohio ."], "intra", []),
    (["do you sing ?", "yes , in a choir .", "since when ?", "i never sang ."], "history", []),
    (["how are you ?", "fine , thanks .", "good to hear .", "and you ?"], "none", []),
]  # fmt: skip


def write_dialogues(path: Path, rows: Sequence[tuple[list[str], str, list[str]]] = DIALOGUES) -> Path:
    """DECODE-layout JSONL: turns with speakers, the bot's persona, the category."""
    lines = []
    for turns, label, persona in rows:
        lines.append({
            "turns": [{"text": t, "agent_id": (i + len(turns)) % 2} for i, t in enumerate(turns)],
            "agents": {"0": {"persona_lines": []}, "1": {"persona_lines": persona}},
            "is_contradiction": label != "none", "category": label, "source": "hand-written",
        })  # fmt: skip
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


class Scripted(BatchedChatModel):
    """A fake judge: answers by the judged (last) bot turn, another answer to the retry; records each ask."""

    name = "fake-judge"
    batch_size = 2

    def __init__(self, first: dict[str, str], retry: str = "hmm") -> None:
        self.first, self.retry, self.asked = first, retry, []

    def reply(self, conversations: Sequence[Conversation]) -> list[str]:
        out = []
        for c in conversations:
            judged = c.turns[0].text.split("\n\nLabel")[0].splitlines()[-1].removeprefix("Bot: ")
            self.asked.append((judged, len(c.turns)))
            out.append(self.retry if len(c.turns) == 3 else self.first.get(judged, "none"))
        return out


ANSWERS = {
    "i have no pets .": "History",  # right
    "i am a doctor too , i heal people .": "none",  # wrong (role)
    "i was born in ohio , i was never in ohio .": "Label: intra",  # right
    "i never sang .": "I am not sure",  # undecided unless the retry answers
    "and you ?": "none, intra, role or history",  # the list echoed: undecided unless the retry answers
}


def test_prompt_shows_definitions_persona_and_speakers() -> None:
    turns, label, persona = DIALOGUES[0]
    conv = item_conversation("cdconv-v1", make_example(turns, label, persona=persona))
    system = conv.persona[0]
    assert all(f"- {lab}:" in system for lab in ("intra", "role", "history", "none"))
    assert system.index("- intra") < system.index("- role") < system.index("- history")
    assert conv.turns[0].text.splitlines() == [
        "Bot's persona:", "- i have two dogs .", "- i am a nurse .", "", "Dialogue:",
        "User: do you have pets ?", "Bot: yes , two dogs .", "User: their names ?",
        "Bot: i have no pets .", "", "Label for the Bot's last turn (none, intra, role or history):",
    ]  # fmt: skip
    three = item_conversation("cdconv-v1", make_example(turns[1:], label))
    lines = three.turns[0].text.splitlines()[:4]
    assert lines == ["Dialogue:", "Bot: yes , two dogs .", "User: their names ?", "Bot: i have no pets ."]
    retry = item_conversation("cdconv-v1", make_example(turns, label), first="maybe")
    assert [t.role for t in retry.turns] == ["user", "assistant", "user"]
    assert retry.turns[2].text == "Answer with only one of: none, intra, role or history."
    with pytest.raises(InputError, match="unknown judge prompt"):
        JudgeDetector(Scripted({}), prompt="cdconv-v0")


def test_retry_once_then_undecided_with_the_raw_replies_kept() -> None:
    examples = [make_example(t, lab, persona=p) for t, lab, p in DIALOGUES]
    fake = Scripted(ANSWERS, retry="still unsure")
    preds = JudgeDetector(fake).predict(examples)
    assert [p.category for p in preds] == ["history", "none", "none", "intra", None, None]
    assert preds[4].judge_raw == ["I am not sure", "still unsure"] and preds[4].retried
    assert preds[0].judge_raw == ["History"] and not preds[0].retried
    assert sorted(n for _, n in fake.asked) == [1] * 6 + [3] * 2
    fixed = JudgeDetector(Scripted(ANSWERS, retry="role")).predict(examples)
    assert [p.category for p in fixed] == ["history", "none", "none", "intra", "role", "role"]


def _detect(data: Path, out: Path, fake: Scripted, **kw) -> dict:
    return run_detect(DetectConfig(data=(str(data),), judge=fake, out=str(out), n_boot=200, quiet=True, **kw))


def test_undecided_dialogues_are_left_out_of_the_figures_and_counted(tmp_path: Path) -> None:
    data = write_dialogues(tmp_path / "d.jsonl")
    summary = _detect(data, tmp_path / "preds.jsonl", Scripted(ANSWERS, retry="garbage"))
    m = summary["results"]["d.jsonl"]
    assert m["n"] == 4 and m["acc2"] == 75.0 and m["acc4"] == 75.0  # decided: 3 of 4 right
    judged = m["judged"]
    assert (judged["n"], judged["decided"], judged["undecided"]) == (6, 4, 2)
    assert judged["acc2_undecided_wrong"]["value"] == 50.0 and judged["acc4_undecided_wrong"]["value"] == 50.0
    assert summary["categories"] == {"history": 1, "intra": 1, "none": 2, "undecided": 2}
    assert (
        summary["signature"] == "consistest:v1|task:cdconv|method:judge-1[fake-judge@cdconv-v1,none]|v:0.1.0"
    )
    rows = [json.loads(x) for x in (tmp_path / "preds.jsonl").read_text().splitlines()]
    assert rows[4]["category"] is None and rows[4]["judge_raw"] == ["I am not sure", "garbage"]
    assert rows[4]["gold"] == "history" and (tmp_path / "preds.judge.jsonl").exists()
    # Nothing decided: no Table 4 figures, only the counts.
    none = _detect(data, tmp_path / "none.jsonl", Scripted({k: "?" for k in ANSWERS} | {
        "i love my job as a nurse .": "?"}, retry="?"))  # fmt: skip
    assert none["results"]["d.jsonl"].keys() == {"judged"}


def test_a_killed_run_resumes_asking_only_what_is_missing_to_identical_outputs(tmp_path: Path) -> None:
    data = write_dialogues(tmp_path / "d.jsonl")
    ref = _detect(data, tmp_path / "ref" / "p.jsonl", Scripted(ANSWERS))
    log = (tmp_path / "ref" / "p.judge.jsonl").read_bytes()
    lines = log.splitlines(keepends=True)
    assert len(lines) == 6 + 2  # six first asks, two retries
    killed = tmp_path / "killed"
    killed.mkdir()
    (killed / "p.judge.jsonl").write_bytes(b"".join(lines[:3]) + lines[3][:10])  # a line cut by the kill
    fake = Scripted(ANSWERS)
    again = _detect(data, killed / "p.jsonl", fake)
    assert len(fake.asked) == len(lines) - 3
    assert (killed / "p.jsonl").read_bytes() == (tmp_path / "ref" / "p.jsonl").read_bytes()
    assert again == ref
    assert (killed / "p.metrics.json").read_bytes() == (tmp_path / "ref" / "p.metrics.json").read_bytes()
    idle = Scripted({}, retry="")
    assert _detect(data, killed / "p.jsonl", idle) == ref and idle.asked == []  # its own output is replaced


def test_the_cache_is_locked_and_never_a_foreign_file(tmp_path: Path) -> None:
    data = write_dialogues(tmp_path / "d.jsonl")
    cache = tmp_path / "c.jsonl"
    with cache_lock(cache), pytest.raises(InputError, match="another consistest process"):
        _detect(data, tmp_path / "p.jsonl", Scripted({}), judge_cache=str(cache))
    assert not cache.exists()  # nothing asked: no empty cache left behind
    with pytest.raises(InputError, match="is the input"):
        _detect(data, tmp_path / "p.jsonl", Scripted({}), judge_cache=str(data))
    other = tmp_path / "other.jsonl"
    other.write_text('{"id": 1, "text": "mine"}\n')
    with pytest.raises(InputError, match="not a judge cache"):
        _detect(data, tmp_path / "p.jsonl", Scripted({}), judge_cache=str(other))
    assert other.read_text() == '{"id": 1, "text": "mine"}\n'


def test_cli_detect_with_a_judge_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = write_dialogues(tmp_path / "d.jsonl")
    fake = Scripted(ANSWERS)
    monkeypatch.setattr(ModelSpec, "load", lambda self, quiet=False, extra=None: fake)
    judge = "openai:judge-model,api_base=http://127.0.0.1:9/v1,max_new_tokens=4"
    r = run_cli("detect", "--judge", judge, "--data", data, "--out", tmp_path / "p.jsonl", "--n-boot", "100")
    assert r.exit_code == 0, r.output
    assert (
        "consistest:v1|task:cdconv|method:judge-1[openai:judge-model@cdconv-v1,greedy-4]|v:0.1.0" in r.stdout
    )
    assert "judge decided 4 of 6 labelled dialogues (66.7%), undecided 2" in r.stdout
    assert "2-class accuracy" in r.stdout and "4-class" in r.stdout  # the intervals table
    assert "judge: 4 decided, 2 undecided" in r.stderr
    metrics = json.loads((tmp_path / "p.metrics.json").read_text())
    assert metrics["results"]["d.jsonl"]["judged"]["undecided"] == 2
    assert len((tmp_path / "p.judge.jsonl").read_text().splitlines()) == 8
    # A real backend end to end: the generic baseline never answers a label, so all is undecided.
    monkeypatch.undo()
    base = run_cli("detect", "--judge", "baseline:generic", "--data", data, "--out", tmp_path / "g.jsonl")
    assert base.exit_code == 0, base.output
    assert "method:judge-1[baseline:generic@cdconv-v1,none]" in base.stdout and "2-acc" not in base.stdout
    assert (
        "decided 0 of 6 labelled dialogues (0.0%), undecided 6 (no figures: nothing decided)" in base.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give exactly one of --detector DIR (a trained detector) or --judge SPEC"),
        (("--judge", "baseline:generic", "--detector", "models/x"), "give exactly one of --detector DIR"),
        (
            ("--detector", "models/x", "--judge-prompt", "cdconv-v1"),
            "--judge-prompt, --judge-cache and --judge-output go with",
        ),
    ],
)
def test_cli_needs_exactly_one_of_detector_and_judge(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    data = write_dialogues(tmp_path / "d.jsonl")
    r = run_cli("detect", "--data", data, *args)
    assert r.exit_code == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_choice_judge_labels_every_dialogue_from_its_label_scores(tiny_chat_dir: Path) -> None:
    from consistest.models.judging import judge_spec
    from consistest.tasks.cdconv.model_judge import JudgeDetector

    judge = JudgeDetector(judge_spec(str(tiny_chat_dir)), output="choice")
    preds = judge.predict([make_example(t, lab, persona=p) for t, lab, p in DIALOGUES[:2]])
    assert all(p.category in DETECTOR_LABELS for p in preds) and not any(p.retried for p in preds)
    assert set(json.loads(preds[0].judge_raw[0])["logprobs"]) == set(DETECTOR_LABELS)
    assert ",choice]" in judge.signature()
