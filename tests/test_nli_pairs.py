"""nli-pairs on real ConvAI2 excerpts: hand-checked labels, no sentence crossing splits, balance, seeding."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from consistest.data.dialogues import read_dialogues
from consistest.training.nli_pairs import LABELS, candidate_pairs, make_pairs
from consistest.training.nli_relations import EVASIVE_REPLIES, label
from consistest.training.nli_sentences import collect_sentences


@pytest.fixture(scope="module")
def dialogues(convai2_txt):
    return read_dialogues(convai2_txt)


# Hand-checked pairs from the first 12 dialogues of the shared ConvAI2 file.
HAND_CHECKED = [
    ("i read twenty books a year.", "i rather read , i have read about 20 books this year .", "entailment"),
    ("snow and winter , named after my favorite season", "my favorite season is winter.", "entailment"),
    ("my favorite music is country.", "my favorite music genre is death metal.", "contradiction"),
    ("i am a baby delivery nurse.", "i am a museum tour guide.", "contradiction"),
    ("i read twenty books a year.", "my favorite season is winter.", "neutral"),
    ("i own two vintage mustangs.", "i am a baby delivery nurse.", "neutral"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b", "expected"), HAND_CHECKED)
def test_hand_checked_labels(dialogues, a, b, expected) -> None:
    sents, _ = collect_sentences(dialogues[:12])
    triple = {s.text: s.triple for s in sents}
    assert label(triple[a], triple[b]) == expected
    if expected != "neutral":  # entailment/contradiction candidates are enumerated in full (neutral: sampled)
        cands = candidate_pairs(sents, 0, neutral_tries=0)
        found = {(p.text, h.text) for p, h in cands[expected]}
        assert (a, b) in found or (b, a) in found


@pytest.mark.slow
def test_no_sentence_crosses_splits_and_balanced(dialogues) -> None:
    rows, stats = make_pairs(dialogues[:300], seed=1, dev_fraction=0.3)
    where: dict[str, set[str]] = {}
    for r in rows:
        texts = (r["premise"],) if r["hypothesis"] in EVASIVE_REPLIES else (r["premise"], r["hypothesis"])
        for text in texts:
            where.setdefault(text, set()).add(r["split"])
    assert all(len(s) == 1 for s in where.values())
    for split in ("train", "dev", "test"):
        counts = Counter(r["label"] for r in rows if r["split"] == split)
        natural = Counter(r["label"] for r in rows if r["split"] == split and r["kind"] == "natural")
        assert natural["entailment"] == natural["neutral"] == natural["contradiction"] > 0
        assert stats["counts"][split] == {lab: counts[lab] for lab in LABELS}
    assert all(r["premise"] != r["hypothesis"] for r in rows if r["kind"] != "restate")  # restate may copy


@pytest.mark.slow
def test_evasive_replies_are_neutral_and_split_apart(dialogues) -> None:
    rows, stats = make_pairs(dialogues[:300], seed=1, dev_fraction=0.3, evasive_share=0.25)
    evasive = [r for r in rows if r["hypothesis"] in EVASIVE_REPLIES]
    assert evasive and all(r["label"] == "neutral" and r["relation"].endswith("/evasive") for r in evasive)
    replies = {}
    for split in ("train", "dev", "test"):
        n = sum(r["split"] == split and r["label"] == "neutral" and r["kind"] == "natural" for r in rows)
        assert sum(r["split"] == split for r in evasive) == round(0.25 * n)
        replies[split] = {r["hypothesis"] for r in evasive if r["split"] == split}
    assert all(replies.values())
    assert not replies["train"] & replies["dev"] and not replies["train"] & replies["test"]
    assert not replies["dev"] & replies["test"]
    none, _ = make_pairs(dialogues[:300], seed=1, dev_fraction=0.3, evasive_share=0.0)
    assert not [r for r in none if r["hypothesis"] in EVASIVE_REPLIES]


@pytest.mark.slow
def test_seeded_and_order_independent(dialogues) -> None:
    part = dialogues[:80]
    a, _ = make_pairs(part, seed=3)
    b, _ = make_pairs(list(reversed(part)), seed=3)
    c, _ = make_pairs(part, seed=4)
    assert a == b
    assert a != c


def test_cli_writes_pairs_and_stats(tmp_path, convai2_txt) -> None:
    from click.testing import CliRunner

    from consistest.cli.main import main

    # The first 12 dialogues as a small excerpt file.
    lines, n = [], 0
    for line in convai2_txt.read_text(encoding="utf-8").splitlines():
        if line.startswith("1\t"):
            n += 1
            if n > 12:
                break
        lines.append(line)
    excerpt = tmp_path / "excerpt.txt"
    excerpt.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "pairs.jsonl"
    res = CliRunner().invoke(
        main, ["nli-pairs", "--dialogues", str(excerpt), "--out", str(out), "--dev-fraction", "0.2"]
    )
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    stats = json.loads((tmp_path / "pairs.stats.json").read_text())
    assert {r["label"] for r in rows} == set(LABELS)
    assert sum(sum(c.values()) for c in stats["counts"].values()) == len(rows)
    assert {"premise", "hypothesis", "label", "split", "relation"} <= set(rows[0])


def test_no_triples_is_an_input_error(tmp_path, consistest_json) -> None:
    from consistest.core.errors import InputError

    with pytest.raises(InputError, match="no DNLI triples"):
        make_pairs(read_dialogues(consistest_json)[:5])
