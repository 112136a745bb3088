"""Human labels for ``consistest agree``: JSONL ``{id, response, human}``, checked record by record.

``human`` follows the guidelines: Y/N items 0 or 1, WH items 0, 0.5 or 1. Ids must be the dataset's, each
at most once; extra fields (class, note, ...) are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.records import Sample

ALLOWED = {"yn": (0.0, 1.0), "wh": (0.0, 0.5, 1.0)}


@dataclass(frozen=True)
class HumanLabel:
    id: str
    response: str
    human: float

    def key(self) -> tuple[str, str, float]:
        return (self.id, self.response, self.human)


def read_labels(path: str | Path, samples: Mapping[str, Sample]) -> list[HumanLabel]:
    """The labels of a file, in file order; any bad record is an InputError naming line and field."""
    out: list[HumanLabel] = []
    seen: set[str] = set()
    for n, obj in read_jsonl(path):
        where = {"path": str(path), "record": f"line {n}"}
        sid, response, human = obj.get("id"), obj.get("response"), obj.get("human")
        if not isinstance(sid, str) or not sid:
            raise InputError("missing or not a string", field="id", **where)
        if sid not in samples:
            raise InputError(f"unknown sample id {sid!r} (not in the dataset)", field="id", **where)
        if sid in seen:
            raise InputError(f"sample id {sid!r} labelled twice", field="id", **where)
        if not isinstance(response, str):
            raise InputError("missing or not a string", field="response", **where)
        qtype = samples[sid].type
        if (
            isinstance(human, bool)
            or not isinstance(human, (int, float))
            or float(human) not in ALLOWED[qtype]
        ):
            allowed = " or ".join(f"{x:g}" for x in ALLOWED[qtype])
            raise InputError(
                f"must be {allowed} for a {qtype.upper()} item, got {human!r}", field="human", **where
            )
        seen.add(sid)
        out.append(HumanLabel(sid, response, float(human)))
    if not out:
        raise InputError("no labels", path=str(path))
    return out
