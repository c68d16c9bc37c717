"""``CompactPostgresSaver``: the raw-history checkpointer on ``psycopg`` 3.

Usage::

    from langgraph_compact.checkpoint import CompactPostgresSaver

    with CompactPostgresSaver.from_conn_string("postgresql://user@host/db") as saver:
        graph = builder.compile(checkpointer=saver)

Same storage programs as the SQLite savers; only the dialect (``POSTGRES``) and this
runner differ. Many processes can share one database:

- a write transaction first takes a transaction-scoped advisory lock on its thread
  (and a shared one on the whole store), so two writers of one thread queue instead
  of interleaving, writers of different threads run in parallel, and whole-store
  operations (``prune``, ``delete_for_runs``, migrations) take the store lock alone.
  Locks are always taken in that order, so they cannot deadlock; writes run at
  ``READ COMMITTED`` and see every commit made before their lock was granted, so no
  serialization failure can arise.
- a read program runs in one ``REPEATABLE READ READ ONLY`` snapshot, never blocked.

A transaction the server rolls back as a deadlock victim or serialization failure
(another client's locks, a stricter ``default_transaction_isolation``) runs again with
bounded, jittered backoff (``retry=RetryPolicy(...)``, see ``_retry``), logged.

One saver runs one operation at a time (its caches are per process, as in the SQLite
savers); run more processes, or more savers, for parallel writes.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

import psycopg
from langgraph.checkpoint.serde.base import SerializerProtocol
from psycopg import errors
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row
from psycopg_pool import ConnectionPool

from langgraph_compact.checkpoint._api import ThreadedSaver
from langgraph_compact.checkpoint._check import Where, corrupt, named
from langgraph_compact.checkpoint._retry import RETRYABLE, RetryPolicy, retry_delay
from langgraph_compact.checkpoint._schema import migrate
from langgraph_compact.checkpoint._sql import POSTGRES, Program
from langgraph_compact.errors import CorruptionError, SaverArgumentError

__all__ = [
    "DAMAGE",
    "CompactPostgresSaver",
    "autocommit",
    "begin",
    "damaged",
    "drive",
    "is_stored_twice",
    "refuse_in_transaction",
    "sql_of",
    "thread_lock_key",
]

T = TypeVar("T")

STORE_LOCK = 0x6C6763_0000_0001
"""The advisory-lock key of the whole store ('lgc' + 1); threads use a hash of their id."""

DAMAGE = (errors.DataCorrupted, errors.IndexCorrupted)


def thread_lock_key(thread_id: str) -> int:
    """The advisory-lock key of a thread: 8 bytes of its hash, as a signed bigint.

    >>> thread_lock_key("t1") == thread_lock_key("t1") != thread_lock_key("t2")
    True
    """
    digest = hashlib.blake2b(thread_id.encode("utf-8", "surrogatepass"), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


def begin(write: bool, where: Where | None) -> list[str]:
    """The statements that open a transaction: isolation level, then its locks.

    A write naming a thread locks the thread (after the store, shared, in the same
    statement: one fewer per transaction); a write naming none (whole-store
    operations) locks the store exclusively.

    >>> begin(False, None)
    ['BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY']
    >>> begin(True, None)
    ['BEGIN ISOLATION LEVEL READ COMMITTED', 'SELECT pg_advisory_xact_lock(30512972384174081)']
    >>> begin(True, Where("t"))[1].count("pg_advisory_xact_lock")
    2
    """
    if not write:
        return ["BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"]
    thread = where.thread_id if where is not None else ""
    # Select-list items are evaluated left to right: the store lock is always first.
    locks = (
        f"pg_advisory_xact_lock_shared({STORE_LOCK}), "
        f"pg_advisory_xact_lock({thread_lock_key(thread)})"
        if thread
        else f"pg_advisory_xact_lock({STORE_LOCK})"
    )
    return ["BEGIN ISOLATION LEVEL READ COMMITTED", f"SELECT {locks}"]


def is_stored_twice(error: BaseException) -> bool:
    """Whether a checkpoint row's key was already stored (``put``'s append, see ``head_behind``);
    the pipeline may report it at a later statement or at ``COMMIT``."""
    return isinstance(error, errors.UniqueViolation) and error.diag.table_name == "lgc_checkpoints"


def damaged(error: BaseException, where: Where | None) -> BaseException:
    """A ``CorruptionError`` for Postgres' own damage reports; other errors unchanged."""
    at = where or Where("")
    if not isinstance(error, DAMAGE):
        return error
    return corrupt(at, f"Postgres reports stored data as damaged ({error})")


def sql_of(sql: str, params: Sequence[Any]) -> str:
    """The statement as psycopg reads it (a statement without params is sent as written)."""
    return POSTGRES.prepare(sql) if params else sql


def drive(
    conn: psycopg.Connection[Any],
    program: Program[T],
    *,
    write: bool | None,
    where: Where | None = None,
) -> T:
    """Run a program on a ``psycopg`` connection inside one transaction.

    ``write=None`` runs without a transaction of its own. Any failure ends in
    ``ROLLBACK``. Damage reports become a ``CorruptionError`` naming ``where``, raised
    into the program at the statement that failed, as the SQLite runner does.
    """
    try:
        if write is None:
            return _steps(conn, program, where)
        autocommit(conn)
        with conn.pipeline():  # statements whose rows are not needed go without a wait
            for sql in begin(write, where):
                conn.execute(sql)
            result = _steps(conn, program, where)
            conn.execute("COMMIT")
        return result
    except BaseException as e:
        if conn.info.transaction_status != TransactionStatus.IDLE and not conn.closed:
            with suppress(psycopg.Error):
                conn.execute("ROLLBACK")
        if (found := damaged(e, where)) is not e:
            raise found from e
        if isinstance(e, CorruptionError) and (better := named(e, where)) is not e:
            raise better from e
        raise
    finally:
        program.close()


def autocommit(conn: psycopg.Connection[Any]) -> None:
    """Put an idle connection in autocommit mode: the saver sends its own ``BEGIN``."""
    if not conn.autocommit:
        refuse_in_transaction(conn.info.transaction_status)
        conn.autocommit = True


def refuse_in_transaction(status: TransactionStatus) -> None:
    """Raise ``SaverArgumentError`` if the connection is inside its owner's transaction."""
    if status != TransactionStatus.IDLE:
        raise SaverArgumentError(
            "the Postgres connection given to the saver is inside a transaction; the saver "
            "runs its own transactions: give it a connection (or pool) of its own"
        )


def _steps(conn: psycopg.Connection[Any], program: Program[T], where: Where | None) -> T:
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
                # A cursor per statement: in a pipeline each holds its own results.
                cur = conn.cursor(row_factory=tuple_row)
                if fetch == "many":
                    if params:
                        cur.executemany(POSTGRES.prepare(sql), params)
                    rows = []
                else:
                    cur.execute(sql_of(sql, params), params or None)
                    rows = cur.fetchall() if fetch == "all" else []
            except DAMAGE as e:
                error = damaged(e, where)
    except StopIteration as stop:
        result: T = stop.value
        return result


Conn = psycopg.Connection[Any] | ConnectionPool[Any]


class CompactPostgresSaver(ThreadedSaver):
    """A ``BaseCheckpointSaver`` on Postgres that stores each message once per thread.

    Args:
        conn: a ``psycopg.Connection`` or a ``psycopg_pool.ConnectionPool``; the saver
            sends its own ``BEGIN``/``COMMIT``, so it sets autocommit on them.
        serde: serializer for non-message values and message skeletons.
        index_text: see ``CompactSaverBase``.
        max_cached_messages: see ``CompactSaverBase``.
        single_writer: see ``CompactSaverBase``.
        retry: how a transaction the server rolled back runs again (``_retry``).
    """

    _stored_twice = staticmethod(is_stored_twice)

    def __init__(
        self,
        conn: Conn,
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
        self.lock = threading.Lock()
        self.is_setup = False

    @classmethod
    @contextmanager
    def from_conn_string(cls, conn_string: str, **kwargs: Any) -> Iterator[CompactPostgresSaver]:
        """A saver on one new connection to ``conn_string`` (a DSN), closed on exit."""
        with psycopg.Connection.connect(conn_string, autocommit=True) as conn:
            yield cls(conn, **kwargs)

    def setup(self) -> None:
        """Apply pending migrations; runs once, automatically.

        Raises:
            SchemaVersionError: the database was written by a newer langgraph-compact.
        """
        with self.lock, self._connection() as conn:
            self._setup_locked(conn, None)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        if isinstance(self.conn, ConnectionPool):
            with self.conn.connection() as conn:
                yield conn
        else:
            yield self.conn

    def _setup_locked(self, conn: psycopg.Connection[Any], where: Where | None) -> None:
        if self.is_setup:
            return
        with self._store.cache.transaction():
            drive(conn, migrate(POSTGRES), write=True, where=None)
        self.is_setup = True

    def _run(self, program: Program[T], *, write: bool = False, where: Where | None = None) -> T:
        attempt = 0
        while True:
            attempt += 1
            try:
                with self.lock, self._connection() as conn:
                    self._setup_locked(conn, where)
                    with self._store.cache.transaction():
                        return drive(conn, program, write=write, where=where)
            except (*RETRYABLE, psycopg.OperationalError) as e:  # waits without the lock
                time.sleep(retry_delay(self.retry, program, e, attempt, write=write, where=where))
                program = program.again()  # type: ignore[attr-defined]  # a Replayable

    def _wal_remaining(self) -> int:
        return 0  # no log to empty: see POSTGRES.after_redaction

    async def _awal_remaining(self) -> int:
        return 0
