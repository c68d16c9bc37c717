"""Listings that fit the terminal without splitting an id.

A listing is a table when every id, number and time in it fits on one line; otherwise it
is one record per line, each field labelled, continued (indented) where the line would
be wider than the terminal. A field never breaks inside a value, so an id can be copied
from any line of either layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

__all__ = ["WRAPPED_MIN", "Column", "layout", "record_lines", "table_width"]

WRAPPED_MIN = 16
"""Cells a wrapped column (a status, a reason) gets at least before the table gives way."""


@dataclass(frozen=True)
class Column:
    """One field of a listing; only a ``wrap`` column may break a cell, and only at spaces."""

    name: str
    right: bool = False
    wrap: bool = False


def table_width(columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> int:
    """Cells the table needs with every unwrapped cell, and every word, on one line.

    Rich's default box draws a border either side of each column and pads each cell by
    one space either side: ``3n + 1`` cells besides the contents.
    """
    need = 3 * len(columns) + 1
    for i, column in enumerate(columns):
        cells = [column.name, *(row[i] for row in rows)]
        natural = max(map(cell_len, cells))
        if column.wrap:
            word = max((cell_len(w) for cell in cells for w in cell.split()), default=0)
            need += max(word, min(WRAPPED_MIN, natural))
        else:
            need += natural
    return need


def record_lines(columns: Sequence[Column], row: Sequence[str], width: int) -> list[str]:
    """One record as ``name value`` fields two spaces apart, in lines of at most ``width``.

    A field moves whole to the next (indented) line when it would overflow; a ``wrap``
    field may move word by word. Only a single value wider than ``width`` overflows.
    """
    atoms: list[tuple[str, str]] = []  # (what goes before it on its line, the text)
    for column, value in zip(columns, row, strict=True):
        if not value:
            continue
        if column.wrap:
            first, *rest = value.split() or [""]
            atoms += [("  ", f"{column.name} {first}"), *((" ", w) for w in rest)]
        else:
            atoms.append(("  ", f"{column.name} {value}"))
    lines: list[str] = []
    line = ""
    for gap, text in atoms:
        if not line:
            line = text
        elif cell_len(line) + len(gap) + cell_len(text) > width:
            lines.append(line)
            line = "  " + text
        else:
            line += gap + text
    return [*lines, line] if line else lines


def layout(
    title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], width: int
) -> Table | list[str]:
    """The table if it fits in ``width``, else the title and the records, line by line."""
    if table_width(columns, rows) <= width:
        table = Table(title=Text(title))
        for c in columns:
            justify: JustifyMethod = "right" if c.right else "left"
            table.add_column(c.name, justify=justify, no_wrap=not c.wrap, overflow="fold")
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))
        return table
    return [title, *(line for row in rows for line in record_lines(columns, row, width))]
