"""detector-pairs: synthetic English detector examples from dialogues with DNLI triples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from consistest.cli.main import main
from consistest.data.dialogues import read_dialogues
from consistest.tasks.cdconv.detector_data import DetectorPairsConfig, make_detector_examples

PROF = "['i', 'has_profession', '{}']"


def dialogue(persona: str, job: str, user_fact: str, first: int) -> list[str]:
    """A ConvAI2 'both' dialogue: the agent states its job at its first turn, then talks on."""
    return [
        f"your persona: {persona}\t['i', 'like_animal', 'dogs']",
        f"your persona: my job : {job}.\t{PROF.format(job)}",
        f"{first} hello , what do you do for a living ?",
        f"{first + 1} i am a {job} .\t{PROF.format(job)}",
        f"{first + 2} {user_fact}\t['i', 'have_pet', 'cat']",
        f"{first + 3} that is nice . i like walking my dog in the park .",
        f"{first + 4} what else do you like to do on weekends ?",
        f"{first + 5} i read books and i work as a {job} on sundays .\t{PROF.format(job)}",
        f"{first + 6} do you like to travel to other countries ?",
        f"{first + 7} yes , i went to spain last summer .",
    ]


@pytest.fixture()
def convai2(tmp_path: Path) -> Path:
    lines = dialogue("i love dogs.", "teacher", "i have a cat named tom at home .", 1)
    lines += dialogue("i like puppies.", "nurse", "i have a cat and two birds at home .", 1)
    lines += dialogue("dogs are great.", "pilot", "i have a cat that sleeps all day .", 1)
    path = tmp_path / "both.txt"
    path.write_text("\n".join(x.replace(" ", "\t", 1) if x[0].isdigit() else x for x in lines) + "\n")
    return path


def test_every_kind_is_made_and_labelled(convai2: Path, tmp_path: Path) -> None:
    dialogues = read_dialogues(convai2)
    rows, stats = make_detector_examples(dialogues, DetectorPairsConfig(str(convai2), "x", dev_fraction=0.0))
    kinds = {r.origin.split(":")[0]: r for r in rows}
    assert set(kinds) == {"real", "repeat", "history", "intra", "role", "persona-history", "persona-repeat"}
    assert kinds["history"].label == "history" and kinds["persona-history"].label == "history"
    assert kinds["persona-repeat"].label == "none"
    assert kinds["intra"].label == "intra" and kinds["role"].label == "role"
    assert kinds["repeat"].label == "none" and kinds["real"].label == "none"
    for r in rows:  # the judged turn is the agent's: speakers alternate from a user turn
        assert len(r.turns) % 2 == 0 and r.split == "train"
    hist = kinds["history"]  # the agent's last turn names another job than its own earlier turn
    jobs = lambda text: {j for j in ("teacher", "nurse", "pilot") if j in text}  # noqa: E731
    said = set().union(*(jobs(t) for t in hist.turns[1:-1:2]))
    assert said and jobs(hist.turns[-1]) and not jobs(hist.turns[-1]) & said
    told = kinds["persona-history"]  # contradicts the agent's persona, which every example carries
    assert all(len(r.persona) == 2 for r in rows) and jobs(told.turns[-1])
    assert not jobs(told.turns[-1]) & jobs(" ".join(told.persona))
    again, _ = make_detector_examples(
        list(reversed(dialogues)), DetectorPairsConfig(str(convai2), "x", dev_fraction=0.0)
    )
    assert sorted(r.id for r in again) == sorted(r.id for r in rows)  # content-seeded, not order


def test_cli_writes_examples_that_train_detector_reads(convai2: Path, tmp_path: Path) -> None:
    out = tmp_path / "pairs.jsonl"
    res = CliRunner().invoke(main, ["detector-pairs", "--dialogues", str(convai2), "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert rows and {r["split"] for r in rows} <= {"train", "dev"}
    assert json.loads((tmp_path / "pairs.stats.json").read_text())["counts"]
    from consistest.data.cdconv import read_examples

    assert len(read_examples(out)) == len(rows)


def test_dialogues_without_triples_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("your persona: i like dogs.\n1 hi\ti am a teacher .\n")
    res = CliRunner().invoke(
        main, ["detector-pairs", "--dialogues", str(path), "--out", str(tmp_path / "o.jsonl")]
    )
    assert res.exit_code == 2 and "no DNLI triples" in res.output


@pytest.mark.slow
def test_real_convai2(convai2_txt: Path) -> None:
    rows, stats = make_detector_examples(
        read_dialogues(convai2_txt), DetectorPairsConfig(str(convai2_txt), "x")
    )
    for split in ("train", "dev"):
        assert all(stats["counts"][split].get(lab, 0) > 30 for lab in ("none", "intra", "role", "history"))
    personas = {s: {r.context for r in rows if r.split == s} for s in ("train", "dev")}
    assert personas["train"] and personas["dev"]
