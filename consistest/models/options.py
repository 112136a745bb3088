"""Command-line options as backends declare them: plain data (no click here), turned into click options by
``consistest.cli.options``.

Each backend module lists the options it reads in ``CLI_OPTIONS``; options that several backends read
(``--device``, the rendering options) are declared once, in the module that owns the setting, and imported
by the others. ``models.registry.backend_options`` gathers them from the registered backends, one per key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ModelOption:
    """One option: the key it fills in ``ModelSpec.options`` (or ``Decoding``), its value type or closed
    set of choices, default, help; ``flag`` for on/off switches; ``convert`` turns the text given on the
    command line into the setting (``"<user>,<agent>"`` -> a tuple)."""

    key: str
    type: type | tuple[str, ...] = str
    default: Any = None
    help: str | None = None
    flag: bool = False
    show_default: bool = True
    convert: Callable[[Any], Any] | None = None

    @property
    def flag_name(self) -> str:
        return "--" + self.key.replace("_", "-")

    def value(self, given: Any) -> Any:
        return self.convert(given) if self.convert is not None and given is not None else given
