"""``CompactSqliteSaver``: the raw-history checkpointer on ``sqlite3``.

Usage::

    from langgraph_compact.checkpoint import CompactSqliteSaver

    with CompactSqliteSaver.from_conn_string("agent.sqlite") as saver:
        graph = builder.compile(checkpointer=saver)

The saver is thread-safe the way LangGraph's ``SqliteSaver`` is: one connection opened
with ``check_same_thread=False`` and a lock around every operation. Its async methods
run the same operation in a worker thread; for an asyncio application prefer
``AsyncCompactSqliteSaver``.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial
from typing import Any, TypeVar

from langgraph.checkpoint.serde.base import SerializerProtocol

from langgraph_compact.checkpoint._api import CompactSaverBase
from langgraph_compact.checkpoint._core import SQLITE, Program, migrate
from langgraph_compact.checkpoint.redact import MAINTENANCE_SQL

__all__ = ["CompactSqliteSaver", "drive"]

T = TypeVar("T")


def drive(conn: sqlite3.Connection, program: Program[T], *, write: bool) -> T:
    """Run a program on a ``sqlite3`` connection inside one transaction.

    Writes take ``BEGIN IMMEDIATE`` so two processes never deadlock upgrading a read
    lock; reads take a deferred ``BEGIN`` so every statement sees one WAL snapshot.
    Any failure, the ``COMMIT`` itself included, ends in ``ROLLBACK``.
    """
    cur = conn.cursor()
    try:
        cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        rows: Any = None
        try:
            while True:
                sql, params, fetch = program.send(rows)
                if fetch == "many":
                    cur.executemany(sql, params)
                    rows = []
                else:
                    cur.execute(sql, params)
                    rows = cur.fetchall() if fetch == "all" else []
        except StopIteration as stop:
            result: T = stop.value
        cur.execute("COMMIT")
        return result
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.OperationalError):  # "no transaction is active"
                cur.execute("ROLLBACK")
        raise
    finally:
        program.close()
        cur.close()


class CompactSqliteSaver(CompactSaverBase):
    """A ``BaseCheckpointSaver`` on SQLite that stores each message once per thread.

    Args:
        conn: a ``sqlite3.Connection`` (opened with ``check_same_thread=False`` if you
            share it between threads) or a database file path, which the saver opens
            and ``close()`` closes.
        serde: serializer for non-message values and message skeletons.
        index_text: see ``CompactSaverBase``.
    """

    def __init__(
        self,
        conn: sqlite3.Connection | str | os.PathLike[str],
        *,
        serde: SerializerProtocol | None = None,
        index_text: bool | None = None,
    ) -> None:
        super().__init__(serde=serde, index_text=index_text)
        self._owns_conn = not isinstance(conn, sqlite3.Connection)
        if isinstance(conn, sqlite3.Connection):
            self.conn = conn
        else:
            self.conn = sqlite3.connect(os.fspath(conn), check_same_thread=False)
        self.conn.isolation_level = None
        self.lock = threading.Lock()
        self.is_setup = False

    @classmethod
    @contextmanager
    def from_conn_string(cls, conn_string: str, **kwargs: Any) -> Iterator[CompactSqliteSaver]:
        """A saver on a file path (or ``":memory:"``), closed on exit."""
        saver = cls(conn_string, **kwargs)
        try:
            yield saver
        finally:
            saver.close()

    def close(self) -> None:
        """Close the connection if the saver opened it."""
        if self._owns_conn:
            self.conn.close()

    def setup(self) -> None:
        """Switch to WAL and apply pending migrations; runs once, automatically.

        Raises:
            SchemaVersionError: the file was written by a newer langgraph-compact.
        """
        with self.lock:
            self._setup_locked()

    def _setup_locked(self) -> None:
        if self.is_setup:
            return
        self.conn.execute("PRAGMA journal_mode=WAL")
        drive(self.conn, migrate(SQLITE), write=True)
        self.is_setup = True

    def _run(self, program: Program[T], *, write: bool = False) -> T:
        with self.lock:
            self._setup_locked()
            with self._store.transaction():
                return drive(self.conn, program, write=write)

    async def _arun(self, program: Program[T], *, write: bool = False) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, partial(self._run, program, write=write))

    def _after_redaction(self) -> None:
        with self.lock:
            for sql in MAINTENANCE_SQL:
                self.conn.execute(sql).fetchall()

    async def _aafter_redaction(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self._after_redaction)
