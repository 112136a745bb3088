"""Files named in reports and stored figures: same-named files (round10/test.jsonl, round11/test.jsonl) each
keep their own entry instead of overwriting each other; a file given twice is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.io import distinct_names


@pytest.mark.parametrize(
    ("paths", "names"),
    [
        (["a/dev.jsonl", "b/other.jsonl"], ["dev.jsonl", "other.jsonl"]),
        (["r10/test.jsonl", "r11/test.jsonl"], ["r10/test.jsonl", "r11/test.jsonl"]),
        (["x/r/test.jsonl", "y/r/test.jsonl", "z.jsonl"], ["x/r/test.jsonl", "y/r/test.jsonl", "z.jsonl"]),
        ([], []),
    ],
)
def test_distinct_names(tmp_path: Path, paths: list[str], names: list[str]) -> None:
    assert distinct_names([tmp_path / p for p in paths], "dev") == names


def test_a_file_given_twice_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="given twice") as err:
        distinct_names([tmp_path / "a.jsonl", tmp_path / "b" / ".." / "a.jsonl"], "dev")
    assert err.value.field == "dev"
