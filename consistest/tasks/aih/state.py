"""Where a run stands: each conversation's utterances and each inquiry, rebuilt from the append log.

The log holds ``{"id": "<conv>:u<n>", "text"}`` per utterance and ``{"id": "<conv>:q<n>[+<d>]", ...}`` per
inquiry (one per delay d): ``question: null`` when the utterance stated nothing to ask about, else the
inquiry with the bot's ``answer`` (and its ``delay`` when d > 0), written once the answer is in. A question
made but not yet answered lives only in memory; after a kill it is made again from its utterance (the
inquirer is deterministic, and every delay asks the same question, made once per utterance).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from consistest.core.errors import InputError
from consistest.models.base import Item
from consistest.tasks.aih.inquirer import Inquiry
from consistest.tasks.aih.plan import (
    Plan,
    asked_after,
    inquired,
    inquiry_id,
    side_view,
    speaker,
    split_inquiry_id,
    utterance_id,
    view,
)


class RunState:
    """Utterances per conversation, finished inquiry records, and questions awaiting their answer."""

    def __init__(self, plans: Sequence[Plan], turns: int, delays: Sequence[int] = (0,)) -> None:
        self.plans = {p.id: p for p in plans}
        self.length = 2 * turns
        self.delays = tuple(delays)
        self.utterances: dict[str, list[str]] = {p.id: [p.opener] for p in plans}
        self.inquiries: dict[str, dict[str, Any]] = {}
        self.pending: dict[str, tuple[Plan, int, Inquiry, int]] = {}

    def delays_of(self, n: int) -> list[int]:
        """The delays at which utterance ``n`` is inquired about (those that fit in the conversation)."""
        return [d for d in self.delays if asked_after(n, d) < self.length] if inquired(n) else []

    def known_ids(self) -> Iterator[str]:
        for p in self.plans.values():
            for n in range(1, self.length):
                yield utterance_id(p, n)
                yield from (inquiry_id(p, n, d) for d in self.delays_of(n))

    def restore(self, events: Mapping[str, Mapping[str, Any]], where: str) -> None:
        """Take the logged utterances (which must run without gaps) and finished inquiries."""
        for p in self.plans.values():
            for n in range(1, self.length):
                rec = events.get(utterance_id(p, n))
                if rec is None:
                    break
                if not isinstance(rec.get("text"), str):
                    raise InputError("expected a 'text' string", path=where, record=rec["id"])
                self.utterances[p.id].append(rec["text"])
            for n in range(3, len(self.utterances[p.id]), 2):
                for d in self.delays_of(n):
                    rec = events.get(inquiry_id(p, n, d))
                    if rec is not None:
                        self.inquiries[rec["id"]] = dict(rec)
        done = set(self.inquiries) | {
            utterance_id(p, n) for p in self.plans.values() for n in range(1, len(self.utterances[p.id]))
        }
        if set(events) - done:
            extra = sorted(set(events) - done)[0]
            raise InputError("a logged reply has no earlier turns; use --overwrite", path=where, record=extra)

    def unasked(self) -> list[tuple[str, str]]:
        """(inquiry id at delay 0, utterance) for logged utterances with an inquiry (at some delay) neither
        logged nor pending; the delay-0 id seeds the question every delay asks."""
        return [
            (inquiry_id(p, n), self.utterances[p.id][n])
            for p in self.plans.values()
            for n in range(3, len(self.utterances[p.id]), 2)
            if any(self._open(inquiry_id(p, n, d)) for d in self.delays_of(n))
        ]

    def _open(self, iid: str) -> bool:
        return iid not in self.inquiries and iid not in self.pending

    @property
    def complete(self) -> bool:
        return (
            not self.pending
            and all(len(u) == self.length for u in self.utterances.values())
            and not (self.unasked())
        )

    def asked(self) -> int:
        """Inquiries answered so far."""
        return sum(1 for r in self.inquiries.values() if r.get("question") is not None)

    def generated(self) -> int:
        return sum(len(u) - 1 for u in self.utterances.values())

    def items_for(self, bot: str) -> list[Item]:
        """Everything ``bot`` must say now: next utterances of its conversations, then its side queries."""
        items: list[Item] = []
        for p in self.plans.values():
            said = self.utterances[p.id]
            n = len(said)
            if n < self.length and speaker(p, n) == bot:
                items.append((utterance_id(p, n), view(p, said, n)))
        for iid, (p, n, inquiry, d) in sorted(self.pending.items()):
            at = asked_after(n, d)
            if p.evaluated == bot and len(self.utterances[p.id]) > at:  # asked once utterance n+2d is said
                items.append((iid, side_view(p, self.utterances[p.id], at, inquiry.question)))
        return items

    def record(self, item_id: str, text: str) -> tuple[dict[str, Any], tuple[str, str] | None]:
        """Take one reply: (its log record, (inquiry id, utterance) when an inquiry must follow it)."""
        if item_id in self.pending:
            p, n, inquiry, d = self.pending.pop(item_id)
            rec = {"id": item_id, **asdict(inquiry), "answer": text, **({"delay": d} if d else {})}
            self.inquiries[item_id] = rec
            return rec, None
        conv, _, turn = item_id.rpartition(":u")
        p, n = self.plans[conv], int(turn)
        if n != len(self.utterances[conv]):
            raise RuntimeError(f"reply {item_id} arrived out of turn")
        self.utterances[conv].append(text)
        return {"id": item_id, "text": text}, ((inquiry_id(p, n), text) if self.delays_of(n) else None)

    def ask(self, iid: str, inquiry: Inquiry | None) -> list[dict[str, Any]]:
        """Queue the question about an utterance (``iid``: its delay-0 inquiry id) at every delay not yet
        logged or pending; the log records of the delays with nothing to ask."""
        conv, n, _ = split_inquiry_id(iid)
        p, records = self.plans[conv], []
        for d in self.delays_of(n):
            key = inquiry_id(p, n, d)
            if not self._open(key):
                continue
            if inquiry is None:
                self.inquiries[key] = {"id": key, "question": None}
                records.append(self.inquiries[key])
            else:
                self.pending[key] = (p, n, inquiry, d)
        return records
