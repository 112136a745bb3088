"""eval-nli: contradiction recall and false alarms per kind and on the probes, dev and test side by side, with
a fake and a tiny guard; the tau rule by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.tasks.guard.evaluate import (
    contradiction_rates,
    evaluate_guard,
    read_guard_rows,
    render_guard_eval,
    select_threshold,
)
from tests.helpers import run_cli


@pytest.mark.parametrize(
    ("gold", "pred", "recall", "false_alarm"),
    [
        (["contradiction", "neutral"], ["contradiction", "neutral"], 1.0, 0.0),
        (["contradiction", "contradiction", "entailment", "neutral"],
         ["contradiction", "neutral", "contradiction", "neutral"], 0.5, 0.5),
        (["neutral", "entailment"], ["contradiction", "entailment"], None, 0.5),
        (["contradiction"], ["entailment"], 0.0, None),
    ],
)  # fmt: skip
def test_contradiction_rates(gold, pred, recall, false_alarm) -> None:
    got = contradiction_rates(gold, pred)
    assert got["recall"] == recall and got["false_alarm"] == false_alarm


ROWS = [
    # dev rows: a natural and a negation contradiction, an entailment, an evasive neutral
    {"premise": "i am a nurse .", "hypothesis": "i am a teacher .", "label": "contradiction", "split": "dev",
     "kind": "natural"},
    {"premise": "i have a dog .", "hypothesis": "i do not have a dog .", "label": "contradiction",
     "split": "dev", "kind": "negation"},
    {"premise": "i have a dog .", "hypothesis": "my dog is great .", "label": "entailment", "split": "dev"},
    {"premise": "i have a dog .", "hypothesis": "i don't know .", "label": "neutral", "split": "dev",
     "kind": "evasive"},
    {"premise": "i have a cat .", "hypothesis": "i have a bird .", "label": "neutral", "split": "train"},
    # dev probe rows
    {"premise": "i live in ohio .", "hypothesis": "i live in texas !", "label": "contradiction",
     "split": "dev-probe"},
    {"premise": "i am 30 .", "hypothesis": "i am not 30 .", "label": "contradiction", "split": "dev-probe"},
    {"premise": "i live in ohio .", "hypothesis": "ohio is cold .", "label": "entailment",
     "split": "dev-probe"},
    {"premise": "i am 30 .", "hypothesis": "i like tea .", "label": "neutral", "split": "dev-probe"},
    # test rows: a DECODE hard negative with "not" on one side (a false alarm), SNLI (accuracy only), probe
    {"premise": "i do not swim .", "hypothesis": "the lake was cold .", "label": "neutral", "split": "test",
     "source": "decode", "kind": "decode-turn"},
    {"premise": "a man sleeps .", "hypothesis": "a man is not awake .", "label": "entailment", "split": "dev",
     "source": "snli", "kind": "snli"},
    {"premise": "i am 30 .", "hypothesis": "i am not 30 .", "label": "contradiction", "split": "test-probe"},
    {"premise": "i am 30 .", "hypothesis": "i am 30 years old .", "label": "entailment",
     "split": "test-probe"},
]  # fmt: skip


class NegationGuard:
    """Calls a pair a contradiction when exactly one side says "not"."""

    name = signature = "negation-guard"

    def predict(self, pairs):
        return [
            "contradiction" if ("not" in p.split()) != ("not" in h.split()) else "entailment"
            for p, h in pairs
        ]


@pytest.fixture()
def pairs_file(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return path


def test_evaluate_guard_dev_and_test_by_kind_and_on_the_probes(pairs_file: Path) -> None:
    rows = read_guard_rows(pairs_file)
    assert len(rows) == 12  # train rows are left out
    result = evaluate_guard(NegationGuard(), rows, n_boot=200)
    dev, test = result["splits"]["dev"], result["splits"]["test"]
    kinds = dev["kinds"]
    assert kinds["contradiction/negation"] == {"n": 1, "measure": "recall", "value": 1.0, "ci": (1.0, 1.0)}
    assert kinds["contradiction/natural"]["value"] == 0.0
    assert kinds["neutral/evasive"]["measure"] == "false_alarm" and kinds["neutral/evasive"]["value"] == 0.0
    assert "neutral/snli" not in kinds and dev["accuracy"]["snli"]["accuracy"] == 0.0  # snli: accuracy only
    probe = dev["probe"]
    assert probe["recall"] == 0.5 and probe["false_alarm"] == 0.0
    assert probe["n_contradiction"] == 2 and probe["n_consistent"] == 2
    lo, hi = probe["recall_ci"]
    assert 0.0 <= lo <= 0.5 <= hi <= 1.0
    assert test["kinds"] == {"neutral/decode-turn": {"n": 1, "measure": "false_alarm", "value": 1.0,
                                                     "ci": (1.0, 1.0)}}  # fmt: skip
    assert test["probe"]["recall"] == 1.0 and test["probe"]["false_alarm"] == 0.0
    text = render_guard_eval(result)
    assert "negation-guard" in text and text.splitlines()[1].split() == ["dev", "test"]
    recall = next(line for line in text.splitlines() if "contradiction recall" in line)
    assert "50.0 [" in recall and "n=2" in recall and "100.0 [100.0, 100.0] n=1" in recall


def test_a_legacy_probe_is_read_as_the_dev_probe(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text(
        json.dumps({"premise": "a", "hypothesis": "b", "label": "neutral", "split": "probe"}) + "\n"
    )
    (row,) = read_guard_rows(path)
    assert row.split == "dev" and row.probe and row.source == "dnli" and row.kind == "natural"


@pytest.mark.parametrize(
    ("pos", "neg", "max_fa", "tau", "recall", "fa"),
    [
        ([0.9, 0.6, 0.3], [0.5, 0.2, 0.1], 0.0, 0.55, 2 / 3, 0.0),  # midway between 0.6 and 0.5
        ([0.9, 0.6, 0.3], [0.5, 0.2, 0.1], 1 / 3, 0.25, 1.0, 1 / 3),  # one alarm buys the 0.3 contradiction
        ([0.9, 0.6, 0.3], [0.5, 0.2, 0.1], 1.0, 0.25, 1.0, 1 / 3),  # equal recall: the highest tau
        ([0.4], [0.8], 0.0, 0.8, 0.0, 0.0),  # nothing can be flagged without an alarm: flag nothing
        ([0.2, 0.2], [0.1], 0.0, 0.15, 1.0, 0.0),
    ],
)  # fmt: skip
def test_select_threshold_by_hand(pos, neg, max_fa, tau, recall, fa) -> None:
    t = select_threshold(pos, neg, max_fa)
    assert (
        t.tau == pytest.approx(tau)
        and t.recall == pytest.approx(recall)
        and t.false_alarm == pytest.approx(fa)
    )
    assert (t.n_contradiction, t.n_consistent) == (len(pos), len(neg))


def test_select_threshold_needs_both_classes() -> None:
    with pytest.raises(InputError, match="needs contradictions and consistent pairs"):
        select_threshold([0.5], [], 0.1)


def test_bad_pairs_file_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"premise": "a", "hypothesis": "b", "label": "maybe", "split": "dev"}) + "\n")
    res = run_cli("eval-nli", "--nli", "none", "--pairs", bad)
    assert res.exit_code == 2 and "line 1" in res.output and "label" in res.output


@pytest.mark.slow
def test_eval_nli_cli_with_a_tiny_guard(pairs_file: Path, tmp_path: Path) -> None:
    from tests.tiny_models import tiny_roberta_classifier

    model = tiny_roberta_classifier(tmp_path / "nli")
    res = run_cli(
        "eval-nli", "--nli", model, "--pairs", pairs_file, "--format", "json", "--n-boot", "100", "-q"
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["nli"].startswith("nli@") and out["nli"].endswith("[c,n,e]")  # no stored tau: argmax
    assert out["splits"]["dev"]["probe"]["n_contradiction"] == 2
    assert set(out["splits"]["dev"]["kinds"]) == {"contradiction/natural", "contradiction/negation",
                                                  "entailment/natural", "neutral/evasive"}  # fmt: skip
    assert set(out["splits"]["test"]["kinds"]) == {"neutral/decode-turn"}
