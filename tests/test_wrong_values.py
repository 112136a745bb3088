"""The rules that find a wrong value or polarity in a reply (metrics/wrong_values.py):
hand-computable cases of each, the near misses they must leave alone included."""

from __future__ import annotations

import pytest

from consistest.metrics.typed_values import typed_value
from consistest.metrics.wrong_value_frames import wrong_frame_value
from consistest.metrics.wrong_values import (
    both_numbers,
    key,
    keys,
    other_number,
    question_facts,
    question_frame_value,
    restates,
    short_value,
    stated_polarity,
    yn_wrong_value,
)


@pytest.mark.parametrize(
    ("question", "text", "expected"),
    [
        ("do you own a yacht ?", "i own a yacht , it's a luxury vessel .", "yes"),
        ("do you own a yacht ?", "i don't own a yacht .", "no"),
        ("do you own a yacht ?", "i have never owned a yacht .", "no"),
        ("do you own a yacht ?", "i own a yacht . i don't own a yacht .", "both"),
        ("do you own a yacht ?", "i wish i owned a yacht .", None),  # hedged: states nothing
        ("do you own a yacht ?", "i don't know if i own a yacht .", None),
        ("do you own a yacht ?", "yachts are expensive .", None),  # not first person
        ("do you own a yacht ?", "i own a boat .", None),  # does not restate the question
        ("don't you own a yacht ?", "i own a yacht .", None),  # a negative question: no reading
        ("do you like math ?", "i hate math class .", "no"),  # a dislike-verb negates a like-verb
        ("do you like nature ?", "i love nature .", "yes"),  # like-verbs are one
        ("are you vegan ?", "i'm a vegan , i don't eat any animal products .", "yes"),
        ("do you have kids ?", "i'm spending the day with my kids .", "yes"),
    ],
)
def test_stated_polarity(question, text, expected) -> None:
    assert stated_polarity(question, text) == expected


@pytest.mark.parametrize(
    ("fact", "values", "text", "expected"),
    [
        ("i drive a mercedes .", {"mercedes"}, "i drive a bmw .", "bmw"),
        ("i drive a mercedes .", {"mercedes"}, "i drive a mercedes benz .", ""),
        ("i drive a mercedes .", {"mercedes"}, "i like to drive fast .", ""),  # no article: no value slot
        ("i drive a mercedes .", {"mercedes"}, "i drive to work .", ""),  # a preposition the fact lacks
        ("i work in a taco shop", {"taco", "shop"}, "i work at a pizza place downtown", "pizza"),
        ("i have red hair .", {"red"}, "i have blonde hair .", "blonde"),  # read back from the anchor
        ("my name is ashley .", {"ashley"}, "my name is kim .", "kim"),
        ("my name is ashley .", {"ashley"}, "my name is ashley .", ""),
        ("i am 23 years old .", {"23"}, "i'm 32 years old .", "32"),
        ("i have a doll .", {"doll"}, "i have a dolly .", ""),  # one value's start: the same value
        ("i teach fourth graders .", {"fourth"}, "i teach 4th grade .", ""),  # ordinals as numbers
        ("i am a teacher .", {"teacher"}, "i am a nurse .", ""),  # no content word next to the value
        ("i enjoy american sports .", {"american"}, "i love sports !", ""),  # the fact's own word
    ],
)
def test_wrong_frame_value(fact, values, text, expected) -> None:
    assert wrong_frame_value(fact, frozenset(key(w) for w in values), text) == expected


@pytest.mark.parametrize(
    ("question", "truth", "fact", "text", "expected"),
    [
        ("do you drive a mercedes ?", "yes", "i drive a mercedes .", "i drive a bmw .", "bmw"),
        ("do you drive a mercedes ?", "no", "i drive a bmw .", "i drive a toyota .", "toyota"),
        ("do you drive a mercedes ?", "no", "i drive a bmw .", "i drive a bmw .", ""),
        (
            "do you drive a nissan ?",
            "yes",
            "i drive a nissan pathfinder .",
            "i drive a nissan altima .",
            "altima",
        ),
        (
            "do you like pizza ?",
            "yes",
            "i like pizza .",
            "i like sushi .",
            "",
        ),  # like-verbs take many objects
        ("do you like to sing ?", "yes", "i like to look at blocks and sing .", "i like to sing !", ""),
    ],
)
def test_yn_wrong_value(question, truth, fact, text, expected) -> None:
    assert yn_wrong_value(question, truth, (fact,), text) == expected


@pytest.mark.parametrize(
    ("question", "truth", "text", "expected"),
    [
        ("when will you get pigs ?", "spring", "in the fall .", "in the fall"),
        ("what are you allergic to ?", "water", "peanuts , i carry an epi pen .", "peanuts"),
        ("when will you get pigs ?", "spring", "in the spring .", ""),
        ("when will you get pigs ?", "spring", "i don't know .", ""),  # evasive
        ("when will you get pigs ?", "spring", "i get them soon .", ""),  # a statement, not a bare value
        ("when will you get pigs ?", "spring", "sounds fun !", ""),  # no value word
        ("in what year did you win ?", "1992", "back in '92 !", ""),  # a year's last digits
    ],
)
def test_short_value(question, truth, text, expected) -> None:
    assert short_value(question, truth, text) == expected


@pytest.mark.parametrize(
    ("question", "truth", "text", "expected"),
    [
        ("how old are you ?", "23", "i'm 32 .", "32"),
        ("how old are you ?", "23", "i'm 23 .", ""),
        ("when did you graduate ?", "2011", "in twenty eleven .", ""),
        ("how do you go to school ?", "bus", "2 buses", ""),  # the truth is no number
        ("how old were you when you married ?", "20", "i'm 40 .", ""),  # not what was asked
        ("how old were you when you graduated ?", "9", "i graduated in 2011 .", ""),  # a year, not an age
        ("how old are you ?", "23", "the previous one was too old .", ""),  # "one" is no number here
    ],
)
def test_other_number(question, truth, text, expected) -> None:
    assert other_number(question, truth, text) == expected


@pytest.mark.parametrize(
    ("question", "truth", "fact", "text", "expected"),
    [
        # cat:17: another colour to a colour question, another name to a question about a name
        ("what is your favorite color ?", "grey", "i like grey", "i have a black car", "black"),
        ("what color is your hair ?", "brown", "i have brown hair", "i have red hair", "red"),
        ("what color is your hair ?", "brown", "i have brown hair", "i don't have red hair", ""),  # negated
        ("what color is your car ?", "grey", "my car is grey , my room blue", "it's blue", ""),  # the fact's
        ("what color is your hair ?", "brown", "i have brown hair", "i like my hair", ""),  # no colour
        ("what color reminds you of flowers ?", "yellow", "yellow roses", "a gold medalist", ""),  # a medal
        ("what is your dog's name ?", "trooper", "a dog named trooper", "my dog is named olly", "olly"),
        ("what is your dog's name ?", "trooper", "a dog named trooper", "he's called max .", "max"),
        ("what is your dog's name ?", "trooper", "a dog named trooper", "my name is kyle", ""),  # the bot's
        ("what is your name ?", "george", "my name is george", "my name is kyle .", "kyle"),
        ("what is your name ?", "george", "my name is george", "my name is george .", ""),
        ("where do you live ?", "ohio", "i live in ohio", "a red car named max", ""),  # no such question
        # the fact speaks of something else of the type: it names no truth for this question
        ("what color is your bike ?", "red", "i love the color blue", "my bike is green", ""),
        ("what is your name ?", "kelly", "my dog's name is rex", "my name is kelly", ""),
        ("what is your dog's name ?", "rex", "a lab named rex", "my dog is named max", "max"),  # cat:18
        # cat:18: names in any case; "named after" names no one; only the bot's own name for its own
        ("what is your dog's name ?", "trooper", "a dog named trooper", "My dog is named Olly .", "olly"),
        ("what is your dog's name ?", "trooper", "a dog named trooper", "he's named after my dad", ""),
        ("what is your name ?", "george", "my name is george", "my dog is named rex .", ""),
        ("what is your name ?", "george", "my name is george", "My name is Elena .", "elena"),
        ("what is your dog's name ?", "barnaby", "a dog named barnaby", "a dog named barnby .", ""),  # typo
        ("what is your dog's name ?", "barnaby", "a dog named barnaby", "a dog named barney .", "barney"),
        # cat:18: no colour of the verb the question does not ask; one colour spelled two ways
        ("what color do you hate ?", "orange", "i hate orange", "i hate orange . i love blue .", ""),
        ("what color do you hate ?", "orange", "i hate orange", "i hate the color blue .", "blue"),
        ("what is your favorite color ?", "grey", "i like grey", "i hate the color blue .", ""),
        ("what is your favorite color ?", "grey", "i like grey", "my favorite is gray .", ""),
        ("what is your favorite color ?", "gray", "i like gray", "my favorite is grey .", ""),
    ],
)
def test_typed_value(question, truth, fact, text, expected) -> None:
    known = frozenset().union(*(keys(x) for x in (fact, question)))
    assert typed_value(question, truth, fact, text, known) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("i have short hair", True), ("i have hair", False), ("i have long hair", False)],
)
def test_restates(text, expected) -> None:
    assert restates(text, ("i've short hair .",)) is expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("dogs", "dog"),
        ("dog's", "dog"),
        ("i'm", ""),
        ("don't", ""),
        ("loves", "<like>"),
        ("4th", "4"),
        ("the", ""),
    ],
)
def test_key(word, expected) -> None:
    assert key(word) == expected


@pytest.mark.parametrize(
    ("question", "truth", "expected"),
    [
        ("what is your name ?", "kay", ("my name is kay",)),
        ("What's your favorite band?", "aerosmith | the band", ("my favorite band is aerosmith",)),
        ("what is the name of your cat ?", "tom", ("my cat's name is tom", "my cat is named tom")),
        ("where do you live ?", "ohio", ("i live in ohio",)),
        ("what do you do ?", "teacher", ()),
        # cat:4: the question's attribute, its tense, a stranded preposition, "are you ..."
        ("What color is your dog?", "black", ("my dog is black", "my dog's color is black")),
        ("when was your birthday ?", "yesterday", ("my birthday is yesterday",)),
        ("What religion do you follow ?", "buddhism", ("i follow buddhism",)),
        ("What did you study?", "chemistry", ("i study chemistry", "i studied chemistry")),
        ("what kind of music do you listen to ?", "jazz", ("i listen to jazz",)),
        ("What tv show are you a fan of?", "walking dead", ("i am a fan of walking dead",)),
        ("what animal are you terrified of ?", "scorpions", ("i am terrified of scorpions",)),
        # no frame where the question's words would not sit before the value
        ("what did you study in yale ?", "finance", ()),
        ("what do you like doing in a gym ?", "treadmill", ()),
        ("what do you think ?", "yes", ()),
        ("what did you drive ?", "a truck", ("i drive a truck", "i drove a truck")),  # cat:5: irregular past
        # cat:5: no frame where "your X" is no noun, or "which one"
        ("when was your son born ?", "2010", ()),
        ("what grade is your son in ?", "3rd", ()),
        ("which one is your favorite ?", "red", ()),
    ],
)
def test_question_facts(question, truth, expected) -> None:
    assert question_facts(question, truth) == expected


@pytest.mark.parametrize(
    ("truth", "text", "expected"),
    [
        ("12", "i'm 22 years old . i'm a 12-year-old girl .", "22"),
        ("12", "i'm 12 and i have 2 dogs .", ""),  # another thing counted
        ("12", "i'm 22 years old .", ""),  # no truth: a wrong value, not a self-contradiction
    ],
)
def test_both_numbers(truth, text, expected) -> None:
    assert both_numbers(truth, text) == expected


@pytest.mark.parametrize(
    ("question", "truth", "text", "expected"),
    [
        ("what religion do you follow ?", "buddhism", "i follow hinduism .", "hinduism"),
        ("what religion do you follow ?", "buddhism", "i follow my heart .", "heart"),  # a known miss
        ("where do you feel most at home ?", "bake sale", "i feel most at home in my garden .", "garden"),
        ("what do you drive ?", "honda", "i drive carefully .", ""),  # a manner word
        ("what sport do you play ?", "soccer", "i play outside a lot .", ""),  # a place word
        ("what color is your dog ?", "black", "my dog is a golden retriever .", "golden"),
        ("what color is your dog ?", "black", "my dog is old .", "old"),  # a known miss: read as a colour
        ("what are you afraid of ?", "spiders", "i am afraid of heights .", "heights"),
    ],
)
def test_question_frame_value(question, truth, text, expected) -> None:
    """cat:5: a manner or place adverb is no value in the question's own frame."""
    assert question_frame_value(question, truth, text, keys(question)) == expected
