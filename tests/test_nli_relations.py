"""Table tests of the Dialogue-NLI label rules on triples."""

from __future__ import annotations

import pytest

from consistest.training.nli_relations import contradicts, label, neutral, usable


@pytest.mark.parametrize(
    ("t1", "t2", "expected"),
    [
        (("i", "has_hobby", "reading"), ("i", "has_hobby", "reading"), "entailment"),
        (("i", "has_age", "30"), ("i", "has_age", "45"), "contradiction"),
        (("i", "has_age", "old"), ("i", "has_age", "45"), None),  # not both numbers
        (("i", "marital_status", "married"), ("i", "marital_status", "single"), "contradiction"),
        (("i", "favorite_color", "red"), ("i", "favorite_color", "blue"), "contradiction"),
        (("i", "has_profession", "nurse"), ("my father", "has_profession", "teacher"), None),  # other subject
        (("i", "have_pet", "dog"), ("i", "have_pet", "cat"), None),  # multi-valued relation
        (("i", "like_food", "pizza"), ("i", "dislike", "pizza"), "contradiction"),
        (("i", "have_pet", "pet"), ("i", "not_have", "pet"), "contradiction"),
        (("i", "like_food", "pizza"), ("i", "dislike", "snow"), None),  # same family
        (("i", "like_food", "pizza"), ("i", "has_age", "30"), "neutral"),
        (("i", "has_profession", "nurse"), ("i", "employed_by_general", "hospital"), None),
        (("i", "has_hobby", "reading"), ("i", "has_age", "30"), "neutral"),
        (("i", "like_movie", "horror"), ("i", "favorite_movie", "comedy"), None),  # same family
        (("i", "has_hobby", "reading"), ("i", "like_activity", "reading"), None),  # same object
        (("i", "other", "<blank>"), ("i", "other", "<blank>"), None),
        (("i", "<blank>", "role playing"), ("i", "has_age", "30"), None),
    ],
)
def test_label(t1, t2, expected) -> None:
    assert label(t1, t2) == expected
    assert label(t2, t1) == expected


def test_helpers() -> None:
    assert not usable(("i", "other", "health"))
    assert usable(("i", "has_age", "30"))
    assert contradicts(("i", "gender", "male"), ("i", "gender", "female"))
    assert not neutral(("i", "gender", "male"), ("i", "gender", "female"))
