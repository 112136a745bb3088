"""Role confusion in other words: which clauses the NLI model reads, and what its verdicts make of them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.data.decode_reader import make_example
from consistest.metrics.roles import claim_candidates
from consistest.tasks.cdconv.pairwise import PairSettings, check_version, decide, scored
from consistest.tasks.cdconv.role_nli import ROLE_NLI_VERSION, role_claims


class WordsNLI:
    """Entailment when every word of the hypothesis, but "i"/"am"/"i'm", is in the premise: a paraphrase
    detector a test can compute by hand. Records what it was asked."""

    name, signature = "words", "words[c,n,e]"

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def predict(self, pairs):
        return [max(d, key=d.__getitem__) for d in self.predict_proba(pairs)]

    def predict_proba(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]:
        self.asked += pairs
        out = []
        for p, h in pairs:
            held = set(h.lower().split()) - {"i", "am", "i'm"} <= set(p.lower().replace("'m", " am").split())
            e = 0.9 if held else 0.1
            out.append({"entailment": e, "neutral": 1.0 - e, "contradiction": 0.0})
        return out


@pytest.mark.parametrize(
    ("reply", "user", "mine", "theirs"),
    [
        ("i'm a librarian .", "i work as a librarian , what about you ?", ["i'm a librarian"],
         ["i work as a librarian"]),  # the "you ?" asking it back is dropped
        ("i'm not a librarian . do you read ?", "i read a lot .", [], ["i read a lot"]),  # negated, asked
        ("i think you read a lot .", "i read a lot and you ?", [], ["i read a lot"]),  # opinion, listener
        ("my dog is max .", "we have a dog . my dog is rex .", ["my dog is max"], ["my dog is rex"]),  # "we"
        ("cool !", "do you have a dog ?", [], []),  # nothing stated of anyone's own
        ("i like tea too .", "i like tea a lot .", [], ["i like tea a lot"]),  # the bot's own "i like tea"
        ("i'm doing good too .", "i'm doing good .", [], ["i'm doing good"]),  # how the bot is doing
        ("i love it . i have 10 .", "i love my cats . i have 10 .", [], ["i love my cats", "i have 10"]),
        # names nothing: liking, having, a number
        ("i love to travel .", "no i love to travel .", ["i love to travel"], ["i love to travel"]),
        # "no" answers the question before; it does not negate the clause
        ("i am in a detention center .", "me too ! except i am in a detention center .",
         ["i am in a detention center"], ["i am in a detention center"]),  # after a short lead-in
        ("i'm free .", "when i am free in a month , i will travel .", ["i'm free"], ["i will travel"]),
        # the condition states nothing
        ("i'm the right person .", "don't think i'm the right person .", ["i'm the right person"], []),
        ("i'm a nurse .", "not me , i'm a nurse .", ["i'm a nurse"], ["i'm a nurse"]),  # "not" answers
        ("i'm a nurse .", "i'm not a nurse .", ["i'm a nurse"], []),  # a negated clause
        ("i'm a painter .", "you must be a worker i used to be a painter .", ["i'm a painter"], []),
        # the listener in the lead-in
        ("i'm a nurse .", "maybe i am a nurse .", ["i'm a nurse"], []),  # a hedge
        ("i'm lazy .", "she thinks i am lazy .", ["i'm lazy"], []),  # hearsay
        ("i have a dog .", "can i have a dog", ["i have a dog"], []),  # a question without "?"
        ("i will travel .", "after i retire i will travel .", ["i will travel"], []),  # a time clause
        ("i am a nurse .", "in my next life i will be a nurse .", ["i am a nurse"], []),  # not "my ..."
        ("i'm a nurse .", "so yeah well ok then lol i am a nurse .", ["i'm a nurse"], []),  # too long a lead
        ("i love them . i have a few .", "i love cats .", [], ["i love cats"]),  # names nothing
    ],
)  # fmt: skip
def test_claim_candidates(reply: str, user: str, mine: list[str], theirs: list[str]) -> None:
    got_mine, got_theirs, held = claim_candidates(reply, [user], ["i like tea .", "do you like tea ?"])
    assert (got_mine, got_theirs, held) == (mine, theirs, ["i like tea"])  # the bot's question holds nothing


@pytest.mark.parametrize(
    ("turns", "persona", "claim"),
    [
        (["hi !", "hello .", "i am a librarian at the college .", "i am a librarian ."], [],
         "i am a librarian"),  # said in other words than the user's: the token rules miss it
        (["hi !", "hello .", "i am a librarian at the college .", "i am a librarian ."],
         ["i am a librarian ."], None),  # its persona holds it: sharing, not role confusion
        (["i am a librarian .", "hello .", "i like tea .", "i am a librarian ."], [],
         "i am a librarian"),  # an earlier user turn counts too, and the bot's "hello" holds nothing
        (["hi !", "hello .", "are you a librarian ?", "i am a librarian ."], [], None),  # the user asked
        (["hi !", "hello .", "i am a librarian .", "i am not a librarian ."], [], None),  # negated
        (["i am a librarian ."], [], None),  # no user turn before it
        (["hi !", "hello .", "i live in ohio .", "i'm from ohio as well ."], ["i live in ohio ."],
         None),  # its persona holds the words, if not (for the NLI model) the meaning
    ],
)  # fmt: skip
def test_role_claims(turns: list[str], persona: list[str], claim: str | None) -> None:
    ex = make_example(turns, None, persona=persona)
    assert role_claims(WordsNLI(), [ex]) == [claim]


def test_every_user_turn_is_read_and_none_of_the_bots() -> None:
    users = ["i am a nurse .", "i like tea ."]
    _, theirs, held = claim_candidates("i am a nurse .", users, ["i have a cat ."])
    assert (theirs, held) == (["i am a nurse", "i like tea"], ["i have a cat"])
    with pytest.raises(TypeError):  # one turn passed as the list would read as its characters
        claim_candidates("i am a nurse .", "i am a nurse .", [])
    ex = make_example(["i am a nurse .", "i am a teacher .", "hi .", "i am a teacher ."], None)
    assert role_claims(WordsNLI(), [ex]) == [None]  # the bot's own earlier turn is no user's


def test_the_bot_statements_are_read_only_for_claims_the_user_entails() -> None:
    nli = WordsNLI()
    ex = make_example(["hi", "i have a cat .", "i am a nurse .", "i am a nurse . i like tea ."], None)
    assert role_claims(nli, [ex]) == ["i am a nurse"]
    assert ("i have a cat", "i like tea") not in nli.asked and ("i have a cat", "i am a nurse") in nli.asked


def test_a_claim_decides_as_a_role_rule_only_with_roles() -> None:
    # "except" before the user's "i": the token rule reads no statement there, the NLI reading does
    user = "well except i am a librarian at the college ."
    ex = make_example(["hi !", "hello .", user, "i am a librarian ."], None)
    (s_on,), (ev,) = scored(WordsNLI(), [ex], PairSettings(qa=True, roles=True))
    assert ev is not None and ev.rule == "claim-nli" and s_on == {}  # the guard reads no pair of it
    assert decide(ex.id, s_on, 0.5, ev).category == "role"
    _, (off,) = scored(WordsNLI(), [ex], PairSettings(qa=True))
    assert off is None
    assert PairSettings(qa=True, roles=True).tag().endswith(f"+role:{ROLE_NLI_VERSION}")
    assert "role" not in PairSettings(qa=True).tag()


@pytest.mark.parametrize(
    ("stored", "error"),
    [(False, None), (None, None), (ROLE_NLI_VERSION, None), (True, "expected a rules version number"),
     (ROLE_NLI_VERSION + 1, f"role:{ROLE_NLI_VERSION + 1}, this consistest has role:{ROLE_NLI_VERSION}")],
)  # fmt: skip
def test_a_stored_role_version_is_checked(stored, error) -> None:
    if error is None:
        assert check_version(stored, ROLE_NLI_VERSION, Path("detector.json")) is bool(stored)
    else:
        with pytest.raises(InputError, match=error):
            check_version(stored, ROLE_NLI_VERSION, Path("detector.json"))
