"""Renamed options and values: the old name still works for one release, gives the same result, and says
once on stderr what to use instead; giving the old and the new name together is an error."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from consistest.cli.deprecation import AliasedChoice, deprecated_alias, deprecation_line
from tests.aih_fixtures import write_personas
from tests.helpers import run_cli

DECODE_STYLE = Path(__file__).parent / "data" / "decode_style.jsonl"


def _deprecations(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "is deprecated; use" in line]


@click.command()
@deprecated_alias("--old", "--new")
@click.option("--new", "value", type=int, default=7)
@deprecated_alias("--loud", "--on")
@click.option("--on", is_flag=True)
@click.option("--pick", type=AliasedChoice(["a", "b"], {"x": "b"}, "--pick"), default="a")
def toy(value: int, on: bool, pick: str) -> None:
    click.echo(f"{value} {on} {pick}")


@pytest.mark.parametrize(
    ("args", "out", "warned"),
    [
        ([], "7 False a", []),
        (["--new", "3"], "3 False a", []),
        (["--old", "3"], "3 False a", [deprecation_line("--old", "--new")]),
        (["--loud"], "7 True a", [deprecation_line("--loud", "--on")]),
        (["--pick", "b"], "7 False b", []),
        (["--pick", "x"], "7 False b", [deprecation_line("--pick x", "--pick b")]),
    ],
)
def test_the_helpers_map_old_names_to_new_with_one_line(args: list[str], out: str, warned: list[str]) -> None:
    res = CliRunner().invoke(toy, args)
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == out and _deprecations(res.stderr) == warned


def test_old_names_are_hidden_and_both_names_at_once_refused() -> None:
    help_text = CliRunner().invoke(toy, ["--help"]).stdout
    assert "--new" in help_text and "--old" not in help_text and "--loud" not in help_text
    assert "[a|b]" in help_text and "x" not in help_text.split("--pick")[1].split("\n")[0]
    res = CliRunner().invoke(toy, ["--old", "1", "--new", "2"])
    assert res.exit_code == 2 and "give --new only" in res.stderr


def test_build_format_is_data_format(tmp_path: Path) -> None:
    old = run_cli("build", "--demo", "--format", "jsonl", "--out", tmp_path / "old", "-q")
    new = run_cli("build", "--demo", "--data-format", "jsonl", "--out", tmp_path / "new", "-q")
    assert old.exit_code == new.exit_code == 0 and old.stdout == new.stdout
    assert _deprecations(old.stderr) == [deprecation_line("--format", "--data-format")]
    assert not _deprecations(new.stderr)
    for d in ("old", "new"):
        assert sorted(p.suffix for p in (tmp_path / d / "data").iterdir()) == [".jsonl"]


def test_compare_seed_and_force_are_boot_seed_and_allow_different_data(tmp_path: Path) -> None:
    runs = []
    for name, extra in (("a", []), ("b", ["--memory", "2", "--distances", "0,1"])):
        assert run_cli("build", "--demo", *extra, "--out", tmp_path / f"ds-{name}", "-q").exit_code == 0
        score = ["score", "--dataset", tmp_path / f"ds-{name}", "--model", "baseline:oracle", "--nli", "none"]
        assert run_cli(*score, "--out", tmp_path / name, "-q").exit_code == 0
        runs.append(tmp_path / name)
    old = run_cli("compare", *runs, "--seed", "3", "--force", "--n-boot", "200")
    new = run_cli("compare", *runs, "--boot-seed", "3", "--allow-different-data", "--n-boot", "200")
    assert old.exit_code == new.exit_code == 0 and old.stdout == new.stdout
    assert _deprecations(old.stderr) == [
        deprecation_line("--seed", "--boot-seed"),
        deprecation_line("--force", "--allow-different-data"),
    ]
    assert not _deprecations(new.stderr)
    refused = run_cli("compare", *runs)
    assert refused.exit_code == 2 and "--allow-different-data" in refused.stderr


@pytest.mark.parametrize("flag", ["--method", "--architecture"])
def test_train_detector_method_is_architecture(flag: str, tmp_path: Path) -> None:
    """The value reaches the config under either name: nli-pairs without a guard is refused as such."""
    res = run_cli("train-detector", flag, "nli-pairs", "--data", DECODE_STYLE, "--out", tmp_path / "d")
    assert res.exit_code == 2 and "nli-pairs needs the guard" in res.stderr
    expected = [deprecation_line("--method", "--architecture")] if flag == "--method" else []
    assert _deprecations(res.stderr) == expected


def test_rank_judge_ours_is_hybrid_and_seed_is_boot_seed(tmp_path: Path) -> None:
    run = tmp_path / "run"
    res = run_cli("converse", "--bot", "a=baseline:persona-bot:0", "--bot", "b=baseline:persona-bot:1",
                  "--dialogues", write_personas(tmp_path / "p.json"), "--conversations", "2", "--turns", "3",
                  "--nli", "none", "--out", run, "-q")  # fmt: skip
    assert res.exit_code == 0, res.stderr
    common = ["rank", run, "--n-boot", "200", "--repetitions", "20", "--no-plots", "--format", "json"]
    old = run_cli(*common, "--judge", "ours", "--seed", "2", "--out", tmp_path / "old")
    new = run_cli(*common, "--judge", "hybrid", "--boot-seed", "2", "--out", tmp_path / "new")
    assert old.exit_code == new.exit_code == 0, old.stderr + new.stderr
    assert old.stdout == new.stdout and "judges:hybrid|" in new.stdout
    assert json.loads(new.stdout)["judges"]["hybrid"]["inquiries"] > 0
    assert sorted(_deprecations(old.stderr)) == sorted(
        [deprecation_line("--judge ours", "--judge hybrid"), deprecation_line("--seed", "--boot-seed")]
    )
    assert not _deprecations(new.stderr)


def test_eval_nli_seed_is_boot_seed(tmp_path: Path) -> None:
    missing = tmp_path / "none.jsonl"
    old = run_cli("eval-nli", "--nli", "none", "--pairs", missing, "--seed", "1")
    new = run_cli("eval-nli", "--nli", "none", "--pairs", missing, "--boot-seed", "1")
    assert _deprecations(old.stderr) == [deprecation_line("--seed", "--boot-seed")]
    assert not _deprecations(new.stderr) and old.exit_code == new.exit_code != 0


def test_old_stored_names_still_read(tmp_path: Path) -> None:
    """A detector.json written before the rename says ``method``; RankConfig takes the judge ``ours``."""
    from consistest.tasks.aih.rank import RankConfig
    from consistest.tasks.cdconv.detector import Detector, architecture_of

    (tmp_path / "pair").mkdir()
    (tmp_path / "pair" / "config.json").write_text("{}")
    old_info = {"method": "pair", "max_length": 48, "signature": "s"}
    (tmp_path / "detector.json").write_text(json.dumps(old_info))
    assert architecture_of(Detector.read_info(tmp_path)) == "pair"
    assert architecture_of({"architecture": "flatten"}) == "flatten" and architecture_of({}) is None
    assert RankConfig(run=tmp_path, judges=("paper", "ours")).judges == ("paper", "hybrid")
