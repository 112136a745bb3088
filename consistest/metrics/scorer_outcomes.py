"""What the scorers' outcome names (``ScoredItem.outcome``, from ``rules.judge`` and ``plus``) say to the
failure categories: the readings that file a reply before NLI is asked. Versioned with the categories
(``CATEGORIES_VERSION`` in :mod:`.categories`): a change here changes a category."""

from __future__ import annotations

from consistest.metrics.rules import Outcome

NO_TRUTH = Outcome.NO_TRUTH.value  # a trigger turn without truth ("ok ."): categories only
WRONG_SHORT = frozenset({"wrong_yes_no", "wrong_short_form"})
ANOTHER_VALUE = "another_value"  # plus's outcome for a number swapped in the truth's frame
# plus's reading of a Y/N reply as the question's proposition, said or negated
STANCES = {"restates_question": "yes", "negates_question": "no", "kind_member": "yes"}  # kind_member: plus-20
# a right yes/no word; ``long_part_disagrees`` is plus's 0 for one whose long part says otherwise
RIGHT_SHORT = frozenset({"correct_short_answer", "yes_no_only", "long_part_disagrees"})
# plus's outcomes that file a reply as history, and why
HISTORY_OUTCOMES = {
    "claims_aspired": "says it already is what the question or the fact only wishes it to be",  # plus-11
    "other_value_unlike_fact": "another value than the question's, and not the fact's either",  # plus-17
    "denies_fact_part": "it denies a part of the fact the question does not ask about",  # plus-19
    "other_member_than_fact": "it names a member of the asked kind the fact does not",  # plus-20
    "other_partner": "it names a partner of the other sex than the fact's",  # plus-22
    "negates_truth": "it says the truth only negated",  # plus-23
}
# plus's outcomes that are self-contradictions by the rules' reading, and why
SELF_CONTRADICTIONS = {
    "opposite_short_form": "the yes/no word and a short form disagree",
    "contradicts_itself": "it says a thing of the bot and its negation, or two values",
}
