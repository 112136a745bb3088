"""`consistest agree` (Table 4 against human labels), `score --method plus`, and the committed label set."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from consistest.core.io import atomic_write_json
from consistest.core.records import Sample
from consistest.data.dataset_dir import samples_hash, write_samples
from consistest.metrics.plus import DEFAULT_RULES, RULES
from consistest.tasks.consistest.agree import AgreeConfig, run_agree
from consistest.tasks.consistest.agree_labels import read_labels
from tests.helpers import run_cli

DATA = Path(__file__).with_name("data")
QAS = [  # id, type, question, truth, fact
    ("w1", "wh", "what is your favorite food ?", "pizza", "i like pizza ."),
    ("w2", "wh", "who visits you ?", "my dad", "my dad visits me ."),
    ("w3", "wh", "what do you do ?", "dentist", "i am a dentist at the clinic ."),
    ("y1", "yn", "do you love cats ?", "yes", "i love cats ."),
    ("y2", "yn", "do you work at a bar ?", "no", "i work at a school ."),
]
LABELS = [  # the failure classes: paper gets each wrong, the guidelines say otherwise
    {"id": "w1", "response": "pizza , sushi and tacos", "human": 0.5, "class": "hallucinated_extra"},
    {"id": "w2", "response": "my mom", "human": 0, "note": "function words only"},
    {"id": "w3", "response": "i fix people's teeth at the clinic", "human": 1},
    {"id": "y1", "response": "yes , i can not stand cats", "human": 0},
    {"id": "y2", "response": "no , i work at a school", "human": 1},
]


@pytest.fixture()
def dataset(tmp_path: Path) -> Path:
    samples = [
        Sample(id=i, qa_id=i, dialog_id="0", persona=["p ."], history=[q], question=q, answer=a, fact=f,
               nli_premise=f, source="pers", type=t, distance=0, turn=-1)
        for i, t, q, a, f in QAS
    ]  # fmt: skip
    d = tmp_path / "ds"
    write_samples(d, samples, "jsonl")
    atomic_write_json(d / "build_info.json", {"content_hash": samples_hash(samples), "settings": {}})
    return d


def _labels(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_agree_prints_table4_layout(dataset: Path, tmp_path: Path) -> None:
    res = run_cli("agree", "--dataset", dataset, "--labels", _labels(tmp_path / "l.jsonl", LABELS), "--nli",
                  "none", "--n-boot", "100")  # fmt: skip
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].endswith("(5 replies: WH 3, Y/N 2, of which 0 without a yes/no word or short form)")
    assert lines[1].split() == [
        "method",
        "n",
        "All",
        "WH",
        "Y/N",
        "MSE",
        "[95%",
        "CI]",
        "agree",
        "[95%",
        "CI]",
        "kappa",
        "Y/N",
        "[95%",
        "CI]",
        "Y/N",
        "no",
        "SF",
        "right",
        "[95%",
        "CI]",
    ]
    human = next(line for line in lines if line.startswith("Human")).split()
    assert human[1:5] == ["5", "0.500", "0.500", "0.500"]
    for name in ("F1", "Recall", "Hybrid (paper)", "Hybrid (plus)"):
        assert any(line.startswith(name) for line in lines), name
    assert not any(line.startswith("NLI-only") for line in lines)  # needs a model
    assert "plus - paper (paired bootstrap 95% CI, n=5)" in res.output
    assert "labels:" in lines[-1] and "-5|" in lines[-1] and "method:paper,plus-25" in lines[-1]


class Fake:
    """A guard that only knows the dentist paraphrase (reply -> fact) and sees the rest as neutral: it misses
    "yes , i can not stand cats", as the issue says small guards do."""

    name = signature = "fake"

    def predict(self, pairs):
        return ["entailment" if p == "i fix people's teeth at the clinic" else "neutral" for p, _ in pairs]


def test_plus_agrees_where_paper_does_not(dataset: Path, tmp_path: Path) -> None:
    result = run_agree(AgreeConfig(dataset, _labels(tmp_path / "l.jsonl", LABELS), nli=Fake(), n_boot=200,
                                   ablation=True))  # fmt: skip
    rows = result.rows
    # plus-24 gets all but the dentist paraphrase (paraphrase credit is opt-in): squared error 1 of 5 items
    assert rows["Hybrid (plus)"]["mse"] == pytest.approx(0.2) and rows["Hybrid (plus)"]["agreement"] == 0.8
    assert rows["Hybrid (paper)"]["mse"] > 0.4
    assert rows["NLI-only"]["n"] == 5
    comp = result.comparison
    assert comp["mse"]["delta"] < 0 and comp["agreement"]["delta"] > 0
    abl = result.ablation
    assert set(abl) == {"paper", "plus", "plus + paraphrase", *(f"paper + {r}" for r in RULES),
                        *(f"plus - {r}" for r in DEFAULT_RULES)}  # fmt: skip
    assert abl["plus + paraphrase"]["mse"] == 0.0 and abl["plus"]["mse"] == pytest.approx(0.2)
    for rule, item_gain in (
        ("function-words", 0.25),
        ("paraphrase", 1.0),
        ("extras", 0.25),
        ("yn-long", 1.0),
    ):
        assert abl[f"paper + {rule}"]["vs_paper"]["mse"]["delta"] == pytest.approx(-item_gain / 5), rule


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ({"id": "nope", "response": "x", "human": 1}, "id", "unknown sample id"),
        ({"id": "y1", "response": "x", "human": 0.5}, "human", "must be 0 or 1 for a YN item"),
        ({"id": "w2", "response": "x", "human": 0.7}, "human", "must be 0 or 0.5 or 1"),
        ({"id": "w2", "response": "x", "human": True}, "human", "got True"),
        ({"id": "w2", "response": "x", "human": "1"}, "human", "got '1'"),
        ({"id": "w2", "human": 1}, "response", "missing"),
        ({"response": "x", "human": 1}, "id", "missing"),
    ],
)
def test_bad_label_records_are_one_line_errors(dataset: Path, tmp_path: Path, row, field, message) -> None:
    path = _labels(tmp_path / "bad.jsonl", [LABELS[0], row])
    res = run_cli("agree", "--dataset", dataset, "--labels", path, "--nli", "none")
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1
    assert "line 2" in res.output and f"'{field}'" in res.output and message in res.output


def test_repeated_id_and_empty_file(dataset: Path, tmp_path: Path) -> None:
    res = run_cli("agree", "--dataset", dataset, "--labels", _labels(tmp_path / "r.jsonl", [LABELS[0]] * 2),
                  "--nli", "none")  # fmt: skip
    assert res.exit_code == 2 and "labelled twice with the same response (first on line 1)" in res.output
    assert "line 2" in res.output and len(res.output.strip().splitlines()) == 1
    res = run_cli(
        "agree", "--dataset", dataset, "--labels", _labels(tmp_path / "e.jsonl", []), "--nli", "none"
    )
    assert res.exit_code == 2 and "no labels" in res.output


def test_one_sample_answered_by_several_models(dataset: Path, tmp_path: Path) -> None:
    rows = [{**r, "model": "a"} for r in LABELS] + [
        {"id": "y1", "response": "i love cats , they are the best", "human": 1, "model": "b", "note": "x"},
        {"id": "w1", "response": "sushi", "human": 0, "model": "b", "category": "wrong_value"},
    ]
    result = run_agree(AgreeConfig(dataset, _labels(tmp_path / "m.jsonl", rows), nli=None, n_boot=100))
    assert result.n == 7
    # two models may give the very same reply to one sample: two labelled items, not a repeat
    same = rows + [{**LABELS[0], "model": "b"}]
    assert run_agree(AgreeConfig(dataset, _labels(tmp_path / "s.jsonl", same), nli=None, n_boot=100)).n == 8
    res = run_cli("agree", "--dataset", dataset, "--labels", _labels(tmp_path / "t.jsonl", same + [same[-1]]),
                  "--nli", "none")  # fmt: skip
    assert res.exit_code == 2 and "labelled twice with the same response (first on line 8)" in res.output
    by_model = result.first.by_model
    assert set(by_model) == {"a", "b"} and by_model["b"]["Human"]["n"] == 2
    assert by_model["b"]["Hybrid (plus)"]["mse"] == 0.0  # "i love cats" restates the fact; "sushi" gets 0
    res = run_cli("agree", "--dataset", dataset, "--labels", tmp_path / "m.jsonl", "--nli", "none",
                  "--n-boot", "100")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert any(line.startswith("by model") for line in res.output.splitlines())


def test_dev_and_test_side_by_side(dataset: Path, tmp_path: Path) -> None:
    dev = _labels(tmp_path / "dev.jsonl", LABELS[:3] + LABELS[4:])
    test = _labels(tmp_path / "test.jsonl", LABELS)
    args = ("agree", "--dataset", dataset, "--nli", "none", "--n-boot", "100")
    res = run_cli(*args, "--labels", f"dev={dev}", "--labels", f"test={test}")
    assert res.exit_code == 0, res.output
    heads = [line for line in res.output.splitlines() if line.startswith(("dev:", "test:"))]
    assert heads == [
        f"dev: {dev} (4 replies: WH 3, Y/N 1, of which 0 without a yes/no word or short form)",
        f"test: {test} (5 replies: WH 3, Y/N 2, of which 0 without a yes/no word or short form)",
    ]
    assert res.output.count("plus - paper (paired bootstrap") == 2
    sig = res.output.strip().splitlines()[-1]
    assert re.search(
        r"\|labels:dev=[0-9a-f]{12}-4,test=[0-9a-f]{12}-5\|nli:none\|rules:3\|method:paper,plus-25\|", sig
    )
    plus = next(line for line in res.output.splitlines() if line.startswith("Hybrid (plus)"))
    assert "[" in plus  # every figure with its interval
    res = run_cli(*args, "--labels", f"dev={dev}", "--labels", f"dev={test}")
    assert res.exit_code == 2 and "two labels files named 'dev'" in res.output
    res = run_cli(*args, "--labels", f"dev={dev}", "--labels", f"test={test}", "--format", "json")
    data = json.loads(res.output)
    assert set(data["splits"]) == {"dev", "test"} and data["splits"]["test"]["counts"]["all"] == 5
    assert data["splits"]["dev"]["rows"]["Hybrid (plus)"]["mse_ci"] is not None


def test_plot_draws_every_labels_file_with_the_table_figures(dataset: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from consistest.tasks.consistest.agree_plot import agreement_points

    dev = _labels(tmp_path / "dev.jsonl", LABELS[:3] + LABELS[4:])
    test = _labels(tmp_path / "test.jsonl", LABELS)
    png = tmp_path / "figs" / "agree.png"
    args = ("agree", "--dataset", dataset, "--nli", "none", "--n-boot", "100", "--labels", f"dev={dev}")
    res = run_cli(*args, "--labels", f"test={test}", "--plot", png)
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "2 labels files drawn to" in res.stderr
    assert not list(png.parent.glob(".*"))  # written atomically: no temporary file left
    no_ci = tmp_path / "no-ci.png"  # --n-boot 0: points without intervals
    res = run_cli(
        "agree", "--dataset", dataset, "--nli", "none", "--n-boot", "0", "--labels", dev, "--plot", no_ci
    )
    assert res.exit_code == 0 and no_ci.read_bytes()[:4] == b"\x89PNG", res.output
    result = run_agree(
        AgreeConfig(dataset=dataset, labels=[f"dev={dev}", f"test={test}"], nli=None, n_boot=100)
    )
    points = agreement_points(result)
    assert [(p["set"], p["n"]) for p in points] == [("dev", 4), ("test", 5)]
    plus = points[1]["methods"]["Hybrid (plus)"]
    row = result.splits["test"].rows["Hybrid (plus)"]
    assert (plus["mse"], plus["mse_ci"], plus["no_short_n"]) == (row["mse"], row["mse_ci"], 0)
    assert plus["decided"] == row["n"] == 5  # MSE is over what a scorer decides: the figure says how many
    assert set(points[0]["methods"]) == {"Hybrid (paper)", "Hybrid (plus)"}  # no judge configured


def test_many_labels_files_stack_the_panels(tmp_path: Path) -> None:
    """Past SIDE_BY_SIDE sets the two panels stand one above the other: a row of 16 was 3,000 px wide."""
    pytest.importorskip("matplotlib")
    from PIL import Image

    from consistest.tasks.consistest.agree_plot import SIDE_BY_SIDE, plot_agreement

    def point(k: int) -> dict:
        f = {"mse": 0.1, "mse_ci": (0.05, 0.15), "decided": 10, "no_short_right": 0.8,
             "no_short_right_ci": (0.7, 0.9), "no_short_n": 5}  # fmt: skip
        return {"set": f"test{k}", "n": 10, "methods": {"Hybrid (plus)": f}}

    labels = ",".join(f"test{k}=0123456789ab-640" for k in range(16))
    signature = f"consistest:v1|labels:{labels}|nli:none|v:0.1.0"
    sizes = {}
    for n in (SIDE_BY_SIDE, 16):
        png = plot_agreement([point(k) for k in range(n)], tmp_path / f"{n}.png", signature)
        sizes[n] = Image.open(png).size
    assert sizes[SIDE_BY_SIDE][0] > 2 * sizes[SIDE_BY_SIDE][1]  # side by side: wide
    assert sizes[16][0] < 2 * sizes[16][1]  # stacked


def test_plot_without_matplotlib_fails_before_scoring(dataset: Path, tmp_path: Path, monkeypatch) -> None:
    from consistest.core import plotting
    from consistest.core.errors import EnvironmentFault

    def missing(what: str, hint: str = "") -> None:
        raise EnvironmentFault(f"{what} needs matplotlib: pip install 'consistest[aih]'{hint}")

    monkeypatch.setattr(plotting, "pyplot", missing)
    monkeypatch.setattr("consistest.tasks.consistest.agree.run_agree", lambda cfg: pytest.fail("scored"))
    png = tmp_path / "agree.png"
    labels = _labels(tmp_path / "l.jsonl", LABELS)
    res = run_cli("agree", "--dataset", dataset, "--nli", "none", "--labels", labels, "--plot", png)
    assert res.exit_code == 1 and "agree --plot needs matplotlib" in res.stderr and not png.exists()


def test_y_n_replies_without_a_short_form_are_counted_per_method(dataset: Path, tmp_path: Path) -> None:
    rows = [{"id": "y1", "response": "i love cats , they are so soft", "human": 1},
            {"id": "y2", "response": "i work at a school .", "human": 1},
            {"id": "y2", "response": "i work at a bar .", "human": 0},
            {"id": "w1", "response": "pizza", "human": 1}]  # fmt: skip
    result = run_agree(AgreeConfig(dataset, _labels(tmp_path / "n.jsonl", rows), nli=None, n_boot=100))
    assert result.first.counts["yn_no_short"] == 3
    plus, paper = result.rows["Hybrid (plus)"], result.rows["Hybrid (paper)"]
    assert plus["yn_no_short_right"] == 1.0 and plus["yn_no_short"] == {"n": 3, "decided": 3}
    assert paper["yn_no_short_right"] == 0.0 and paper["yn_no_short"]["decided"] == 0  # NLI would decide


def test_score_method_plus_is_in_the_signature(dataset: Path, tmp_path: Path) -> None:
    responses = _labels(tmp_path / "r.jsonl", [{"id": r["id"], "response": r["response"]} for r in LABELS])
    args = ("score", "--dataset", dataset, "--responses", responses, "--nli", "none", "--n-boot", "0")
    res = run_cli(*args, "--method", "plus", "--out", tmp_path / "run", "--format", "json")
    assert res.exit_code == 0, res.output
    assert "|method:plus-25|" in json.loads((tmp_path / "run" / "summary.json").read_text())["signature"]
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "run" / "scores.jsonl").read_text().splitlines())}
    assert rows["w1"]["score"] == 0.5 and rows["w1"]["outcome"] == "extra_values"
    assert rows["w2"]["score"] == 0.0 and rows["y1"]["outcome"] == "long_part_disagrees"
    res = run_cli(*args, "--method", "nope", "--out", tmp_path / "run2")
    assert res.exit_code == 2


# --- the committed development set ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def consistest02(tmp_path_factory, consistest_json, persona_qas_json, history_qas_json) -> Path:
    from consistest.tasks.consistest.build import BuildConfig, build_dataset

    out = tmp_path_factory.mktemp("cz") / "consistest-02"
    build_dataset(BuildConfig(out=out, dialogues=consistest_json, persona_qas=persona_qas_json,
                              history_qas=history_qas_json, fmt="jsonl", quiet=True))  # fmt: skip
    return out


@pytest.mark.slow
def test_dev_set_is_valid_and_covers_the_failure_classes(consistest02: Path) -> None:
    from consistest.data.dataset_dir import load_samples

    by_id = {s.id: s for s in load_samples(consistest02)}
    labels = read_labels(DATA / "agree_dev.jsonl", by_id)
    rows = [json.loads(line) for line in (DATA / "agree_dev.jsonl").read_text().splitlines()]
    assert len(labels) >= 300 and sum(r["style"] == "smollm2" for r in rows) >= 40
    classes = Counter(r["class"] for r in rows)
    for cls in ("correct_paraphrase", "hallucinated_extra", "yn_word_vs_long", "function_word_trap"):
        assert classes[cls] >= 20, cls
    smol = [line.split()[0] for line in (DATA / "smollm2_ids.txt").read_text().splitlines()]
    assert smol == [r["id"] for r in rows if r["style"] == "smollm2"]


@pytest.mark.slow
def test_plus_is_closer_to_humans_than_paper_on_the_dev_set_rules_only(consistest02: Path) -> None:
    result = run_agree(AgreeConfig(consistest02, DATA / "agree_dev.jsonl", nli=None, n_boot=0, quiet=True))
    paper, plus = result.rows["Hybrid (paper)"], result.rows["Hybrid (plus)"]
    assert plus["n"] >= paper["n"] > 300  # without NLI some items stay undecided (fewer with plus)
    comp = result.comparison  # paired, on the items both decided
    assert comp["n"] == paper["n"] and comp["mse"]["delta"] < 0 and comp["agreement"]["delta"] > 0
