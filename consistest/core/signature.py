"""The signature: one string naming every setting that changes a number, version last (cf. sacrebleu)."""

from __future__ import annotations

from collections.abc import Mapping

from consistest import __version__

SIGNATURE_FORMAT = "v1"
# Known keys in print order; unknown keys follow in the order given, ``v`` always ends the string.
ORDER: tuple[str, ...] = (
    "data",
    "subset",
    "qa",
    "nli",
    "rules",
    "mem",
    "d",
    "paired",
    "model",
    "input",
    "dec",
)


def make_signature(parts: Mapping[str, object]) -> str:
    """``consistest:v1|data:<hash>|nli:<id>|rules:1|mem:3|d:0,2|v:0.1.0`` from a mapping of parts.

    ``None`` values are skipped; lists/tuples are joined with commas; booleans become yes/no.
    """
    keys = [k for k in ORDER if k in parts] + [k for k in parts if k not in ORDER and k != "v"]
    items = [f"consistest:{SIGNATURE_FORMAT}"]
    for k in keys:
        v = parts[k]
        if v is None:
            continue
        items.append(f"{k}:{_fmt(v)}")
    items.append(f"v:{__version__}")
    return "|".join(items)


def parse_signature(sig: str) -> dict[str, str]:
    """Inverse of make_signature (values as strings), for comparing runs."""
    out: dict[str, str] = {}
    for item in sig.split("|"):
        k, _, v = item.partition(":")
        out[k] = v
    return out


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ",".join(_fmt(x) for x in v)
    return str(v).replace("|", "/")
