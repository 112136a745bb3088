"""Published input files: fetched into a local folder when missing, atomically, with their sha256 checked."""

from __future__ import annotations

import hashlib
import os
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from consistest.core import log
from consistest.core.errors import InputError


@dataclass(frozen=True)
class RawFile:
    """One published input: its name in the raw folder, its public URL and the sha256 we verified."""

    name: str
    url: str
    sha256: str


def fetch_raw(spec: RawFile, raw_dir: Path, quiet: bool = False, hint: str = "") -> Path:
    """``raw_dir/<name>``, downloaded from its public source when missing (atomic; warns on a new sha256).

    ``hint`` ends the one-line error when the download fails (where to read more, what else to pass)."""
    path = Path(raw_dir) / spec.name
    if path.exists():
        return path
    log.info(f"{path} is missing; downloading {spec.url}", quiet=quiet)
    try:
        with urllib.request.urlopen(spec.url, timeout=30) as resp:
            data = resp.read()
    except OSError as e:
        reason = getattr(e, "reason", e)
        raise InputError(
            f"missing, and download from {spec.url} failed ({reason}); download it by hand and put it there"
            + hint,
            path=str(path),
        ) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != spec.sha256:
        log.warning(
            f"{spec.name} sha256 {digest} differs from the verified {spec.sha256}; "
            "counts may differ from the published benchmark"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return path
