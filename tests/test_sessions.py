"""Session builds: streams of further sessions, where questions go, the filler check, counts, the schema,
and that the default build is untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.records import QA, Dialogue, SessionSample, content_hash
from consistest.data.dataset_dir import load_samples
from consistest.tasks.consistest.assemble import AssemblyConfig
from consistest.tasks.consistest.assemble_sessions import assemble_sessions
from consistest.tasks.consistest.filler import FillerCheck
from consistest.tasks.consistest.sessions import Stream, history_place, persona_place, streams
from tests.helpers import run_cli, write_json

PERSONA = ("i have two dogs .", "i work as a nurse .")


def _dialogue(did: str, n: int, persona: tuple[str, ...] = PERSONA) -> Dialogue:
    return Dialogue(did, persona, tuple(f"{did}u{i}" for i in range(n)))


def _stream(*lengths: int) -> Stream:
    starts, utts = [], []
    for k, n in enumerate(lengths):
        starts.append(len(utts))
        utts += [f"s{k}u{i}" for i in range(n)]
    return Stream(tuple(f"d{k}" for k in range(len(lengths))), tuple(utts), tuple(starts))


def test_streams_chain_the_persona_set_by_content() -> None:
    a, b, c = (
        _dialogue("a", 4),
        _dialogue("b", 6),
        _dialogue("c", 4, ("i have two dogs", "i work as a nurse")),
    )
    odd = _dialogue("odd", 5)
    other = _dialogue("x", 4, ("i am tall .",))
    got = streams([a, b, c, odd, other])
    # a's set holds b and c (c differs only in punctuation); the odd-length dialogue is never a session
    assert set(got["a"].dialog_ids) == {"a", "b", "c"} and got["a"].dialog_ids[0] == "a"
    order = sorted(
        ["b", "c"], key=lambda o: content_hash(list(a.utterances), list({"b": b, "c": c}[o].utterances))
    )
    assert list(got["a"].dialog_ids[1:]) == order
    assert got["odd"].dialog_ids == ("odd",) and got["x"].dialog_ids == ("x",)
    assert got["a"].starts == (0, 4, 4 + len({"b": b, "c": c}[order[0]].utterances))
    # file order does not matter
    assert streams([other, odd, c, b, a])["a"] == got["a"]


@pytest.mark.parametrize(
    ("lengths", "turn", "d", "memory", "expected"),
    [
        ((16,), 5, 2, 3, (10, 16, 0, ())),  # one session: the published window
        ((15,), 5, 2, 3, (9, 15, 0, ())),  # one odd session: the published p <= n+1
        ((16, 16), 5, 2, None, (0, 16, 0, ())),  # p = 16: the end of the first session
        ((16, 16), 5, 3, None, (0, 18, 1, (16,))),  # into the second session
        ((16, 16), 5, 3, 3, (12, 18, 1, (4,))),  # memory 3 keeps the last 6 utterances
        ((16, 14), 0, 15, None, (0, 32, None, None)),  # p = 32 > 30: no session left
    ],
)
def test_history_place(lengths, turn, d, memory, expected) -> None:
    place = history_place(_stream(*lengths), turn, d, memory)
    if expected[2] is None:
        assert place is None
        return
    assert (place.start, place.stop, place.sessions, place.session_starts) == expected
    assert place.fact == 2 * turn + 1


@pytest.mark.parametrize(
    ("lengths", "d", "memory", "expected"),
    [
        ((16,), 0, None, (0, 0, 0, ())),  # cold
        ((16,), 2, None, (12, 16, 0, ())),  # the published rule: the last 4 utterances of the dialogue
        ((14, 16), 8, None, (14, 30, 1, ())),  # 16 utterances end with the second session
        ((14, 16, 16), 16, None, (14, 46, 2, (16,))),  # after whole sessions, the last 32 utterances
        ((14, 16, 16), 16, 3, (40, 46, 2, ())),
        ((14, 16), 16, None, None),
    ],
)
def test_persona_place(lengths, d, memory, expected) -> None:
    place = persona_place(_stream(*lengths), d, memory)
    if expected is None:
        assert place is None
        return
    assert (place.start, place.stop, place.sessions, place.session_starts) == expected


def test_filler_is_the_agents_utterances_of_later_sessions() -> None:
    s = _stream(4, 4, 4)
    place = history_place(s, 0, 4, None)  # fact at 1, question at p = 10
    assert place is not None and place.stop == 10
    assert place.filler(s) == [5, 7, 9]  # not the first session (the published dialogue), agents only


def _toy() -> tuple[list[Dialogue], dict[str, list[QA]], dict[str, list[QA]]]:
    a = Dialogue("a", PERSONA, ("hi", "i am ten .", "cool", "i ski .", "ok", "bye"))
    b = Dialogue("b", PERSONA, ("hello", "i am eleven .", "wow", "i ski too .", "ha", "ok ."))
    pqa = {"i have two dogs .": [QA("do you have dogs ?", "yes", "i have two dogs .", "pers", "yn")]}
    hqa = {"a": [QA("how old are you ?", "ten", "i am ten .", "hist", "wh", turn=0, dialog="a")]}
    return [a, b], pqa, hqa


def test_assemble_sessions_marks_breaks_and_counts_missing() -> None:
    dialogues, pqa, hqa = _toy()
    built = assemble_sessions(
        dialogues, pqa, hqa, AssemblyConfig(memory=None, distances=(0, 2, 4, 8), sessions=True)
    )
    by = {(s.dialog_id, s.source, s.distance): s for s in built.samples}
    h4 = by[("a", "hist", 4)]  # fact at 1, question at p = 10: four utterances into b
    assert isinstance(h4, SessionSample)
    assert h4.history == [*dialogues[0].utterances, *dialogues[1].utterances[:4], "how old are you ?"]
    assert h4.session_starts == [6] and h4.sessions == 1 and h4.fact_index == 1
    p2 = by[("a", "pers", 2)]  # the published persona rule: the last 4 utterances of the first session
    assert p2.history == [*dialogues[0].utterances[2:], "do you have dogs ?"] and p2.session_starts == []
    p4 = by[("a", "pers", 4)]  # 8 utterances end with b: the last 8 of the stream, a break inside
    assert p4.session_starts == [2] and p4.sessions == 1
    b4 = by[("b", "pers", 4)]  # b continues with a
    assert b4.history == [*dialogues[1].utterances[4:], *dialogues[0].utterances, "do you have dogs ?"]
    # d=8 would need a third session: those samples do not exist and are counted
    assert not any(s.distance == 8 for s in built.samples)
    assert built.missing["no_session_left"] == {"hist/wh/d8": 1, "pers/yn/d8": 2}
    assert built.paired == []  # no QA reaches d=8


class _FakeNLI:
    name = signature = "fake"

    def predict(self, pairs):
        return ["contradiction" if "eleven" in h else "neutral" for _, h in pairs]


def test_filler_contradictions_are_dropped_by_triples_or_guard() -> None:
    dialogues, pqa, hqa = _toy()
    cfg = AssemblyConfig(memory=None, distances=(0, 2, 4), sessions=True)
    triples = {"i am ten": (("i", "has_age", "10"),), "i am eleven": (("i", "has_age", "11"),)}
    by_triples = assemble_sessions(dialogues, pqa, hqa, cfg, FillerCheck(triples=triples, triples_name="t"))
    assert by_triples.missing["contradicted"] == {"hist/wh/d4": 1}  # b says "i am eleven ." after the fact
    assert by_triples.info["contradicted_by"] == {"triples": 1} and by_triples.info["check"] == "dnli-t"
    assert all(not (s.source == "hist" and s.distance == 4) for s in by_triples.samples)
    by_guard = assemble_sessions(dialogues, pqa, hqa, cfg, FillerCheck(guard=_FakeNLI()))  # type: ignore[arg-type]
    # the guard reads every filler utterance: the persona QA's window at d=4 holds "i am eleven ." too
    assert by_guard.missing["contradicted"] == {"hist/wh/d4": 1, "pers/yn/d4": 1}
    assert by_guard.info["check"] == "guard-fake"


def test_session_build_cli_counts_loads_and_refuses_unchecked(tmp_path: Path) -> None:
    dialogues, pqa, hqa = _toy()
    rows = {d.dialog_id: {"persona": list(d.persona), "utterances": list(d.utterances)} for d in dialogues}
    src = write_json(tmp_path / "d.json", rows)
    p = write_json(tmp_path / "p.json", {k: [qa.to_json() for qa in v] for k, v in pqa.items()})
    h = write_json(tmp_path / "h.json", {k: [qa.to_json() for qa in v] for k, v in hqa.items()})
    args = ["build", "--dialogues", src, "--persona-qas", p, "--history-qas", h, "--memory", "all"]
    refused = run_cli(*args, "--distances", "0,2,4", "--out", tmp_path / "x")
    assert refused.exit_code == 2 and "--filler-triples" in refused.stderr and not (tmp_path / "x").exists()
    bad = run_cli(*args[:-2], "--filler-unchecked", "--out", tmp_path / "y")
    assert bad.exit_code == 2 and "session builds" in bad.stderr
    r = run_cli(*args, "--distances", "0,4,8", "--filler-unchecked", "--out", tmp_path / "s", "-q")
    assert r.exit_code == 0, r.stderr
    assert "no session" in r.stdout and "distance 4:" in r.stdout and "distance 8:" not in r.stdout
    assert "mem:all|d:0,4,8|paired:no|sess:1|check:none" in r.stdout
    info = json.loads((tmp_path / "s" / "build_info.json").read_text())
    assert info["sessions"]["missing"]["no_session_left"] == {"hist/wh/d8": 1, "pers/yn/d8": 2}
    samples = load_samples(tmp_path / "s")
    assert all(isinstance(s, SessionSample) for s in samples) and any(s.session_starts for s in samples)
    from datasets import load_dataset

    ds = load_dataset(str(tmp_path / "s"), split="test")
    assert ds.features["sessions"].dtype == "int32" and ds.features["session_starts"].feature.dtype == "int32"
    assert len(ds) == len(samples) and sorted(ds["sessions"]) == sorted(s.sessions for s in samples)


@pytest.mark.slow
def test_real_session_build_and_default_unchanged(real_inputs, convai2_txt: Path, tmp_path: Path) -> None:
    args = ["--dialogues", real_inputs[0], "--persona-qas", real_inputs[1], "--history-qas", real_inputs[2]]
    default = run_cli("build", *args, "--out", tmp_path / "d", "-q")
    assert "consistest:v1|data:23b585afc02f|qa:curated|mem:3|d:0,2|paired:no|v:" in default.stdout
    assert "session" not in (tmp_path / "d" / "build_info.json").read_text()
    assert "session_starts" not in (tmp_path / "d" / "README.md").read_text()
    r = run_cli("build", *args, "--memory", "all", "--distances", "0,2,8,32", "--filler-triples", convai2_txt,
                "--out", tmp_path / "s", "-q")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    info = json.loads((tmp_path / "s" / "build_info.json").read_text())
    counts = info["counts"]
    # within the dialogue the session build asks exactly what the published build asks (d=0 is unchanged)
    assert counts["pers/wh/d0"] == 3504 and counts["hist/wh/d0"] == 1176
    assert counts["hist/wh/d2"] > 999  # continuing past the dialogue's end keeps late facts
    assert counts["hist/wh/d32"] < counts["hist/wh/d8"] < counts["hist/wh/d2"]
    assert sum(info["sessions"]["missing"]["contradicted"].values()) > 0
    assert (
        info["sessions"]["check_stats"]["fact_has_triples"] > 0.8 * info["sessions"]["check_stats"]["checked"]
    )
    paired = info["counts_paired"]
    assert len({paired[k] for k in paired if k.startswith("hist/wh/")}) == 1  # one QA set at every distance
    s = [x for x in load_samples(tmp_path / "s") if x.distance == 32 and x.source == "hist"][0]
    assert s.sessions >= 1 and s.session_starts and s.history[s.fact_index] and s.history[-1] == s.question


@pytest.fixture()
def real_inputs(
    consistest_json: Path, persona_qas_json: Path, history_qas_json: Path
) -> tuple[Path, Path, Path]:
    return consistest_json, persona_qas_json, history_qas_json
