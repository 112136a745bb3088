"""Built dataset directories: write (data file + card + build_info.json) and read them back."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from consistest.errors import InputError
from consistest.io import atomic_write_jsonl, read_json, read_jsonl
from consistest.schema import SAMPLE_COLUMNS, Sample

DATA_STEM = "data/test"
FORMATS = ("parquet", "jsonl")


def data_file(directory: str | Path, fmt: str) -> Path:
    return Path(directory) / f"{DATA_STEM}.{fmt}"


def write_samples(directory: str | Path, samples: Sequence[Sample], fmt: str = "parquet") -> Path:
    """Write samples in schema column order; byte-identical for identical input."""
    path = data_file(directory, fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [s.to_dict() for s in samples]
    if fmt == "jsonl":
        atomic_write_jsonl(path, rows)
        return path
    if fmt != "parquet":
        raise InputError(f"unknown format {fmt!r}, expected one of {', '.join(FORMATS)}")
    import pyarrow.parquet as pq

    from consistest.schema import sample_features

    schema = sample_features().arrow_schema
    table = _to_table(rows, schema)
    pq.write_table(table, path, compression="zstd", write_statistics=False)
    return path


def _to_table(rows: list[dict[str, Any]], schema: Any) -> Any:
    import pyarrow as pa

    cols = {name: [r[name] for r in rows] for name in SAMPLE_COLUMNS}
    return pa.Table.from_pydict(cols, schema=schema)


def load_samples(directory: str | Path) -> list[Sample]:
    """Read a built dataset directory (Parquet or JSONL) without importing ``datasets``."""
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError("dataset directory not found (run `consistest build` first)", path=str(directory))
    for fmt in FORMATS:
        path = data_file(directory, fmt)
        if path.exists():
            return _load(path, fmt)
    raise InputError(f"no {DATA_STEM}.parquet or {DATA_STEM}.jsonl inside", path=str(directory))


def _load(path: Path, fmt: str) -> list[Sample]:
    if fmt == "jsonl":
        rows = [obj for _, obj in read_jsonl(path)]
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
    out = []
    for i, row in enumerate(rows):
        missing = [c for c in SAMPLE_COLUMNS if c not in row]
        if missing:
            raise InputError("missing column", path=str(path), record=i, field=missing[0])
        out.append(Sample.from_dict(row))
    return out


def read_build_info(directory: str | Path) -> dict[str, Any]:
    """The build's counts, settings, content hash and signature."""
    return read_json(Path(directory) / "build_info.json")
