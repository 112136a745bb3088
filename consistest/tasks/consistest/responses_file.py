"""Read a responses file: JSONL ``{"id", "response"}`` or the original ConsisTest tool's CSV.

Every sample gets at most one response: duplicate or unknown ids are one-line InputErrors, and so are
missing ones unless the caller scores a subset (``subset_ok``: only the samples with a response).
The CSV (columns Question, Response, Reference, NLI_Ref, Source, Type, Distance) has no ids, so rows
are matched to samples by order and each row's question is checked against the sample's.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl, read_text
from consistest.core.records import Sample

CSV_COLUMNS = ("Question", "Response", "Reference", "NLI_Ref", "Source", "Type", "Distance")


def read_responses(path: str | Path, samples: Sequence[Sample], *, subset_ok: bool = False) -> dict[str, str]:
    """sample id -> response, checked to cover the samples exactly once (at most once with ``subset_ok``;
    the CSV, matched by order, always covers ``samples``)."""
    path = Path(path)
    if is_csv(path):
        return read_csv_responses(path, samples)
    out: dict[str, str] = {}
    for lineno, obj in read_jsonl(path):
        where = {"path": str(path), "record": f"line {lineno}"}
        if "id" not in obj:
            raise InputError("missing field", field="id", **where)
        if "response" not in obj:
            raise InputError("missing field", field="response", **where)
        sid, resp = str(obj["id"]), obj["response"]
        if resp is None:
            resp = ""
        if not isinstance(resp, str):
            raise InputError(f"expected a string, got {type(resp).__name__}", field="response", **where)
        if sid in out:
            raise InputError(f"duplicate id {sid!r}", field="id", **where)
        out[sid] = resp
    check_coverage(out, samples, str(path), subset_ok=subset_ok)
    return out


def is_csv(path: Path) -> bool:
    """The original tool's CSV (by suffix or header), else JSONL."""
    return path.suffix.lower() == ".csv" or read_text(path, limit=200).lstrip("\ufeff").startswith(
        "Question,"
    )


def check_coverage(
    responses: Mapping[str, str],
    samples: Sequence[Sample],
    path: str | None = None,
    *,
    subset_ok: bool = False,
) -> None:
    """Unknown ids (and missing ones unless ``subset_ok``): an InputError naming the first and the count."""
    ids = {s.id for s in samples}
    unknown = [k for k in responses if k not in ids]
    if unknown:
        raise InputError(f"{len(unknown)} unknown sample id(s), first {unknown[0]!r}", path=path)
    missing = [] if subset_ok else [s.id for s in samples if s.id not in responses]
    if missing:
        raise InputError(
            f"{len(missing)} of {len(samples)} samples have no response, first id {missing[0]!r}", path=path
        )


def _norm_q(text: str) -> str:
    return " ".join(re.findall(r"\w+", str(text).lower()))


def read_csv_responses(path: str | Path, samples: Sequence[Sample]) -> dict[str, str]:
    """The original tool's CSV: one row per sample in dataset order; questions must match."""
    path = Path(path)
    reader = csv.DictReader(io.StringIO(read_text(path).lstrip("\ufeff")))
    cols = reader.fieldnames or []
    for c in ("Question", "Response"):
        if c not in cols:
            raise InputError(
                f"not a ConsisTest CSV: no {c!r} column (columns: {', '.join(cols)})", path=str(path)
            )
    rows = list(reader)
    if len(rows) != len(samples):
        raise InputError(
            f"{len(rows)} rows for {len(samples)} samples (rows are matched by order)", path=str(path)
        )
    out: dict[str, str] = {}
    for i, (row, s) in enumerate(zip(rows, samples, strict=True)):
        if _norm_q(row["Question"]) != _norm_q(s.question):
            raise InputError(
                f"question {row['Question']!r} does not match sample {s.id!r} ({s.question!r}); "
                "rows must follow the dataset's order",
                path=str(path),
                record=f"row {i + 2}",
                field="Question",
            )
        out[s.id] = row.get("Response") or ""
    return out
