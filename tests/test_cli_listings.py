"""Listings fit the terminal without splitting an id, and ``--json`` holds the same records.

The database holds three threads, two of them with long ids (a UUID, a 62-character
path-like name), so at 80 columns some listings are tables and some are one record per
line; either way every thread and checkpoint id is whole on one line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from cli_helpers import (
    LONG_THREADS,
    THREAD,
    demo_dir_fixture,  # noqa: F401  (fixtures)
    threads_db_fixture,  # noqa: F401
)
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from langgraph_compact.cli import main
from langgraph_compact.cli.db import open_saver
from langgraph_compact.cli.listing import Column, layout, record_lines, table_width
from langgraph_compact.cli.thread import model_inputs

THREADS = (THREAD, *LONG_THREADS)
ROW_NUMBER = re.compile(r"^│\s*(\d+) │")


def _run(*args: str | Path, width: int = 80) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


def _json(*args: str | Path) -> list[dict]:
    records = json.loads(_run(*args, "--json"))
    assert isinstance(records, list) and all(isinstance(r, dict) for r in records)
    return records


def assert_fits(text: str, width: int, ids: list[str]) -> None:
    """No line is wider than ``width`` and each id is whole on some line."""
    lines = text.splitlines()
    assert max(map(cell_len, lines)) <= width, "\n".join(lines)
    for id_ in ids:
        assert any(id_ in line for line in lines), (id_, text)


def segments(text: str, records: list[dict], key: str) -> list[str]:
    """The text from each record's ``key`` to the next record's: one record's cells."""
    starts = [text.index(r[key]) for r in records]
    assert starts == sorted(starts), "records out of order"
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def test_inspect_at_80_columns_prints_each_thread_id_on_one_line(threads_db: Path) -> None:
    """The acceptance check, as a shell runs it: ``COLUMNS=80 langgraph-compact inspect DB``."""
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-m", "langgraph_compact", "inspect", str(threads_db)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert_fits(done.stdout, 80, list(THREADS))


@pytest.mark.parametrize("width", [80, 200])
def test_thread_listing_and_its_json_hold_the_same_records(threads_db: Path, width: int) -> None:
    records = _json("inspect", threads_db)
    assert sorted(r["thread_id"] for r in records) == sorted(THREADS)
    text = _run("inspect", threads_db, width=width)
    assert_fits(text, width, [r[k] for r in records for k in ("thread_id", "last_checkpoint")])
    for record, cells in zip(records, segments(text, records, "thread_id"), strict=True):
        for key in ("checkpoints", "messages", "last_activity", "last_checkpoint"):
            assert str(record[key]) in cells, (key, cells)


@pytest.mark.parametrize("thread", [None, *THREADS])
def test_verify_listing_and_its_json_hold_the_same_records(
    threads_db: Path, thread: str | None
) -> None:
    args = [threads_db, *(["--thread", thread] if thread else [])]
    records = _json("verify", *args)
    text = _run("verify", *args)
    assert_fits(text, 80, [r["thread_id"] for r in records])
    for record, cells in zip(records, segments(text, records, "thread_id"), strict=True):
        assert record["problems"] == [] and "ok" in cells
        assert str(record["checkpoints"]) in cells and str(record["messages"]) in cells


@pytest.mark.parametrize("thread", THREADS)
def test_thread_report_keeps_checkpoint_ids_whole(threads_db: Path, thread: str) -> None:
    with open_saver(str(threads_db)) as saver:
        checkpoints = [str(g.checkpoint_id) for g in saver.summaries(thread)]
    assert checkpoints, "every thread compacted at least once"
    args = ("inspect", threads_db, "--thread", thread, "--budget", "3000", "--page-size", "8")
    text = _run(*args)
    assert_fits(text, 80, [thread, *checkpoints])
    rows = _json(*args)
    page = text[text.index("raw messages, page") :]
    assert _numbers(page) == [r["index"] + 1 for r in rows]
    assert {r["mark"] for r in rows} <= {"head", "summarized", "verbatim", "clipped", "pruned"}


def _numbers(text: str) -> list[int]:
    """The ``#`` column of a messages table."""
    return [int(m.group(1)) for line in text.splitlines() if (m := ROW_NUMBER.match(line))]


@pytest.mark.parametrize("thread", THREADS)
def test_history_listing_and_its_json_hold_the_same_records(threads_db: Path, thread: str) -> None:
    args = ("history", threads_db, thread, "--role", "tool", "--limit", "5")
    text = _run(*args)
    rows = _json(*args)
    assert_fits(text, 80, [])
    assert _numbers(text) == [r["index"] + 1 for r in rows]
    assert len(rows) == 5 and {r["role"] for r in rows} == {"tool"}
    assert all(r["message_id"] for r in rows)


def test_checkpoint_json_is_what_the_model_saw(threads_db: Path) -> None:
    with open_saver(str(threads_db)) as saver:
        checkpoint = model_inputs(saver, THREAD)[-1].checkpoint_id
    args = ("inspect", threads_db, "--thread", THREAD, "--budget", "4000")
    seen = _json(*args, "--checkpoint", checkpoint)
    raw = _json(*args, "--page-size", "100")
    assert len(seen) < len(raw)  # the summary stands in for what it covers
    assert seen[0]["message_id"] == raw[0]["message_id"]  # the head is kept verbatim
    assert any("Summary of messages" in r["text"] for r in seen)


COLUMNS = [
    Column("thread"),
    Column("checkpoints", right=True),
    Column("status", wrap=True),
    Column("last checkpoint"),
]
ROWS = [
    [LONG_THREADS[1], "23", "ok", "1f1ef7dd-fbfd-6855-8015-1d87a87a5e60"],
    [THREAD, "44", "damaged: checkpoint '1f1ef7c4-fb62-6229-801c-e87b5037e989' does not match", ""],
    [LONG_THREADS[0], "7", "ok", "1f1ef7dd-fab2-6e8d-8015-15b6c618084d"],
]
IDS = [cell for row in ROWS for cell in (row[0], row[3]) if cell] + [
    "'1f1ef7c4-fb62-6229-801c-e87b5037e989'"
]


def _printed(width: int) -> tuple[bool, str]:
    out = StringIO()
    console = Console(file=out, width=width, color_system=None)
    laid = layout("t", COLUMNS, ROWS, width)
    if isinstance(laid, Table):
        console.print(laid)
    else:
        for line in laid:
            console.print(line, soft_wrap=True, markup=False, highlight=False)
    return isinstance(laid, Table), out.getvalue()


def test_a_table_is_chosen_exactly_when_rich_fits_it_without_splitting() -> None:
    need = table_width(COLUMNS, ROWS)
    for width, table in [(need, True), (need - 1, False), (need + 40, True), (80, False)]:
        chosen, text = _printed(width)
        assert chosen is table, width
        assert_fits(text, width, IDS)


@pytest.mark.parametrize("width", [70, 80, 100])
def test_one_record_per_line_never_splits_a_field(width: int) -> None:
    for row in ROWS:
        lines = record_lines(COLUMNS, row, width)
        assert lines[0] == f"thread {row[0]}" or lines[0].startswith(f"thread {row[0]}  ")
        assert all(cell_len(line) <= width for line in lines)
        assert all(line.startswith("  ") for line in lines[1:])  # continuation, indented
        if row[3]:
            assert any(f"last checkpoint {row[3]}" in line for line in lines)
