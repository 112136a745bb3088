"""Session breaks as models see them (chat messages, transcript), their signature, and the distance curve
of score reports and compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.io import atomic_write_json
from consistest.core.records import Conversation, ScoredItem, SessionSample, Turn
from consistest.data.dataset_dir import samples_hash, write_samples
from consistest.models.decoding import Decoding
from consistest.models.registry import ModelSpec
from consistest.models.rendering import chat_messages, session_prompt_tag, transcript_text
from consistest.tasks.consistest.generation import RespondConfig
from consistest.tasks.consistest.prompts import conversation, removed_turn_starts
from consistest.tasks.consistest.report import distance_curve, summarize
from tests.helpers import run_cli

TURNS = (Turn("user", "hi"), Turn("assistant", "i ski ."), Turn("user", "hello again"), Turn("user", "q ?"))


def test_chat_messages_open_a_new_session_with_a_note() -> None:
    plain = chat_messages(Conversation(("i ski .",), TURNS))
    broken = chat_messages(Conversation(("i ski .",), TURNS, session_starts=(2,)))
    assert [m["content"] for m in plain][1:] == ["hi", "i ski .", "hello again", "q ?"]
    assert broken[3]["content"] == "[A new chat, some days later.]\nhello again"
    assert [m for k, m in enumerate(broken) if k != 3] == [m for k, m in enumerate(plain) if k != 3]


def test_transcript_puts_a_note_line_between_sessions() -> None:
    plain = transcript_text(Conversation(("i ski .",), TURNS))
    broken = transcript_text(Conversation(("i ski .",), TURNS, session_starts=(2,)))
    assert broken.splitlines()[4] == "(Some days later, a new chat.)"
    assert broken.replace("(Some days later, a new chat.)\n", "") == plain


@pytest.mark.parametrize(
    ("tag", "expected"),
    [("chat-persona-v1", "chat-persona-v1+sessions-v1"), ("transcript-v1", "transcript-v1+sessions-v1"),
     ("speakers", "speakers"), (None, None)],
)  # fmt: skip
def test_session_prompt_tag(tag, expected) -> None:
    assert session_prompt_tag(tag) == expected


def test_respond_signature_names_the_session_rendering() -> None:
    cfg = RespondConfig(ModelSpec("hf:m", Decoding(), {"chat_template": True}))
    assert ("prompt", "chat-persona-v1") in cfg.signature_parts()
    assert ("prompt", "chat-persona-v1+sessions-v1") in cfg.signature_parts(sessions=True)


def _session_sample(**kw) -> SessionSample:
    base = dict(
        id="s", qa_id="q", dialog_id="d", persona=["i ski ."], history=["a", "i ski .", "b", "c", "q ?"],
        question="q ?", answer="yes", fact="i ski .", nli_premise="i ski .", source="hist", type="yn",
        distance=1, turn=0, fact_index=1, sessions=1, session_starts=[2],
    )  # fmt: skip
    return SessionSample(**{**base, **kw})  # type: ignore[arg-type]


def test_conversation_carries_session_starts_through_variants() -> None:
    s = _session_sample()
    assert conversation(s).session_starts == (2,)
    # the fact's turn removed: the break moves up with the turns after it
    assert conversation(s, "persona-fact-history").session_starts == (1,)
    assert conversation(s, "fact-question").session_starts == ()


@pytest.mark.parametrize(
    ("starts", "removed", "expected"),
    [((2,), 1, (1,)), ((2,), 2, (2,)), ((2,), 3, (2,)), ((1, 4), 0, (3,)), ((1,), 1, (1,))],
)
def test_removed_turn_starts(starts, removed, expected) -> None:
    assert removed_turn_starts(starts, removed) == expected


def _item(qa: str, d: int, score: float, source: str = "pers", qtype: str = "yn") -> ScoredItem:
    return ScoredItem(
        id=f"{qa}d{d}", qa_id=qa, question="q ?", truth="yes", response="yes", cleaned="yes", outcome="x",
        rule_score=score, nli_use="none", nli_label=None, score=score, source=source, type=qtype, distance=d,
    )  # fmt: skip


def test_distance_curve_means_and_paired_subset() -> None:
    rows = [_item("a", 0, 1), _item("a", 8, 0), _item("b", 0, 1), _item("b", 8, 1), _item("c", 0, 0)]
    rows += [_item("h", 0, 1, "hist", "wh"), _item("h", 8, 0, "hist", "wh")]
    c = distance_curve(rows, n_boot=200)
    assert c["distances"] == [0, 8] and c["paired_qas"] == 3
    assert [f["mean"] for f in c["groups"]["persona_yn"]["all"]] == [2 / 3, 1 / 2]
    assert [f["mean"] for f in c["groups"]["persona_yn"]["paired"]] == [1.0, 1 / 2]  # c has no d=8
    assert [f["n"] for f in c["groups"]["history_wh"]["all"]] == [1, 1]
    assert "persona_wh" not in c["groups"]
    # 4 items from 4 QAs: below the interval rule (core.stats.enough_for_interval), so no interval
    assert c["groups"]["overall"]["all"][0]["n"] == 4 and c["groups"]["overall"]["all"][0]["ci"] is None
    many = [_item(f"q{i}", d, float((i + d) % 3 > 0)) for i in range(40) for d in (0, 8)]
    assert distance_curve(many, n_boot=200)["groups"]["overall"]["all"][0]["ci"] is not None
    change = c["groups"]["persona_yn"]["change"]  # a: 1 -> 0, b: 1 -> 1 (c has no d=8)
    assert (change["from"], change["to"], change["n"], change["delta"]) == (0, 8, 2, -0.5)


def test_summary_has_a_curve_from_three_distances() -> None:
    two = [_item("a", d, 1) for d in (0, 2)]
    three = [_item("a", d, 1) for d in (0, 2, 8)]
    assert "curve" not in summarize(two, signature="s", n_boot=0)
    assert "curve" in summarize(two, signature="s", n_boot=0, curve=True)
    assert "curve" in summarize(three, signature="s", n_boot=0)
    assert "curve" not in summarize(three, signature="s", n_boot=0, curve=False)


def _dataset(tmp_path: Path) -> Path:
    samples = [_session_sample(id=f"{q}{d}", qa_id=q, distance=d, answer=a, question=f"{q} ?",
                               history=["a", "i ski .", f"{q} ?"], session_starts=[] if d < 4 else [1])
               for q, a in (("p", "yes"), ("r", "no")) for d in (0, 4, 8)]  # fmt: skip
    out = tmp_path / "ds"
    write_samples(out, samples, "jsonl")
    info = {"content_hash": samples_hash(samples), "settings": {"memory": "all", "distances": [0, 4, 8]}}
    atomic_write_json(out / "build_info.json", info)
    return out


@pytest.mark.slow
def test_score_draws_the_curve_and_compare_plots_runs(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    ds = _dataset(tmp_path)
    for name, text in (("yes", "yes , i do ."), ("no", "no , i don't .")):
        responses = tmp_path / f"{name}.jsonl"
        responses.write_text("".join(json.dumps({"id": f"{q}{d}", "response": text}) + "\n"
                                     for q in "pr" for d in (0, 4, 8)))  # fmt: skip
        r = run_cli("score", "--dataset", ds, "--responses", responses, "--nli", "none", "--out",
                    tmp_path / name, "-q")  # fmt: skip
        assert r.exit_code == 0, r.stderr
        assert "consistency against distance, all items" in r.stdout
        assert (tmp_path / name / "curve.png").read_bytes()[:4] == b"\x89PNG"
        summary = json.loads((tmp_path / name / "summary.json").read_text())
        assert summary["curve"]["distances"] == [0, 4, 8]
    none = run_cli("score", "--dataset", ds, "--responses", tmp_path / "yes.jsonl", "--nli", "none", "--out",
                   tmp_path / "np", "--no-plot", "-q")  # fmt: skip
    assert none.exit_code == 0 and not (tmp_path / "np" / "curve.png").exists()
    plot = tmp_path / "cmp.png"
    r = run_cli("compare", tmp_path / "yes", tmp_path / "no", "--plot", plot, "--n-boot", "100")
    assert r.exit_code == 0, r.stderr
    assert plot.read_bytes()[:4] == b"\x89PNG" and "drawn to" in r.stderr
