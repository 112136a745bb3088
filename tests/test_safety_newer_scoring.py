"""`consistest score/compare` on the newer surfaces: honest reports (decided n, no interval or p-value on
a handful of items, warnings), replies for a subset, rescoring another way, huge replies, the offline
guard's error, a full disk; and the small `build`/help items."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from consistest.core import io as cio
from consistest.data.dataset_dir import load_samples
from consistest.metrics.rules import judge
from tests.helpers import run_cli


def _one_line(stderr: str) -> bool:
    return stderr.startswith("consistest: error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "demo"
    assert run_cli("build", "--demo", "--out", out, "-q").exit_code == 0
    return out


def _oracle(demo: Path) -> dict[str, str]:
    """Right answers: yes/no then the fact for Y/N, the truth for WH."""
    return {s.id: (f"{s.answer} ." if s.type == "yn" else s.answer.split("|")[0]) for s in load_samples(demo)}


def _write(path: Path, replies: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in replies.items()))
    return path


def _score(demo: Path, responses: Path, out: Path, *extra: str):
    return run_cli(
        "score", "--dataset", demo, "--responses", responses, "--nli", "none", "--out", out, *extra
    )


def _rows(output: str) -> dict[str, list[str]]:
    """The score table's rows by label: [score, ci, n, undecided]."""
    rows = {}
    for line in output.splitlines()[1:]:
        if not line.strip():
            break
        label, *cells = [c for c in line.split("  ") if c.strip()]
        rows[label.strip()] = [c.strip() for c in cells]
    return rows


# ---------------------------------------------------------------- reports
def test_n_is_the_decided_count_and_mostly_undecided_figures_are_warned(demo: Path, tmp_path: Path) -> None:
    samples, good = load_samples(demo), _oracle(demo)
    replies = {s.id: ("maybe i ." if s.type == "yn" else good[s.id]) for s in samples}
    # paper leaves Y/N replies without a yes/no word undecided without NLI (plus reads them: evasive, 0)
    r = _score(demo, _write(tmp_path / "r.jsonl", replies), tmp_path / "run", "--method", "paper", "-q")
    assert r.exit_code == 0, r.stderr
    rows = _rows(r.output)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    yn = summary["figures"]["persona_yn"]
    assert yn["decided"] == 0 and rows["Persona Y/N"][2:] == ["0", str(yn["undecided"])]
    overall = summary["figures"]["overall"]
    assert rows["Overall"][2] == str(overall["decided"]) and overall["decided"] < overall["n"]
    assert "warning: most items are undecided in Persona Y/N (0 of 12 decided)" in r.output
    assert "README section 'An offline NLI guard'" in r.output
    assert "n: the decided items each score is a mean over" in r.output


def test_no_interval_on_a_handful_of_items(demo: Path, tmp_path: Path) -> None:
    from consistest.core.stats import MIN_CLUSTERS, MIN_ITEMS

    r = _score(demo, _write(tmp_path / "r.jsonl", _oracle(demo)), tmp_path / "run", "-q")
    assert r.exit_code == 0, r.stderr
    figs = json.loads((tmp_path / "run" / "summary.json").read_text())["figures"]
    assert figs["overall"]["decided"] >= MIN_ITEMS and figs["overall"]["decided_qas"] >= MIN_CLUSTERS
    assert figs["overall"]["ci"] is not None and _rows(r.output)["Overall"][1].startswith("[")
    few = figs["history_yn"]
    assert 0 < few["decided"] < MIN_ITEMS and few["ci"] is None  # was "100.0 [100.0, 100.0]"
    assert _rows(r.output)["History Y/N"][:2] == ["100.0", "-"]
    assert f"no interval ( - ) where fewer than {MIN_ITEMS} decided items from {MIN_CLUSTERS} QAs" in r.output


def test_the_two_undecided_counts_are_explained(demo: Path, tmp_path: Path) -> None:
    replies = {k: "i don't know ." for k in _oracle(demo)}  # Y/N: no paper score without NLI, but evasive
    r = _score(demo, _write(tmp_path / "r.jsonl", replies), tmp_path / "run", "--method", "paper", "-q")
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["undecided"] != summary["categories"]["counts"].get("not_judged", 0)
    assert "counts replies whose category only NLI could tell; the score table's undecided" in r.output


def test_compare_prints_no_p_value_on_a_handful_of_items(demo: Path, tmp_path: Path) -> None:
    good = _oracle(demo)
    wrong = {s.id: ("i don't know ." if s.type == "wh" else good[s.id]) for s in load_samples(demo)}
    a, b = tmp_path / "a", tmp_path / "b"
    assert _score(demo, _write(tmp_path / "a.jsonl", good), a, "-q").exit_code == 0
    assert _score(demo, _write(tmp_path / "b.jsonl", wrong), b, "-q").exit_code == 0
    r = run_cli("compare", a, b)
    lines = {line.split("  ")[0]: line for line in r.output.splitlines()}
    assert "(p<0.001)***" in lines["Overall"]  # 37 items from 19 QAs
    assert (
        "(too few)" in lines["Source hist"]
        and "p<" not in lines["Source hist"]
        and "*" not in lines["Source hist"]
    )
    assert "too few: no p-value or star where fewer than 30 decided items from 10 QAs" in r.output
    figs = {f["key"]: f for f in json.loads(run_cli("compare", a, b, "--format", "json").output)["figures"]}
    assert figs["source=hist"]["too_few"] and figs["source=hist"]["diffs"][0]["p"] is None


# ---------------------------------------------------------------- what is scored
def test_responses_for_a_subset_are_scored_and_named(demo: Path, tmp_path: Path) -> None:
    some = dict(list(_oracle(demo).items())[:10])
    r = _score(demo, _write(tmp_path / "r.jsonl", some), tmp_path / "run", "-q")
    assert r.exit_code == 0, r.stderr
    assert "warning: the responses cover 10 of the dataset's 37 samples" in r.stderr
    assert "|subset:responses-10-" in r.stdout
    scored = [json.loads(x)["id"] for x in (tmp_path / "run" / "scores.jsonl").read_text().splitlines()]
    assert scored == list(some)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["n"] == 10 and summary["responses_subset"] == {"scored": 10, "dataset": 37}


@pytest.mark.parametrize(("option", "tag"), [("--limit", "first-5"), ("--sample", "sample-5-s0")])
def test_limit_and_sample_apply_to_a_responses_file(
    demo: Path, tmp_path: Path, option: str, tag: str
) -> None:
    r = _score(demo, _write(tmp_path / "r.jsonl", _oracle(demo)), tmp_path / "run", option, "5", "-q")
    assert r.exit_code == 0, r.stderr
    assert f"|subset:{tag}|" in r.stdout and "warning" not in r.stderr
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["n"] in (4, 5)


def test_a_limit_the_responses_do_not_cover_is_refused(demo: Path, tmp_path: Path) -> None:
    replies = dict(list(_oracle(demo).items())[1:])
    r = _score(demo, _write(tmp_path / "r.jsonl", replies), tmp_path / "run", "--limit", "5", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "1 of the 5 samples of subset first-5" in r.stderr
    assert not (tmp_path / "run").exists()


def test_rescoring_with_another_method_is_refused_unless_overwrite(demo: Path, tmp_path: Path) -> None:
    run, responses = tmp_path / "run", _write(tmp_path / "r.jsonl", _oracle(demo))
    assert _score(demo, responses, run, "--method", "paper", "-q").exit_code == 0
    before = (run / "summary.json").read_text()
    r = _score(demo, responses, run, "-q")  # the default, plus
    assert r.exit_code == 2 and _one_line(r.stderr)
    assert "holds scores with method:paper; scoring with method:plus-25 would replace them" in r.stderr
    assert (run / "summary.json").read_text() == before
    assert _score(demo, responses, run, "--method", "paper", "-q").exit_code == 0  # the same method is fine
    r = _score(demo, responses, run, "--overwrite", "-q")
    assert r.exit_code == 0 and "method:plus-25" in r.stdout


def test_long_replies_are_cut_and_said_so(demo: Path, tmp_path: Path) -> None:
    replies = _oracle(demo)
    first = next(iter(replies))
    replies[first] = "yes i do , " * 2000  # 22,000 characters (benchmarks/long_replies.py: 1 MB, 10 MB)
    r = _score(demo, _write(tmp_path / "r.jsonl", replies), tmp_path / "run", "-q")
    assert r.exit_code == 0, r.stderr
    assert "|cut:1|" in r.stdout and "1 reply(s) longer than 2,000 characters were cut" in r.stderr
    row = json.loads((tmp_path / "run" / "scores.jsonl").read_text().splitlines()[0])
    assert row["id"] == first and len(row["response"]) == 2000
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["replies_cut"] == 1


@pytest.mark.parametrize(
    ("response", "outcome"),
    [
        ("yes i do", "correct_short_answer"),
        ("yes i do have two dogs", "correct_short_answer"),
        ("i do not know", "no_short_form"),
        ("i do , i do not", "opposite_short_form"),
        ("yes i do really", "correct_short_answer"),
        ("well i do have a cat", "no_short_form"),
        ("yes i do yes i do " * 3000, "correct_short_answer"),  # linear: was quadratic in the repeats
    ],
)
def test_short_form_answers_after_the_linear_scan(response: str, outcome: str) -> None:
    assert judge.__wrapped__("do you have two dogs ?", "yes", "yn", response).outcome.value == outcome


# ---------------------------------------------------------------- first measurement, small items
def test_the_offline_guard_error_says_what_to_do(demo: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    r = run_cli("score", "--dataset", demo, "--model", "baseline:oracle", "--out", tmp_path / "r", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "NLI model 'Ehsanl/Roberta-DNLI'" in r.stderr
    assert "--nli none" in r.stderr and "README section 'An offline NLI guard'" in r.stderr


def test_a_full_disk_names_the_file(demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Full:
        def __init__(self, fd: int, *a, **k) -> None:
            self.f = open(fd, *a, **k)  # noqa: SIM115

        def write(self, _text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")  # as a write() raises it: no file name

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

    monkeypatch.setattr(cio.os, "fdopen", Full)
    out = tmp_path / "r"
    r = run_cli("score", "--dataset", demo, "--model", "baseline:oracle", "--nli", "none", "--out", out, "-q")
    assert r.exit_code == 1 and _one_line(r.stderr) and "No space left on device" in r.stderr
    assert r.stderr.startswith(f"consistest: error: {out}/generation.json: ")  # was: no file named
    assert not out.exists()  # no temp file left, and no folder that holds nothing


def test_build_refuses_empty_triggers(tmp_path: Path) -> None:
    r = run_cli("build", "--demo", "--triggers", "", "--out", tmp_path / "d", "-q")
    assert r.exit_code == 2 and _one_line(r.stderr) and "names no trigger" in r.stderr
    assert not (tmp_path / "d").exists()


def test_help_texts_are_whole() -> None:
    assert (
        "%%" not in run_cli("build", "--help").output
        and "more than 1% of" in run_cli("build", "--help").output
    )
    top = " ".join(run_cli("--help").output.split())
    assert (
        "and print its counts." in top and "with a paired bootstrap significance for each difference" in top
    )
    assert "..." not in top.partition("Commands:")[2]


def test_a_run_signed_before_the_method_part_counts_as_paper(demo: Path, tmp_path: Path) -> None:
    """Signatures older than the ``method`` part were scored with paper: the default (plus) does not
    silently replace them."""
    run, responses = tmp_path / "run", _write(tmp_path / "r.jsonl", _oracle(demo))
    assert _score(demo, responses, run, "--method", "paper", "-q").exit_code == 0
    summary = json.loads((run / "summary.json").read_text())
    summary["signature"] = summary["signature"].replace("|method:paper", "")
    (run / "summary.json").write_text(json.dumps(summary))
    before = (run / "summary.json").read_text()
    r = _score(demo, responses, run, "-q")
    assert r.exit_code == 2 and "holds scores with method:paper" in r.stderr
    assert (run / "summary.json").read_text() == before
