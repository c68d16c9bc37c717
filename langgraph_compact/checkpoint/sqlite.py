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
from typing import Any, TypeVar

from langgraph.checkpoint.serde.base import SerializerProtocol

from langgraph_compact.checkpoint._api import ThreadedSaver
from langgraph_compact.checkpoint._check import Where, corrupt, named
from langgraph_compact.checkpoint._schema import migrate
from langgraph_compact.checkpoint._sql import SQLITE, Program
from langgraph_compact.errors import CorruptionError

__all__ = [
    "CompactSqliteSaver",
    "damaged",
    "drive",
    "is_damage",
    "is_stored_twice",
    "statement",
    "wal_program",
]

T = TypeVar("T")

_CORRUPT = 11  # SQLITE_CORRUPT
_NOTADB = 26  # SQLITE_NOTADB
_PRIMARY_KEY = 1555  # SQLITE_CONSTRAINT_PRIMARYKEY


def is_damage(error: BaseException) -> bool:
    """Whether SQLite reports the file itself as damaged (not locked, not misused), or a
    stored text is not the UTF-8 every text column holds (Python's ``sqlite3`` says so)."""
    if isinstance(error, sqlite3.OperationalError) and str(error).startswith(
        "Could not decode to UTF-8"
    ):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    return (
        isinstance(error, sqlite3.DatabaseError)
        and code is not None
        and (code & 0xFF in (_CORRUPT, _NOTADB))
    )


def is_stored_twice(error: BaseException) -> bool:
    """Whether a checkpoint row's key was already stored (``put``'s append, see ``head_behind``)."""
    return (
        isinstance(error, sqlite3.IntegrityError)
        and getattr(error, "sqlite_errorcode", None) == _PRIMARY_KEY
        and "lgc_checkpoints." in str(error)
    )


def damaged(error: BaseException, where: Where | None) -> BaseException:
    """A ``CorruptionError`` for SQLite's own damage reports; other errors unchanged."""
    at = where or Where("")
    if not is_damage(error):
        return error
    return corrupt(at, f"SQLite reports the file as damaged ({error})")


WAL_WAIT_MS = 250
"""How long a WAL checkpoint after a redaction waits for other connections' reads."""


def wal_program() -> Program[int]:
    """Checkpoint and truncate the write-ahead log (outside any transaction).

    A reader that holds a snapshot keeps the log alive; the checkpoint waits for it at
    most ``WAL_WAIT_MS`` (not the connection's whole busy timeout) and then reports.

    Returns:
        0 when every page reached the main file and the log was emptied; otherwise
        the log's size in bytes (it may hold old page images until another
        connection's read transaction ends).
    """
    timeout = yield "PRAGMA busy_timeout", (), "all"
    yield f"PRAGMA busy_timeout = {WAL_WAIT_MS}", (), "all"
    try:
        rows = yield SQLITE.after_redaction, (), "all"
    finally:
        yield f"PRAGMA busy_timeout = {int(timeout[0][0])}", (), "all"
    busy, log, done = (int(x) for x in rows[0])
    if not busy and log == done:
        return 0
    files = yield "PRAGMA database_list", (), "all"
    path = next((str(r[2]) for r in files if r[1] == "main"), "")
    wal = path + "-wal"
    return os.path.getsize(wal) if path and os.path.exists(wal) else max(log, 1)


def drive(
    conn: sqlite3.Connection, program: Program[T], *, write: bool | None, where: Where | None = None
) -> T:
    """Run a program on a ``sqlite3`` connection inside one transaction.

    Writes take ``BEGIN IMMEDIATE`` so two processes never deadlock upgrading a read
    lock; reads take a deferred ``BEGIN`` so every statement sees one WAL snapshot;
    ``write=None`` runs without a transaction (pragmas, WAL checkpoints). Any failure,
    the ``COMMIT`` itself included, ends in ``ROLLBACK``. SQLite's damage reports
    become a ``CorruptionError`` naming ``where``, raised into the program at the
    statement that failed: a program that catches it (``verify``) goes on.
    """
    cur = conn.cursor()
    try:
        if write is not None:
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        rows: Any = None
        error: BaseException | None = None
        try:
            while True:
                if error is None:
                    sql, params, fetch = program.send(rows)
                else:  # the program may catch it (``verify`` reports and goes on)
                    sql, params, fetch = program.throw(error)
                    error = None
                try:
                    if fetch == "many":
                        cur.executemany(sql, params)
                        rows = []
                    else:
                        cur.execute(sql, params)
                        rows = cur.fetchall() if fetch == "all" else []
                except sqlite3.DatabaseError as e:
                    if not is_damage(e):
                        raise
                    error = damaged(e, where)
        except StopIteration as stop:
            result: T = stop.value
        if write is not None:
            cur.execute("COMMIT")
        return result
    except BaseException as e:
        if conn.in_transaction:
            with suppress(sqlite3.Error):  # "no transaction is active", or a damaged file
                cur.execute("ROLLBACK")
        if (found := damaged(e, where)) is not e:
            raise found from e
        if isinstance(e, CorruptionError) and (better := named(e, where)) is not e:
            raise better from e
        raise
    finally:
        program.close()
        cur.close()


class CompactSqliteSaver(ThreadedSaver):
    """A ``BaseCheckpointSaver`` on SQLite that stores each message once per thread.

    Args:
        conn: a ``sqlite3.Connection`` (opened with ``check_same_thread=False`` if you
            share it between threads) or a database file path, which the saver opens
            and ``close()`` closes.
        serde: serializer for non-message values and message skeletons.
        index_text: see ``CompactSaverBase``.
        max_cached_messages: see ``CompactSaverBase``.
        single_writer: see ``CompactSaverBase``.
    """

    _stored_twice = staticmethod(is_stored_twice)

    def __init__(
        self,
        conn: sqlite3.Connection | str | os.PathLike[str],
        *,
        serde: SerializerProtocol | None = None,
        index_text: bool | None = None,
        max_cached_messages: int | None = None,
        single_writer: bool = False,
    ) -> None:
        super().__init__(
            serde=serde,
            index_text=index_text,
            max_cached_messages=max_cached_messages,
            single_writer=single_writer,
        )
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
        """Set up the connection and apply pending migrations; runs once, automatically.

        Raises:
            SchemaVersionError: the file was written by a newer langgraph-compact.
            CorruptionError: SQLite reports the file as damaged.
        """
        with self.lock:
            self._setup_locked(None)

    def _setup_locked(self, where: Where | None) -> None:
        if self.is_setup:
            return
        for sql in self._store.dialect.on_open:
            drive(self.conn, statement(sql), write=None, where=where)
        with self._store.cache.transaction():
            drive(self.conn, migrate(self._store.dialect), write=True, where=where)
        self.is_setup = True

    def _run(self, program: Program[T], *, write: bool = False, where: Where | None = None) -> T:
        with self.lock:
            self._setup_locked(where)
            with self._store.cache.transaction():
                return drive(self.conn, program, write=write, where=where)

    def _wal_remaining(self) -> int:
        with self.lock:
            return drive(self.conn, wal_program(), write=None)

    async def _awal_remaining(self) -> int:
        return await asyncio.get_running_loop().run_in_executor(None, self._wal_remaining)


def statement(sql: str) -> Program[None]:
    """A program of one statement (its rows ignored), for setup pragmas."""
    yield sql, (), "all"
