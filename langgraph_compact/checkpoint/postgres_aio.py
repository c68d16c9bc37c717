"""``AsyncCompactPostgresSaver``: the raw-history checkpointer on ``psycopg``'s async API.

Usage::

    from langgraph_compact.checkpoint import AsyncCompactPostgresSaver

    async with AsyncCompactPostgresSaver.from_conn_string(dsn) as saver:
        graph = builder.compile(checkpointer=saver)
        await graph.ainvoke(inputs, config)

Same programs, transactions and locks as ``CompactPostgresSaver`` (see its module);
only the statement runner is async. Sync methods work from other threads (they hand
the coroutine to the saver's loop), as with LangGraph's ``AsyncPostgresSaver``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar

import psycopg
from langgraph.checkpoint.serde.base import SerializerProtocol
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row
from psycopg_pool import AsyncConnectionPool

from langgraph_compact.checkpoint._api import LoopSaver
from langgraph_compact.checkpoint._check import Where, named
from langgraph_compact.checkpoint._retry import RETRYABLE, RetryPolicy, retry_delay
from langgraph_compact.checkpoint._schema import migrate
from langgraph_compact.checkpoint._sql import POSTGRES, Program
from langgraph_compact.checkpoint.aio import _finish
from langgraph_compact.checkpoint.postgres import (
    DAMAGE,
    begin,
    damaged,
    is_stored_twice,
    refuse_in_transaction,
    sql_of,
)
from langgraph_compact.errors import CorruptionError

__all__ = ["AsyncCompactPostgresSaver", "adrive"]

T = TypeVar("T")


async def adrive(
    conn: psycopg.AsyncConnection[Any],
    program: Program[T],
    *,
    write: bool | None,
    where: Where | None = None,
) -> T:
    """Run a program on an async ``psycopg`` connection in one transaction (see ``drive``)."""
    try:
        if write is None:
            return await _steps(conn, program, where)
        if not conn.autocommit:
            refuse_in_transaction(conn.info.transaction_status)
            await conn.set_autocommit(True)
        async with conn.pipeline():
            for sql in begin(write, where):
                await conn.execute(sql)
            result = await _steps(conn, program, where)
            await conn.execute("COMMIT")
        return result
    except BaseException as e:
        if conn.info.transaction_status != TransactionStatus.IDLE and not conn.closed:
            with suppress(psycopg.Error):
                await conn.execute("ROLLBACK")
        if (found := damaged(e, where)) is not e:
            raise found from e
        if isinstance(e, CorruptionError) and (better := named(e, where)) is not e:
            raise better from e
        raise
    finally:
        program.close()


async def _steps(conn: psycopg.AsyncConnection[Any], program: Program[T], where: Where | None) -> T:
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
                # A cursor per statement: in a pipeline each holds its own results.
                cur = conn.cursor(row_factory=tuple_row)
                if fetch == "many":
                    if params:
                        await cur.executemany(POSTGRES.prepare(sql), params)
                    rows = []
                else:
                    await cur.execute(sql_of(sql, params), params or None)
                    rows = await cur.fetchall() if fetch == "all" else []
            except DAMAGE as e:
                error = damaged(e, where)
    except StopIteration as stop:
        result: T = stop.value
        return result


AConn = psycopg.AsyncConnection[Any] | AsyncConnectionPool[Any]


class AsyncCompactPostgresSaver(LoopSaver):
    """The async twin of ``CompactPostgresSaver``.

    Args:
        conn: a ``psycopg.AsyncConnection`` or a ``psycopg_pool.AsyncConnectionPool``.
        serde: serializer for non-message values and message skeletons.
        index_text: see ``CompactSaverBase``.
        max_cached_messages: see ``CompactSaverBase``.
        single_writer: see ``CompactSaverBase``.
        retry: see ``CompactPostgresSaver``.
    """

    _stored_twice = staticmethod(is_stored_twice)

    def __init__(
        self,
        conn: AConn,
        *,
        serde: SerializerProtocol | None = None,
        index_text: bool | None = None,
        max_cached_messages: int | None = None,
        single_writer: bool = False,
        retry: RetryPolicy | None = None,
    ) -> None:
        super().__init__(
            serde=serde,
            index_text=index_text,
            max_cached_messages=max_cached_messages,
            single_writer=single_writer,
            dialect=POSTGRES,
        )
        self.conn = conn
        self.retry = retry or RetryPolicy()
        self.lock = asyncio.Lock()
        self.is_setup = False
        self.loop = asyncio.get_running_loop()

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str, **kwargs: Any
    ) -> AsyncIterator[AsyncCompactPostgresSaver]:
        """A saver on one new connection to ``conn_string`` (a DSN), closed on exit."""
        async with await psycopg.AsyncConnection.connect(conn_string, autocommit=True) as conn:
            yield cls(conn, **kwargs)

    async def setup(self) -> None:
        """Apply pending migrations; runs once, automatically.

        Raises:
            SchemaVersionError: the database was written by a newer langgraph-compact.
        """
        async with self.lock:
            await _finish(self._run_locked(None, True, None))

    async def _arun(
        self, program: Program[T], *, write: bool = False, where: Where | None = None
    ) -> T:
        attempt = 0
        while True:
            attempt += 1
            try:
                async with self.lock:
                    return await _finish(self._run_locked(program, write, where))
            except (*RETRYABLE, psycopg.OperationalError) as e:  # waits without the lock
                delay = retry_delay(self.retry, program, e, attempt, write=write, where=where)
                await asyncio.sleep(delay)
                program = program.again()  # type: ignore[attr-defined]  # a Replayable

    async def _run_locked(self, program: Program[T] | None, write: bool, where: Where | None) -> T:
        if isinstance(self.conn, AsyncConnectionPool):
            async with self.conn.connection() as conn:
                return await self._on(conn, program, write, where)
        return await self._on(self.conn, program, write, where)

    async def _on(
        self,
        conn: psycopg.AsyncConnection[Any],
        program: Program[T] | None,
        write: bool,
        where: Where | None,
    ) -> T:
        if not self.is_setup:
            with self._store.cache.transaction():
                await adrive(conn, migrate(POSTGRES), write=True, where=None)
            self.is_setup = True
        if program is None:
            return None  # type: ignore[return-value]  # setup only
        with self._store.cache.transaction():
            return await adrive(conn, program, write=write, where=where)

    async def _awal_remaining(self) -> int:
        return 0  # no log to empty: see POSTGRES.after_redaction

    def _wal_remaining(self) -> int:
        return 0
