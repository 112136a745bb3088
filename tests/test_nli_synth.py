"""Synthetic contradictions (negation, antonyms, swapped values), their mix into nli-pairs, the probe set."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from consistest.data.dialogues import read_dialogues
from consistest.tasks.guard.pairs_build import PROBE_SPLITS, probe_rows, states_object
from consistest.training.nli_pairs import LABELS, make_pairs
from consistest.training.nli_relations import SINGLE_VALUED
from consistest.training.nli_sentences import Sentence, persona_texts
from consistest.training.nli_synth import antonym, negate, restate, swap_kind, swap_value, synthesize
from consistest.training.nli_synth_words import PLACES, PROFESSIONS


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("i have a dog .", "i do not have a dog ."),
        ("i am a nurse", "i am not a nurse"),
        ("i'm tall", "i'm not tall"),
        ("i went to college", "i never went to college"),
        ("i worked at a bank", "i never worked at a bank"),
        ("i don't eat meat", "i eat meat"),
        ("i do not like cats", "i like cats"),
        ("i can swim", "i can not swim"),
        ("i can't swim", "i can swim"),
        ("i have been married for ten years", "i have not been married for ten years"),
        ("i really like pizza", "i really do not like pizza"),
        ("wow ! i love horror movies", "wow ! i do not love horror movies"),
        ("my favorite color is blue .", "my favorite color is not blue ."),
        ("my dog is not big", "my dog is big"),
        ("i think so", None),  # hedges are left alone
        ("hello there", None),
    ],
)
def test_negate(text: str, negated: str | None) -> None:
    assert negate(text) == negated


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("i like cats", {"i hate cats", "i dislike cats", "i can not stand cats"}),
        ("i really love to read", {"i really hate to read", "i really can not stand to read",
                                   "i really dislike to read"}),
        ("i do enjoy hiking", {"i do hate hiking", "i do dislike hiking"}),
        ("i always eat meat", {"i never eat meat"}),
        ("i am very tall", {"i am very short"}),
        ("my dog is big", {"my dog is small"}),
        ("i am married", {"i am single"}),
        ("i feel like a kid", {None}),  # "like" as a preposition is no verb to flip
        ("i have a dog", {None}),
    ],
)  # fmt: skip
def test_antonym(text: str, options: set[str | None]) -> None:
    assert antonym(text, random.Random(0)) in options


@pytest.mark.parametrize(
    ("text", "relation", "obj", "pool", "changed_word"),
    [
        ("i am a nurse", "has_profession", "nurse", PROFESSIONS, "nurse"),
        ("i live in ohio .", "live_in_citystatecountry", "ohio", PLACES, "ohio"),
        ("i am 30 years old", "has_age", "30", (), "30"),
        ("i have long red hair", "physical_attribute", "red hair", (), "red"),
        ("i like pizza", "like_food", "pizza", ("pizza", "sushi"), "pizza"),
    ],
)
def test_swap_value_replaces_the_value_only(text, relation, obj, pool, changed_word) -> None:
    got = swap_value(text, relation, obj, pool, random.Random(1))
    assert got is not None and got != text
    before, after = text.split(), got.split()
    diff = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
    assert diff and diff[0][0] == changed_word


def test_swap_fixes_articles_and_skips_unknown_values() -> None:
    rng = random.Random(3)
    outs = {
        swap_value("i am a nurse", "has_profession", "nurse", ("nurse", "engineer"), rng) for _ in range(5)
    }
    assert outs == {"i am an engineer"}
    assert swap_value("i have a big house", "has_profession", "x", PROFESSIONS, rng) is None
    assert swap_value("i have short hair", "physical_attribute", "short hair", (), rng) is None


@pytest.mark.parametrize(
    ("relation", "kind"),
    [("has_profession", "swap"), ("physical_attribute", "swap"), ("like_food", "swap-neutral"),
     ("have_pet", "swap-neutral"), ("has_hobby", None)],
)  # fmt: skip
def test_swap_kind(relation: str, kind: str | None) -> None:
    assert swap_kind(relation, SINGLE_VALUED) == kind


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("i am 19 .", ("i'm nineteen", "i am nineteen")),
        ("i have 45 cats", ("i have forty five cats", "i've forty five cats")),
        ("i do not drink soda .", ("i don't drink soda", "i do not drink soda")),
        ("i'm a nurse", ("i am a nurse", "i'm a nurse")),
        ("my name is blob", ("my name is blob",)),
        ("i have 300 books", ("have 300 books", "i've 300 books")),  # beyond 99: digits stay
    ],
)
def test_restate_keeps_the_statement(text: str, cores: tuple[str, ...]) -> None:
    """Whatever opener or closer the coin adds, the statement is there with its edits."""
    for seed in range(8):
        got = restate(text, random.Random(seed))
        assert any(core in got for core in cores), got


def test_synthesize_is_seeded_by_content_not_order() -> None:
    items = [
        ("i like cats .", ("i", "like_animal", "cats")),
        ("i am a nurse .", ("i", "has_profession", "nurse")),
        ("i have red hair .", ("i", "physical_attribute", "red hair")),
    ]
    a = synthesize(items, 0, SINGLE_VALUED)
    b = synthesize(list(reversed(items)), 0, SINGLE_VALUED)
    as_text = lambda made, its: {k: sorted((its[i][0], h) for i, h in v) for k, v in made.items()}  # noqa: E731
    assert as_text(a, items) == as_text(b, list(reversed(items)))
    assert {h for _, h in a["negation"]} >= {"i do not like cats .", "i am not a nurse ."}
    assert a["swap"] and a["antonym"]


@pytest.fixture(scope="module")
def dialogues(convai2_txt):
    return read_dialogues(convai2_txt)


@pytest.mark.slow
def test_synthetic_pairs_are_added_on_top_of_the_natural_ones(dialogues) -> None:
    rows, stats = make_pairs(dialogues[:400], seed=0, dev_fraction=0.3, synthetic_share=0.5)
    bare, _ = make_pairs(
        dialogues[:400], seed=0, dev_fraction=0.3, synthetic_share=0.0, swap_neutral_share=0, restate_share=0,
        evasive_share=0,
    )  # fmt: skip
    natural = [r for r in rows if r["kind"] == "natural"]
    assert natural == bare  # the synthetic pairs take no natural pair's place
    for split in ("train", "dev", "test"):
        n = sum(r["split"] == split and r["label"] == "contradiction" for r in natural)
        assert n > 0 and all(
            sum(r["split"] == split and r["label"] == lab for r in natural) == n for lab in LABELS
        )
        kinds = Counter(r["kind"] for r in rows if r["split"] == split)
        assert kinds["negation"] + kinds["antonym"] + kinds["swap"] == round(0.5 * n)
        assert kinds["negation"] and kinds["antonym"] and kinds["swap"]
        assert kinds["restate"] == round(0.5 * n) and kinds["evasive"] == round(0.2 * n)
        assert kinds["swap-neutral"] <= round(0.15 * n)
        assert stats["counts"][split]["contradiction"] == n + round(0.5 * n)
    assert {r["kind"] for r in rows if r["label"] == "neutral"} >= {"natural", "evasive", "swap-neutral"}
    assert {r["kind"] for r in rows if r["label"] == "entailment"} == {"natural", "restate"}
    assert stats["synth_version"] and stats["pairs_version"] == "3" and stats["kinds"]["train"]


@pytest.mark.slow
def test_persona_sentences_split_by_text_and_never_cross(dialogues) -> None:
    rows, _ = make_pairs(dialogues, seed=0, dev_fraction=0.15)
    personas = persona_texts(dialogues)
    splits: dict[str, set[str]] = {}
    for r in rows:
        for text in (r["premise"], r["hypothesis"]):
            splits.setdefault(text, set()).add(r["split"])
    assert all(len(s) == 1 for t, s in splits.items() if t in personas)
    for held in ("dev", "test"):  # PersonaChat reuses persona sentences: a split by persona set had none
        assert len({t for t, s in splits.items() if t in personas and s == {held}}) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("split", "least"), [("dev", 40), ("test", 100)])
def test_probe_rows_are_unseen_persona_sentences_vs_utterances(dialogues, split, least) -> None:
    probe = probe_rows(dialogues, split=split, seed=0, dev_fraction=0.15)
    rows, _ = make_pairs(dialogues, seed=0, dev_fraction=0.15)
    seen = {t for r in rows if r["split"] != split for t in (r["premise"], r["hypothesis"])}
    personas = persona_texts(dialogues)
    labels = Counter(r["label"] for r in probe)
    assert labels["contradiction"] >= least
    assert labels["entailment"] + labels["neutral"] == labels["contradiction"]
    for r in probe:
        assert r["split"] == PROBE_SPLITS[split]
        assert r["premise"] in personas and r["hypothesis"] not in personas
        assert r["premise"] not in seen and r["hypothesis"] not in seen
        assert states_object(Sentence(r["premise"], tuple(r["premise_triple"]), ""))
    assert probe == probe_rows(list(reversed(dialogues)), split=split, seed=0, dev_fraction=0.15)


@pytest.mark.slow
def test_the_test_probe_is_frozen(dialogues) -> None:
    """Neither the seed nor the dev fraction moves a pair in or out of the test probe."""
    test = probe_rows(dialogues, split="test", seed=0, dev_fraction=0.15)
    assert test == probe_rows(dialogues, split="test", seed=7, dev_fraction=0.3)
    assert probe_rows(dialogues, split="dev", seed=0) != probe_rows(dialogues, split="dev", seed=7)
