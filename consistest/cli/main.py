"""Click group and shared plumbing: InputError -> one line on stderr and exit code 2."""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable
from typing import Any

import click

from consistest import __version__
from consistest.errors import InputError


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn InputError into ``consistest: error: <one line>`` and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except InputError as e:
            click.echo(f"consistest: error: {e}", err=True)
            sys.exit(2)

    return wrapper


quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bars or logs on stderr.")


# Command name -> "module:attribute". Modules are imported only when a command is listed or run,
# so `consistest --help` never loads torch/transformers. One line per command; keep it sorted.
COMMANDS: dict[str, str] = {
    "build": "consistest.cli.build:build",
    "compare": "consistest.cli.score:compare",
    "generate": "consistest.cli.generate:generate",
    "nli-pairs": "consistest.cli.nli:nli_pairs",
    "score": "consistest.cli.score:score",
    "train-nli": "consistest.cli.nli:train_nli",
}


class LazyGroup(click.Group):
    """A click group that imports each command's module on first use (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, _, attr = COMMANDS[name].partition(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="consistest")
def main() -> None:
    """ConsisTest: build the factual-consistency benchmark and score chatbots on it."""
