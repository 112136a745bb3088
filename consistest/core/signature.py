"""The signature: one string naming every setting that changes a number, version last (cf. sacrebleu).

Whoever composes a signature lists its parts in order (dataset, scorer, responder...); there is no global
key list to edit when a feature adds a key. Two numbers are comparable only when their signatures agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from consistest import __version__

SIGNATURE_FORMAT = "v1"

Parts = Mapping[str, object] | Iterable[tuple[str, object]]


def make_signature(parts: Parts) -> str:
    """``consistest:v1|data:<hash>|nli:<id>|rules:3|mem:3|d:0,2|v:0.1.0`` from ordered (key, value) parts.

    ``None`` values are skipped; lists/tuples are joined with commas; booleans become yes/no; ``v`` (the
    consistest version) always ends the string.
    """
    pairs = parts.items() if isinstance(parts, Mapping) else parts
    items = [f"consistest:{SIGNATURE_FORMAT}"]
    items += [f"{k}:{_fmt(v)}" for k, v in pairs if v is not None and k != "v"]
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
