"""Backends for the checkpoint feature tests: a saver under test and neutral helpers.

``BACKENDS`` names every backend a feature test runs on: ``sqlite`` (the sync saver on
``sqlite3``), ``sqlite_async`` (the async saver on ``aiosqlite``, driven through its
sync bridge from the test thread while its event loop runs in a background thread, so
every statement goes through the async driver), and ``postgres`` / ``postgres_async``
(the same on ``psycopg``, in a schema of their own on the server of ``pgserver``).
Tests only use the saver's API and ``Backend``'s helpers, never a driver of their own.
A test about SQLite's file itself (WAL, pragmas, flipped bytes) says so with
``@pytest.mark.backends(*SQLITE_BACKENDS)``: it runs on those only.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Coroutine, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from cells import sqlite_rows
from pgserver import schema_dsn

from langgraph_compact.checkpoint import (
    AsyncCompactPostgresSaver,
    AsyncCompactSqliteSaver,
    CompactPostgresSaver,
    CompactSaverBase,
    CompactSqliteSaver,
)
from langgraph_compact.checkpoint._sql import POSTGRES

__all__ = ["BACKENDS", "POSTGRES_BACKENDS", "SQLITE_BACKENDS", "Backend", "open_saver"]

T = TypeVar("T")

SQLITE_BACKENDS = ["sqlite", "sqlite_async"]
POSTGRES_BACKENDS = ["postgres", "postgres_async"]
BACKENDS = [*SQLITE_BACKENDS, *POSTGRES_BACKENDS]


class _LoopThread:
    """An event loop running in a daemon thread, for the async saver's sync bridge."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


@contextmanager
def open_saver(kind: str, path: Path, **kwargs: Any) -> Iterator[CompactSaverBase]:
    """A saver of backend ``kind`` on ``path`` (Postgres: the schema named after it)."""
    if kind == "sqlite":
        with CompactSqliteSaver.from_conn_string(str(path), **kwargs) as saver:
            yield saver
        return
    if kind == "postgres":
        with CompactPostgresSaver.from_conn_string(schema_dsn(path), **kwargs) as pg:
            yield pg
        return
    runner = _LoopThread()
    dsn = schema_dsn(path) if kind == "postgres_async" else ""

    async def start() -> tuple[CompactSaverBase, Any]:
        cm: Any = (
            AsyncCompactPostgresSaver.from_conn_string(dsn, **kwargs)
            if dsn
            else AsyncCompactSqliteSaver.from_conn_string(path, **kwargs)
        )
        return await cm.__aenter__(), cm

    saver, cm = runner.run(start())
    try:
        yield saver
    finally:
        runner.run(cm.__aexit__(None, None, None))
        runner.close()


@dataclass
class Backend:
    """A saver under test plus backend-neutral helpers (raw reads, files, reopening)."""

    name: str
    saver: CompactSaverBase
    path: Path

    @property
    def postgres(self) -> bool:
        return self.name in POSTGRES_BACKENDS

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` (``?`` markers) read on a connection of its own (sees commits)."""
        if self.postgres:
            with psycopg.connect(schema_dsn(self.path)) as pg:
                return pg.execute(POSTGRES.prepare(sql), params).fetchall()
        conn = sqlite3.connect(self.path)
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def execute(self, sql: str, *params: Any) -> None:
        """Run and commit ``sql`` (``?`` markers) on a connection of its own (damage, say)."""
        if self.postgres:
            with psycopg.connect(schema_dsn(self.path), autocommit=True) as pg:
                pg.execute(POSTGRES.prepare(sql), params)
            return
        conn = sqlite3.connect(self.path)
        try:
            with conn:
                conn.execute(sql, params)
        finally:
            conn.close()

    def rows(self) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """``(table, row)`` for every row the database holds, index terms included."""
        if not self.postgres:
            yield from sqlite_rows(self.path)
            return
        with psycopg.connect(schema_dsn(self.path)) as pg:
            tables = pg.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() ORDER BY 1"
            ).fetchall()
            for (table,) in tables:
                for row in pg.execute(f"SELECT * FROM {table}"):
                    yield table, tuple(row)

    def query_vocabulary(self) -> list[tuple[str]]:
        """Every term the FTS5 index holds (SQLite; Postgres stores word filters only)."""
        assert not self.postgres, "Postgres keeps no words, only each text's word filter"
        conn = sqlite3.connect(self.path)
        try:
            conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, lgc_text_fts, row)")
            return conn.execute("SELECT term FROM temp.vocab").fetchall()
        finally:
            conn.close()

    def scalar(self, sql: str, *params: Any) -> Any:
        return self.query(sql, *params)[0][0]

    def tid(self, thread_id: str) -> int:
        """The thread's row number (rows are keyed by it, not by the id string)."""
        return int(self.scalar("SELECT tid FROM lgc_threads WHERE thread_id = ?", thread_id))

    def reopen(self, **kwargs: Any) -> AbstractContextManager[CompactSaverBase]:
        """Another saver of the same kind on the same database (a fresh process's view)."""
        return open_saver(self.name, self.path, **kwargs)

    def file_bytes(self) -> bytes:
        """Every byte SQLite keeps for the database: the file, its WAL and shared memory.

        Postgres: every value its tables return, as stored (bytes as they are, text
        encoded). The heap keeps dead row versions until VACUUM reuses their space,
        which no transaction can force (see docs/scaling.md, "Redaction").
        """
        if self.postgres:
            return b"".join(
                v if isinstance(v, bytes) else str(v).encode()
                for _, row in self.rows()
                for v in row
            )
        return b"".join(
            p.read_bytes()
            for p in sorted(self.path.parent.glob(self.path.name + "*"))
            if p.is_file()
        )
