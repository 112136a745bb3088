"""Command-line options as backends declare them: plain data (no click here), turned into click options by
``consistest.cli.options``.

Each backend module lists the options it reads in ``CLI_OPTIONS``; options that several backends read
(``--device``, the rendering options) are declared once, in the module that owns the setting, and imported
by the others. ``models.registry.backend_options`` gathers them from the registered backends, one per key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

S = TypeVar("S")


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


def settings_from(cls: type[S], options: Mapping[str, Any]) -> S:
    """A backend's settings dataclass from a spec's options: its own fields only, unset (None) values left
    to the defaults, ``speaker_tokens`` as a tuple (the settings are frozen and hashed)."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    kw = {k: v for k, v in options.items() if k in names and v is not None}
    if "speaker_tokens" in kw:
        kw["speaker_tokens"] = tuple(kw["speaker_tokens"])
    return cls(**kw)
