"""consistest: measure whether chatbots stay factually consistent with what they said before."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
