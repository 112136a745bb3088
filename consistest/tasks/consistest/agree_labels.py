"""Human labels for ``consistest agree``: JSONL ``{id, response, human}``, checked record by record.

``human`` follows the guidelines: Y/N items 0 or 1, WH items 0, 0.5 or 1. Ids must be the dataset's. One
sample may be labelled several times with different replies, or with the same reply by different models
(several models answered it); the same model's reply to the same sample twice is refused. An optional
``model`` names who wrote the reply (``agree`` then reports per model); other fields (item, category,
note, ...) are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.records import Sample, content_hash

ALLOWED = {"yn": (0.0, 1.0), "wh": (0.0, 0.5, 1.0)}


@dataclass(frozen=True)
class HumanLabel:
    id: str
    response: str
    human: float
    model: str | None = None

    def key(self) -> tuple[str, ...]:
        """What the ``labels:`` hash covers (the model only when named: files without one keep their hash)."""
        base = (self.id, self.response, self.human)
        return base if self.model is None else (*base, self.model)  # type: ignore[return-value]


@dataclass(frozen=True)
class LabelSplit:
    """A labels file under a name (``dev``, ``test``): what ``agree`` reports one table for."""

    name: str
    path: Path


def parse_split(spec: str | Path) -> LabelSplit:
    """``NAME=FILE`` or ``FILE`` (named after the file: ``tests/data/agree_dev.jsonl`` -> ``agree_dev``)."""
    text = str(spec)
    name, sep, path = text.partition("=")
    if not sep or Path(text).exists() or not name.strip():
        return LabelSplit(Path(text).stem or text, Path(text))
    return LabelSplit(name.strip(), Path(path))


def label_splits(specs: str | Path | Sequence[str | Path | LabelSplit]) -> list[LabelSplit]:
    """The splits of one or more specs, their names distinct."""
    items = [specs] if isinstance(specs, (str, Path)) else list(specs)
    out = [s if isinstance(s, LabelSplit) else parse_split(s) for s in items]
    if not out:
        raise InputError("no labels file given", field="labels")
    names = [s.name for s in out]
    for name in names:
        if names.count(name) > 1:
            raise InputError(
                f"two labels files named {name!r}: name them (--labels NAME=FILE)", field="labels"
            )
    return out


def labels_tag(labels: Sequence[HumanLabel]) -> str:
    """A labels file in the signature: the hash of what ``agree`` reads from it and its size."""
    return f"{content_hash(*[lab.key() for lab in labels])[:12]}-{len(labels)}"


def read_labels(path: str | Path, samples: Mapping[str, Sample]) -> list[HumanLabel]:
    """The labels of a file, in file order; any bad record is an InputError naming line and field."""
    out: list[HumanLabel] = []
    seen: dict[tuple[str, str, str | None], int] = {}
    for n, obj in read_jsonl(path):
        where = {"path": str(path), "record": f"line {n}"}
        sid, response, human, model = obj.get("id"), obj.get("response"), obj.get("human"), obj.get("model")
        if not isinstance(sid, str) or not sid:
            raise InputError("missing or not a string", field="id", **where)
        if sid not in samples:
            raise InputError(f"unknown sample id {sid!r} (not in the dataset)", field="id", **where)
        if not isinstance(response, str):
            raise InputError("missing or not a string", field="response", **where)
        if model is not None and not isinstance(model, str):
            raise InputError(f"must be a string, got {model!r}", field="model", **where)
        if (sid, response, model) in seen:
            raise InputError(f"sample id {sid!r} labelled twice with the same response (first on line "
                             f"{seen[sid, response, model]})", field="id", **where)  # fmt: skip
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
        seen[sid, response, model] = n
        out.append(HumanLabel(sid, response, float(human), model or None))
    if not out:
        raise InputError("no labels", path=str(path))
    return out
