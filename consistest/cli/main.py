"""Click group and shared plumbing: every error is one line on stderr (exit 2 for bad input, 1 for faults
of the environment), with a traceback only under ``--debug``."""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

import click

from consistest import __version__
from consistest.core.errors import EnvironmentFault, InputError, describe_os_error


def _debug_requested() -> bool:
    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        if ctx.meta.get("consistest.debug"):
            return True
        ctx = ctx.parent
    return bool(os.environ.get("CONSISTEST_DEBUG"))


def _set_debug(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["consistest.debug"] = True


debug_option = click.option(
    "--debug",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_set_debug,
    help="Show the full traceback of an error (also CONSISTEST_DEBUG=1).",
)


def _fail(message: str, code: int) -> None:
    click.echo(f"consistest: error: {message}", err=True)
    sys.exit(code)


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Errors as one line on stderr: InputError exit 2; EnvironmentFault/OSError (disk full, read-only
    folder) exit 1; anything unexpected exit 1 naming its type. ``--debug`` re-raises with the traceback.
    Adds the ``--debug`` option to the command."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as e:
            if _debug_requested():
                raise
            if isinstance(e, InputError):
                _fail(str(e), 2)
            if isinstance(e, EnvironmentFault):
                _fail(str(e), 1)
            if isinstance(e, OSError):
                _fail(describe_os_error(e), 1)
            first = (str(e).strip().splitlines() or [""])[0][:300]
            _fail(f"unexpected {type(e).__name__}: {first} (run again with --debug for the traceback)", 1)
        except KeyboardInterrupt:
            _fail("interrupted", 130)

    return debug_option(wrapper)


quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bars or logs on stderr.")


# Command name -> "module:attribute". Modules are imported only when a command is listed or run,
# so `consistest --help` never loads torch/transformers. One line per command; keep it sorted.
COMMANDS: dict[str, str] = {
    "agree": "consistest.cli.agree:agree",
    "build": "consistest.cli.build:build",
    "compare": "consistest.cli.score:compare",
    "converse": "consistest.cli.aih:converse",
    "detect": "consistest.cli.cdconv:detect",
    "detector-dialogues": "consistest.cli.cdconv:detector_dialogues",
    "detector-pairs": "consistest.cli.cdconv:detector_pairs",
    "eval-nli": "consistest.cli.nli:eval_nli",
    "generate": "consistest.cli.generate:generate",
    "judge-run": "consistest.cli.aih:judge_run",
    "models": "consistest.cli.models:models",
    "nli-pairs": "consistest.cli.nli:nli_pairs",
    "rank": "consistest.cli.aih:rank",
    "rejudge": "consistest.cli.rejudge:rejudge",
    "score": "consistest.cli.score:score",
    "train-detector": "consistest.cli.cdconv:train_detector",
    "train-guard": "consistest.cli.nli:train_guard",
    "train-nli": "consistest.cli.nli:train_nli",
}


class LazyGroup(click.Group):
    """A click group that imports each command's module on first use (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its whole first sentence (click cuts summaries to the terminal's width)."""
        rows = [(name, cmd.get_short_help_str(limit=300)) for name in self.list_commands(ctx)
                if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden]  # fmt: skip
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, _, attr = COMMANDS[name].partition(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="consistest")
@debug_option
def main() -> None:
    """Factual consistency of chatbots, three ways: the ConsisTest benchmark (build, generate, score,
    compare, agree), bot-bot inquiries (converse, rank) and contradiction detection (detect,
    train-detector)."""
