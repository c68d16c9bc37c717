"""Schema versioning: one version table, ordered forward migrations, newer files refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSqliteSaver
from langgraph_compact.checkpoint._core import MIGRATIONS, SQLITE, Migration, migrate
from langgraph_compact.checkpoint.sqlite import drive
from langgraph_compact.errors import SchemaVersionError

LATEST = MIGRATIONS[-1].version


def _versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT version FROM lgc_schema_version ORDER BY version")
        return [v for (v,) in rows]


def test_migrations_are_ordered_and_applied_once(db_path: Path) -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))
    for _ in range(2):
        with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
            saver.setup()
    assert _versions(db_path) == list(range(1, LATEST + 1))
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_migration_is_applied_forward(db_path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        saver.setup()
    extra = Migration(
        LATEST + 1, "test column", {"sqlite": ("ALTER TABLE lgc_redactions ADD COLUMN note TEXT",)}
    )
    conn = sqlite3.connect(db_path, isolation_level=None)
    assert drive(conn, migrate(SQLITE, [*MIGRATIONS, extra]), write=True) == LATEST + 1
    columns = [r[1] for r in conn.execute("PRAGMA table_info(lgc_redactions)")]
    conn.close()
    assert "note" in columns
    assert _versions(db_path)[-1] == LATEST + 1


def _write_future_version(db_path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        saver.setup()
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO lgc_schema_version VALUES (?, 'from the future', CURRENT_TIMESTAMP)",
            (LATEST + 5,),
        )


def test_newer_schema_is_refused_with_instructions(db_path: Path) -> None:
    _write_future_version(db_path)
    expected = r"version \d+.*Upgrade langgraph-compact"
    with (
        CompactSqliteSaver.from_conn_string(str(db_path)) as saver,
        pytest.raises(SchemaVersionError, match=expected),
    ):
        saver.get_tuple({"configurable": {"thread_id": "x"}})


async def test_newer_schema_is_refused_by_the_async_saver(db_path: Path) -> None:
    _write_future_version(db_path)
    async with AsyncCompactSqliteSaver.from_conn_string(db_path) as saver:
        with pytest.raises(SchemaVersionError, match="new database file"):
            await saver.aget_tuple({"configurable": {"thread_id": "x"}})
