"""guard-v4's train sentences in chat forms: contractions and changed counts, by hand; the recipe keeps
dev and test as guard-v3's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from consistest.training.nli_forms import changed_count, contracted, natural_forms


@pytest.mark.parametrize(
    ("text", "always"),
    [
        ("i do not have a dog .", "i don't have a dog ."),
        ("i am not a nurse .", "i'm not a nurse ."),
        ("i am a nurse .", "i'm a nurse ."),
        ("i cannot swim and i can not sing .", "i can't swim and i can't sing ."),
        ("she does not eat meat , it is sad .", "she doesn't eat meat , it's sad ."),
        ("i did not go . i do not care .", "i didn't go . i don't care ."),
        ("i don't have a dog .", "i don't have a dog ."),  # already contracted
        ("diam notes", "diam notes"),  # inside a word: untouched
    ],
)
def test_contracted(text: str, always: str) -> None:
    assert contracted(text, random.Random(0), p=1.0) == always
    assert contracted(text, random.Random(0), p=0.0) == text


@pytest.mark.parametrize(
    ("text", "at", "digits"),
    [
        ("i have two dogs .", 2, False),
        ("i have 3 kids and a cat .", 2, True),
        ("i work 12 hours a day .", 2, True),
        ("i have been there 6 times .", 4, True),
    ],
)
def test_changed_count_changes_the_count_only(text: str, at: int, digits: bool) -> None:
    for seed in range(20):
        new = changed_count(text, random.Random(seed))
        assert new is not None
        old_toks, new_toks = text.split(), new.split()
        assert [i for i, (a, b) in enumerate(zip(old_toks, new_toks, strict=True)) if a != b] == [at]
        assert new_toks[at].isdigit() == digits and (not digits or int(new_toks[at]) > 0)


@pytest.mark.parametrize(
    "text",
    [
        "i am 25 years old .",  # an age: swap_value's kind
        "i was born in 1992 .",  # a year
        "i have one dog .",  # "one" is not counted: "a dog" says the same
        "i have a dog .",
        "i wake up at 5 am .",
        "two of my friends came .",
    ],
)
def test_changed_count_leaves_what_counts_nothing(text: str) -> None:
    assert changed_count(text, random.Random(0)) is None


def _row(p: str, h: str, label: str, split: str = "train", kind: str = "natural", source: str = "dnli"):
    return {"id": f"{p}|{h}|{label}", "premise": p, "hypothesis": h, "label": label, "split": split,
            "source": source, "relation": "r", "kind": kind}  # fmt: skip


ROWS = [
    _row("i do not have a dog .", "i have a dog .", "contradiction"),
    _row("i have two cats .", "i am a nurse .", "neutral"),
    _row("i am not tall .", "i do not eat meat .", "neutral", split="dev"),
    _row("i do not like it .", "i like it .", "contradiction", split="test"),
    _row("i am not sure .", "i do not know .", "neutral", source="decode"),
]


def test_natural_forms_touch_train_dnli_only_and_add_count_contradictions() -> None:
    out, stats = natural_forms(ROWS, seed=0)
    assert [r for r in out if r["split"] != "train" or r["source"] != "dnli"] == ROWS[2:]
    counts = [r for r in out if r["kind"] == "count"]
    assert len(counts) == stats["count"] == 1 and counts[0]["label"] == "contradiction"
    assert counts[0]["premise"].replace("have", "'ve") != counts[0]["hypothesis"]
    assert "two cats" in counts[0]["premise"] and "two cats" not in counts[0]["hypothesis"]
    assert len({r["id"] for r in out}) == len(out)
    # content-seeded: the same rows in another order give the same rows
    again, _ = natural_forms(list(reversed(ROWS)), seed=0)
    assert sorted(r["id"] for r in again) == sorted(r["id"] for r in out)


def test_natural_forms_contract_about_half_of_the_train_sentences() -> None:
    rows = [_row(f"i do not have {n} .", f"i am not {n} .", "neutral") for n in range(400)]
    out, stats = natural_forms(rows, seed=0)
    sides = [r[k] for r in out for k in ("premise", "hypothesis")]
    share = sum("n't" in s or "i'm" in s for s in sides) / len(sides)
    assert 0.4 < share < 0.6 and stats["contracted"] > 300


def test_guard_v4_keeps_guard_v3s_dev_and_test(shared_data: Path) -> None:
    from consistest.tasks.guard.recipe import GuardConfig, GuardInputs, build_rows

    inputs = GuardInputs.from_data_dir(shared_data)
    if not Path(inputs.dialogues).exists():
        pytest.skip(f"real data not found at {inputs.dialogues}")
    v3, _ = build_rows(GuardConfig(inputs, "x"))
    v4, stats = build_rows(GuardConfig(inputs, "x", recipe="guard-v4"))
    held = lambda rows: [(r["premise"], r["hypothesis"], r["label"]) for r in rows if r["split"] != "train"]  # noqa: E731
    assert held(v3) == held(v4) and stats["forms"]["count"] > 50
    train_v4 = [r for r in v4 if r["split"] == "train" and r["source"] == "dnli"]
    assert sum("don't" in r["hypothesis"] for r in train_v4) > 300
    assert GuardConfig(inputs, "x").identity() != GuardConfig(inputs, "x", recipe="guard-v4").identity()


def test_train_guard_offers_every_recipe() -> None:
    from consistest.cli.nli import train_guard
    from consistest.tasks.guard.recipe import RECIPE, RECIPES

    option = next(o for o in train_guard.params if o.name == "recipe")
    assert tuple(option.type.choices) == RECIPES and option.default == RECIPE
