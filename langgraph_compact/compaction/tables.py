"""Tables a tool prints: a header of column names over a few rows.

A short table (a CSV export, a SQL result with its "(2 rows)", ``docker ps``, ``kubectl
get``, a CLI's ``--output table`` under the command that printed it) answers with its
cells: a cell naming a specific value is a fact keyed by its column, shown as the
column's name and the cell, both verbatim ("rollout_pct: 89.5%"), so a later table or
statement of the same column replaces it. In a table of several rows each cell is shown
with its row's first cell, which is then no fact of its own when another cell of the row
is one: a timetable's departure time is which row, its train and platform are what it
says. So is the first cell of a one-row table when it is words (``kubectl get deploy
api``), not a count, a time or an id (``SELECT count(*), …``, a timestamp).
A longer table is a dump: its rows are left to the recall tool.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.quote import Quote, Source

__all__ = ["MAX_ROWS", "table_facts"]

MAX_ROWS = 5
"""Most rows of a table whose cells are facts."""
_AROUND = 2
"""Lines of an output around its table that are not rows: a title or the command above
it, a footer below it ("(2 rows)", "2 rows in set (0.00 sec)")."""
_RULE = re.compile(r"[\s+|=:-]+")
"""A table's rule line (``+----+``, ``|---|``, ``=====``)."""
_CELLS = (re.compile(r"[^|]+"), re.compile(r"[^,]+"), re.compile(r"\S+(?: \S+)*"))
"""A cell, by how a table separates them, tried in order: pipes, commas, two spaces or
more (a tab)."""
_COLUMN = re.compile(r"[A-Za-z][A-Za-z_ %()-]{0,30}")
"""A column's name: a word or a few, no digits, no path or file name."""
_CELL_CHARS = 120
"""A longer cell is a payload, not a value to keep."""
_SPECIFIC = 0.4
"""How specific a cell must be to be a fact (as a tool's ``key: value``)."""


def _cells(text: str, a: int, b: int, cell: re.Pattern[str]) -> list[tuple[int, int]]:
    """``(start, end)`` of each cell of the line ``text[a:b]``, blank ones aside."""
    out = []
    for m in cell.finditer(text, a, b):
        x, y = m.span()
        while x < y and text[x].isspace():
            x += 1
        while y > x and text[y - 1].isspace():
            y -= 1
        if y > x:
            out.append((x, y))
    return out


def _column(name: str, *, comma: bool) -> bool:
    """Whether ``name`` reads as a column's (``_COLUMN``: not "README.md", "v2" or
    "src/app.py"), one word in a CSV header (words with spaces between commas are prose)."""
    return bool(_COLUMN.fullmatch(name)) and not (comma and " " in name)


def table_facts(src: Source, lines: list[tuple[int, int]]) -> Iterator[tuple[str, str, Quote]]:
    """``(column, value, shown)`` for each specific cell of the table the output ``lines``
    (stripped line spans of ``src.text``) are, when they are one: a header of column names,
    then one to ``MAX_ROWS`` rows of as many cells (rule lines aside), with at most
    ``_AROUND`` other lines around them (the command above, "(3 rows)" below). A cell of
    a table of several rows, or of one named by its first cell, is keyed and shown with
    its row's first cell."""
    text = src.text
    content = [(a, b) for a, b in lines if not _RULE.fullmatch(text[a:b])]
    if not 2 <= len(content) <= MAX_ROWS + 1 + _AROUND:
        return
    starts = range(min(_AROUND, len(content) - 1) + 1)
    for cell, start in itertools.product(_CELLS, starts):
        if (table := _table(text, content, start, cell)) is not None:
            break
    else:
        return
    head, rows = table
    firsts = [text[row[0][0] : row[0][1]] for row in rows]
    # which row: in a table of several rows, or one named by a first cell of words ("api
    # 5/5  5  3d" under ``kubectl get deploy api``: worker's is another row); not by a
    # count, a time or an id that changes with each run
    named = len(rows) > 1 or not re.search(r"\d", firsts[0])
    for n, (row, first) in enumerate(zip(rows, firsts, strict=True)):
        which = first if firsts.count(first) == 1 else f"{first}#{n + 1}"  # rows apart
        for (ha, hb), (ca, cb) in zip(head, row, strict=True):
            value = text[ca:cb]
            if not _is_fact(value):
                continue
            if (
                len(rows) > 1
                and (ca, cb) == row[0]
                and any(_is_fact(text[a:b]) for a, b in row[1:])
            ):
                continue  # which row, shown with each cell: not a fact of its own
            shown = src.slice(ha, hb) + ": " + src.slice(ca, cb)
            if not named:
                yield text[ha:hb], value, shown
            else:  # which row: its first cell
                row_of = shown if (ca, cb) == row[0] else src.slice(*row[0]) + " " + shown
                yield f"{text[ha:hb]}:{which}", value, row_of


def _table(
    text: str, content: list[tuple[int, int]], start: int, cell: re.Pattern[str]
) -> tuple[list[tuple[int, int]], list[list[tuple[int, int]]]] | None:
    """The header at ``content[start]`` and the rows under it, when they are a short table
    and the output's other lines (at most ``_AROUND``) are one cell each: a title, a
    footer. A line of several cells that breaks the run (a row with an empty column) makes
    it no table, and a table under a title has two rows at least (a line over another is
    as often prose)."""
    head = _cells(text, *content[start], cell)
    if len(head) < 2 or not all(_column(text[a:b], comma=cell is _CELLS[1]) for a, b in head):
        return None
    rows = []
    for a, b in content[start + 1 :]:
        row = _cells(text, a, b, cell)
        if len(row) != len(head):
            break
        rows.append(row)
    around = [*content[:start], *content[start + 1 + len(rows) :]]
    if not 1 + (start > 0) <= len(rows) <= MAX_ROWS or len(around) > _AROUND:
        return None
    return (head, rows) if all(len(_cells(text, a, b, cell)) < 2 for a, b in around) else None


def _is_fact(cell: str) -> bool:
    """A cell that states a value: specific enough, and no payload."""
    return len(cell) <= _CELL_CHARS and tx.specificity(cell) >= _SPECIFIC
