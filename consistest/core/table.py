"""Tables for people: aligned text or Markdown, from a header and rows of strings (every report uses it)."""

from __future__ import annotations


def format_table(header: list[str], rows: list[list[str]], fmt: str) -> list[str]:
    """Lines of a Markdown table, or of an aligned text table (first column left, others right)."""
    if fmt == "markdown":
        rule = ["---"] + ["---:"] * (len(header) - 1)
        return ["| " + " | ".join(r) + " |" for r in [header, rule, *rows]]
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]
    return [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in [header, *rows]
    ]


def pct(x: float | None) -> str:
    """A share in [0, 1] as a percentage with one decimal, ``-`` when there is none (every report's)."""
    return "-" if x is None else f"{100 * x:.1f}"
