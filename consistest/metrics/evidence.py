"""Full evidence: where the plus rules already read that a reply restates what it should (the ``restated``
rule of ``--method plus``), the NLI guard gets no veto over it.

On the dev labels, the guard's veto on replies the rules had read as right was wrong far more often than
right: it flagged restated facts ("i am a musician and hope to make it big some day ." for that very fact),
bare answers ("yes i am .", "56") and replies whose only other content is an extra value the extras rule
already marked down ("green and purple ."). Its veto stays where the rules found only part of the evidence,
or found a clause that negates the fact ("i don't have a dog" holds every keyword of "dog").

- WH: every keyword of a truth alternative is said, no clause negates the fact or gives it another value
  (unless that value is an extra the cap already scored), and a clause restates a statement of the fact in
  full, or the reply says nothing but the truth's keywords (and those extras), unnegated.
- Y/N: the yes/no word or short form is right, and what follows it is empty ("yes i am .") or restates the
  fact or the question's proposition with the same answer ("no , i have blonde hair and blue eyes" to "do
  you have blue hair ?" with that fact).
"""

from __future__ import annotations

from collections.abc import Sequence

from consistest.metrics.propositions import clauses, is_content, is_negated, stem, words_of
from consistest.metrics.yesno import Polarity, Reading, fact_reading

RESTATING = frozenset({"restates_fact", "restates_question", "negates_question"})


def wh_restates(cleaned: str, keywords: Sequence[str], fact: str, extras: Sequence[str] = ()) -> bool:
    """Whether a WH reply holding every keyword of ``keywords`` is full evidence (see the module)."""
    parts = clauses(cleaned)
    readings = [r for c in parts if (r := fact_reading(fact, c)) is not None]
    if any(r.stance == "no" or (r.stance == "other" and not extras) for r in readings):
        return False
    if any(r.stance == "yes" and r.full for r in readings):
        return True
    said = {stem(w) for c in parts for w in words_of(c) if is_content(w)}
    known = {stem(w) for k in (*keywords, *extras) for w in words_of(k)}
    negated = any(is_negated(words_of(c)) for c in parts)  # "i don't have a dog": no bare answer
    return bool(said) and said <= known and not negated


def yn_restates(reading: Reading | None, truth: Polarity) -> bool:
    """Whether a Y/N reply with the right yes/no word or short form is full evidence: ``reading`` is its
    long part read against fact and question (:func:`~consistest.metrics.yesno.read_reply`, not standalone),
    None when it has no long part."""
    return reading is None or (reading.outcome in RESTATING and reading.score(truth) == 1.0)
