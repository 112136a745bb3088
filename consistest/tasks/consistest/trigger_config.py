"""The trigger variants as a built dataset's second config: ``data/triggers.<fmt>`` beside ``data/test.*``
(declared in the card's YAML), its ``build_info.json`` section and signature, and opening it for scoring.
The default config is never touched, so a build without ``--triggers`` stays byte-identical."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from consistest.core.errors import InputError
from consistest.core.records import Sample
from consistest.data.card import TRIGGER_FIELDS

TRIGGER_STEM = "data/triggers"  # beside data/test.*: a second config, so the default split stays unchanged
CONFIGS = ("default", "triggers")


def rows_hash(rows: Sequence[dict[str, Any]]) -> str:
    """sha256 of the rows' canonical JSON lines (the triggers config's content hash)."""
    import hashlib

    from consistest.core.io import dumps_line

    h = hashlib.sha256()
    for r in rows:
        h.update((dumps_line(r) + "\n").encode("utf-8"))
    return h.hexdigest()


def write_trigger_rows(directory: Any, rows: Sequence[dict[str, Any]], fmt: str) -> Any:
    """Write ``data/triggers.<fmt>`` in column order (byte-identical for identical rows); return its path."""
    from pathlib import Path

    from consistest.core.io import atomic_write_jsonl

    path = Path(directory) / f"{TRIGGER_STEM}.{fmt}"
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "jsonl":
        atomic_write_jsonl(path, rows)
        return path
    import pyarrow as pa
    import pyarrow.parquet as pq
    from datasets import Value

    from consistest.core.records import sample_features

    features = sample_features()
    for name, _ in TRIGGER_FIELDS:
        features[name] = Value("string")
    table = pa.Table.from_pydict({k: [r[k] for r in rows] for k in features}, schema=features.arrow_schema)
    pq.write_table(table, path, compression="zstd", write_statistics=False)
    return path


def trigger_build_info(
    rows: Sequence[dict[str, Any]], info: dict[str, Any], path: Any, base: dict[str, Any]
) -> dict[str, Any]:
    """The ``triggers`` section of build_info.json: counts, versions, hashes and the config's signature."""
    from consistest.core.signature import make_signature
    from consistest.data.dataset_dir import file_sha256

    digest = rows_hash(rows)
    s = base["settings"]
    signature = make_signature(
        [
            ("data", digest[:12]),
            ("config", "triggers"),
            ("trig", f"{info['version']}-{info['lexicon']}"),
            ("qa", base["qa_origin"]),
            ("mem", s["memory"]),
            ("d", s["distances"]),
            ("paired", s["paired"]),
        ]
    )
    return {
        **info,
        "rows": len(rows),
        "file": f"{TRIGGER_STEM}.{path.suffix[1:]}",
        "content_hash": digest,
        "data_sha256": file_sha256(path),
        "signature": signature,
    }


def open_triggers(directory: Any) -> tuple[Any, dict[str, str]]:
    """The triggers config as a DatasetDir (its verified content hash) and each row's trigger by id."""
    from pathlib import Path

    from consistest.core.io import read_jsonl
    from consistest.data.dataset_dir import DatasetDir, file_sha256, read_build_info, read_parquet_rows

    directory = Path(directory)
    info = read_build_info(directory)
    t = info.get("triggers")
    if not t:
        raise InputError(
            "built without --triggers: no triggers config (rebuild with --triggers)", path=str(directory)
        )
    path = directory / t["file"]
    if not path.is_file():
        raise InputError(
            "the triggers config's data file is missing; rebuild with --triggers", path=str(path)
        )
    rows = [o for _, o in read_jsonl(path)] if path.suffix == ".jsonl" else read_parquet_rows(path)
    if file_sha256(path) != t["data_sha256"] and rows_hash(rows) != t["content_hash"]:
        raise InputError(
            "does not match build_info.json (edited after the build); rebuild it", path=str(path)
        )
    samples = [Sample.from_dict(r) for r in rows]
    return DatasetDir(directory, samples, info, t["content_hash"]), {r["id"]: r["trigger"] for r in rows}


def open_config(directory: Any, config: str = "default") -> tuple[Any, dict[str, str] | None]:
    """A built dataset's config for scoring: (DatasetDir, trigger by id, or None for the default one)."""
    from consistest.data.dataset_dir import open_dataset

    if config == "default":
        return open_dataset(directory), None
    if config == "triggers":
        return open_triggers(directory)
    raise InputError(f"unknown dataset config {config!r}; choose from {', '.join(CONFIGS)}", field="config")


def config_parts(ds: Any, config: str) -> list[tuple[str, str]]:
    """Signature parts naming a non-default config and its trigger rules (none for the default)."""
    if config == "default":
        return []
    t = (ds.info or {}).get("triggers") or {}
    return [("config", config), ("trig", f"{t.get('version')}-{t.get('lexicon')}")]
