"""The versioned word lists and templates of the question builders and sentence tools (lexicon.json)."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any


@functools.cache
def lexicon() -> dict[str, Any]:
    """The versioned word lists and templates shipped as package data (lexicon.json)."""
    text = resources.files("consistest.text").joinpath("lexicon.json").read_text("utf-8")
    return json.loads(text)
