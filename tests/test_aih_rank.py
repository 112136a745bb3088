"""AIH ranking: persona bots that contradict themselves 0%, 20% and 50% of the time are ranked in that
order by both judges, stability rises with S, and the report, plots and human-judging files work."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.tasks.aih import stats
from consistest.tasks.aih.config import ConverseConfig, parse_bot
from consistest.tasks.aih.converse import run_converse
from consistest.tasks.aih.human import agreement
from consistest.tasks.aih.outputs import RankOutputs, run_rank
from consistest.tasks.aih.rank import RankConfig, load_converse_run, rank
from tests.aih_fixtures import OverlapNLI, write_personas
from tests.helpers import run_cli

np = pytest.importorskip("numpy")
pytest.importorskip("spacy")

BOTS = ("zero=baseline:persona-bot:0", "low=baseline:persona-bot:0.2", "high=baseline:persona-bot:0.5")
TRUE_ORDER = ["zero", "low", "high"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("aih-rank")
    cfg = ConverseConfig(
        bots=tuple(parse_bot(b) for b in BOTS),
        out=root / "run",
        dialogues=write_personas(root / "personas.json"),
        conversations=12,
        turns=6,
        quiet=True,
    )
    return run_converse(cfg, nli=OverlapNLI())


@pytest.mark.slow
@pytest.mark.parametrize("judge", ["paper", "hybrid"])
def test_both_judges_recover_the_true_ranking(run_dir: Path, judge: str) -> None:
    report = rank(RankConfig(run=run_dir, judges=(judge,), n_boot=200, repetitions=300))
    j = report["judges"][judge]
    assert j["ranking"] == TRUE_ORDER
    assert j["bots"]["zero"]["C"] == 0.0
    assert 0.05 < j["bots"]["low"]["C"] < j["bots"]["high"]["C"] < 0.75
    lo, hi = j["bots"]["high"]["ci"]
    assert lo <= j["bots"]["high"]["C"] <= hi
    assert [(t["better"], t["worse"]) for t in j["tests"]] == [("zero", "low"), ("low", "high")]
    assert all(t["delta"] > 0 and t["p"] < 0.05 for t in j["tests"])


def test_stability_rises_with_the_number_of_conversations(run_dir: Path) -> None:
    report = rank(RankConfig(run=run_dir, judges=("hybrid",), grid=(1, 2, 5, 10), n_boot=0, repetitions=500))
    s = report["judges"]["hybrid"]["stability"]
    assert s["grid"] == [1, 2, 5, 10, 12]  # the full 12 per pair is always the last point
    assert s["reference"] == TRUE_ORDER and s["reference_from"] == "full data"
    assert s["share"][0] < s["share"][2] < s["share"][3] + 1e-9
    assert s["share"][0] < 0.9 and s["share"][-1] == 1.0
    assert set(s["leave_one_out"]) == set(TRUE_ORDER)
    assert all(len(v) == len(s["grid"]) for v in s["leave_one_out"].values())


def test_a_tie_in_the_full_data_is_named_not_called_unstable(tmp_path: Path) -> None:
    from consistest.tasks.aih.report import render

    bots = ("a=baseline:persona-bot:0", "b=baseline:persona-bot:0")  # never contradict: both 0%
    cfg = ConverseConfig(
        bots=tuple(parse_bot(b) for b in bots),
        out=tmp_path / "run",
        dialogues=write_personas(tmp_path / "personas.json"),
        conversations=4,
        turns=4,
        quiet=True,
    )
    report = rank(
        RankConfig(run=run_converse(cfg, nli=OverlapNLI()), judges=("hybrid",), n_boot=0, repetitions=20)
    )
    s = report["judges"]["hybrid"]["stability"]
    assert s["tied"] == [["a", "b"]] and s["share"][-1] == 0.0  # a tie is never a strict rise
    assert "the full data ties a = b" in render(report, "table")


def test_a_reversed_reference_is_almost_never_met(run_dir: Path) -> None:
    cfg = RankConfig(
        run=run_dir,
        judges=("hybrid",),
        reference=tuple(reversed(TRUE_ORDER)),
        grid=(5,),
        n_boot=0,
        repetitions=200,
    )
    s = rank(cfg)["judges"]["hybrid"]["stability"]
    assert s["reference_from"] == "--reference" and max(s["share"]) < 0.05


def test_reference_must_name_every_bot(run_dir: Path) -> None:
    with pytest.raises(InputError, match="every bot"):
        rank(RankConfig(run=run_dir, reference=("zero", "low"), n_boot=0, repetitions=10))


def test_report_counts_inquiries_per_conversation(run_dir: Path) -> None:
    report = rank(RankConfig(run=run_dir, judges=("paper",), n_boot=0, repetitions=10))
    zero = report["judges"]["paper"]["bots"]["zero"]
    assert zero["conversations"] == 24  # 12 with each of the two partners
    assert zero["inquiries_per_conversation"] == pytest.approx(zero["inquiries"] / 24)
    assert zero["contradictions_per_conversation"] == 0.0
    run = load_converse_run(run_dir)
    assert report["inquiries"] == len(run.inquiries) > 0


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        # partner a -> bot b: 1 of 4, then 1 of 2: (1 + 1) / (4 + 2) = 1/3; b -> a: 0 of 3
        ({("a", "b"): ([1, 1], [4, 2]), ("b", "a"): ([0], [3])}, [[np.nan, 1 / 3], [0.0, np.nan]]),
        ({("a", "b"): ([0, 0], [0, 0]), ("b", "a"): ([2], [2])}, [[np.nan, np.nan], [1.0, np.nan]]),
    ],
)
def test_rate_matrix_pools_conversations_of_a_pair(cells: dict, expected: list) -> None:
    arrays = {k: (np.array(c, float), np.array(n, float)) for k, (c, n) in cells.items()}
    got = stats.rate_matrix(arrays, ["a", "b"])
    np.testing.assert_allclose(got, np.array(expected), equal_nan=True)


def test_bot_rate_is_the_mean_over_partners() -> None:
    matrix = np.array([[np.nan, 0.2, 0.4], [0.0, np.nan, 0.6], [0.1, 0.4, np.nan]])
    np.testing.assert_allclose(stats.bot_rates(matrix), [0.05, 0.3, 0.5])
    np.testing.assert_allclose(stats.bot_rates(matrix, keep=[0, 1]), [0.0, 0.2])


def test_share_ranked_needs_a_strict_order() -> None:
    rates = np.array([[0.1, 0.2, 0.3], [0.1, 0.1, 0.3], [0.3, 0.2, 0.1], [0.0, np.nan, 0.2]])
    assert stats.share_ranked(rates, ["a", "b", "c"], ["a", "b", "c"]) == 0.25
    assert stats.share_ranked(rates, ["a", "b", "c"], ["c", "b", "a"]) == 0.25
    # rates equal but for float noise (1/3 summed two ways) are a tie, as in the report's "tied" list
    noisy = np.array([[0.1 + 0.2, 0.3, 0.5], [0.1, 0.1 + 1e-12, 0.5], [0.1, 0.2, 0.5]])
    assert noisy[0, 0] > noisy[0, 1] and noisy[1, 1] > noisy[1, 0]
    assert stats.share_ranked(noisy, ["a", "b", "c"], ["b", "a", "c"]) == 0.0
    assert stats.share_ranked(noisy, ["a", "b", "c"], ["a", "b", "c"]) == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    ("diffs", "p"),
    [([1.0, 2.0, 3.0], 0.0), ([-1.0, 1.0, 2.0, 3.0], 0.5), ([0.0, 0.0], 1.0), ([], None)],
)
def test_paired_p_is_two_sided(diffs: list[float], p: float | None) -> None:
    assert stats.paired_p(np.array(diffs)) == p


@pytest.mark.slow
def test_rank_cli_writes_the_report_folder(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    res = run_cli("rank", run_dir, "--out", out, "--n-boot", "100", "--repetitions", "50", "-q")
    assert res.exit_code == 0, res.stderr
    assert "zero > low > high" in res.stdout and "consistest:v1|aih:1|" in res.stdout
    assert "judges:paper,hybrid|tau:0.15|" in res.stdout
    assert {p.name for p in out.iterdir()} == {"rank.json", "rank.md", "cij.png", "stability.png"}
    assert (out / "cij.png").read_bytes()[:4] == b"\x89PNG"
    assert json.loads((out / "rank.json").read_text())["judges"]["paper"]["ranking"] == TRUE_ORDER
    md = (out / "rank.md").read_text()
    assert md.count("| --- |") >= 4 and "## judge paper" in md
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    res = run_cli("rank", run_dir, "--out", other, "--no-plots", "-q")
    assert res.exit_code == 2 and (other / "notes.txt").read_text() == "mine"


def test_rank_cli_refuses_what_is_not_a_run(tmp_path: Path) -> None:
    res = run_cli("rank", tmp_path, "-q")
    assert res.exit_code == 2 and "not a consistest converse run" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_json_format_and_other_tau(run_dir: Path, tmp_path: Path) -> None:
    res = run_cli(
        "rank",
        run_dir,
        "--format",
        "json",
        "--tau",
        "0.9",
        "--no-plots",
        "--out",
        tmp_path / "r",
        "--n-boot",
        "0",
        "--repetitions",
        "20",
        "-q",
    )
    report = json.loads(res.stdout)
    assert "tau:0.9" in report["signature"]
    assert report["judges"]["paper"]["bots"]["zero"]["C"] == 0.0  # P(contradiction) is 0.8 at most


@pytest.mark.slow
def test_export_then_judged_gives_agreement(run_dir: Path, tmp_path: Path) -> None:
    export = tmp_path / "label-me.csv"
    res = run_cli(
        "rank",
        run_dir,
        "--export-for-judges",
        export,
        "--no-plots",
        "--out",
        tmp_path / "r1",
        "--n-boot",
        "0",
        "--repetitions",
        "10",
        "-q",
    )
    assert res.exit_code == 0, res.stderr
    rows = list(csv.DictReader(export.open()))
    assert list(rows[0]) == ["id", "utterance", "question", "answer", "label"]
    assert all("high" not in r["id"] and r["label"] == "" for r in rows)
    # people label by the answer's numbers and names: a consistent answer repeats the utterance's words
    by_text = {(q["utterance"], q["question"], q["answer"]): q for q in load_converse_run(run_dir).inquiries}
    for r in rows:
        q = by_text[(r["utterance"], r["question"], r["answer"])]
        r["label"] = "contradiction" if q["ours_score"] == 0 else "consistent"
    with (tmp_path / "labelled.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    res = run_cli(
        "rank",
        run_dir,
        "--judged",
        tmp_path / "labelled.csv",
        "--no-plots",
        "--out",
        tmp_path / "r2",
        "--n-boot",
        "0",
        "--repetitions",
        "10",
        "--format",
        "json",
        "-q",
    )
    human = json.loads(res.stdout)["human"]
    assert human["labelled"] == len(rows)
    ours = next(a for a in human["agreement"] if a["judge"].startswith("hybrid"))
    assert ours["f1"] == 1.0 and ours["pearson"] == pytest.approx(1.0)
    assert human["by_bot"]["zero"]["human"] == 0.0
    again = run_cli(
        "rank", run_dir, "--export-for-judges", export, "--no-plots", "--out", tmp_path / "r3", "-q"
    )
    assert again.exit_code == 2 and "may hold labels" in again.stderr


def test_agreement_figures_by_hand() -> None:
    def inquiry(i: int, p_c: float, score: float) -> dict:
        return {"id": f"q{i}", "bot": "b", "nli": {"contradiction": p_c}, "ours_score": score}

    inquiries = [inquiry(0, 0.9, 0.0), inquiry(1, 0.2, 1.0), inquiry(2, 0.12, 1.0), inquiry(3, 0.05, 0.0)]
    labels = {"q0": 1, "q1": 0, "q2": 0, "q3": 1}
    out = agreement(inquiries, labels, taus=(0.1, 0.5), tau=0.15)
    by = {a["judge"]: a for a in out["agreement"]}
    # tau 0.1: predicted contradictions q0, q1, q2 -> tp 1, fp 2, fn 1: precision 1/3, recall 1/2, F1 0.4
    assert by["paper tau=0.1"]["f1"] == pytest.approx(0.4)
    # tau 0.5: q0 only -> precision 1, recall 1/2, F1 2/3; Pearson of (1,0,0,0) with (1,0,0,1) = 1/sqrt(3)
    assert by["paper tau=0.5"]["f1"] == pytest.approx(2 / 3)
    assert by["paper tau=0.5"]["pearson"] == pytest.approx(3**-0.5)
    assert by["hybrid (score < 0.5)"]["f1"] == 1.0
    assert out["human_rate"] == 0.5 and out["by_bot"]["b"]["paper tau=0.15"] == 0.5


def test_run_rank_without_output_folder_writes_nothing(run_dir: Path, tmp_path: Path) -> None:
    report = run_rank(RankConfig(run=run_dir, n_boot=0, repetitions=10), RankOutputs(out=None, quiet=True))
    assert report["judges"]["hybrid"]["ranking"] == TRUE_ORDER
    assert not (run_dir / "rank").exists()
