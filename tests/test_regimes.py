"""nli-pairs --qa-rules: one threshold for turns that answer a question, one for turns after a statement
(tasks/cdconv/regimes.py)."""

from __future__ import annotations

import pytest

from consistest.data.decode_reader import make_example
from consistest.tasks.cdconv.regimes import MIN_PER_CLASS, asks, regime_taus, tau_for
from consistest.tasks.cdconv.threshold import pick_tau


def _ex(user: str, label: str, i: int):
    return make_example([user, f"reply {i} ."], label)


def test_asks_reads_the_users_turn() -> None:
    assert asks(_ex("do you have a dog ?", "none", 0))
    assert asks(_ex("what do you do for fun", "none", 0))  # a WH opening without "?"
    assert not asks(_ex("i just got back from the gym .", "none", 0))
    assert not asks(make_example(["hello ."], "none"))  # one turn: no user turn


def test_each_regime_gets_its_own_tau() -> None:
    """Answers to questions separate at 0.125, turns after a statement at 0.5; each regime's tau is picked
    on its own dialogues, halfway between the scores."""
    n = MIN_PER_CLASS
    qa = [(_ex("do you ?", "history", i), 0.2) for i in range(n)] + [
        (_ex("do you ?", "none", i), 0.05) for i in range(n)
    ]
    st = [(_ex("ok .", "history", i), 0.9) for i in range(n)] + [
        (_ex("ok .", "none", i), 0.1) for i in range(n)
    ]
    rows = qa + st
    got = regime_taus([s for _, s in rows], [e for e, _ in rows], n_main=len(qa))
    assert (got.tau, got.balanced, got.n) == (pytest.approx(0.125), 1.0, 2 * n)
    assert (got.tau_statement, got.balanced_statement, got.n_statement) == (pytest.approx(0.5), 1.0, 2 * n)
    assert tau_for(st[0][0], got.tau, got.tau_statement) == pytest.approx(0.5)
    assert tau_for(qa[0][0], got.tau, got.tau_statement) == pytest.approx(0.125)


@pytest.mark.parametrize("short", ["history", "none"])
def test_too_few_turns_after_a_statement_keep_one_tau(short: str) -> None:
    n = MIN_PER_CLASS
    qa = [(_ex("do you ?", "history", i), 0.2) for i in range(n)] + [
        (_ex("do you ?", "none", i), 0.05) for i in range(n)
    ]
    counts = {"history": n, "none": n, short: n - 1}  # one class one short of the cut
    st = [(_ex("ok .", "history", i), 0.9) for i in range(counts["history"])] + [
        (_ex("ok .", "none", i), 0.1) for i in range(counts["none"])
    ]
    rows = qa + st
    got = regime_taus([s for _, s in rows], [e for e, _ in rows], n_main=len(qa))
    assert got.tau_statement is None
    assert tau_for(st[0][0], got.tau, got.tau_statement) == got.tau


def test_without_a_statement_tau_the_one_tau_is_picked_as_before_regimes() -> None:
    """Too few turns after a statement: tau is picked on every --dev dialogue, those after a statement
    included, as a single tau was before regimes (not on the answers alone)."""
    n = MIN_PER_CLASS
    qa = [(_ex("do you ?", "history", i), 0.2) for i in range(5)] + [
        (_ex("do you ?", "none", i), 0.05) for i in range(5)
    ]
    st = [(_ex("ok .", "history", i), 0.9) for i in range(n - 1)] + [
        (_ex("ok .", "none", i), 0.6) for i in range(n - 1)
    ]
    rows = qa + st
    scores, examples = [s for _, s in rows], [e for e, _ in rows]
    got = regime_taus(scores, examples, n_main=len(rows))
    assert got.tau_statement is None and got.n == len(rows)
    assert got.tau == pick_tau(scores, [e.label != "none" for e in examples])[0]


def test_dev_sets_without_questions_pick_tau_on_all_of_them() -> None:
    """--dev sets whose turns all follow statements: tau is picked on them all, as before regimes."""
    rows = [(_ex("ok .", "history", 0), 0.8), (_ex("ok .", "none", 1), 0.2)]
    got = regime_taus([s for _, s in rows], [e for e, _ in rows], n_main=2)
    assert (got.tau, got.n, got.tau_statement) == (pytest.approx(0.5), 2, None)


@pytest.mark.slow
def test_calibrate_stores_a_statement_tau_and_detect_checks_it(tmp_path) -> None:
    """train-detector --qa-rules picks tau_statement where dev has enough turns after a statement; detect
    refuses a stored value outside [0, 1], naming the field."""
    import json

    from click.testing import CliRunner

    from consistest.cli.main import main
    from tests.tiny_models import tiny_roberta_classifier

    guard = tiny_roberta_classifier(tmp_path / "guard")
    dev = tmp_path / "dev.jsonl"
    rows = []
    for i in range(2 * MIN_PER_CLASS):
        bad = i % 2 == 0
        bot = f"i have {i} cats ." if not bad else "i have no cats ."
        turns = ["i just got back from the gym .", f"i have {i + 1} cats .", "nice , i love cats .", bot]
        said = [{"text": t, "agent_id": k % 2} for k, t in enumerate(turns)]
        category = "history" if bad else "none"
        rows.append({"turns": said, "is_contradiction": bad, "category": category, "source": "test"})
    dev.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "det"
    args = ["train-detector", "--architecture", "nli-pairs", "--qa-rules", "--nli", str(guard)]
    res = CliRunner().invoke(main, [*args, "--data", str(dev), "--dev", str(dev), "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    info = json.loads((out / "detector.json").read_text())
    # the dev split of --data is part of --dev here: each dialogue counts once
    assert info["tau_statement"] is not None and info["tau_dialogues"]["tau_statement"] == 2 * MIN_PER_CLASS
    assert "|tau-statement:" in info["signature"]

    def flagged(stored: dict) -> int:
        (out / "detector.json").write_text(json.dumps(stored))
        pred = tmp_path / "pred.jsonl"
        res = CliRunner().invoke(
            main, ["detect", "--detector", str(out), "--data", str(dev), "--out", str(pred)]
        )
        assert res.exit_code == 0, res.output
        return sum(json.loads(x)["category"] != "none" for x in pred.read_text().splitlines())

    # every judged turn follows a statement: tau_statement decides, not tau
    assert flagged({**info, "tau": 0.0, "tau_statement": 1.0}) == 0
    assert flagged({**info, "tau": 1.0, "tau_statement": 0.0}) == 2 * MIN_PER_CLASS
    old = {k: v for k, v in info.items() if k != "tau_statement"}  # a folder calibrated before regimes
    assert flagged({**old, "tau": 0.0}) == 2 * MIN_PER_CLASS
    for bad, why in [
        ({**info, "tau_statement": 2}, "tau_statement"),
        ({**info, "qa_rules": False}, "--qa-rules"),
    ]:
        (out / "detector.json").write_text(json.dumps(bad))
        res = CliRunner().invoke(main, ["detect", "--detector", str(out), "--data", str(dev)])
        assert res.exit_code == 2 and why in res.output
