"""Where ConsisTest build inputs come from: explicit files, the embedded demo, or data/raw/ (downloaded)."""

from __future__ import annotations

from pathlib import Path

from consistest.core.errors import InputError
from consistest.data.downloads import RawFile, fetch_raw

DEMO_DIR = Path(__file__).parent / "demo"
_BASE = "https://raw.githubusercontent.com/ELotfi/consistest/main/data"

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
_HINT = " (see data/raw/README.md), or pass --dialogues/--persona-qas/--history-qas"


def resolve_inputs(
    *,
    demo: bool,
    dialogues: Path | None,
    persona_qas: Path | None,
    history_qas: Path | None,
    raw_dir: Path,
    quiet: bool = False,
) -> tuple[Path, Path | None, Path | None]:
    """(dialogues, persona QAs, history QAs) for a build; QAs are None when only dialogues are given
    (the question builders then make them)."""
    if demo:
        if dialogues or persona_qas or history_qas:
            raise InputError("--demo builds the embedded demo; drop --dialogues/--persona-qas/--history-qas")
        return DEMO_DIR / "dialogues.json", DEMO_DIR / "persona_qas.json", DEMO_DIR / "history_qas.json"
    given = {"dialogues": dialogues, "persona_qas": persona_qas, "history_qas": history_qas}
    if dialogues is not None and (persona_qas is None) == (history_qas is None):
        return dialogues, persona_qas, history_qas
    if any(v is not None for v in given.values()):
        missing = [f"--{k.replace('_', '-')}" for k, v in given.items() if v is None]
        raise InputError(
            f"give --dialogues with both QA files, --dialogues alone (generate QAs), or none; "
            f"missing {', '.join(missing)}"
        )
    d, p, h = (fetch_raw(RAW_FILES[k], raw_dir, quiet=quiet, hint=_HINT) for k in RAW_FILES)
    return d, p, h
