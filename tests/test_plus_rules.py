"""The plus method's rules, one table each, and how they combine with the NLI labels."""

from __future__ import annotations

import pytest

from consistest.metrics.evidence import wh_restates
from consistest.metrics.plus import (
    DEFAULT_RULES,
    PLUS_VETO_TAU,
    RULES,
    final_plus,
    judge_plus,
    long_part,
    method_tag,
)
from consistest.metrics.whvalues import (
    another_value,
    extra_values,
    forms_recall,
    negated_truth,
    number_like,
    truth_keywords,
)


@pytest.mark.parametrize(
    ("truth", "drop", "keywords"),
    [
        ("my dad", True, [["dad"]]),
        ("my dad", False, [["my", "dad"]]),
        ("in the woods", True, [["wood"]]),
        ("about a month", True, [["month"]]),
        ("school teacher | teacher", True, [["school", "teacher"], ["teacher"]]),
        ("it is", True, [["it", "is"]]),  # nothing but function words: kept as they are
        ("twenty", True, [["20"]]),
    ],
)
def test_truth_keywords(truth: str, drop: bool, keywords: list[list[str]]) -> None:
    assert truth_keywords(truth, drop) == keywords


@pytest.mark.parametrize(
    ("truth", "question", "keywords"),
    [
        ("war documentaries", "what type of documentaries do you watch ?", [["war"]]),
        ("documentaries", "what type of documentaries do you watch ?", [["documentary"]]),  # nothing else
        ("my dad", "who is your dad ?", [["dad"]]),
    ],
)
def test_truth_keywords_without_question_words(truth: str, question: str, keywords: list[list[str]]) -> None:
    assert truth_keywords(truth, True, question) == keywords


@pytest.mark.parametrize(
    ("cleaned", "truth", "support", "extras"),
    [
        ("i love pizza , sushi and tacos", ["pizza"], "i love pizza", ["sushi", "taco"]),
        ("I love pizza, sushi, and tacos!", ["pizza"], "i love pizza", ["sushi", "taco"]),
        ("blue and green .", ["blue"], "my favorite color is blue", ["green"]),
        ("green and blue .", ["blue"], "my favorite color is blue", ["green"]),  # listed before it too
        ("a german shepherd and a little beagle", ["german", "shepherd"], "", ["little", "beagle"]),
        ("pizza and pasta", ["pizza"], "i like pizza . i love pasta", []),  # the persona supports pasta
        ("yellow , it's beautiful here", ["yellow"], "", []),  # a comma alone makes no list
        ("i'm a doctor , but i'm looking for a new job", ["doctor"], "", []),
        ("i am a doctor and i love it", ["doctor"], "", []),
        ("pizza", ["pizza"], "", []),
        ("i love country music , and a bit of rock", ["country"], "my favorite music is country", ["rock"]),
        ("orange and brown , so ugly", ["orange"], "i hate orange", ["brown"]),
        ("i'm 12 years old and i'm 11", ["11"], "i'm 11", ["12"]),  # another number beside the truth
        ("i'm twenty three", ["23"], "i'm 23", []),
        ("over five thousand acres", ["5000", "acre"], "we have over 5000 acres", []),
        # another value in the truth's own frame ("from _") elsewhere in the reply
        ("my family is from india , and my dad is from nepal", ["india"], "i am from india", ["nepal"]),
        ("i work in a bakery in town", ["bakery"], "i work in a bakery", []),  # "in town" is another frame
        ("i play with my cat and make her happy", ["cat"], "i play with my cat", []),  # "make her": a verb
        # plus-22: a value listed before the truth's own article
        ("i'm a historian and a librarian .", ["librarian"], "i am a librarian", ["historian"]),
        ("i'm a librarian and i love it", ["librarian"], "i am a librarian", []),
        # plus-22: another value after the reply's own frame of the truth, said again
        ("i love classical music , i love jazz", ["classical"], "i like classical music", ["jazz"]),
        ("i'm a huge fan of hockey , but i'm a huge fan of soccer", ["hockey"], "", ["soccer"]),
        ("i am learning spanish in school , i am learning french", ["spanish"], "", ["french"]),
        ("i'm a plumber . i'm a skilled tradesman", ["plumber"], "i'm a plumber", []),  # "i'm a": no frame
        # plus-24: the repeated frame read back to its first content word
        (
            "i want to be a teacher . i want to be a scientist",
            ["teacher"],
            "i want to be a teacher",
            ["scientist"],
        ),
        ("i'm studying to be a nurse but i'm also studying to be a vet", ["nurse"], "", ["vet"]),
        ("i want to be a teacher . i want to be happy", ["teacher"], "", []),  # the frame holds "a"
        ("i love chocolate and i love eating it", ["chocolate"], "", []),  # an activity, not a value
        ("i love to play with my dollies . i like to play with my dolls", ["doll"], "", []),  # respelled
        ("i've got a nissan pathfinder . i've got a bit of a car", ["nissan", "pathfinder"], "", []),
        ("i love rock music , i love rock", ["rock"], "", []),  # the truth again
    ],
)
def test_extra_values(cleaned: str, truth: list[str], support: str, extras: list[str]) -> None:
    assert extra_values(cleaned, truth, support) == extras


@pytest.mark.parametrize(
    ("cleaned", "rest"),
    [
        ("yes , i can not stand cats", "i can not stand cats"),
        ("no . i am a student .", "i am a student"),
        ("i do . i drive a bmw .", "i drive a bmw"),
        ("yes i do , her name is daisy", "her name is daisy"),
        ("yes", ""),
        ("nope !", ""),
    ],
)
def test_long_part(cleaned: str, rest: str) -> None:
    assert long_part(cleaned) == rest


@pytest.mark.parametrize(
    ("cleaned", "truth", "another"),
    [
        ("about once a year .", "twice a year", True),
        ("i'm in the third grade", "fourth grade", True),
        ("twice a year", "twice a year", False),
        ("a honda", "honda civic", False),  # half the truth, no other value: partial credit stays
        ("my motorcycle helmet", "motorbike helmet", False),  # another word, not a number: a paraphrase
    ],
)
def test_another_value(cleaned: str, truth: str, another: bool) -> None:
    assert another_value(cleaned, truth) is another


@pytest.mark.parametrize(
    ("keywords", "said", "recall"),
    [
        (["walk", "dog"], ["i", "am", "a", "dog", "walker"], 1.0),  # another form of the word
        (["bike"], ["my", "motorbike"], 1.0),  # inside a compound
        (["super", "model", "italy"], ["a", "supermodel", "from", "italy"], 1.0),  # keywords written as one
        (["burger", "king"], ["i", "am", "working"], 0.0),  # "wor" + "king" is no compound
        (["dog"], ["a", "hotdog"], 0.0),  # too short to be found inside another word
        (["pizza", "pasta"], ["pizza"], 0.5),
        # plus-24: a keyword split in two, a number keyword spelled another way
        (["shipyard"], ["i", "work", "at", "ship", "yard"], 1.0),
        (["spiderman"], ["my", "favorite", "is", "spider", "man"], 1.0),
        (["third"], ["i", "am", "in", "3", "rd", "grade"], 1.0),  # content_tokens("3rd")
        (["first"], ["1", "st", "floor"], 1.0),
        (["decade"], ["for", "10", "year"], 1.0),
        (["decade"], ["for", "15", "year"], 0.0),  # another number: no credit for "year"
        (["third"], ["i", "have", "3", "kid"], 0.0),  # a count is no rank
        (["decade"], ["10", "dog", "a", "year"], 0.0),  # "10 years" in order only
        (["someone"], ["so", "me", "one"], 0.0),  # a piece under three letters
    ],
)
def test_forms_recall(keywords: list[str], said: list[str], recall: float) -> None:
    assert forms_recall(keywords, said) == recall


@pytest.mark.parametrize(("word", "like"), [("12", True), ("twice", True), ("3rd", True), ("third", True),
                                            ("grade", False), ("1990s", True)])  # fmt: skip
def test_number_like(word: str, like: bool) -> None:
    assert number_like(word) is like


SUPPORT = "i drive a nissan pathfinder . i am a dentist , i fix teeth . i am single"


def _score(question, truth, qtype, response, labels=(), support="", rules=DEFAULT_RULES):
    v = judge_plus(question, truth, qtype, response, support, rules)
    return v, final_plus(v, [labels[a] for a in v.asks] if labels else [None] * len(v.asks))


@pytest.mark.parametrize(
    ("question", "truth", "qtype", "response", "labels", "score", "paper_score"),
    [
        # function words: "my mom" for "my dad" gets nothing (the paper gives 0.5)
        ("who visits ?", "my dad", "wh", "my mom .", {}, 0.0, 0.5),
        # word forms: "a dog walker" says "walk dogs"
        ("what do you do ?", "walk dogs", "wh", "i'm a dog walker", {"guard": "neutral"}, 1.0, 0.5),
        # a truth too long for the paper's five keywords is recalled without its function words
        ("why is mom mad ?", "i did not pick up my toys", "wh", "she is mad about olives", {}, 0.0, None),
        # question words: "documentaries" is asked, only "war" is evidence
        ("what type of documentaries ?", "war documentaries", "wh", "nature documentaries", {}, 0.0, 0.5),
        # another value: another number in the truth's place -> 0, not the credit of "year"
        ("how often ?", "twice a year", "wh", "about once a year", {}, 0.0, 0.5),
        # paraphrase is opt-in: no keyword, no credit, whatever the guard would say
        ("what do you do ?", "dentist", "wh", "i fix people's teeth", {"credit": "entailment"}, 0.0, 0.0),
        # extras: full recall plus an unsupported listed value -> 0.5
        ("favorite food ?", "pizza", "wh", "pizza , sushi and tacos", {"guard": "neutral"}, 0.5, 1.0),
        # restated: the truth and extras the cap scored, nothing else -> no veto (the guard sees the extras)
        ("favorite food ?", "pizza", "wh", "pizza , sushi and tacos", {"guard": "contradiction"}, 0.5, 0.0),
        # ... but a reply negating the fact keeps it
        ("do you have pets ?", "a dog", "wh", "i don't have a dog .", {"guard": "contradiction"}, 0.0, 0.0),
        # the paper's own Y/N example and its mirror: yes/no word and long part must agree
        ("do you work at a bar ?", "no", "yn", "yes i work at a school", {}, 0.0, 0.0),
        ("do you love cats ?", "yes", "yn", "yes , i can not stand cats", {}, 0.0, 1.0),
        # the long part is checked alone against the fact: a contradiction there -> 0
        ("do you drive ?", "yes", "yn", "yes , i drive a nissan altima",
         {"guard": "neutral", "long": "contradiction"}, 0.0, 1.0),
        # ... and read against the question and the fact: another value than the fact's -> 0 without NLI
        ("do you drive ?", "yes", "yn", "yes , i drive a nissan altima",
         {"guard": "neutral", "long": "neutral"}, 0.0, 1.0),
        ("do you drive a mercedes ?", "yes", "yn", "yes . i drive a bmw", {"guard": "neutral"}, 0.0, 1.0),
        # a Y/N reply without yes/no word or short form, read by the rules where the paper asks NLI
        ("do you own a nissan ?", "yes", "yn", "i drive a nissan pathfinder , it's great",
         {"decide": "neutral"}, 1.0, 0.0),
        ("do you own a yacht ?", "yes", "yn", "i'm not sure", {"decide": "entailment"}, 0.0, 1.0),
        ("do you drive a mercedes ?", "no", "yn", "i drive a nissan pathfinder", {"decide": "neutral"},
         1.0, 0.0),
        # plus-17: ... but another value that is not the fact's is 0 ("somalia": SUPPORT has no birthplace)
        ("were you born in kenya ?", "no", "yn", "i was born in somalia", {"decide": "neutral"}, 0.0, 0.0),
        ("do you drive ?", "yes", "yn", "yes , i drive a nissan pathfinder",
         {"guard": "neutral", "long": "entailment"}, 1.0, 1.0),
        # out of persona: an AI disclaimer is no answer, whatever its polarity
        ("do you have a dog ?", "no", "yn", "As an AI, I don't have a dog.", {"guard": "neutral"}, 0.0, 1.0),
        ("what do you do ?", "nurse", "wh", "I'm just a chatbot, but nurses are great!", {}, 0.0, 1.0),
        # self-contradiction (plus-15): a Y/N reply saying a thing and its negation, or two ages, is 0
        ("do you like taking pictures ?", "yes", "yn", "i'm a photographer but i'm not a photographer .",
         {"decide": "entailment"}, 0.0, 1.0),
        ("are you 65 years old ?", "no", "yn", "i'm 60 years old now . i'm 50 years old now .",
         {"decide": "entailment"}, 0.0, 1.0),
        ("do you believe in god ?", "no", "yn",
         "i do not believe in god . i am a christian , and i am not a christian .", {}, 0.0, 1.0),
        ("are you 30 ?", "yes", "yn", "yes , i'm 30 . i'm a 32 year old .", {}, 0.0, 1.0),
        # plus-16: a like-verb and a dislike-verb are one verb, said and negated; "it" is what was just liked
        ("do you hate school ?", "yes", "yn", "i hate school but i love it so much !",
         {"decide": "entailment"}, 0.0, 1.0),
        ("do you hate school ?", "yes", "yn", "i hate school . i hate homework , i love it .",
         {"decide": "entailment"}, 0.0, 1.0),
        ("do you like dogs ?", "yes", "yn", "i love dogs . i hate cats .", {"decide": "entailment"},
         1.0, 1.0),
        # ... not a second job (one person may hold two), nor a WH reply (the annotators give those 0.5)
        ("are you a nurse ?", "yes", "yn", "i'm a nurse . i'm a part time bartender .", {}, 1.0, 1.0),
        ("are you a custodian ?", "yes", "yn", "i'm a custodian . i'm a musician .", {}, 1.0, 1.0),
        ("how old are you ?", "25", "wh", "i'm 25 years old . i'm a 24 year old man .", {"guard": "neutral"},
         0.5, 1.0),
        # a bare right yes/no word is full evidence: no veto (the paper asks the guard)
        ("do you have a dog ?", "yes", "yn", "yes !", {"guard": "contradiction"}, 1.0, 0.0),
        # unchanged where no rule applies
        ("are you married ?", "yes", "yn", "yes , i cook with emily", {"guard": "neutral", "long": "neutral"},
         1.0, 1.0),
        ("are you married ?", "yes", "yn", "yes , i cook with emily",
         {"guard": "neutral", "long": "contradiction"}, 0.0, 1.0),
        ("are you married ?", "no", "yn", "i am single", {"decide": "entailment"}, 1.0, 1.0),
        # ... where the paper's NLI missed it: the reply restates the fact
        ("are you married ?", "no", "yn", "i am single", {"decide": "neutral"}, 1.0, 0.0),
        ("do you have a car ?", "yes", "yn", "i love pizza", {"decide": "neutral"}, 0.0, 0.0),  # off topic
    ],
)  # fmt: skip
def test_judge_plus_with_labels(question, truth, qtype, response, labels, score, paper_score) -> None:
    _, got = _score(question, truth, qtype, response, labels, support=SUPPORT)
    assert got == score
    _, paper = _score(question, truth, qtype, response, labels, rules=())
    assert paper == paper_score


@pytest.mark.parametrize(("label", "score"), [("entailment", 1.0), ("neutral", 0.0), ("contradiction", 0.0)])
def test_paraphrase_credit_when_added(label: str, score: float) -> None:
    rules = (*DEFAULT_RULES, "paraphrase")
    assert "paraphrase" in RULES and "paraphrase" not in DEFAULT_RULES
    got = _score(
        "what do you do ?", "dentist", "wh", "i fix people's teeth", {"credit": label}, SUPPORT, rules
    )
    assert got[1] == score


def test_paraphrase_asks_reply_to_fact_direction() -> None:
    v = judge_plus("what do you do ?", "dentist", "wh", "i fix teeth", "i am a dentist . i fix teeth all day",
                   RULES)  # fmt: skip
    assert v.asks == ("credit",)
    assert v.pairs("i am a dentist") == [("i fix teeth", "i am a dentist")]
    partial = judge_plus("what car ?", "honda civic", "wh", "a honda", rules=RULES)
    assert partial.asks == ("guard",) and partial.rule_score == 0.5  # shares a keyword: recall decides


@pytest.mark.parametrize(
    ("response", "asks_credit"),
    [
        ("i fix teeth", True),
        ("i'm not sure , maybe", False),  # evasive
        ("i like pizza", False),  # shares nothing with question, truth or fact
        ("i have 12 kids", False),  # another number than the truth's
        ("i have a few kids", True),
    ],
)
def test_paraphrase_credit_only_for_committed_on_topic_replies(response: str, asks_credit: bool) -> None:
    v = judge_plus("how many kids do you have ?", "three", "wh", response, "i fix teeth . i have three kids",
                   RULES)  # fmt: skip
    assert ("credit" in v.asks) is asks_credit


def test_without_nli_no_credit_and_decisions_stay_open() -> None:
    assert _score("what do you do ?", "dentist", "wh", "i fix teeth")[1] == 0.0
    assert _score("are you married ?", "no", "yn", "i am single")[1] is None


@pytest.mark.parametrize(
    ("method", "rules", "tag"),
    [("paper", RULES, "paper"), ("plus", DEFAULT_RULES, "plus-25"), ("plus", ("extras",), "plus-25[extras]"),
     ("plus", ("yn-long", "function-words"), "plus-25[function-words+yn-long]"),
     ("plus", (), "plus-25[none]"),
     ("plus", tuple(reversed(DEFAULT_RULES)), "plus-25"),
     ("plus", RULES, "plus-25[" + "+".join(RULES) + "]")],
)  # fmt: skip
def test_method_tag(method: str, rules: tuple, tag: str) -> None:
    assert method_tag(method, rules) == tag


FACT = "i am a musician and hope to make it big some day ."


@pytest.mark.parametrize(
    ("cleaned", "keywords", "fact", "extras", "full"),
    [
        ("i was raised on a horse farm . i dream of the city .", ["horse", "farm"],
         "i was raised on a horse farm", [], True),  # restates the fact in full, says more
        ("56", ["56"], "i am a 56 year old woman .", [], True),  # the truth alone
        ("elvis presley .", ["elvis", "presley"], "my favorite singer is elvis presley", [], True),
        ("green and purple .", ["green"], "my favorite color is green !", ["purple"], True),  # + capped extra
        ("green and purple .", ["green"], "my favorite color is green !", [], False),  # purple: unaccounted
        ("i don't have a dog .", ["dog"], "i have a dog .", [], False),  # negates the fact
        ("i do not live in ohio anymore .", ["ohio"], "i live in ohio", [], False),
        ("hi kay , nice to meet you !", ["kay"], "i am kay", [], False),  # says the name, restates nothing
        ("i'm 28 years old . i'm a 56 year old woman .", ["56"], "i am a 56 year old woman .", [], False),
        ("i'm 28 years old . i'm a 56 year old woman .", ["56"], "i am a 56 year old woman .", ["28"], True),
    ],
)  # fmt: skip
def test_wh_restates(cleaned: str, keywords: list[str], fact: str, extras: list[str], full: bool) -> None:
    assert wh_restates(cleaned, keywords, fact, extras) is full


@pytest.mark.parametrize(
    ("question", "truth", "response", "fact", "asks"),
    [
        ("are you a musician ?", "yes", "yes i am .", FACT, ()),  # a bare right short form
        ("are you a musician ?", "yes", "i am . i am a musician and hope to make it big", FACT, ()),
        ("are you in a band ?", "yes", "yes , i'm in a band called the owls", "i am in a band .", ()),
        ("do you have blue hair ?", "no", "no , i have blonde hair and blue eyes",
         "i have blonde hair and blue eyes .", ()),  # restates the fact: the answer no
        ("are you married ?", "yes", "yes , i cook with emily", "i am married", ("guard", "long")),  # unread
        ("what do you play ?", "guitar", "the guitar .", "i play the guitar", ()),
        ("what do you play ?", "guitar", "i used to play the guitar .", "i play the guitar", ("guard",)),
        ("where do you live ?", "rural farming community", "a small farming town",
         "i live in a rural farming community", ("guard",)),  # part of the truth: the guard may still veto
    ],
)  # fmt: skip
def test_restated_asks_no_veto(question: str, truth: str, response: str, fact: str, asks: tuple) -> None:
    qtype = "yn" if truth in ("yes", "no") else "wh"
    v = judge_plus(question, truth, qtype, response, fact, fact=fact)
    assert v.asks == asks
    assert v.veto_tau == (PLUS_VETO_TAU if asks else None)  # the veto-tau rule marks what it reads
    rules = tuple(r for r in DEFAULT_RULES if r != "restated")
    without = judge_plus(question, truth, qtype, response, fact, rules, fact)
    assert "guard" in without.asks  # the rule, not the others, drops the veto


def test_veto_tau_is_marked_only_with_the_rule() -> None:
    rules = tuple(r for r in DEFAULT_RULES if r != "veto-tau")
    v = judge_plus(
        "are you married ?", "yes", "yn", "yes , i cook with emily", "i am married", rules, "i am married"
    )
    assert v.asks == ("guard", "long") and v.veto_tau is None
    assert 0.5 < PLUS_VETO_TAU < 1.0


@pytest.mark.parametrize(
    ("cleaned", "keywords", "question", "truth", "negated"),
    [
        ("i'm not fat .", ["fat"], "are you thin or fat ?", "fat", True),
        ("she did not leave me for a lawyer .", ["lawyer"], "who did your ex leave you for ?", "lawyer",
         True),
        ("i'm sure it's not the color orange .", ["orange"], "what color do you hate ?", "orange", True),
        ("i'm not afraid of scorpions", ["scorpion"], "what animal are you terrified of ?", "scorpions",
         True),
        ("i'm fat .", ["fat"], "are you thin or fat ?", "fat", False),
        ("i'm not thin , i'm fat .", ["fat"], "are you thin or fat ?", "fat", False),  # said unnegated
        ("i'm not fat , but i'm fat", ["fat"], "are you thin or fat ?", "fat", False),  # once unnegated
        # the negation is another clause's: a clause ends at "and" too
        ("i am not in school anymore and work full time", ["work"], "school or work ?", "work", False),
        # a hedge, not a no
        ("i'm not sure i can live forever", ["forever"], "how long might you live ?", "forever", False),
        # the question or the truth holds a negation: a negation in the reply may be theirs
        ("i rent it out when i'm not using it", ["rent"], "what do you do with it when not using it ?",
         "rent it out", False),
        ("because god does not exist", ["god", "exist"], "why did you not qualify ?", "god does not exist",
         False),
        ("i like pizza", ["orange"], "what color do you hate ?", "orange", False),  # no truth: not read
    ],
)  # fmt: skip
def test_negated_truth(cleaned: str, keywords: list[str], question: str, truth: str, negated: bool) -> None:
    assert negated_truth(cleaned, keywords, question, truth) is negated


def test_a_truth_said_only_negated_is_decided_before_the_guard() -> None:
    """plus-23: "i never play the guitar" was left to the guard (plus-22); the negated-truth rule gives 0."""
    q, reply = "what do you play ?", "i never play the guitar ."
    v = judge_plus(q, "guitar", "wh", reply, fact="i play the guitar")
    assert (v.outcome, v.rule_score, v.asks) == ("negates_truth", 0.0, ())
    rules = tuple(r for r in DEFAULT_RULES if r != "negated-truth")
    assert judge_plus(q, "guitar", "wh", reply, "", rules).asks == ("guard",)
