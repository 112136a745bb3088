"""The bot's earlier turns that took over the user's words: what the role readings do not count as its own.

A bot that repeats the user ("i want a farm but i an broke" after the user's "i want a farm but i an
broke") and then says it again in a later turn still speaks as the user: its earlier copy is itself role
confusion, not a fact of its own. The role readings of :mod:`.roles` take the bot's earlier statements as
what it holds ("i like all music" is no claim when the bot said it before the user did); read with a
borrowed turn among them, they let a repeated copy pass. ``borrowed_turns`` finds those turns, in order,
each read against the persona and the earlier turns not themselves borrowed. Designed on rounds 1-23 of
``tests/data/dialogues`` (dev by then), from the bot-written rounds' misses; the labelling guidelines do not
settle a repeated copy, and the blind passes of round 23 both labelled it ``role``.
"""

from __future__ import annotations

from collections.abc import Sequence

from consistest.metrics.roles import claims_user_fact, copies_user, echoes


def _within(sentence: str, turns: Sequence[str]) -> bool:
    """A sentence (typographic apostrophes read plain, as the turns are) said within one of ``turns``."""
    s = sentence.replace("\u2019", "'").strip()
    return bool(s) and any(s in t for t in turns)


def borrowed_turns(history: Sequence[str], premises: Sequence[str], persona: Sequence[str]) -> list[str]:
    """The bot's turns of ``history`` (the turns before the reply, the user's last) that echo, copy or
    claim a statement of a user turn before them; ``premises`` are the bot's persona sentences (``persona``)
    and its earlier turns' sentences, the persona always held."""
    bots = list(range(len(history) - 2, -1, -2))[::-1]  # the bot's turns, the first first
    taken: list[str] = []
    for k, j in enumerate(bots):
        users = list(history[j - 1 :: -2]) if j >= 1 else []  # the user's turns before it, the last first
        if not users:
            continue
        later = [history[i] for i in bots[k:]]
        own = _held(premises, persona, [*later, *taken])
        turn = history[j]
        if echoes(users[0], turn, own) or copies_user(users, turn, own) or claims_user_fact(turn, users, own):
            taken.append(turn)
    return taken


def own_statements(history: Sequence[str], premises: Sequence[str], persona: Sequence[str]) -> list[str]:
    """``premises`` less the sentences of the bot's borrowed turns (the persona always kept)."""
    return _held(premises, persona, borrowed_turns(history, premises, persona))


def _held(premises: Sequence[str], persona: Sequence[str], left_out: Sequence[str]) -> list[str]:
    """``premises`` less those said within ``left_out``, the persona's sentences always kept."""
    keep = set(persona)
    return [p for p in premises if p in keep or not _within(p, left_out)]
