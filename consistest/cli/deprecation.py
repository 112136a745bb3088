"""Old option names and values that keep working for one release, each with one line on stderr.

Every rename goes through here (and is listed in CHANGELOG.md), so the deprecations are found in one place:

- :func:`deprecated_alias` keeps an old option name:
  ``@deprecated_alias("--force", "--allow-different-data")`` placed above the new option's decorator;
  the old name is hidden from ``--help``.
- :class:`AliasedChoice` keeps an old value of a choice: ``AliasedChoice(["paper", "hybrid"], {"ours":
  "hybrid"})``; the old value is accepted, turned into the new one, and not listed in ``--help``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click
from click.core import ParameterSource

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def deprecation_line(old: str, new: str) -> str:
    """The one line printed when an old name is used."""
    return f"consistest: warning: {old} is deprecated; use {new}"


def warn_deprecated(old: str, new: str) -> None:
    click.echo(deprecation_line(old, new), err=True)


def _find(params: list[click.Parameter], opt: str) -> click.Option:
    for p in params:
        if isinstance(p, click.Option) and opt in p.opts:
            return p
    raise ValueError(f"deprecated_alias: no option {opt} declared below it")


def deprecated_alias(old: str, new: str) -> Decorator:
    """Keep option ``old`` working as ``new`` (same type, hidden from --help) with a deprecation line.

    Put it above the decorator that declares ``new``. Giving both names is an error (one value only)."""

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        target = _find(getattr(f, "__click_params__", []), new)
        hidden_name = f"deprecated_{old.lstrip('-').replace('-', '_')}"
        kwargs: dict[str, Any] = {"hidden": True, "expose_value": True}
        if target.is_flag:
            kwargs.update(is_flag=True, default=False)
        else:
            kwargs.update(type=target.type, default=None, multiple=target.multiple)

        @functools.wraps(f)
        def wrapper(*args: Any, **kw: Any) -> Any:
            value = kw.pop(hidden_name)
            ctx = click.get_current_context()
            if ctx.get_parameter_source(hidden_name) == ParameterSource.COMMANDLINE:
                if ctx.get_parameter_source(target.name) == ParameterSource.COMMANDLINE:
                    raise click.UsageError(f"{old} and {new} are the same option; give {new} only")
                warn_deprecated(old, new)
                kw[target.name] = value
            return f(*args, **kw)

        return click.option(old, hidden_name, **kwargs)(wrapper)

    return decorate


class AliasedChoice(click.Choice):
    """A choice that also accepts old values (``aliases``: old -> new), turned into the new value with a
    deprecation line; only the new values are shown in --help."""

    def __init__(self, choices: Sequence[str], aliases: Mapping[str, str], option: str) -> None:
        super().__init__(choices)
        self.aliases, self.option = dict(aliases), option

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value in self.aliases:
            new = self.aliases[value]
            warn_deprecated(f"{self.option} {value}", f"{self.option} {new}")
            value = new
        return super().convert(value, param, ctx)
