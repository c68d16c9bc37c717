"""How the command reports bad input: one line on stderr and exit code 2."""

from __future__ import annotations

import click

__all__ = ["BadInput"]


class BadInput(click.ClickException):
    """Input the command cannot use: a missing file, a malformed line, an unknown format."""

    exit_code = 2
