"""Y/N questions as propositions and the reading of replies without a short form (plus's yn-proposition and
yn-long rules): one table each, every row computable by hand."""

from __future__ import annotations

import pytest

from consistest.metrics.propositions import proposition, question_keys, statement_keys, stem
from consistest.metrics.stances import clause_reading, clause_stance
from consistest.metrics.words import evasive
from consistest.metrics.yesno import fact_keys, read_reply


@pytest.mark.parametrize(
    ("question", "statement", "negation"),
    [
        ("do you own a yacht ?", "i own a yacht", "i don't own a yacht"),
        ("are you married ?", "i am married", "i'm not married"),
        ("is your favorite color blue ?", "my favorite color is blue", "my favorite color isn't blue"),
        ("were you born in kenya ?", "i was born in kenya", "i wasn't born in kenya"),
        ("have you lost your dog?", "i have lost my dog", "i haven't lost my dog"),
        ("can you play any music?", "i can play any music", "i can't play any music"),
        ("does your dog bark ?", "my dog does bark", "my dog doesn't bark"),
        ("are you happily married ?", "i am happily married", "i'm not happily married"),
        ("don't you like cats ?", "i like cats", "i don't like cats"),  # asked negatively, same proposition
        ("so , do your parents live here ?", "my parents live here", "my parents don't live here"),
    ],
)
def test_proposition_statement_and_negation(question: str, statement: str, negation: str) -> None:
    p = proposition(question)
    assert p is not None and p.statement() == statement and p.negation() == negation


@pytest.mark.parametrize(
    "question", ["what is your name ?", "you have never heard of allen ?", "have you never been ?", "do ?"]
)
def test_no_proposition(question: str) -> None:
    assert proposition(question) is None


@pytest.mark.parametrize(
    ("question", "verb", "value"),
    [
        ("do you own a yacht ?", "own", ("yacht",)),
        ("do you like to dance ?", "like", ("danc",)),  # like, love, enjoy ... are one verb
        ("are you a fan of the walking dead ?", None, ("fan", "walk", "dead")),
        ("do you have six sons ?", "hav", ("6", "son")),  # numbers as digits
        ("do you know how to say it in spanish ?", "know", ("say", "spanish")),  # "how" is no value
    ],
)
def test_question_keys(question: str, verb: str | None, value: tuple[str, ...]) -> None:
    keys = question_keys(proposition(question))  # type: ignore[arg-type]
    assert (keys.verb, keys.value) == (verb, value)


@pytest.mark.parametrize(
    ("statement", "verb", "value", "negated"),
    [
        ("i drive a nissan pathfinder .", "driv", ("nissan", "pathfind"), False),
        ("i am an elementary school teacher", None, ("elementary", "school", "teach"), False),
        ("i've 5cats .", "hav", ("5", "cat"), False),
        ("i don't attend church", "attend", ("church",), True),
        ("my sister is a pole dancer .", None, ("pol", "danc"), False),
        ("i am working on a robot", "work", ("robot",), False),  # a participle after "am" is the verb
    ],
)
def test_statement_keys(statement: str, verb: str | None, value: tuple[str, ...], negated: bool) -> None:
    keys = statement_keys(statement)
    assert keys is not None and (keys.verb, keys.value, keys.negated) == (verb, value, negated)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("dancing", "dance"),
        ("danced", "dance"),
        ("runner", "run"),
        ("married", "marry"),
        ("cats", "cat"),
        ("kids", "children"),
        ("totally", "completely"),  # plus-4: degree adverbs of one meaning
        ("entirely", "completely"),
    ],
)
def test_stem_joins_forms(a: str, b: str) -> None:
    assert stem(a) == stem(b)


@pytest.mark.parametrize(
    ("question", "clause", "stance"),
    [
        ("do you own a yacht ?", "i own a yacht", "yes"),
        ("do you own a yacht ?", "i've never owned a yacht", "no"),
        ("do you own a yacht ?", "i own a sailboat", "other"),  # "own a _": another value in the place
        ("were you born in kenya ?", "i was born in somalia", "other"),
        ("do you drive a mercedes ?", "i drive a bmw", "other"),
        ("is your farm a large one ?", "that's a small one", "other"),
        ("do you have six sons ?", "i have five sons", "other"),
        ("are you a truck driver ?", "i'm an elementary school teacher", "other"),  # "i am a _"
        ("do you like math ?", "i hate math class", "no"),  # a verb of dislike negates
        ("do you like soda ?", "i never drink soda", "no"),
        ("do you like star wars ?", "nothing like a good movie", None),  # "like" here is no verb
        ("do you own a yacht ?", "i like pizza", None),
        ("are you active ?", "i have been fortunate", None),  # no "a": not what the subject is
        ("do you work in a shipyard ?", "i work full time in a shipyard", "yes"),
        ("do you have kids ?", "i am spending the day with my kids", "yes"),
        ("do you like poetry ?", "i love it", "yes"),  # the pronoun stands for the value
        ("do you like poetry ?", "i don't really like it", "no"),
        ("do you have any step children ?", "i have a step child", "yes"),
    ],
)
def test_clause_stance_on_the_question(question: str, clause: str, stance: str | None) -> None:
    assert clause_stance(question_keys(proposition(question)), clause) == stance  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fact", "clause", "reading"),
    [
        ("i drive a nissan pathfinder .", "i drive a nissan altima", ("other", True)),
        ("i like to watch nhl hockey .", "i love watching the game", ("other", False)),  # two words gone
        ("i work fulltime in a shipyard", "i work full time in a shipyard", ("yes", False)),  # no swap
        ("i am just spending time with my kids", "i am spending the day with my kids", ("yes", False)),
        ("i have a german shepherd dog .", "he is a very loyal dog", None),  # too little of the fact
        ("i'm a professional tennis player .", "i play ping pong", None),
        ("i could make you an aspirin !", "i could make you one", None),  # "one": a pronoun, no value
        ("i do not drink soda .", "i don't drink cola", None),  # negated both: no other value
    ],
)
def test_clause_reading_on_the_fact(fact: str, clause: str, reading: tuple | None) -> None:
    got = [r for k in fact_keys(fact) if (r := clause_reading(k, clause, 0.5, 0.5)) is not None]
    assert ((got[0].stance, got[0].full) if got else None) == reading


def test_fact_keys_drop_the_answer_word_not_a_determiner() -> None:
    (keys,) = fact_keys("not really as a woman i try to watch my diet")
    assert not keys.negated and "diet" in keys.value
    (keys,) = fact_keys("no games")
    assert keys.negated  # "no games": no is a determiner here


@pytest.mark.parametrize(
    ("text", "is_evasive"),
    [("i'm not sure .", True), ("i don't know , i like music", True), ("that's a good question", True),
     ("hmm , i'd rather not say", True), ("i know how to swim", False), ("i'm sure i do", False)],
)  # fmt: skip
def test_evasive(text: str, is_evasive: bool) -> None:
    assert evasive(text) is is_evasive


@pytest.mark.parametrize(
    ("question", "truth", "fact", "reply", "outcome", "score"),
    [
        ("do you own a yacht ?", "yes", "i own a yacht .", "i own a yacht , it's a luxury vessel",
         "restates_fact", 1.0),
        ("do you own a yacht ?", "yes", "i own a yacht .", "i've never owned a yacht", "negates_fact", 0.0),
        ("were you born in kenya ?", "no", "i was born in somalia .", "i was born in somalia",
         "restates_fact", 1.0),
        ("were you born in kenya ?", "yes", "i was born in kenya .", "i was born in somalia",
         "states_other_value", 0.0),
        ("do you have six sons ?", "no", "i have five sons .", "i have six sons .", "other_value_than_fact",
         0.0),
        ("do you have pets ?", "yes", "i've 5cats .", "i have five cats !", "restates_fact", 1.0),
        ("are you married ?", "no", "i am single .", "i'm not married", "negates_question", 1.0),
        ("are you married ?", "no", "i am single .", "i'm married to emily", "restates_question", 0.0),
        ("is your farm a large one ?", "yes", "it's a big farm", "that's a small one", "states_other_value",
         0.0),
        ("do you like cats ?", "yes", "i love cats .", "i'm not sure", "evasive", 0.0),
        ("do you like cats ?", "yes", "i love cats .", "the weather is nice", "off_topic", 0.0),
        ("do you like cats ?", "yes", "i love cats .", "i love cats , i hate cats", "conflicting", 0.0),
        ("do you speak chinese ?", "yes", "i speak chinese .", "oh , you speak chinese", "off_topic", 0.0),
        ("do you believe in god ?", "no", "i am an atheist", "i'm an atheist .", "restates_fact", 1.0),
        ("do you work for the postal service ?", "yes", "i am employed by the postal service",
         "i work at the post office", "undecided", None),  # on topic, but the rules cannot read it
        # plus-4: the fact in one clause, the question's proposition the other way in another: both answers
        ("do you volunteer at a hospital ?", "no", "i volunteer at a soup kitchen .",
         "i volunteer at a hospital , but i also volunteer at a soup kitchen", "conflicting", 0.0),
        ("do you volunteer at a hospital ?", "no", "i volunteer at a soup kitchen .",
         "i volunteer at a soup kitchen , not at a hospital", "restates_fact", 1.0),
        ("are you close to your family ?", "no", "i've zero family that i'm close to .",
         "i've zero family that i'm close to .", "restates_fact", 1.0),  # one clause cannot say both
        # plus-5: not another subject, a wish, the past, nor a negation (its scope is not read)
        ("do you have a cat ?", "no", "i have a dog .", "i have a dog , my friend has a cat", "restates_fact",
         1.0),
        ("do you have a cat ?", "no", "i have a dog .", "i have a dog , i'd love to have a cat someday",
         "restates_fact", 1.0),
        ("do you live in alaska ?", "no", "i live in ohio .", "i live in ohio , i lived in alaska before",
         "restates_fact", 1.0),
        ("do you work ?", "yes", "i work as a nurse .", "i work as a nurse . i do not work on weekends",
         "restates_fact", 1.0),
        # plus-4: "totally" says "completely"
        ("are you completely deaf ?", "no", "i'm partly deaf .", "i'm totally deaf .", "restates_question",
         0.0),
        ("are you completely deaf ?", "no", "i'm partly deaf .", "i'm not entirely deaf .",
         "negates_question", 1.0),
        # plus-7: a hedge before "but" is read past; a hedge about the question itself is not
        ("do you eat clean ?", "yes", "i'm a clean eater .",
         "i'm not sure what to say about that , but i'm a clean eater .", "restates_fact", 1.0),
        ("do you eat clean ?", "yes", "i'm a clean eater .", "i'm not sure , but i eat junk food all day",
         "states_other_value", 0.0),
        ("do you eat clean ?", "yes", "i'm a clean eater .", "i'm not sure , but i'm not sure",
         "evasive", 0.0),
        ("do you like rowing ?", "yes", "i like rowing .", "i'm not sure what that is , but i like rowing",
         "evasive", 0.0),
        # plus-7: what the bot thinks of the user is about the user
        ("do you have a step child ?", "yes", "i have a step child .",
         "i'm not sure what to say , but i'm sure you have a step child", "off_topic", 0.0),
        # plus-9: "you'd" is the user too; "i don't know" answers "do you know ... ?"; "about it" hedges
        ("do you like disney world ?", "yes", "i love disney world .",
         "i'm not sure what to say , but i'm sure you'd love it", "off_topic", 0.0),
        ("do you know how to make shawarma ?", "no", "i don't know how to make shawarma .",
         "i don't know . i'm a chef .", "negates_question", 1.0),
        ("do you like shawarma ?", "yes", "i love shawarma .", "i don't know . i'm a chef .", "evasive", 0.0),
        ("do you like to party ?", "yes", "i like to party .",
         "i'm not sure what to say about it , but i do like to party", "restates_fact", 1.0),
        # plus-10: "going" is a form of "go", not another value in its place
        ("do you like to go to the bake sale ?", "yes", "the bake sale is where i feel most at home .",
         "i love going to the bake sale !", "restates_question", 1.0),
        # plus-11: "volunteering" is "volunteer"; "multiple" is "several", "man" is "male"
        ("do you do volunteer work ?", "yes", "i volunteer at a soup kitchen .",
         "i do a lot of volunteering in my area", "restates_question", 1.0),
        ("do you play more than one instrument ?", "yes", "i play several instruments .",
         "i play multiple instruments .", "restates_fact", 1.0),
        ("are you a woman ?", "no", "i am a male .", "i'm a man .", "restates_fact", 1.0),
        # plus-11: already being what the question or the fact only wishes is 0, whatever the truth
        ("do you want to be a lawyer ?", "yes", "i want to be a lawyer .", "i'm a lawyer .", "claims_aspired",
         0.0),
        ("do you want to be a judge ?", "no", "i want to be a lawyer .", "i'm a lawyer , but i like horses",
         "claims_aspired", 0.0),
        ("do you want to be a lawyer ?", "yes", "i want to be a lawyer .", "i am studying to be a lawyer",
         "restates_question", 1.0),
        # plus-12: the fact and the question's own words in one clause, truth no: the question said yes
        ("did you move to this country a long time ago ?", "no", "i recently moved to this country .",
         "i moved to this country a long time ago .", "restates_question", 0.0),
        ("did you move to this country a long time ago ?", "no", "i recently moved to this country .",
         "i moved to this country recently .", "restates_fact", 1.0),
        ("do you play alone on the playground ?", "no", "i play with my friends on the playground .",
         "i play alone on the playground with my friends .", "restates_question", 0.0),
        # plus-12: condolence is about the user; "live is a" is "live in a"
        ("did you break up with your boyfriend ?", "yes", "i just broke up with boyfriend .",
         "i'm so sorry about your breakup .", "off_topic", 0.0),
        ("do you live is a city ?", "no", "i live is a rural farming community .",
         "i live in a small town in the countryside .", "states_other_value", 1.0),
        # plus-17: another value than the question's that is not the fact's either; "countryside" is "rural"
        ("do you work at a bar ?", "no", "i work at a school .", "i work at a pub , it's fun .",
         "other_value_unlike_fact", 0.0),
        ("do you live in a farm now ?", "no", "i now live in the city .",
         "i live in a small town in the countryside .", "other_value_unlike_fact", 0.0),
        ("do you drive a honda accord ?", "no", "i drive a 2015 honda civic .",
         "i love driving a honda civic", "states_other_value", 1.0),
        ("have you ever had a steady relationship ?", "no", "i've never had a steady relationship .",
         "i've been in a few relationships but i've never had a steady one", "states_other_value", 1.0),
        ("do you live in the country ?", "yes", "i live in the countryside .", "i live in a rural town",
         "restates_fact", 1.0),
        # plus-18: a number's place holds another value only when it holds a number
        ("do you have dogs ?", "yes", "i have three dogs .", "i have a few dogs too , they're my family .",
         "restates_question", 1.0),
        ("do you have dogs ?", "yes", "i have three dogs .", "i have two dogs .", "other_value_than_fact",
         0.0),
        ("did you get any medications ?", "no", "i never take medications .", "i got some meds",
         "restates_question", 0.0),
        # plus-19: a looser word in the place of one the fact adds is no other value when the question's
        # proposition is said in full; a number, the question's word or a degree for a degree still is
        ("do you play any instruments ?", "yes", "i play several instruments .",
         "i play a wide range of instruments .", "restates_fact", 1.0),  # plus-25: the fact said in full
        ("do you have kids ?", "yes", "i have amazing children and grandchildren .",
         "i have wonderful children .", "restates_question", 1.0),
        ("do you drive a nissan ?", "yes", "i drive a nissan pathfinder .", "i drive a nissan altima .",
         "other_value_than_fact", 0.0),
        ("do you have grey hair ?", "yes", "i have a lot more grey hair .", "i have a little grey hair .",
         "other_value_than_fact", 0.0),
        ("do you have five sisters ?", "no", "i have three sisters .", "i have five sisters .",
         "other_value_than_fact", 0.0),
        ("do you drive a nissan ?", "yes", "i drive a nissan pathfinder .", "i drive a nissan 2018 .",
         "other_value_than_fact", 0.0),
        # plus-19: a clause of the bot's own that negates a part of the fact the question does not ask about
        ("do you like the treadmill ?", "yes", "i like doing the treadmill and rowing machine .",
         "i love the treadmill , but i'm not a fan of the rowing machine .", "denies_fact_part", 0.0),
        ("do you like wine ?", "yes", "i love to drink wine and dance in the moonlight .",
         "i love wine , but i'm not one of those who can dance all night .", "restates_question", 1.0),
        ("have you tried meditation ?", "yes", "i have tried meditation and it helps me get calm .",
         "i have tried meditation , but i never get it right .", "restates_question", 1.0),
        ("do you have children ?", "yes", "i have two grown children who never visit .",
         "i have two grown children , i never visit them .", "restates_question", 1.0),
        # plus-20: a member named for the kind the question asks about
        ("do you have any pets ?", "yes", "two dogs live with me .", "i have a dog named leo .",
         "kind_member", 1.0),
        ("do you have pets ?", "no", "i don't have pets .", "i have a dog , he's a big fluffy one .",
         "kind_member", 0.0),
        ("do you have a pet ?", "yes", "i've a pet turtle .", "i have a dog , he is a big fluffy one .",
         "other_member_than_fact", 0.0),
        ("do you have siblings ?", "yes", "i've one brother .",
         "i have a brother named jim , and i have a sister .", "other_member_than_fact", 0.0),
        ("do you have siblings ?", "yes", "my brother is older than me .",
         "i have a brother , and i have a sister .", "kind_member", 1.0),
        ("do you have pets ?", "yes", "i have two cats .", "i don't have a dog , i have two cats .",
         "restates_fact", 1.0),
        # plus-25: how many, said without a number, is no value; members of the asked kind are no other value
        ("do you play more than one instrument ?", "yes", "i play several instruments .",
         "i play a lot of different instruments .", "restates_fact", 1.0),
        ("do you play more than one instrument ?", "yes", "i play several instruments .",
         "i play piano and violin .", "kind_member", 1.0),
        ("do you study languages ?", "yes", "i also study languages .",
         "i'm a musician , and i'm studying spanish .", "kind_member", 1.0),
        ("do you have grandchildren ?", "yes", "i've amazing children and grandchildren .",
         "i have a granddaughter who is twelve .", "kind_member", 1.0),
        ("do you speak spanish ?", "yes", "i speak spanish .", "i speak french .", "states_other_value", 0.0),
        ("do you play more than one instrument ?", "yes", "i play several instruments .",
         "i play the violin .", "undecided", None),  # one is not more than one: no member reading
        ("do you have any pets ?", "yes", "i've a cat named spook .", "i have a cat named catie .",
         "other_value_than_fact", 0.0),  # the fact names its member: catie is another cat
        # plus-13: "and i" opens another statement of the fact; "your own X" is "your X"
        ("do you have your own studio ?", "yes", "i'm a recording engineer and own my own studio .",
         "i have a small studio in california .", "restates_question", 1.0),
        ("do you like hummus ?", "yes", "i am a vegan and i love hummus .", "i love pizza .",
         "other_value_than_fact", 0.0),
        # plus-7: "zero" negates
        ("are you close to any of your family ?", "no", "i am not close to any of my family .",
         "i've zero family that i'm close to .", "restates_fact", 1.0),
    ],
)  # fmt: skip
def test_read_reply(question, truth, fact, reply, outcome, score) -> None:
    got = read_reply(question, truth, fact, reply)
    assert (got.outcome, got.score(truth)) == (outcome, score)


@pytest.mark.parametrize(
    ("question", "truth", "fact", "long", "score"),
    [
        ("do you drive a mercedes ?", "yes", "i drive a mercedes", "i drive a bmw", 0.0),
        ("do you drive a nissan ?", "yes", "i drive a nissan pathfinder .", "i drive a nissan altima", 0.0),
        ("do you love cats ?", "yes", "i love cats", "i can not stand cats", 0.0),
        ("do you work at a bar ?", "yes", "i work at a bar", "i work at a bar downtown", 1.0),
        # "have a _" alone anchors little: most of the fact said outranks it
        ("do you have a dog ?", "yes", "i've a german shepherd dog .", "i have a german shepherd", 1.0),
        ("do you drink cola ?", "no", "i do not drink soda .", "i don't drink cola", 1.0),  # both negated
        ("are you a painter now ?", "no", "i used to be a painter", "i'm not a painter now", 1.0),
        ("do you like to dance ?", "yes", "i love to dance", "what about you", None),  # off topic: allowed
        ("do you know how to say hi in spanish ?", "no", "no", "i can say it in french", None),  # partly
    ],
)  # fmt: skip
def test_read_long_part(question, truth, fact, long, score) -> None:
    assert read_reply(question, truth, fact, long, standalone=False).score(truth) == score
