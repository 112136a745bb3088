"""plus-20: members named where a question asks about their kind (``metrics/kinds.py``)."""

import pytest

from consistest.metrics.kinds import KINDS, kind_reading
from consistest.metrics.propositions import proposition, question_keys, stem


def _keys(question: str):
    p = proposition(question)
    assert p is not None
    return question_keys(p)


@pytest.mark.parametrize(
    ("question", "fact", "objects", "said", "reading"),
    [
        # a member for its kind, the fact naming none or the same
        ("do you have any pets ?", "i love animals .", ["dog"], {"dog"}, "yes"),
        ("do you have any pets ?", "two dogs live with me .", ["dog"], {"dog", "leo"}, "yes"),
        ("do you have pets ?", "i don't have pets", ["dog"], {"dog"}, "yes"),  # yes, whatever the truth
        # none of the fact's members: another value
        ("do you have a pet ?", "i've a pet turtle .", ["dog"], {"dog"}, "other"),
        # one more member than a fact that counts its members
        ("do you have siblings ?", "i've one brother .", ["broth"], {"broth", "sist"}, "other"),
        ("do you have pets ?", "i love cats and have two cats .", ["dog"], {"dog", "cat"}, "other"),
        # ... but not than one that does not count them
        ("do you have siblings ?", "my brother is older than me .", ["broth"], {"broth", "sist"}, "yes"),
        ("do you have any pets ?", "i have a pet fish .", ["parrot"], {"parrot", "fish"}, "yes"),
        # not a kind, or no member as the verb's object
        ("do you have a dog ?", "i have a dog .", ["cat"], {"cat"}, None),
        ("do you have any pets ?", "i have a dog .", ["family"], {"family", "dog"}, None),
        ("do you have any brothers or sisters ?", "i have one brother .", ["sist"], {"sist"}, None),
    ],
)  # fmt: skip
def test_kind_reading(question, fact, objects, said, reading) -> None:
    assert kind_reading(_keys(question), fact, objects, frozenset(said)) == reading


def test_every_kind_word_stems_to_a_kind_with_members() -> None:
    for word in ("pets", "animals", "siblings", "kids", "children", "instruments"):
        assert KINDS[stem(word)], word
