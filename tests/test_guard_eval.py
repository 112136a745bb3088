"""eval-nli: contradiction recall and false alarms per kind and on the probe, with a fake and a tiny guard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.training.guard_eval import (
    contradiction_rates,
    evaluate_guard,
    read_guard_rows,
    render_guard_eval,
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
    # probe rows
    {"premise": "i live in ohio .", "hypothesis": "i live in texas !", "label": "contradiction",
     "split": "probe"},
    {"premise": "i am 30 .", "hypothesis": "i am not 30 .", "label": "contradiction", "split": "probe"},
    {"premise": "i live in ohio .", "hypothesis": "ohio is cold .", "label": "entailment", "split": "probe"},
    {"premise": "i am 30 .", "hypothesis": "i like tea .", "label": "neutral", "split": "probe"},
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


def test_evaluate_guard_by_kind_and_on_the_probe(pairs_file: Path) -> None:
    rows = read_guard_rows(pairs_file)
    assert len(rows) == 8  # train rows are left out
    result = evaluate_guard(NegationGuard(), rows, n_boot=200)
    kinds = result["kinds"]
    assert kinds["contradiction/negation"] == {"n": 1, "measure": "recall", "value": 1.0}
    assert kinds["contradiction/natural"]["value"] == 0.0
    assert kinds["neutral/evasive"] == {"n": 1, "measure": "false_alarm", "value": 0.0}
    assert kinds["entailment/natural"]["measure"] == "false_alarm"
    probe = result["probe"]
    assert probe["recall"] == 0.5 and probe["false_alarm"] == 0.0
    assert probe["n_contradiction"] == 2 and probe["n_consistent"] == 2
    lo, hi = probe["recall_ci"]
    assert 0.0 <= lo <= 0.5 <= hi <= 1.0
    text = render_guard_eval(result)
    assert "contradiction recall   50.0" in text and "negation-guard" in text


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
    assert out["nli"].startswith("nli@") and out["probe"]["n_contradiction"] == 2
    assert set(out["kinds"]) == {"contradiction/natural", "contradiction/negation", "entailment/natural",
                                 "neutral/evasive"}  # fmt: skip
