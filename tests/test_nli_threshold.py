"""A contradiction threshold stored with an NLI model: load_nli applies it (P(c) > tau), names it in the
signature, and a folder without one reads the model by argmax exactly as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.models.nli import THRESHOLD_FILE, decide, load_nli, nli_signature, stored_threshold

PAIRS = [
    ("i have two dogs and a cat .", "i do not like swimming ."),
    ("i work as a teacher in a small town .", "what do you do for a living ? i am a nurse ."),
    ("are you married ? no , i am single .", "i live in texas with my family ."),
    ("my favorite color is blue .", "i like to read books ."),
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.tiny_models import tiny_roberta_classifier

    return tiny_roberta_classifier(tmp_path_factory.mktemp("nli") / "guard", seed=3)


@pytest.mark.parametrize(
    ("proba", "tau", "label"),
    [
        ({"contradiction": 0.30, "neutral": 0.50, "entailment": 0.20}, 0.25, "contradiction"),  # not argmax
        ({"contradiction": 0.30, "neutral": 0.50, "entailment": 0.20}, 0.30, "neutral"),  # strictly above
        ({"contradiction": 0.6, "neutral": 0.1, "entailment": 0.3}, 0.7, "entailment"),  # argmax, not > tau
        ({"contradiction": 0.20, "neutral": 0.40, "entailment": 0.40}, 0.50, "neutral"),  # tie: neutral
    ],
)  # fmt: skip
def test_decide_by_hand(proba, tau, label) -> None:
    assert decide(proba, tau) == label


def test_a_stored_tau_is_applied_and_signed(tiny: Path, tmp_path: Path) -> None:
    import shutil

    plain = load_nli(str(tiny), batch_size=2)
    assert stored_threshold(tiny) is None and plain.threshold is None
    assert nli_signature(plain).endswith("[c,n,e]")  # no tau: today's signature and argmax
    probs = plain.predict_proba(PAIRS)
    argmax = [max(p, key=p.__getitem__) for p in probs]
    assert plain.predict(PAIRS) == argmax

    folder = tmp_path / "guard"
    shutil.copytree(tiny, folder)
    tau = sorted(p["contradiction"] for p in probs)[1]  # two pairs above, two at or below
    (folder / THRESHOLD_FILE).write_text(json.dumps({"contradiction": tau, "rule": "test"}))
    guard = load_nli(str(folder), batch_size=2)
    assert stored_threshold(folder) == tau and guard.threshold == tau
    assert nli_signature(guard).endswith(f"[c,n,e;c>{tau:.3f}]")
    for got_p, want in zip(guard.predict_proba(PAIRS), probs, strict=True):  # never thresholded
        assert got_p == pytest.approx(want)
    got = guard.predict(PAIRS)
    assert got == [decide(p, tau) for p in probs]
    assert sum(g == "contradiction" for g in got) == 2


@pytest.mark.parametrize("content", ['{"contradiction": 1.5}', '{"contradiction": "high"}', "[0.3]"])
def test_a_malformed_threshold_file_is_one_line_error(tmp_path: Path, content: str) -> None:
    (tmp_path / THRESHOLD_FILE).write_text(content)
    with pytest.raises(InputError) as e:
        stored_threshold(tmp_path)
    assert THRESHOLD_FILE in str(e.value) and "'contradiction'" in str(e.value)


def test_the_same_weights_name_themselves_the_same_whatever_reports_lie_beside_them(
    tiny: Path, tmp_path: Path
) -> None:
    """A guard retrained elsewhere writes its own paths and timings into guard.json and metrics.json; the
    signature's hash reads only what predictions depend on (config, tokenizer, threshold, weights)."""
    import shutil

    from consistest.models.nli import local_model_name

    a, b = tmp_path / "a" / "guard", tmp_path / "b" / "guard"
    for folder, where in ((a, "/home/one"), (b, "/srv/two")):
        shutil.copytree(tiny, folder)
        (folder / "guard.json").write_text(json.dumps({"base_path": where}))
        (folder / "metrics.json").write_text(json.dumps({"seconds": len(where)}))
    assert local_model_name(a) == local_model_name(b)
    (b / THRESHOLD_FILE).write_text(json.dumps({"contradiction": 0.2}))  # another tau: another model
    assert local_model_name(a) != local_model_name(b)
    (b / THRESHOLD_FILE).unlink()
    config = json.loads((b / "config.json").read_text())
    (b / "config.json").write_text(json.dumps({**config, "id2label": {"0": "x", "1": "y", "2": "z"}}))
    assert local_model_name(a) != local_model_name(b)
