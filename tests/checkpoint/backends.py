"""Backends for the checkpoint feature tests: a saver under test and neutral helpers.

``BACKENDS`` names every backend a feature test runs on: ``sqlite`` (the sync saver on
``sqlite3``) and ``sqlite_async`` (the async saver on ``aiosqlite``, driven through its
sync bridge from the test thread while its event loop runs in a background thread, so
every statement goes through the async driver). A Postgres backend is one more entry in
``BACKENDS`` and one more branch in ``open_saver``: tests only use the saver's API and
``Backend``'s helpers, never a driver of their own.
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

from langgraph_compact.checkpoint import (
    AsyncCompactSqliteSaver,
    CompactSaverBase,
    CompactSqliteSaver,
)

__all__ = ["BACKENDS", "Backend", "open_saver"]

T = TypeVar("T")

BACKENDS = ["sqlite", "sqlite_async"]


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
    """A saver of backend ``kind`` on ``path``, closed on exit."""
    if kind == "sqlite":
        with CompactSqliteSaver.from_conn_string(str(path), **kwargs) as saver:
            yield saver
        return
    runner = _LoopThread()

    async def start() -> tuple[AsyncCompactSqliteSaver, Any]:
        cm = AsyncCompactSqliteSaver.from_conn_string(path, **kwargs)
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

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` read on a connection of its own (sees committed data)."""
        conn = sqlite3.connect(self.path)
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def query_vocabulary(self) -> list[tuple[str]]:
        """Every term the full-text index holds (read through ``fts5vocab``)."""
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
        """Every byte SQLite keeps for the database: the file, its WAL and shared memory."""
        return b"".join(
            p.read_bytes()
            for p in sorted(self.path.parent.glob(self.path.name + "*"))
            if p.is_file()
        )
