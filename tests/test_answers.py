"""The answer rules of ``--qa-rules``: a reply read with the user's question it answers."""

from __future__ import annotations

import pytest

from consistest.metrics import roles
from consistest.metrics.answers import (
    Evidence,
    answer_polarity,
    answer_statement,
    is_question,
    on_topic,
    qa_evidence,
    returns_question,
)
from consistest.metrics.roles import agreed, claims_user_fact, copies, echoes


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("do you have a dog ?", "yes .", "yes"),
        ("do you have a dog ?", "oh , no , i have a cat .", "no"),
        ("do you have a dog ?", "nope", "no"),
        ("do you have a dog ?", "i do .", "yes"),  # a bare short form
        ("do you have a dog ?", "i don't .", "no"),
        ("do you have a dog ?", "i do like dogs .", None),  # the short form does not stand alone
        ("are you married ?", "i am not sure what you mean", None),
        ("do you have a dog ?", "no idea , sorry", None),  # "no idea" answers nothing
        ("what is your name ?", "yes .", "yes"),  # the word is read whatever the question
        ("what is your name ?", "i do .", None),  # a WH question has no short forms
        ("do you like tea ?", "of course not .", "no"),
        ("do you like tea ?", "absolutely not , i hate it", "no"),
        ("do you like tea ?", "yes and no .", None),
        ("do you like tea ?", "yes . no .", None),
        ("do you like tea ?", "yes , no problem", "yes"),  # "no problem" answers nothing
        ("do you like tea ?", "sure , not a problem", "yes"),  # "not" after a comma is no "of course not"
        ("do you like tea ?", "yes , not many though", "yes"),
        ("do you like tea ?", "no , of course not", "no"),
        ("do you like tea ?", "nope , definitely not", "no"),
        ("do you like tea ?", "i don\u2019t .", "no"),  # a curly apostrophe
        ("do you like tea ?", "", None),
        ("do you like tea ?", "?!", None),
    ],
)
def test_answer_polarity(question: str, reply: str, expected: str | None) -> None:
    assert answer_polarity(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("do you have kids ?", "yes i do . i have two", "i have kids . i have two"),
        ("do you have a dog ?", "no , i have a cat .", "i don't have a dog . i have a cat"),
        ("are you married ?", "i am .", "i am married ."),
        ("have you been to paris ?", "yes i have , twice", "i have been to paris . twice"),
        ("do you like pizza ?", "nope", "i don't like pizza ."),
        ("what is your name ?", "yes .", "yes ."),  # no Y/N question: the reply unchanged
        ("do you have a dog ?", "i love cats .", "i love cats ."),  # no yes/no answer: unchanged
        ("do you like tea ?", "i don\u2019t .", "i don't like tea ."),
        ("do you like tea ?", "no , of course not .", "i don't like tea ."),
        ("do you like tea ?", "sure , not a problem", "i like tea . not a problem"),
        ("i like tea .", "no .", "no ."),  # the user asked nothing
    ],
)
def test_answer_statement(question: str, reply: str, expected: str) -> None:
    assert answer_statement(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("how old are you ?", "how old are you ?", True),
        ("what does your wife do ?", "what does your wife do ?", True),
        ("what does your wife do?", "What does your wife do ? ?", True),
        # not only the question: a question back after a statement is no role confusion (the guidelines)
        ("are you vegan ?", "are you vegan ? i love vegan cheese .", False),
        ("how old are you ?", "i am 32 . how old are you ?", False),
        ("do you like to grill ?", "what do you like to grill ?", False),  # a follow-up, not the question
        ("how old are you ?", "i am 32 years old .", False),
        ("i like dogs .", "i like dogs ?", False),  # the user asked nothing
    ],
)
def test_returns_question(question: str, reply: str, expected: bool) -> None:
    assert returns_question(question, reply) is expected


@pytest.mark.parametrize(
    ("turn", "expected"),
    [
        ("do you have a dog ?", True),
        ("really?! :)", True),
        ("What did you recently buy with your best friend ", True),  # a WH turn without "?"
        ("what a day .", False),
        ("i like small cities .", False),
        ("", False),
    ],
)
def test_is_question(turn: str, expected: bool) -> None:
    assert is_question(turn) is expected


def test_on_topic_keeps_premises_sharing_a_content_word() -> None:
    premises = ["i live in alabama .", "i love dogs .", "my home is in the country ."]
    assert on_topic("where do you live ?", premises) == ["i live in alabama ."]
    assert on_topic("how are you ?", premises) == []


PERSONA = ["i have blue eyes and red hair that comes to my waist .", "i have three sisters .", "i love tea ."]


@pytest.mark.parametrize(
    ("question", "reply", "premises"),
    [
        # the question is about someone else: the bot's own statements do not answer it
        ("does your mom have a dog ?", "no .", ["yes , i have a dog ."]),
        ("do your parents live in texas ?", "no .", ["i live in texas ."]),
        # the premise is about the user
        ("do you like to read ?", "no .", ["oh , you like to read ."]),
        # the reply's clauses about someone else say nothing of the bot's answer
        ("do you have a dog ?", "no , but my brother has a dog .", []),
        ("are you married ?", "no , but my brother is married .", []),
        # a kind of the asked thing is no other value ("rock" is music, "a son" is a kid)
        ("do you like music ?", "yes , i like rock .", []),
        ("do you have kids ?", "yes , i have a son .", []),
        ("do you have a dog ?", "yes , i have a german shepherd !", ["i have a dog ."]),
        # additions are no contradiction of a yes
        ("do you like tea ?", "yes , i like coffee too .", []),
        ("do you have a dog ?", "yes , i also have a cat .", []),
        # the user asked nothing
        ("i live in alabama .", "i live in texas .", ["i live in alabama ."]),
    ],
)
def test_qa_evidence_does_not_overreach(question: str, reply: str, premises: list[str]) -> None:
    got = qa_evidence(question, reply, premises)
    assert got is None or got.verdict == "consistent", got


def test_qa_rules_take_any_string() -> None:
    """The rules run on arbitrary dialogues: no string makes them raise (questions shaped like "is that
    true ?" once did)."""
    import random

    words = [
        "is",
        "are",
        "do",
        "does",
        "did",
        "that",
        "this",
        "your",
        "you",
        "my",
        "dog",
        "true",
        "?",
        ".",
        ",",
        "!",
        "yes",
        "no",
        "not",
        "i",
        "don't",
        "'",
        "’",
        "2",
        "two",
    ]
    rng = random.Random(0)
    for _ in range(3000):
        q = " ".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        r = " ".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        qa_evidence(q, r, [r, q])
        answer_statement(q, r)
    for q in ("is that true ?", "is your dog ?", "does your dog ?", "?", ""):
        assert qa_evidence(q, "no .", ["i have a dog ."]) is None


@pytest.mark.parametrize(
    ("question", "reply", "premises", "verdict", "rule"),
    [
        # the user's question returned
        ("how old are you ?", "how old are you ?", PERSONA, "contradiction", "role"),
        # the user's whole turn repeated, after a question or a statement
        ("i am a cook . do you work ?", "i am a cook . do you work ?", PERSONA, "contradiction", "echo"),
        ("i have three dogs .", "oh , i have three dogs .", PERSONA, "contradiction", "echo"),
        # a yes/no word its own long part contradicts
        ("do you like math ?", "yes , i hate math .", [], "contradiction", "intra"),
        (
            "do you play any instruments ?",
            "yes , i don't play any instruments .",
            [],
            "contradiction",
            "intra",
        ),
        # the other stand than the persona on a Y/N question
        ("do you have blue eyes ?", "no , i have brown eyes .", PERSONA, "contradiction", "yn"),
        ("do you have blue eyes ?", "yes .", PERSONA, "consistent", "yn"),
        ("do you have blue eyes ?", "i have blue eyes !", PERSONA, "consistent", "yn"),  # no yes/no word
        ("do you like tea ?", "no .", PERSONA, "contradiction", "yn"),
        # another value than an earlier statement on the question's topic (any question)
        ("how many sisters do you have ?", "i have five sisters .", PERSONA, "contradiction", "fact"),
        ("how many sisters do you have ?", "i have three sisters .", PERSONA, "consistent", "fact"),
        # a yes with another value than the persona's: the value decides
        ("do you have sisters ?", "yes , i have five sisters .", PERSONA, "contradiction", "fact"),
    ],
)
def test_qa_evidence(question: str, reply: str, premises: list[str], verdict: str, rule: str) -> None:
    got = qa_evidence(question, reply, premises)
    assert got is not None
    assert (got.verdict, got.rule) == (verdict, rule)
    assert got.category == (
        {"role": "role", "echo": "role", "claim": "role", "intra": "intra"}.get(rule, "history")
        if verdict != "consistent"
        else None
    )


@pytest.mark.parametrize(
    ("question", "reply", "premises"),
    [
        ("do you have a dog ?", "yes .", PERSONA),  # the persona says nothing about dogs
        ("what do you do for fun ?", "i like to swim .", PERSONA),  # nothing on topic
        ("do you have blue eyes ?", "i'm not sure what you mean .", PERSONA),  # no answer
    ],
)
def test_qa_evidence_leaves_the_rest_to_nli(question: str, reply: str, premises: list[str]) -> None:
    assert qa_evidence(question, reply, premises) is None


@pytest.mark.parametrize(
    ("turn", "reply", "expected"),
    [
        ("i have three dogs .", "i have three dogs .", True),
        ("i have three dogs .", "oh , i have three dogs .", True),  # after an opener
        ("I have three dogs.", "i have three dogs and a cat .", True),  # case and punctuation aside
        ("i am a cook . do you work ?", "a job . i am a cook . do you work ?", True),  # from a sentence start
        ("i love my three dogs .", "i have three dogs .", False),  # not word for word
        ("do you like to grill ?", "yes , i do . what do you like to grill ?", False),  # mid-sentence
        ("hi ! how is it going ?", "hi ! how is it going ?", False),  # a greeting returned
        ("where do you work ?", "where do you work ?", False),  # one content word: returns_question's case
        ("good morning my friend !", "good morning my friend !", False),  # a greeting
        ("nice to meet you , my friend .", "nice to meet you , my friend .", False),
        ("cats are better than dogs .", "cats are better than dogs .", False),  # an opinion, nobody's fact
        ("my sister lives in boston .", "my sister lives in boston ? that's cool .", False),  # asked back
        ("i like tea", "i like tea", False),  # fewer than four words
    ],
)
def test_echoes(turn: str, reply: str, expected: bool) -> None:
    assert echoes(turn, reply) is expected


def test_an_echo_decides_after_a_statement_too() -> None:
    """After a user turn that asks nothing, the echo is the one rule that acts."""
    got = qa_evidence("i just moved to seattle .", "i just moved to seattle .", [])
    assert got is not None and (got.rule, got.category) == ("echo", "role")
    assert qa_evidence("i just moved to seattle .", "i love seattle .", ["i live in seattle ."]) is None


@pytest.mark.parametrize(
    ("reply", "users", "own", "expected"),
    [
        # the user's statement claimed, nothing of the bot's holds it
        (
            "yes . i'm a librarian at boston college .",
            ["i'm sixty ! i make a living as a librarian for boston college ."],
            [],
            "i'm a librarian at boston college",
        ),
        # a review's false alarms: about the listener, opinions, hearsay, a user clause that is no statement
        ("i am a great cook , thanks !", ["you seem like a great cook !"], [], None),
        ("i love that you volunteer at the animal shelter", ["i volunteer at the animal shelter"], [], None),
        ("i heard you run marathons every spring", ["i run marathons every spring"], [], None),
        (
            "yes , i think the weather in denver is great",
            ["the weather in denver is great this week"],
            [],
            None,
        ),
        (
            "i'm a librarian at boston college .",
            ["make a living as a librarian at boston college ."],
            [],
            None,
        ),
        (
            "oh i do gymnastics every day",
            ["i do gymnastics every day"],
            ["i like tea ."],
            "oh i do gymnastics every day",
        ),
        # a second review's false alarms: its own value, the opposite, someone else, a wish
        ("my favorite band is queen .", ["my favorite band is the beatles . you ?"], [], None),
        ("i work at a bakery downtown .", ["i work at a bank downtown ."], [], None),
        (
            "i own a car , i drive to work every day .",
            ["i do not own a car , i take the bus to work ."],
            [],
            None,
        ),
        ("my brother plays guitar in a band too .", ["i play guitar in a band ."], [], None),
        ("we are going to the concert tonight !", ["i am going to the concert tonight ."], [], None),
        ("i'd love to go to italy next summer .", ["i'd love to go to italy next summer ."], [], None),
        # negated, or an opinion, with the user's words: no claim
        ("i do not run marathons every spring .", ["i run marathons every spring ."], [], None),
        ("i think the weather in denver is great .", ["i think the weather in denver is great ."], [], None),
        (
            "my favorite band is the beatles too .",
            ["my favorite band is the beatles ."],
            [],
            "my favorite band is the beatles too",
        ),
        (
            "i grow roses in my garden too .",
            ["i grow roses in my garden every spring ."],
            [],
            "i grow roses in my garden too",
        ),
        # the bot's own persona holds it: sharing, not role confusion
        ("i like all music .", ["i like all music ."], ["i like all kinds of music ."], None),
        # negated, hedged or asked: no claim
        ("i don't do gymnastics .", ["i do gymnastics every day"], [], None),
        ("i wish i did gymnastics .", ["i do gymnastics every day"], [], None),
        ("do you do gymnastics ?", ["i do gymnastics every day"], [], None),
        # the user's question is no statement to claim; one shared word is not enough
        ("i work at a bank .", ["where do you work at a bank ?"], [], None),
        ("i love my dog .", ["my dog is old ."], [], None),
        # how one is doing is no fact to claim
        ("i'm doing great , thanks .", ["i'm doing great , how are you ?"], [], None),
        # one content word is a claim when it names something, not when it names nothing or only a number
        ("i'm a librarian .", ["i am a librarian ."], [], "i'm a librarian"),
        ("i'm a librarian .", ["i'm a librarian at the school ."], [], "i'm a librarian"),
        ("i'm a librarian .", ["i'm a librarian ."], ["i work as a librarian ."], None),
        ("i love it .", ["i love it !"], [], None),
        (
            "i'm nervous .",
            ["yes it is . i'm nervous"],
            [],
            "i'm nervous",
        ),  # a state of the user's, taken over
        # an acknowledgement is no claim
        ("i agree .", ["i agree ."], [], None),
        ("i'm sorry .", ["i'm sorry to hear that ."], [], None),
        ("i'm 45 .", ["i'm 45 ."], [], None),
    ],
)
def test_claims_user_fact(reply: str, users: list[str], own: list[str], expected: str | None) -> None:
    assert claims_user_fact(reply, users, own) == expected


@pytest.mark.parametrize(
    ("turn", "reply", "own", "expected"),
    [
        # a sentence of the user's statement taken over, part of the turn, a wish or an opinion
        (
            "Getting a dog sounds like a good idea. I'd like a poodle, if I could pick any breed.",
            "I'm not sure about that. I'd like a poodle.",
            [],
            True,
        ),
        (
            "you are better off reading the books . the movies are lame .",
            "the movies are lame . i agree .",
            [],
            True,
        ),  # fmt: skip
        (
            "i think they were bred from the original pinschers , but i'm not sure .",
            "i think they were bred from the original pinschers .",
            [],
            True,
        ),  # fmt: skip
        # a question is no statement to take over; the bot's own statement holds it
        (
            "have you told many people about this relation ?",
            "i have told many people about this relation .",
            [],
            False,
        ),  # fmt: skip
        ("i have two dogs .", "i have two dogs and they are great .", ["i have two dogs ."], False),
        # a greeting; one word shared; a sentence mostly of the bot's own words; asked back
        ("nice to meet you , my friend .", "nice to meet you , my friend .", [], False),
        ("i love my three dogs and my cat .", "i have a cat named tom and a parrot .", [], False),
        (
            "i grow roses in my garden .",
            "my neighbour grows tomatoes and peppers in my garden and sells them at the market .",
            [],
            False,
        ),  # fmt: skip
        ("i like to read books .", "you like to read books ?", [], False),
        # a review's false alarms: asked back, negated, turned to the other person, a wish or leave-taking
        (
            "i have three dogs and two cats .",
            "oh , you have three dogs and two cats ? that's cool !",
            [],
            False,
        ),
        ("the movies are lame .", "the movies are not lame .", [], False),
        (
            "i just got back from a trip to japan .",
            "so you just got back from a trip to japan . cool !",
            [],
            False,
        ),  # fmt: skip
        ("you love hiking in the mountains .", "i love hiking in the mountains .", [], False),
        ("have a nice day , my friend .", "have a nice day too , my friend .", [], False),
        ("merry christmas and happy new year !", "merry christmas and happy new year !", [], False),
        ("the movies are lame .", "the movies are lame ? i loved them .", [], False),
        # a run of two words is too short
        ("i love to bake bread on sundays .", "i love baking bread each sunday .", [], False),
        # not knowing, or not being sure, is no fact to take over; what follows it may be one (qa:18)
        ("i don't know much about that band .", "i don't know much about that band either .", [], False),
        ("i don't know if it helps , but i like to think so .", "i'm not sure if it helps .", [], False),
        (
            "i bet those fairies live in a tree stump by the river !",
            "i'm not sure , but maybe they live in a tree stump by the river !",
            [],
            True,
        ),  # fmt: skip
        # a review's examples (qa:19): not knowing how to do something is a fact; a reaction, or words that
        # name nothing, are none
        ("i don't know how to swim , so i stay away from the lake .", "i don't know how to swim .", [], True),
        ("i'm sorry to hear that , it must be hard .", "i'm sorry to hear that .", [], False),
        ("i like that a lot , i really do .", "i like that a lot .", [], False),
    ],
)
def test_copies(turn: str, reply: str, own: list[str], expected: bool) -> None:
    assert copies(turn, reply, own) is expected


@pytest.mark.parametrize(
    ("threshold", "raised", "turn", "reply"),
    [
        ("COPY_MIN_RUN", 4, "i love to bake bread on sundays .", "i love baking bread on sundays ."),  # run 3
        (
            "COPY_RUN_SHARE",
            0.6,
            "i collect old coins from greece and rome .",
            "yes i collect old coins from spain and france .",
        ),  # a run of 5 of its 9 words  # fmt: skip
        (
            "COPY_SHARE",
            0.7,
            "i love to bake bread on sundays .",
            "i love to bake cakes for my friends .",
        ),  # 2 of its 3 content words the turn's  # fmt: skip
    ],
)
def test_each_copy_threshold_decides_a_case(
    monkeypatch, threshold: str, raised: float, turn: str, reply: str
) -> None:
    assert copies(turn, reply)
    monkeypatch.setattr(roles, threshold, raised)
    assert not copies(turn, reply)


def test_a_copy_is_role_confusion_an_echo_first() -> None:
    """In ``qa_evidence`` a whole turn repeated is an echo, a sentence of it taken over a copy."""
    turn = "it is hard to find good food here . i want to learn to cook ."
    assert qa_evidence(turn, "i want to learn to cook .", []) == Evidence("contradiction", "copy")
    assert qa_evidence(turn, "oh , " + turn, []) == Evidence("contradiction", "echo")
    assert qa_evidence(turn, "i want to learn to cook .", ["i want to learn to cook ."]) is None
    assert Evidence("contradiction", "copy").category == "role"


def test_a_copy_of_any_earlier_user_turn_is_role_confusion() -> None:
    """``qa_evidence`` reads every turn of the user's for a copy, as for a claim (qa:18), not the last alone;
    a turn of the bot's own is no user turn."""
    history = [
        "i am loyal to my principles , that is why i do not eat meat , because i love life .",
        "wow , are you a vegetarian ?",
        "i don't mess with meat at all .",
    ]
    reply = "i don't eat meat , because i love life ."
    assert qa_evidence(history[-1], reply, [], history) == Evidence("contradiction", "copy")
    assert qa_evidence(history[-1], reply, [], history[1:]) is None  # the first turn unseen
    assert qa_evidence(history[-1], reply, [history[0]], history) is None  # the bot holds it
    bots = ["hi !", history[0], history[-1]]  # the same words as the bot's own earlier turn
    assert qa_evidence(bots[-1], reply, [bots[1]], bots) is None


@pytest.mark.parametrize(
    ("history", "reply", "rule"),
    [
        # what the user said of themselves turns ago, taken over
        (["i love hiking in the mountains .", "nice !", "what else ?"], "i love hiking in the mountains .",
         "copy"),
        # ... after the bot agreed with it, it is the bot's own too
        (["i love hiking in the mountains .", "me too !", "what else ?"], "i love hiking in the mountains .",
         None),
        (["i hate waking up early .", "ugh , same .", "when do you get up ?"],
         "five . i hate waking up early .", None),
        # an earlier remark, saying or plan of "we" is nobody's own
        (["the weather has been terrible all week .", "yeah .", "i'm stuck inside ."],
         "the weather has been terrible all week . read a book ?", None),
        (["we should go to the beach sometime .", "yes !", "what would you bring ?"],
         "we should go to the beach sometime soon . i would bring snacks .", None),
    ],
)  # fmt: skip
def test_a_copy_of_an_earlier_turn_is_what_the_user_said_of_themselves(
    history: list[str], reply: str, rule: str | None
) -> None:
    """qa:19, after a review of qa:18: an earlier user turn counts for ``copy`` by its sentences with "i",
    "my", "me", and not when the bot agreed with it in its next turn ("me too !")."""
    premises = [history[1]]
    got = qa_evidence(history[-1], reply, premises, history)
    assert (got.rule if got is not None else None) == rule


def test_agreed_finds_the_user_turns_the_bot_agreed_with() -> None:
    history = ["i have two cats .", "me too !", "i love them .", "so cute .", "i also have a dog ."]
    assert agreed(history) == ["i have two cats ."]
    assert agreed(["i have two cats .", "i agree , cats are great .", "..."]) == ["i have two cats ."]
    assert agreed(["i have two cats .", "not the same for me .", "..."]) == []
    assert agreed(["hi"]) == []


def test_an_echo_of_what_the_bot_holds_is_no_role_confusion() -> None:
    """The user repeats the bot's own fact (its persona, or its earlier turn) and the bot says it again."""
    assert echoes("i have two dogs .", "me too ! i have two dogs .")
    assert not echoes("i have two dogs .", "me too ! i have two dogs .", ["i have two dogs ."])
    got = qa_evidence("i have two dogs .", "i have two dogs .", ["i have two dogs ."], ["i have two dogs ."])
    assert got is None


@pytest.mark.parametrize(
    ("history", "reply", "premises", "rule"),
    [
        # the user's statement two turns back, claimed now
        (["i grow roses in my garden every spring .", "nice !", "what do you do ?"],
         "i grow roses every spring in my garden .", ["i am a pilot ."], "claim"),
        # ... and taken over nearly word for word (qa:18: a copy, read first)
        (["i grow roses in my garden every spring .", "nice !", "what do you do ?"],
         "i grow roses in my garden every spring .", ["i am a pilot ."], "copy"),
        # the bot's own earlier turn is no user turn: restating it claims nothing
        (["hi !", "i grow roses in my garden every spring .", "what do you do ?"],
         "i grow roses in my garden every spring .", ["i grow roses in my garden every spring ."], None),
        (["hi !", "i grow roses in my garden every spring .", "what do you do ?"],
         "i grow roses in my garden every spring .", [], None),
    ],
)  # fmt: skip
def test_claim_reads_the_user_turns_of_the_history(
    history: list[str], reply: str, premises: list[str], rule: str | None
) -> None:
    got = qa_evidence(history[-1], reply, premises, history)
    assert (got.rule if got is not None and got.rule in ("claim", "echo", "copy") else None) == rule
