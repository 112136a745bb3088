"""Where build inputs come from: explicit flags, the embedded demo, or data/raw/ (downloaded when missing)."""

from __future__ import annotations

import hashlib
import os
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from consistest.errors import InputError

if TYPE_CHECKING:
    from consistest.build import BuildConfig

DEMO_DIR = Path(__file__).parent / "demo"
_BASE = "https://raw.githubusercontent.com/ELotfi/consistest/main/data"


@dataclass(frozen=True)
class RawFile:
    """One published input: its name in data/raw/, its public URL and the sha256 we verified."""

    name: str
    url: str
    sha256: str


RAW_FILES: dict[str, RawFile] = {
    "dialogues": RawFile(
        "consistest_valid.json",
        f"{_BASE}/valid.json",
        "43e76f6bc08a740b3191cf0de933a5ef1d7c4abe07e8aa72b94c4e2ee7ae2e44",
    ),
    "persona_qas": RawFile(
        "persona_qas.json",
        f"{_BASE}/persona_qas.json",
        "d0bab82ce9cd7c79c1b491d9ea310152acc513157f248cf6a16ec5edaaef233e",
    ),
    "history_qas": RawFile(
        "history_qas.json",
        f"{_BASE}/history_qas.json",
        "db5aeea3ca6f11f640675c4ab7144faf6c73715349d3d98ee4484b588dc4918b",
    ),
}


def resolve_inputs(cfg: BuildConfig) -> tuple[Path, Path | None, Path | None]:
    """(dialogues, persona QAs, history QAs) for a build; QAs are None when only dialogues are given
    (the question builders then make them)."""
    if cfg.demo:
        if cfg.dialogues or cfg.persona_qas or cfg.history_qas:
            raise InputError("--demo builds the embedded demo; drop --dialogues/--persona-qas/--history-qas")
        return DEMO_DIR / "dialogues.json", DEMO_DIR / "persona_qas.json", DEMO_DIR / "history_qas.json"
    given = {"dialogues": cfg.dialogues, "persona_qas": cfg.persona_qas, "history_qas": cfg.history_qas}
    if cfg.dialogues is not None and (cfg.persona_qas is None) == (cfg.history_qas is None):
        return cfg.dialogues, cfg.persona_qas, cfg.history_qas
    if any(v is not None for v in given.values()):
        missing = [f"--{k.replace('_', '-')}" for k, v in given.items() if v is None]
        raise InputError(
            f"give --dialogues with both QA files, --dialogues alone (generate QAs), or none; "
            f"missing {', '.join(missing)}"
        )
    return tuple(fetch_raw(key, cfg.raw_dir, quiet=cfg.quiet) for key in RAW_FILES)  # type: ignore[return-value]


def fetch_raw(key: str, raw_dir: Path, quiet: bool = False) -> Path:
    """``raw_dir/<name>``, downloaded from its public source when missing (atomic; warns on a new sha256)."""
    spec = RAW_FILES[key]
    path = Path(raw_dir) / spec.name
    if path.exists():
        return path
    if not quiet:
        print(f"{path} is missing; downloading {spec.url}", file=sys.stderr)
    try:
        with urllib.request.urlopen(spec.url, timeout=30) as resp:
            data = resp.read()
    except OSError as e:
        reason = getattr(e, "reason", e)
        raise InputError(
            f"missing, and download from {spec.url} failed ({reason}); download it by hand and put it there "
            "(see data/raw/README.md), or pass --dialogues/--persona-qas/--history-qas",
            path=str(path),
        ) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != spec.sha256:
        print(
            f"warning: {spec.name} sha256 {digest} differs from the verified {spec.sha256}; "
            "counts may differ from the published benchmark",
            file=sys.stderr,
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return path
