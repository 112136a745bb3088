"""Built dataset directories: write (data file + card + build_info.json) and read them back."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_jsonl, dumps_line, read_jsonl
from consistest.core.records import SAMPLE_COLUMNS, SESSION_COLUMNS, Sample, SessionSample, sample_columns
from consistest.core.rundir import read_manifest

DATA_STEM = "data/test"
BUILD_INFO = "build_info.json"  # marks a directory as a consistest build (safe to replace)
FORMATS = ("parquet", "jsonl")


def data_file(directory: str | Path, fmt: str) -> Path:
    return Path(directory) / f"{DATA_STEM}.{fmt}"


def write_samples(directory: str | Path, samples: Sequence[Sample], fmt: str = "parquet") -> Path:
    """Write samples in schema column order; byte-identical for identical input. Session samples add their
    two columns (``sessions``, ``session_starts``); other builds keep the Sample's columns only."""
    path = data_file(directory, fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [s.to_dict() for s in samples]
    if fmt == "jsonl":
        atomic_write_jsonl(path, rows)
        return path
    if fmt != "parquet":
        raise InputError(f"unknown format {fmt!r}, expected one of {', '.join(FORMATS)}")
    import pyarrow.parquet as pq

    from consistest.core.records import sample_features

    sessions = has_sessions(samples)
    schema = sample_features(sessions).arrow_schema
    table = _to_table(rows, schema, sample_columns(sessions))
    pq.write_table(table, path, compression="zstd", write_statistics=False)
    return path


def has_sessions(samples: Sequence[Sample]) -> bool:
    """Whether the samples come from a session build (their records carry the session columns)."""
    return any(isinstance(s, SessionSample) for s in samples)


def _to_table(rows: list[dict[str, Any]], schema: Any, columns: Sequence[str] = SAMPLE_COLUMNS) -> Any:
    import pyarrow as pa

    cols = {name: [r[name] for r in rows] for name in columns}
    return pa.Table.from_pydict(cols, schema=schema)


@dataclass(frozen=True)
class DatasetDir:
    """A built dataset as scoring sees it: the samples, build_info.json (if any) and the verified content
    hash of the samples (the signature's ``data:``)."""

    path: Path
    samples: list[Sample]
    info: dict[str, Any] | None
    content_hash: str

    @property
    def name(self) -> str:
        return self.path.resolve().name


def load_samples(directory: str | Path) -> list[Sample]:
    """Read a built dataset directory (Parquet or JSONL) without importing ``datasets``."""
    return _load(*_data_path(directory))


def open_dataset(directory: str | Path) -> DatasetDir:
    """Samples plus their content hash, checked against build_info.json: a data file edited after the
    build is refused rather than scored under the build's signature."""
    path, fmt = _data_path(directory)
    info_path = Path(directory) / BUILD_INFO
    info = read_manifest(info_path) if info_path.is_file() else None
    samples = _load(path, fmt)
    stored = (info or {}).get("content_hash")
    if stored and (info or {}).get("data_sha256") == file_sha256(path):
        digest = str(stored)  # the file is byte-for-byte the one the build hashed
    else:
        digest = samples_hash(samples)
        if stored and stored != digest:
            raise InputError(
                f"{path.name} does not match {BUILD_INFO} (content hash {digest[:12]}, the build recorded "
                f"{str(stored)[:12]}): the data changed after the build; rebuild it with consistest build",
                path=str(path),
            )
    return DatasetDir(Path(directory), samples, info, digest)


def _data_path(directory: str | Path) -> tuple[Path, str]:
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError("dataset directory not found (run `consistest build` first)", path=str(directory))
    for fmt in FORMATS:
        path = data_file(directory, fmt)
        if path.exists():
            return path, fmt
    raise InputError(f"no {DATA_STEM}.parquet or {DATA_STEM}.jsonl inside", path=str(directory))


def _load(path: Path, fmt: str) -> list[Sample]:
    if fmt != "jsonl":
        return _read_parquet(path)
    out = []
    for i, (_, row) in enumerate(read_jsonl(path)):
        kind, columns = _record_type(row)
        missing = [c for c in columns if c not in row]
        if missing:
            raise InputError("missing column", path=str(path), record=i, field=missing[0])
        out.append(kind(*(row[c] for c in columns)))
    return out


def _record_type(names: Any) -> tuple[type[Sample], tuple[str, ...]]:
    """SessionSample when the data has the ``sessions`` column, else Sample; and its columns."""
    return (SessionSample, SESSION_COLUMNS) if "sessions" in names else (Sample, SAMPLE_COLUMNS)


def _read_parquet(path: Path) -> list[Sample]:
    """Samples from the Parquet file, column by column (``ParquetFile`` reads without importing pandas)."""
    table = _parquet_table(path)
    kind, names = _record_type(table.column_names)
    missing = [c for c in names if c not in table.column_names]
    if missing:
        raise InputError("missing column", path=str(path), record=0, field=missing[0])
    columns = [table.column(c).to_pylist() for c in names]
    return [kind(*row) for row in zip(*columns, strict=True)]


def read_parquet_rows(path: Path) -> list[dict[str, Any]]:
    """Every row of a Parquet file as a dict (for the side files: triggers, CDConv splits)."""
    return _parquet_table(path).to_pylist()


def _parquet_table(path: Path) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path).read()
    except (pa.ArrowException, OSError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
        raise InputError(
            f"not a readable Parquet file ({first}); rebuild the dataset", path=str(path)
        ) from None


def samples_hash(samples: Sequence[Sample]) -> str:
    """sha256 of the samples' canonical JSON lines: the dataset's content hash, independent of file format."""
    h = hashlib.sha256()
    for s in samples:
        h.update(dumps_line(s.to_dict()).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def file_sha256(path: str | Path) -> str:
    """sha256 of a file's bytes, read in blocks (``n/a`` when it is not a file)."""
    path = Path(path)
    if not path.is_file():
        return "n/a"
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_build_info(directory: str | Path) -> dict[str, Any]:
    """The build's counts, settings, content hash and signature."""
    return read_manifest(Path(directory) / BUILD_INFO)
