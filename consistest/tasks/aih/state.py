"""Where a run stands: each conversation's utterances and each inquiry, rebuilt from the append log.

The log holds ``{"id": "<conv>:u<n>", "text"}`` per utterance and ``{"id": "<conv>:q<n>", ...}`` per
inquiry: ``question: null`` when the utterance stated nothing to ask about, else the inquiry with the
bot's ``answer``, written once the answer is in. A question made but not yet answered lives only in
memory; after a kill it is made again from its utterance (the inquirer is deterministic).
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
    inquired,
    inquiry_id,
    side_view,
    speaker,
    utterance_id,
    view,
)


class RunState:
    """Utterances per conversation, finished inquiry records, and questions awaiting their answer."""

    def __init__(self, plans: Sequence[Plan], turns: int) -> None:
        self.plans = {p.id: p for p in plans}
        self.length = 2 * turns
        self.utterances: dict[str, list[str]] = {p.id: [p.opener] for p in plans}
        self.inquiries: dict[str, dict[str, Any]] = {}
        self.pending: dict[str, tuple[Plan, int, Inquiry]] = {}

    def known_ids(self) -> Iterator[str]:
        for p in self.plans.values():
            for n in range(1, self.length):
                yield utterance_id(p, n)
                if inquired(n):
                    yield inquiry_id(p, n)

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
                rec = events.get(inquiry_id(p, n))
                if rec is not None:
                    self.inquiries[rec["id"]] = dict(rec)
        done = set(self.inquiries) | {
            utterance_id(p, n) for p in self.plans.values() for n in range(1, len(self.utterances[p.id]))
        }
        if set(events) - done:
            extra = sorted(set(events) - done)[0]
            raise InputError("a logged reply has no earlier turns; use --overwrite", path=where, record=extra)

    def unasked(self) -> list[tuple[str, str]]:
        """(inquiry id, utterance) for logged utterances whose inquiry is neither logged nor pending."""
        return [
            (inquiry_id(p, n), self.utterances[p.id][n])
            for p in self.plans.values()
            for n in range(3, len(self.utterances[p.id]), 2)
            if inquiry_id(p, n) not in self.inquiries and inquiry_id(p, n) not in self.pending
        ]

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
        for iid, (p, n, inquiry) in sorted(self.pending.items()):
            if p.evaluated == bot:
                items.append((iid, side_view(p, self.utterances[p.id], n, inquiry.question)))
        return items

    def record(self, item_id: str, text: str) -> tuple[dict[str, Any], tuple[str, str] | None]:
        """Take one reply: (its log record, (inquiry id, utterance) when an inquiry must follow it)."""
        if item_id in self.pending:
            p, n, inquiry = self.pending.pop(item_id)
            rec = {"id": item_id, **asdict(inquiry), "answer": text}
            self.inquiries[item_id] = rec
            return rec, None
        conv, _, turn = item_id.rpartition(":u")
        p, n = self.plans[conv], int(turn)
        if n != len(self.utterances[conv]):
            raise RuntimeError(f"reply {item_id} arrived out of turn")
        self.utterances[conv].append(text)
        return {"id": item_id, "text": text}, ((inquiry_id(p, n), text) if inquired(n) else None)

    def ask(self, iid: str, inquiry: Inquiry | None) -> dict[str, Any] | None:
        """Queue an inquiry's question; the log record when there is none to ask."""
        if inquiry is None:
            rec = {"id": iid, "question": None}
            self.inquiries[iid] = rec
            return rec
        conv, _, turn = iid.rpartition(":q")
        self.pending[iid] = (self.plans[conv], int(turn), inquiry)
        return None
