"""Question-builder rules: normalisation, polarity/person, Y/N templates, counterfactuals, WH rules,
exclusivity and filters (table-driven, hand-checkable cases)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from consistest.core.records import QA
from consistest.tasks.consistest.qagen.filters import (
    filter_qas,
    is_exclusive,
    malformed_reason,
    truth_in_fact,
)
from consistest.text.clauses import coordinated, core
from consistest.text.parse import parse
from consistest.text.polarity import answer_polarity, drop_negation, is_negated, swap_person
from consistest.text.questions.wh_rules import wh_questions
from consistest.text.questions.yn_templates import (
    build_pool,
    counterfactual,
    fix_articles,
    history_worthy,
    yn_question,
)
from consistest.text.sentences import informative, normalise, split_clauses, statement_pieces

pytest.importorskip("spacy")


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("I'm a nurse.", "i am a nurse ."),
        ("i've two dogs , i don't eat meat", "i have two dogs , i do not eat meat"),
        ("i can't swim!", "i can not swim !"),
        ("i am  a stunt double as my second job.", "i am a stunt double as my second job ."),
    ],
)
def test_normalise(raw: str, norm: str) -> None:
    assert normalise(raw) == norm


@pytest.mark.parametrize(
    ("sentence", "clauses"),
    [
        (
            "i am good , i just got off work , i have two jobs .",
            ["i am good", "i just got off work", "i have two jobs ."],
        ),
        ("yes , i have a dog , a lab .", ["i have a dog , a lab ."]),
    ],
)
def test_split_clauses(sentence: str, clauses: list[str]) -> None:
    assert split_clauses(sentence) == clauses


def test_statement_pieces_split_at_new_subject() -> None:
    assert statement_pieces("i am 19 and i can not wait to move out .") == [
        "i am 19",
        "i can not wait to move out",
    ]
    assert statement_pieces("well , i love cats and dogs .") == ["i love cats and dogs"]


@pytest.mark.parametrize(
    ("piece", "ok"),
    [
        ("i have two dogs", True),
        ("i think so", False),
        ("i love working on them", False),
        ("i am good", False),
    ],
)
def test_informative_history_statement(piece: str, ok: bool) -> None:
    assert informative(piece) is ok


@pytest.mark.parametrize(
    ("words", "swapped"),
    [
        ("i love my dog", "you love your dog"),
        ("i taught myself", "you taught yourself"),
        ("the car is mine", "the car is yours"),
        ("i was there", "you were there"),
        ("my dog was sick", "your dog was sick"),
        ("i love you", "you love me"),
    ],
)
def test_swap_person(words: str, swapped: str) -> None:
    assert swap_person(words.split()) == swapped.split()


def test_negation() -> None:
    assert is_negated(["i", "do", "not", "eat", "meat"]) and not is_negated(["i", "eat", "meat"])
    assert drop_negation(["i", "have", "no", "pets"]) == ["i", "have", "any", "pets"]


@pytest.mark.parametrize(
    ("reply", "opener", "truth"),
    [
        ("yes i do", "do", "yes"),
        ("no , i am not", "are", "no"),
        ("i do . i coach swimming", "do", "yes"),
        ("i am not rich", "are", "no"),
        ("i have a bird", "do", None),  # "i have" does not mirror "do you ...?"
        ("maybe later", "do", None),
    ],
)
def test_answer_polarity(reply: str, opener: str, truth: str | None) -> None:
    assert answer_polarity(reply, opener) == truth


YN_CASES = [
    ("i am a nurse", "are you a nurse?", "yes", "yn.be"),
    ("i have two dogs", "do you have two dogs?", "yes", "yn.do"),
    ("i like to read", "do you like to read?", "yes", "yn.do"),
    ("my favorite color is blue", "is your favorite color blue?", "yes", "yn.be"),
    ("i can play the piano", "can you play the piano?", "yes", "yn.aux"),
    (
        "i was raised in a single parent household",
        "were you raised in a single parent household?",
        "yes",
        "yn.be",
    ),
    ("i used to work at a bank", "did you use to work at a bank?", "yes", "yn.do"),
    ("i have been to paris", "have you been to paris?", "yes", "yn.aux"),
    ("i will retire in a few years", "will you retire in a few years?", "yes", "yn.aux"),
    ("i went to college", "did you go to college?", "yes", "yn.do"),
    ("i only eat kosher", "do you only eat kosher?", "yes", "yn.do"),
    ("my parents taught me survival skills", "did your parents teach you survival skills?", "yes", "yn.do"),
    ("i do not eat meat", "do you eat meat?", "no", "yn.do.neg"),
    ("i never eat meat", "do you eat meat?", "no", "yn.do.neg"),
    ("i can not swim", "can you swim?", "no", "yn.aux.neg"),
    ("i am not a good swimmer", "are you a good swimmer?", "no", "yn.be.neg"),
    ("i have no pets", "do you have any pets?", "no", "yn.do.neg"),
    ("i love horses", "do you like horses?", "yes", "yn.do"),  # the curated phrasing, implied by love
    ("i enjoy reading", "do you like reading?", "yes", "yn.do"),
    ("i do not love my job", "do you love your job?", "no", "yn.do.neg"),  # not loving != not liking
]


@pytest.mark.parametrize(("statement", "question", "truth", "template"), YN_CASES)
def test_yn_templates(statement: str, question: str, truth: str, template: str) -> None:
    q = yn_question(parse(statement))
    assert q is not None and (q.q, q.a, q.template) == (question, truth, template)


@pytest.mark.parametrize("statement", ["hello there", "the weather is nice", "i"])
def test_yn_no_template(statement: str) -> None:
    assert yn_question(parse(statement)) is None


def test_counterfactual_swaps_same_kind_from_corpus() -> None:
    corpus = ["i drive a bmw", "i drive a mercedes", "i have two dogs", "i have four cats", "i am a nurse"]
    pool = build_pool([parse(s) for s in corpus])
    assert pool["drive"] == ["bmw", "mercedes"] and {"two", "four"} <= set(pool["number"])
    toks = parse("i drive a bmw")
    cf = counterfactual(toks, yn_question(toks), pool, random.Random("0:i drive a bmw"))
    assert cf is not None and (cf.q, cf.a, cf.template) == ("do you drive a mercedes?", "no", "yn.do.cf_slot")
    toks = parse("i have two dogs")
    cf = counterfactual(toks, yn_question(toks), pool, random.Random("x"))
    assert cf is not None and (cf.q, cf.a) == ("do you have four dogs?", "no")
    neg = parse("i do not drive a bmw")  # only positive statements get a counterfactual
    assert counterfactual(neg, yn_question(neg), pool, random.Random("x")) is None


@pytest.mark.parametrize(
    ("statement", "parts"),
    [
        ("i drive a big truck and live in country", ["i drive a big truck", "i live in country"]),
        (
            "i am a recording engineer and own my own studio",
            ["i am a recording engineer", "i own my own studio"],
        ),
        ("my wife left me and took my children", ["my wife left me", "my wife took my children"]),
        ("i love cats and dogs", []),  # coordinated objects, one verb: nothing to split
        ("i am overweight and unhappy", []),
    ],
)
def test_coordinated_verb_phrases(statement: str, parts: list[str]) -> None:
    assert coordinated(parse(statement)) == parts


@pytest.mark.parametrize(
    ("statement", "question", "truth"),
    [
        ("i work at a bar at night to pay for college", "do you work at a bar?", "yes"),
        ("i have two grown children who never visit", "do you have two grown children?", "yes"),
        ("i am now looking for a new job", "are you looking for a new job?", "yes"),
        ("i wear a motorbike helmet to protect my head", "do you wear a motorbike helmet?", "yes"),
        ("i will retire in a few years", "will you retire in a few years?", "yes"),  # short: kept whole
    ],
)
def test_core_trims_yn_question(statement: str, question: str, truth: str) -> None:
    q = yn_question(core(parse(statement)))
    assert q is not None and (q.q, q.a) == (question, truth)


@pytest.mark.parametrize(
    ("statement", "worthy"),
    [
        ("i do not like clowns", True),  # do-support: the fact is in "like"
        ("i can not drive", True),  # a negated ability is a clear fact
        ("i can drive", False),  # a bare positive modal is not
        ("i have a dog today", False),
        ("i like pizza", True),
    ],
)
def test_history_worthy(statement: str, worthy: bool) -> None:
    assert history_worthy(parse(statement)) is worthy


def test_fix_articles() -> None:
    assert fix_articles("are you a engineer?") == "are you an engineer?"
    assert fix_articles("are you an nurse?") == "are you a nurse?"


WH_CASES = [
    ("i read twenty books a year", "how many books do you read a year?", "twenty", "wh.count"),
    ("i own two vintage mustangs", "how many vintage mustangs do you own?", "two", "wh.count"),
    ("i am 33 years old", "how old are you?", "33", "wh.age"),
    ("my name is sarah", "what is your name?", "sarah", "wh.name"),
    ("i have a black lab named trooper", "what is your lab's name?", "trooper", "wh.name_of"),
    ("my favorite music is country", "what is your favorite music?", "country", "wh.favorite"),
    ("cheeseburgers are my favorite food", "what is your favorite food?", "cheeseburgers", "wh.favorite"),
    ("i actually have purple hair", "what color is your hair?", "purple", "wh.color"),
    ("i live in texas with my family", "where do you live?", "texas", "wh.live"),
    ("i am from india", "where are you from?", "india", "wh.from"),
    ("i work as a custodian to help pay the bills", "what do you do for a living?", "custodian", "wh.job"),
    ("i am a baby delivery nurse", "what do you do for a living?", "baby delivery nurse", "wh.job"),
    ("i won a gold medal in 1992", "when did you win a gold medal?", "1992", "wh.when"),
    ("i drive a ford pinto", "what kind of car do you drive?", "ford pinto", "wh.drive"),
    ("my parents were teachers", "what did your parents do?", "teachers", "wh.their_job"),
    ("i am married with two kids", "how many kids do you have?", "two", "wh.count"),
    ("i have one brother", "how many brothers do you have?", "one", "wh.count"),
    ("i have a hat collection of over 1000 hats", "how many hats do you have?", "1000", "wh.count"),
    ("i am a 46 year old single dad", "how old are you?", "46", "wh.age"),
    ("i turned 18 years old yesterday", "how old are you?", "18", "wh.age"),
    ("my pets name is charlie", "what is your pet's name?", "charlie", "wh.name_of"),
    ("i have blue eyes and red hair", "what color is your hair?", "red", "wh.color"),
    ("i have short brown hair", "what color is your hair?", "brown", "wh.color"),
    ("i am a construction worker", "what do you do?", "construction worker", "wh.job"),
    ("i am a mechanical engineer", "what type of engineer are you?", "mechanical engineer", "wh.job_type"),
    ("i have a black lab", "what type of lab do you have?", "black lab", "wh.kind"),
    ("knitting is my passion", "what is your passion?", "knitting", "wh.my_attr"),
    ("my current goal is to run a k", "what is your current goal?", "to run a k", "wh.my_attr"),
    ("my pet turtle is my best friend", "who is your best friend?", "my pet turtle", "wh.my_attr"),
    ("my dad taught me everything i know", "who taught you everything you know?", "my dad", "wh.who_subj"),
    ("i wear a helmet to protect my head", "what do you wear to protect your head?", "helmet", "wh.object"),
    ("i lost my hat while skateboarding", "what did you lose while skateboarding?", "my hat", "wh.object"),
    ("i live with my husband", "who do you live with?", "my husband", "wh.prep"),
    ("i compete in dog agility classes", "what do you compete in?", "dog agility classes", "wh.prep"),
    ("i have been a nurse for ten years", "how long have you been a nurse?", "ten years", "wh.how_long"),
    ("i have a pet turtle", "what type of pet do you have?", "turtle", "wh.pet_kind"),
]


@pytest.mark.parametrize(("statement", "question", "answer", "template"), WH_CASES)
def test_wh_rules(statement: str, question: str, answer: str, template: str) -> None:
    got = [(q.q, q.a, q.template) for q in wh_questions(parse(statement))]
    assert (question, answer, template) in got


@pytest.mark.parametrize(
    "statement",
    [
        "i love cats",
        "i do not have two dogs",
        "i like to read books",
        "i want to be a teacher when i grow up",
        "i eat chocolate bars while playing",  # an open preference: no "what do you eat?"
        "i prefer horchata",
        "my hair is long",  # an adjective is no attribute value
        "my mom is a saint",  # "what is your mom?" makes no sense
        "i broke my leg and so i work there now",  # the cut would leave "what did you break and?"
    ],
)
def test_wh_rules_ask_nothing_open_or_negated(statement: str) -> None:
    assert wh_questions(parse(statement)) == []


@pytest.mark.parametrize(
    ("question", "exclusive"),
    [
        ("what animal do you love?", False),
        ("what do you like to eat?", False),
        ("what is your favorite animal?", True),
        ("how many cats do you have?", True),
        ("where do you live?", True),
        ("what is your name?", True),
        ("what do you compete in?", True),  # the auxiliary "do" is no open verb
        ("what do you do?", True),  # the job
        ("what do you do on weekends?", False),
        ("what do you have?", False),  # one of the many things one has
        ("what type of lab do you have?", True),
        ("what kind of books do you like?", False),
    ],
)
def test_exclusivity(question: str, exclusive: bool) -> None:
    assert is_exclusive(question) is exclusive


def _qa(q: str, a: str = "yes", c: str = "i have two dogs .", type: str = "yn") -> QA:
    return QA(q=q, a=a, c=c, source="pers", type=type, generator="rules", template="t")


@pytest.mark.parametrize(
    ("qa", "reason"),
    [
        (_qa("do you have two dogs"), "no_question_mark"),
        (_qa("i have two dogs?"), "copied_statement"),
        (_qa("does she have two dogs?"), "not_second_person"),
        (_qa("you two dogs?"), "no_verb"),
        (_qa("do you have two dogs?"), None),
    ],
)
def test_malformed(qa: QA, reason: str | None) -> None:
    assert malformed_reason(qa) == reason


def test_truth_in_fact() -> None:
    assert truth_in_fact("two", "i have two dogs .", "wh")
    assert truth_in_fact("four | two", "i have two dogs .", "wh")
    assert not truth_in_fact("tw", "i have two dogs .", "wh")
    assert not truth_in_fact("maybe", "i have two dogs .", "yn")


def test_filter_drops_duplicates_and_bad_truth_keeps_counterfactual() -> None:
    dropped: Counter[str] = Counter()
    qas = [
        _qa("do you have two dogs?"),
        _qa("do you have two dogs ?"),  # near-duplicate, same truth
        _qa("do you have four dogs?", a="no"),  # one word apart but a different truth: kept
        _qa("how many cats do you have?", a="three", type="wh"),  # truth not in fact
        _qa("what animal do you love?", a="dogs", c="i love dogs .", type="wh"),  # not exclusive
    ]
    kept = filter_qas(qas, dropped)
    assert [k.q for k in kept] == ["do you have two dogs?", "do you have four dogs?"]
    assert dropped == Counter(near_duplicate=1, truth_not_in_fact=1, not_exclusive=1)
