"""matplotlib for every figure consistest draws: imported only when a figure is drawn (it comes with the
``aih`` extra), headless (Agg), and a PNG written atomically so a failed draw leaves nothing behind."""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

from consistest.core.errors import EnvironmentFault

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
    """Write ``fig`` to ``path`` through a temp file in the same folder (replaced whole, with a new file's
    mode), and close it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".png")
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=dpi)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
