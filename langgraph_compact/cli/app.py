"""The ``langgraph-compact`` command: a click group; each command is thin over the library.

Bad input (a missing file, a malformed line, an unknown format, a locked or newer-schema
database) is one ``Error:`` line on stderr and exit code 2; any other package error is one
line and exit code 1. Neither prints a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial
from typing import Any

import click

from langgraph_compact.cli.errors import BadInput
from langgraph_compact.errors import CompactError, InputFormatError, SchemaVersionError

__all__ = ["CONTEXT", "main"]

CONTEXT: dict[str, Any] = {
    "help_option_names": ["-h", "--help"],
    "max_content_width": 100,
    "terminal_width": 100,  # the same help on every terminal: the README reference is it
}


class _Group(click.Group):
    """Maps the package's errors to one line: bad input exits 2, anything else 1."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """As click's, but every error is one line (click's usage errors print three)."""
        run = partial(super().main, args, prog_name, complete_var, standalone_mode=False, **extra)
        if not standalone_mode:
            return run()
        try:
            code: Any = run()
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
            click.echo(f"Error: {_one_line(exc.format_message())}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """No command: the whole help on stderr and exit 2 (not squeezed into one line)."""
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            click.echo(ctx.get_help(), err=True, color=ctx.color)
            ctx.exit(2)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (InputFormatError, SchemaVersionError, FileNotFoundError) as exc:
            raise BadInput(str(exc)) from None
        except CompactError as exc:
            raise click.ClickException(str(exc)) from None


def _one_line(text: str) -> str:
    return " ".join(text.split())


@click.group(cls=_Group, context_settings=CONTEXT)
@click.version_option(package_name="langgraph-compact")
def main() -> None:
    """Keep long-running LangGraph agents inside their context window; look inside threads.

    \b
    Example:
      langgraph-compact demo
      langgraph-compact inspect langgraph-compact-demo/demo.sqlite
    """


def _register() -> None:
    from langgraph_compact.cli import dbcmds, runcmds

    for command in (
        runcmds.demo,
        runcmds.replay,
        dbcmds.inspect,
        dbcmds.verify,
        dbcmds.history,
        dbcmds.redact,
        dbcmds.export,
    ):
        main.add_command(command)


_register()
