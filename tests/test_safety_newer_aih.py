"""`consistest converse` and `consistest rank` on bad input: bots named twice or with misspelt keys,
run files with repeated or orphan lines, report folders; and what the plots and tables say."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from consistest.tasks.aih.config import ConverseConfig, parse_bot
from consistest.tasks.aih.converse import CONVERSATIONS_FILE, INQUIRIES_FILE, run_converse
from tests.aih_fixtures import OverlapNLI, write_personas
from tests.helpers import run_cli

pytest.importorskip("numpy")
pytest.importorskip("spacy")

BOTS = ("zero=baseline:persona-bot:0", "high=baseline:persona-bot:0.5")


def _one_line(stderr: str) -> bool:
    return stderr.startswith("consistest: error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("aih")
    cfg = ConverseConfig(bots=tuple(parse_bot(b) for b in BOTS), out=root / "run",
                         dialogues=write_personas(root / "personas.json"), conversations=6, turns=4,
                         quiet=True)  # fmt: skip
    return run_converse(cfg, nli=OverlapNLI())


@pytest.fixture()
def copy(run_dir: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(run_dir, tmp_path / "run", ignore=shutil.ignore_patterns("rank", ".lock")))


def _converse(tmp_path: Path, *bots: str):
    args = [x for b in bots for x in ("--bot", b)]
    return run_cli("converse", *args, "--no-persona", "--conversations", "1", "--turns", "2", "--nli", "none",
                   "--out", tmp_path / "run", "-q")  # fmt: skip


def test_a_bots_file_naming_a_bot_twice_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "bots.yaml"
    f.write_text("bots:\n  a: baseline:persona-bot:0\n  b: baseline:generic\n  a: baseline:persona-bot:0.5\n")
    r = run_cli("converse", "--bots", f, "--no-persona", "--nli", "none", "--out", tmp_path / "run", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr)
    assert f"{f}: record line 4: 'a' appears twice" in r.stderr and not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("a=baseline:persona-bot:0,temprature=1.3", "unknown key 'temprature'"),
        ("a=openai:m,system_promt=persona", "unknown key 'system_promt'"),
        ("a=openai:m,device=cuda", "unknown key 'device'"),  # endpoints have no device
    ],
)
def test_misspelt_bot_keys_are_refused(tmp_path: Path, spec: str, message: str) -> None:
    r = _converse(tmp_path, spec, "b=baseline:generic")
    assert r.exit_code == 2 and _one_line(r.stderr) and message in r.stderr
    want = {"temprature": "temperature", "system_promt": "system_prompt"}.get(message.split("'")[1])
    assert want is None or f"did you mean {want!r}?" in r.stderr
    assert not (tmp_path / "run").exists()


def test_misspelt_keys_in_a_bots_file_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "bots.yaml"
    f.write_text("bots:\n  a: {model: 'openai:m', temprature: 1.3}\n  b: baseline:generic\n")
    r = run_cli("converse", "--bots", f, "--no-persona", "--nli", "none", "--out", tmp_path / "run", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "did you mean 'temperature'?" in r.stderr


def test_a_repeated_inquiry_line_is_refused(copy: Path) -> None:
    lines = (copy / INQUIRIES_FILE).read_text().splitlines()
    (copy / INQUIRIES_FILE).write_text("\n".join([*lines, lines[0]]) + "\n")
    r = run_cli("rank", copy, "--no-plots", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr)  # it was counted twice, with exit 0
    assert f"{copy / INQUIRIES_FILE}: record line {len(lines) + 1}: field 'id': id " in r.stderr
    assert "appears twice" in r.stderr


def test_an_inquiry_of_a_missing_conversation_is_one_line(copy: Path) -> None:
    asked = {json.loads(x)["conversation"] for x in (copy / INQUIRIES_FILE).read_text().splitlines()}
    convs = (copy / CONVERSATIONS_FILE).read_text().splitlines()
    gone = next(c for c in convs if json.loads(c)["id"] in asked)
    (copy / CONVERSATIONS_FILE).write_text("".join(c + "\n" for c in convs if c != gone))
    r = run_cli("rank", copy, "--no-plots", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "KeyError" not in r.stderr
    assert f"conversation {json.loads(gone)['id']!r} is not in {CONVERSATIONS_FILE}" in r.stderr


def test_rank_out_can_be_overwritten_but_never_the_run(copy: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    r = run_cli("rank", copy, "--out", mine, "--no-plots", "-q")
    assert r.exit_code == 2 and "--overwrite" in r.stderr and (mine / "notes.txt").is_file()
    r = run_cli("rank", copy, "--out", mine, "--no-plots", "--overwrite", "-q")
    assert r.exit_code == 0, r.stderr
    assert {p.name for p in mine.iterdir()} == {"rank.json", "rank.md"}
    r = run_cli("rank", copy, "--out", copy, "--no-plots", "--overwrite", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "holds the input" in r.stderr
    assert (copy / INQUIRIES_FILE).is_file()


def test_the_stability_curves_last_point_is_explained(run_dir: Path) -> None:
    r = run_cli("rank", run_dir, "--out", run_dir.parent / "r1", "--no-plots", "--repetitions", "20", "-q")
    assert r.exit_code == 0, r.stderr
    assert "6 (all)" in r.stdout
    assert "S = 6 (all) draws every conversation of a pair: the full data, ranked as the reference by" in (
        " ".join(r.stdout.split())
    )


@pytest.mark.slow
def test_the_darkest_heatmap_cell_has_light_text(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes

    seen: list[tuple[str, str]] = []
    text = Axes.text

    def record(self, x, y, s, *args, **kwargs):
        seen.append((s, kwargs.get("color", "black")))
        return text(self, x, y, s, *args, **kwargs)

    monkeypatch.setattr(Axes, "text", record)
    r = run_cli("rank", run_dir, "--out", tmp_path / "r", "--repetitions", "20", "--judge", "hybrid", "-q")
    assert r.exit_code == 0, r.stderr
    cells = [(float(s), c) for s, c in seen if s.replace(".", "").isdigit()]
    top = max(v for v, _ in cells)
    assert top > 0 and all(c == "white" for v, c in cells if v == top)
    assert all(c == "black" for v, c in cells if v < top / 2)
