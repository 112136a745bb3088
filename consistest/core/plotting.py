"""matplotlib for every figure consistest draws: imported only when a figure is drawn (it comes with the
``aih`` extra), headless (Agg), and a PNG written atomically so a failed draw leaves nothing behind."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from consistest.core.errors import EnvironmentFault
from consistest.core.io import atomic_path

__all__ = ["plot_available", "pyplot", "save_png"]


def pyplot(what: str, hint: str = "") -> Any:
    """``matplotlib.pyplot`` on the Agg backend; a missing matplotlib is an EnvironmentFault naming ``what``
    needs it (exit 1), with ``hint`` after the install line (" (or --no-plots)")."""
    try:
        import matplotlib
    except ImportError:
        raise EnvironmentFault(f"{what} needs matplotlib: pip install 'consistest[aih]'{hint}") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_available() -> bool:
    """Whether matplotlib can be imported (figures drawn by default are then drawn)."""
    return importlib.util.find_spec("matplotlib") is not None


def save_png(fig: Any, plt: Any, path: Path, dpi: int = 110) -> Path:
    """Write ``fig`` to ``path`` through :func:`~consistest.core.io.atomic_path`, and close it."""
    try:
        with atomic_path(path, suffix=".png") as tmp:
            fig.savefig(tmp, format="png", dpi=dpi)
    finally:
        plt.close(fig)
    return path
