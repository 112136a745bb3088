"""Small helpers shared by tests: run the CLI in-process and write tiny input files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from consistest.cli import main


def run_cli(*args: str | Path) -> Result:
    """Invoke ``consistest`` in-process; stderr kept apart from stdout."""
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def write_json(path: Path, obj: Any) -> Path:
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path
