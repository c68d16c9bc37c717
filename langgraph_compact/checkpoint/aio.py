"""``AsyncCompactSqliteSaver``: the raw-history checkpointer on ``aiosqlite``.

Usage::

    from langgraph_compact.checkpoint import AsyncCompactSqliteSaver

    async with AsyncCompactSqliteSaver.from_conn_string("agent.sqlite") as saver:
        graph = builder.compile(checkpointer=saver)
        await graph.ainvoke(inputs, config)

Same storage and programs as ``CompactSqliteSaver``; only the statement runner differs.
Sync methods work from other threads (they hand the coroutine to the saver's loop), as
with LangGraph's ``AsyncSqliteSaver``.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar

import aiosqlite
from langgraph.checkpoint.serde.base import SerializerProtocol

from langgraph_compact.checkpoint._api import LoopSaver
from langgraph_compact.checkpoint._check import Where, named
from langgraph_compact.checkpoint._schema import migrate
from langgraph_compact.checkpoint._sql import Program
from langgraph_compact.checkpoint.sqlite import (
    damaged,
    is_damage,
    is_stored_twice,
    statement,
    wal_program,
)
from langgraph_compact.errors import CorruptionError

__all__ = ["AsyncCompactSqliteSaver", "adrive"]

T = TypeVar("T")


async def adrive(
    conn: aiosqlite.Connection,
    program: Program[T],
    *,
    write: bool | None,
    where: Where | None = None,
) -> T:
    """Run a program on an ``aiosqlite`` connection inside one transaction (see ``drive``).

    Not cancellation-safe by itself: a cancel between ``BEGIN`` and ``COMMIT`` would
    leave the shared connection inside the transaction. ``_finish`` runs it shielded.
    """
    try:
        if write is not None:
            await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        rows: Any = None
        error: BaseException | None = None
        try:
            while True:
                if error is None:
                    sql, params, fetch = program.send(rows)
                else:
                    sql, params, fetch = program.throw(error)
                    error = None
                try:
                    if fetch == "many":
                        await conn.executemany(sql, params)
                        rows = []
                    else:
                        async with conn.execute(sql, params) as cur:
                            rows = list(await cur.fetchall()) if fetch == "all" else []
                except sqlite3.DatabaseError as e:
                    if not is_damage(e):
                        raise
                    error = damaged(e, where)
        except StopIteration as stop:
            result: T = stop.value
        if write is not None:
            await conn.execute("COMMIT")
        return result
    except BaseException as e:
        if conn.in_transaction:
            with suppress(sqlite3.Error):  # "no transaction is active", or a damaged file
                await conn.execute("ROLLBACK")
        if (found := damaged(e, where)) is not e:
            raise found from e
        if isinstance(e, CorruptionError) and (better := named(e, where)) is not e:
            raise better from e
        raise
    finally:
        program.close()


async def _finish(work: Coroutine[Any, Any, T]) -> T:
    """Await ``work`` to its end even if the caller is cancelled, then re-raise the cancel.

    The transaction then always ends in ``COMMIT`` or ``ROLLBACK`` before the saver's lock
    is released, so the next operation never finds the connection inside a transaction.
    """
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        while not task.done():
            with suppress(asyncio.CancelledError):
                await asyncio.wait({task})
        if not task.cancelled():
            task.exception()  # retrieved: the cancel is what the caller sees
        raise


class AsyncCompactSqliteSaver(LoopSaver):
    """The async twin of ``CompactSqliteSaver``.

    Args:
        conn: an open ``aiosqlite.Connection``; it should be in autocommit mode
            (``isolation_level=None``), which ``from_conn_string`` does for you.
        serde: serializer for non-message values and message skeletons.
        index_text: see ``CompactSaverBase``.
        max_cached_messages: see ``CompactSaverBase``.
        single_writer: see ``CompactSaverBase``.
    """

    _stored_twice = staticmethod(is_stored_twice)

    def __init__(
        self,
        conn: aiosqlite.Connection,
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
        self.conn = conn
        self.lock = asyncio.Lock()
        self.is_setup = False
        self.loop = asyncio.get_running_loop()

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str | os.PathLike[str], **kwargs: Any
    ) -> AsyncIterator[AsyncCompactSqliteSaver]:
        """A saver on a file path (or ``":memory:"``), closed on exit."""
        async with aiosqlite.connect(os.fspath(conn_string), isolation_level=None) as conn:
            yield cls(conn, **kwargs)

    async def setup(self) -> None:
        """Set up the connection and apply pending migrations; runs once, automatically.

        Raises:
            SchemaVersionError: the file was written by a newer langgraph-compact.
            CorruptionError: SQLite reports the file as damaged.
        """
        async with self.lock:
            await self._setup_locked(None)

    async def _setup_locked(self, where: Where | None) -> None:
        if self.is_setup:
            return
        for sql in self._store.dialect.on_open:
            await adrive(self.conn, statement(sql), write=None, where=where)
        with self._store.cache.transaction():
            await adrive(self.conn, migrate(self._store.dialect), write=True, where=where)
        self.is_setup = True

    async def _arun(
        self, program: Program[T], *, write: bool = False, where: Where | None = None
    ) -> T:
        async with self.lock:
            return await _finish(self._run_locked(program, write, where))

    async def _run_locked(self, program: Program[T], write: bool | None, where: Where | None) -> T:
        await self._setup_locked(where)
        with self._store.cache.transaction():
            return await adrive(self.conn, program, write=write, where=where)

    async def _awal_remaining(self) -> int:
        async with self.lock:
            return await _finish(self._run_locked(wal_program(), None, None))

    def _wal_remaining(self) -> int:
        return asyncio.run_coroutine_threadsafe(self._awal_remaining(), self.loop).result()
