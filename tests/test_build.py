"""Assembly rules, exact counts on the real files, determinism, dataset loading and bad input via the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from consistest.core.records import QA, Dialogue
from consistest.data.dataset_dir import load_samples
from consistest.data.dialogues import read_dialogues
from consistest.data.qa_files import read_history_qas, read_persona_qas
from consistest.tasks.consistest.assemble import AssemblyConfig, assemble, history_window, persona_history
from consistest.tasks.consistest.build import BuildConfig, build_dataset
from tests.helpers import run_cli, write_json

EXPECTED = {
    "pers/wh/d0": 3504,
    "pers/wh/d2": 3504,
    "pers/yn/d0": 4040,
    "pers/yn/d2": 4040,
    "hist/wh/d0": 1176,
    "hist/wh/d2": 999,
    "hist/yn/d0": 191,
    "hist/yn/d2": 158,
    "hist_ext/wh/d0": 369,
    "hist_ext/wh/d2": 276,
    "hist_ext/yn/d0": 217,
    "hist_ext/yn/d2": 161,
}


@pytest.mark.parametrize(
    ("n", "turn", "distance", "window"),
    [
        (16, 0, 0, (0, 2)),  # fact in utterance 1, question right after it
        (16, 0, 2, (0, 6)),
        (16, 5, 0, (6, 12)),  # keep only the last 2M = 6 utterances
        (16, 5, 2, (10, 16)),  # p = 16 = n: the last turn still fits
        (16, 6, 2, None),  # p = 18 > n + 1
        (15, 5, 2, (9, 15)),  # odd length: p = 16 = n + 1 is allowed, keeps the last 6
        (15, 6, 0, (8, 14)),
    ],
)
def test_history_window(n: int, turn: int, distance: int, window: tuple[int, int] | None) -> None:
    assert history_window(n, turn, distance, memory=3) == window


def test_persona_history() -> None:
    utts = [f"u{i}" for i in range(8)]
    assert persona_history(utts, "q ?", 0) == ["q ?"]
    assert persona_history(utts, "q ?", 2) == ["u4", "u5", "u6", "u7", "q ?"]


def _toy() -> tuple[list[Dialogue], dict[str, list[QA]], dict[str, list[QA]]]:
    d = Dialogue("d", ("i ski .", "i am tall ."), tuple(f"u{i}" for i in range(8)))
    pqa = {"i ski .": [QA("do you ski ?", "yes", "i ski .", "pers", "yn")]}
    hqa = {
        "d": [
            QA("how old ?", "ten", "u3", "hist", "wh", turn=1, dialog="d", alt_c="i am ten ."),
            QA("pets ?", "no", "u7", "hist_ext", "yn", turn=3, dialog="d"),
        ]
    }
    return [d], pqa, hqa


def test_assembly_order_ids_and_alt_c() -> None:
    samples = assemble(*_toy())
    assert [(s.source, s.distance) for s in samples] == [
        ("pers", 0),
        ("pers", 2),
        ("hist", 0),
        ("hist", 2),
        ("hist_ext", 0),
    ]
    pers0, pers2, hist0, hist2, ext0 = samples
    assert pers0.qa_id == pers2.qa_id and pers0.id != pers2.id
    assert hist0.nli_premise == "i am ten ." and hist0.fact == "u3"
    assert ext0.nli_premise == "u7"  # no alt_c: the fact itself
    assert hist0.history == ["u0", "u1", "u2", "u3", "how old ?"] and hist0.fact_index == 3
    assert hist2.history == ["u2", "u3", "u4", "u5", "u6", "u7", "how old ?"] and hist2.fact_index == 1
    assert ext0.turn == 3 and pers0.turn == -1 and pers0.fact_index == -1
    paired = assemble(*_toy(), AssemblyConfig(paired=True))
    assert [s.source for s in paired] == ["pers", "pers", "hist", "hist"]


def test_turn_beyond_dialogue_is_an_error() -> None:
    dialogues, pqa, _ = _toy()
    hqa = {"d": [QA("q ?", "x", "c", "hist", "wh", turn=4, dialog="d")]}
    with pytest.raises(Exception, match=r"record dialog d: 'q \?': field 'turn': turn 4 is beyond"):
        assemble(dialogues, pqa, hqa, history_path="h.json")


@pytest.fixture(scope="module")
def real_inputs(
    consistest_json: Path, persona_qas_json: Path, history_qas_json: Path
) -> tuple[Path, Path, Path]:
    return consistest_json, persona_qas_json, history_qas_json


@pytest.mark.slow
def test_exact_counts_on_the_published_files(real_inputs: tuple[Path, Path, Path]) -> None:
    dialogues = read_dialogues(real_inputs[0])
    pqa, hqa = read_persona_qas(real_inputs[1]), read_history_qas(real_inputs[2])
    samples = assemble(dialogues, pqa, hqa)
    from consistest.tasks.consistest.assemble import count_samples

    assert len(samples) == 18_635 and count_samples(samples) == EXPECTED
    assert len({s.id for s in samples}) == 18_635
    assert len(assemble(dialogues, pqa, hqa, AssemblyConfig(paired=True))) == 18_276


@pytest.mark.slow
def test_cli_build_is_deterministic_and_loads_with_datasets(real_inputs, tmp_path: Path) -> None:
    args = [
        "--dialogues",
        real_inputs[0],
        "--persona-qas",
        real_inputs[1],
        "--history-qas",
        real_inputs[2],
        "-q",
    ]
    r1 = run_cli("build", *args, "--out", tmp_path / "a")
    r2 = run_cli("build", *args, "--out", tmp_path / "b")
    assert r2.exit_code == 0 and r2.stdout == r1.stdout
    assert r1.exit_code == 0 and "18,635" in r1.stdout and "consistest:v1|data:" in r1.stdout
    for name in ("data/test.parquet", "README.md", "build_info.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    info = json.loads((tmp_path / "a" / "build_info.json").read_text())
    assert info["counts"] == {"total": 18_635, **EXPECTED} and info["counts_paired"]["total"] == 18_276
    from datasets import load_dataset

    ds = load_dataset(str(tmp_path / "a"), split="test")
    assert len(ds) == 18_635
    assert ds.features["distance"].dtype == "int32" and ds.features["persona"].feature.dtype == "string"
    assert ds[0]["history"][-1] == ds[0]["question"]


def test_demo_build_jsonl_roundtrip(tmp_path: Path) -> None:
    r = run_cli("build", "--demo", "--format", "jsonl", "--out", tmp_path / "demo", "-q")
    assert r.exit_code == 0, r.output
    samples = load_samples(tmp_path / "demo")
    result = build_dataset(BuildConfig(out=tmp_path / "demo2", demo=True, fmt="jsonl", quiet=True))
    assert [s.to_dict() for s in samples] == [s.to_dict() for s in result.samples]
    card = (tmp_path / "demo" / "README.md").read_text()
    assert card.startswith("---\n") and "split: test" in card and "path: data/test.jsonl" in card


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, Path, Path, str]]:
    good_d = write_json(
        tmp_path / "d.json", {"0": {"persona": ["i ski ."], "utterances": ["hi", "hello", "a", "b"]}}
    )
    good_p = write_json(
        tmp_path / "p.json", {"i ski .": [{"q": "do you ski ?", "a": "yes", "type": "yn", "c": "i ski ."}]}
    )
    good_h = write_json(tmp_path / "h.json", {"0": []})
    trunc = tmp_path / "trunc.json"
    trunc.write_text('{"0": {"persona": ["i ski')
    empty = tmp_path / "empty.json"
    empty.write_text("")
    nopers = write_json(tmp_path / "nop.json", {"0": {"persona": [], "utterances": ["hi"]}})
    noq = write_json(tmp_path / "noq.json", {"i ski .": [{"a": "yes", "type": "yn", "c": "i ski ."}]})
    badtype = write_json(
        tmp_path / "bt.json", {"0": [{"q": "q ?", "a": "x", "type": "how", "c": "c", "turn": 0}]}
    )
    farturn = write_json(
        tmp_path / "ft.json", {"0": [{"q": "q ?", "a": "x", "type": "wh", "c": "c", "turn": 2}]}
    )
    return {
        "truncated": (trunc, good_p, good_h, "trunc.json: invalid JSON"),
        "empty": (empty, good_p, good_h, "empty.json: file is empty"),
        "no persona": (nopers, good_p, good_h, "nop.json: record 0: field 'persona'"),
        "missing q": (good_d, noq, good_h, "noq.json: record 'i ski .'[0]: field 'q'"),
        "unknown type": (good_d, good_p, badtype, "bt.json: record 0[0]: field 'type'"),
        "turn beyond": (good_d, good_p, farturn, "ft.json: record dialog 0: 'q ?': field 'turn'"),
        "unreadable": (tmp_path / "missing.json", good_p, good_h, "missing.json: no such file"),
    }


@pytest.mark.parametrize(
    "case", ["truncated", "empty", "no persona", "missing q", "unknown type", "turn beyond", "unreadable"]
)
def test_bad_input_exits_2_and_leaves_out_untouched(tmp_path: Path, case: str) -> None:
    d, p, h, expected = _bad_inputs(tmp_path)[case]
    out = tmp_path / "out"
    out.mkdir()
    (out / "build_info.json").write_text("{}")  # an earlier build, which a failed build must keep
    (out / "keep.txt").write_text("old build")
    r = run_cli("build", "--dialogues", d, "--persona-qas", p, "--history-qas", h, "--out", out, "-q")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and expected in r.stderr and r.stderr.startswith("consistest: error: ")
    assert sorted(x.name for x in out.iterdir()) == ["build_info.json", "keep.txt"]
    assert not [x for x in tmp_path.iterdir() if x.name.startswith(".out.")]  # no temp dir left behind


def test_default_inputs_offline_fail_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.request

    def offline(*a, **k):
        raise OSError("network is unreachable")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    r = run_cli("build", "--raw-dir", tmp_path / "raw", "--out", tmp_path / "out", "-q")
    assert r.exit_code == 2
    assert "raw/consistest_valid.json: missing, and download from https://" in r.stderr
    assert "data/raw/README.md" in r.stderr and not (tmp_path / "out").exists()


@pytest.mark.slow
def test_default_inputs_found_in_raw_dir(real_inputs, tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    for src, name in zip(
        real_inputs, ("consistest_valid.json", "persona_qas.json", "history_qas.json"), strict=True
    ):
        shutil.copy(src, raw / name)  # a temp copy, never committed
    r = run_cli("build", "--raw-dir", raw, "--out", tmp_path / "out", "--paired", "-q")
    assert r.exit_code == 0 and "18,276" in r.stdout
    assert len(load_samples(tmp_path / "out")) == 18_276


@pytest.mark.slow
def test_build_from_dialogues_alone_generates_qas(consistest_json: Path, tmp_path: Path) -> None:
    data = json.loads(consistest_json.read_text())
    excerpt = write_json(tmp_path / "twenty.json", {k: data[k] for k in list(data)[:20]})
    out = tmp_path / "gen"
    r = run_cli("build", "--dialogues", excerpt, "--wh-generator", "rules", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    info = json.loads((out / "build_info.json").read_text())
    assert info["qa_origin"].startswith("qagen-") and "-rules-s0" in info["signature"]
    assert info["qagen"]["wh_generator"] == "rules" and sum(info["qagen"]["counts"].values()) > 0
    # The generated QAs are written in the curated layout and assemble to the same samples again.
    rebuilt = build_dataset(
        BuildConfig(out=tmp_path / "again", dialogues=excerpt, persona_qas=out / "persona_qas.json",
                    history_qas=out / "history_qas.json", quiet=True)
    )  # fmt: skip
    assert [s.id for s in rebuilt.samples] == [s.id for s in load_samples(out)]
    assert {s.generator for s in rebuilt.samples} <= {"rules", "extract", "neural"}
