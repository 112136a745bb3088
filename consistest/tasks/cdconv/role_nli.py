"""Role confusion in other words: the user's statement entails what the bot claims as its own.

The token rules of :mod:`consistest.metrics.roles` find a claim only when the bot says again the user's own
words. A small chat model more often says it in other words ("i'm a librarian" after "... make a living as
a librarian"; "i work at a food bank" after "i'm a food bank worker"). Here an NLI model reads, after any
user turn, each clause of the reply that states something of the bot's own against each clause of the
user's turns that states something of the user's own: when one of the user's entails it (P >
``ENTAILS``) and none of the bot's own statements (persona, earlier turns) does, the bot has taken the
user's part (CDConv's ``role``; "although nothing in its persona or earlier turns says so" in the
annotation guidelines of ``tests/data/dialogues``).

Designed on dev data only: the first round of ``tests/data/dialogues`` (all 300 turns; its test split had
been read three times, so it became dev), the synthetic dev split and DECODE ``rct``'s dev part. There it
finds 23 of 52 role contradictions, and fires on 2 of 218 consistent dialogue turns, 6 of 582 consistent
synthetic ones, 5 of 385 consistent human ones and none of the 567 ConsisTest dev replies (``role:2``).
``ENTAILS`` was not tuned (0.5, the NLI model's own even odds; 0.7 and 0.9 found fewer with the same false
alarms). ``role:3`` reads every user turn, not only the last (as the token rule ``claim`` does), finds the
user's statements after a short lead-in ("no i love to travel", "except i am in a detention center"), and
drops reply clauses that name nothing ("i love it", "i have 10"): on rounds 1-4 of ``tests/data/dialogues``
(dev since round 5) it flags 54 of their 276 contradictions (37 with ``role:2``) and 23 of their 924
consistent turns (13). ``role:4`` drops a review's false alarms (user statements after a hedge, hearsay, a
time clause or a question without its "?"): 52 and 23 there. Versioned as ``ROLE_NLI_VERSION``, which
``nli-pairs`` stores with its thresholds. It reads what the answer rules leave, before the guard's
contradiction pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

from consistest.core.records import DialogueExample
from consistest.metrics.roles import claim_candidates
from consistest.models.base import ProbabilisticNLI, label_probabilities
from consistest.tasks.cdconv.regimes import bot_turns

# 2: a review's examples: no candidate clause whose words the bot's own statements hold ("i'm from ohio as
# well" with "i live in ohio") or that says how the bot is doing
# 3: every user turn; the user's statements after a short lead-in; no reply clause that names nothing
# 4: a review's examples: no lead-in of a hedge, hearsay, a time clause or a question without "?" ("maybe i
# am", "she thinks i am", "after i retire", "can i have a dog"), none before "my"; more that names nothing
ROLE_NLI_VERSION = 4
ENTAILS = 0.5


def role_claims(nli: ProbabilisticNLI, examples: Sequence[DialogueExample]) -> list[str | None]:
    """Per dialogue, the reply's clause that claims what a user turn said of the user (entailed by one of
    its clauses, by none of the bot's own statements), or None. Two batched calls: the user's clauses
    against every candidate, then the bot's statements against those the user's entail."""
    read = [
        claim_candidates(ex.turns[-1], ex.turns[-2::-2], [*ex.persona, *bot_turns(ex.turns)])
        if len(ex.turns) > 1
        else ([], [], [])
        for ex in examples
    ]
    by_user = label_probabilities(
        nli, [(u, c) for mine, theirs, _ in read for c in mine for u in theirs], "entailment"
    )
    claimed = [
        [c for c in mine if max((by_user[(u, c)] for u in theirs), default=0.0) > ENTAILS]
        for mine, theirs, _ in read
    ]
    helds = [held for _, _, held in read]
    asked = [(o, c) for cs, held in zip(claimed, helds, strict=True) for c in cs for o in held]
    by_own = label_probabilities(nli, asked, "entailment")
    return [
        next((c for c in cs if max((by_own[(o, c)] for o in held), default=0.0) <= ENTAILS), None)
        for cs, held in zip(claimed, helds, strict=True)
    ]
