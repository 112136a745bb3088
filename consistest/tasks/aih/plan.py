"""The conversations of a run and what each bot sees.

Conversation ``k`` of every ordered pair (partner, evaluated) gets the same two PersonaChat personas and
the same opener, drawn with ``Random(f"{seed}:{k}")``: evaluated bots are compared on the same material.
Utterance 0 is the partner's opener; the evaluated bot says the odd utterances, the partner the even
ones, ``2 * turns`` in all (``turns`` replies of the evaluated bot). Item ids, which seed sampling, are
``<conv>:u<n>`` for utterance n and ``<conv>:q<n>`` for the side query after it; an inquiry about utterance
n asked d bot turns later (``--inquiry-delay``), after utterance ``n + 2d``, is ``<conv>:q<n>+<d>``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Dialogue, Turn, content_hash
from consistest.tasks.aih.config import ConverseConfig

HELLO = "hello"


@dataclass(frozen=True)
class Plan:
    """One conversation: who talks, their personas (partner's, evaluated's; empty for none), the opener."""

    id: str
    partner: str
    evaluated: str
    index: int
    partner_persona: tuple[str, ...]
    evaluated_persona: tuple[str, ...]
    opener: str


def persona_pool(dialogues: Sequence[Dialogue]) -> list[tuple[str, ...]]:
    """Distinct personas (the agent's, then the partner's when the layout has it), in file order."""
    seen: dict[tuple[str, ...], None] = {}
    for d in dialogues:
        for persona in (d.persona, d.partner_persona):
            if persona:
                seen.setdefault(tuple(persona), None)
    return list(seen)


def opener_pool(dialogues: Sequence[Dialogue]) -> list[str]:
    """Distinct first user utterances, in file order."""
    return list(dict.fromkeys(d.utterances[0].strip() for d in dialogues if d.utterances and d.utterances[0]))


def pools_hash(personas: Sequence[tuple[str, ...]], openers: Sequence[str]) -> str:
    return content_hash([list(p) for p in personas], list(openers), n=12)


def plan_conversations(
    cfg: ConverseConfig, personas: Sequence[tuple[str, ...]], openers: Sequence[str]
) -> list[Plan]:
    """Every conversation of the run, pairs in name order, ``cfg.conversations`` per pair."""
    if any(b.persona for b in cfg.bots) and len(personas) < 2:
        raise InputError("the dialogue file holds fewer than two personas", field="dialogues")
    if cfg.opener == "dialogues" and not openers:
        raise InputError("the dialogue file holds no first utterances to open with", field="dialogues")
    draws = []
    for k in range(cfg.conversations):
        rng = random.Random(f"{cfg.seed}:{k}")
        pair = rng.sample(range(len(personas)), 2) if len(personas) >= 2 else [0, 0]
        opener = rng.choice(openers) if cfg.opener == "dialogues" else HELLO
        draws.append((pair, opener))
    plans = []
    for partner, evaluated in cfg.pairs():
        for k, ((pa, pe), opener) in enumerate(draws):
            plans.append(
                Plan(
                    id=f"{partner}>{evaluated}#{k}",
                    partner=partner,
                    evaluated=evaluated,
                    index=k,
                    partner_persona=personas[pa] if cfg.bot(partner).persona else (),
                    evaluated_persona=personas[pe] if cfg.bot(evaluated).persona else (),
                    opener=opener,
                )
            )
    return plans


def speaker(plan: Plan, n: int) -> str:
    """The bot that says utterance ``n`` (0 = the partner's opener)."""
    return plan.evaluated if n % 2 else plan.partner


def view(plan: Plan, utterances: Sequence[str], n: int) -> Conversation:
    """What the speaker of utterance ``n`` sees: its persona and utterances ``0..n-1``, its own as
    assistant."""
    return _seen_by(plan, n % 2, utterances[:n])


def side_view(plan: Plan, utterances: Sequence[str], n: int, question: str) -> Conversation:
    """The side query after the evaluated bot's utterance ``n``: what it saw, its reply, then the question."""
    seen = _seen_by(plan, 1, utterances[: n + 1])
    return Conversation(seen.persona, (*seen.turns, Turn("user", question)))


def _seen_by(plan: Plan, side: int, utterances: Sequence[str]) -> Conversation:
    """The conversation seen from one side (0 = partner, 1 = evaluated), its own utterances as assistant."""
    persona = plan.evaluated_persona if side else plan.partner_persona
    turns = tuple(Turn("assistant" if k % 2 == side else "user", u) for k, u in enumerate(utterances))
    return Conversation(persona, turns)


def utterance_id(plan: Plan, n: int) -> str:
    return f"{plan.id}:u{n}"


def inquiry_id(plan: Plan, n: int, delay: int = 0) -> str:
    return f"{plan.id}:q{n}" + (f"+{delay}" if delay else "")


def split_inquiry_id(iid: str) -> tuple[str, int, int]:
    """``<conv>:q<n>[+<d>]`` -> (conversation id, n, delay)."""
    conv, _, rest = iid.rpartition(":q")
    n, _, d = rest.partition("+")
    return conv, int(n), int(d or 0)


def asked_after(n: int, delay: int) -> int:
    """The evaluated bot's utterance after which the inquiry about utterance ``n`` is asked."""
    return n + 2 * delay


def inquired(n: int) -> bool:
    """Whether an inquiry follows utterance ``n``: the evaluated bot's replies from its second on."""
    return n % 2 == 1 and n >= 3
