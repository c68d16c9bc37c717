"""The Postgres savers on a ``psycopg_pool`` pool, sync and async, and on a plain connection."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import psycopg
import pytest
from agent_graph import build_graph, turn_input
from pgserver import schema_dsn
from psycopg_pool import AsyncConnectionPool, ConnectionPool, PoolClosed, PoolTimeout

from langgraph_compact.checkpoint import AsyncCompactPostgresSaver, CompactPostgresSaver
from langgraph_compact.errors import SaverArgumentError


def _cfg(thread: str) -> dict[str, dict[str, str]]:
    return {"configurable": {"thread_id": thread}}


def test_a_pool_serves_threads_of_one_process(tmp_path: Path) -> None:
    with ConnectionPool(schema_dsn(tmp_path), min_size=1, max_size=2) as pool:
        saver = CompactPostgresSaver(pool)
        graph = build_graph(saver)

        def turns(thread: str) -> None:
            for turn in range(4):
                graph.invoke(turn_input(turn), _cfg(thread))

        workers = [threading.Thread(target=turns, args=(f"p{i}",)) for i in range(3)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        for i in range(3):
            assert len(graph.get_state(_cfg(f"p{i}")).values["messages"]) == 12
        assert saver.verify().ok and len(saver.threads()) == 3


async def test_an_async_pool_serves_concurrent_runs(tmp_path: Path) -> None:
    async with AsyncConnectionPool(schema_dsn(tmp_path), min_size=1, max_size=2) as pool:
        saver = AsyncCompactPostgresSaver(pool)
        graph = build_graph(saver)

        async def turns(thread: str) -> None:
            for turn in range(4):
                await graph.ainvoke(turn_input(turn), _cfg(thread))

        await asyncio.gather(*(turns(f"a{i}") for i in range(3)))
        for i in range(3):
            state = await graph.aget_state(_cfg(f"a{i}"))
            assert len(state.values["messages"]) == 12
        assert (await saver.averify()).ok


def test_a_connection_inside_its_owners_transaction_is_refused(tmp_path: Path) -> None:
    with psycopg.connect(schema_dsn(tmp_path)) as conn:  # autocommit off
        conn.execute("SELECT 1")  # opens the owner's transaction
        with pytest.raises(SaverArgumentError, match="inside a transaction"):
            CompactPostgresSaver(conn).setup()
        conn.rollback()
        saver = CompactPostgresSaver(conn)  # idle: the saver switches it to autocommit
        build_graph(saver).invoke(turn_input(0), _cfg("c"))
        assert conn.autocommit and saver.verify().ok


def test_an_exhausted_pool_times_out_at_once_with_the_pools_error(tmp_path: Path) -> None:
    with ConnectionPool(schema_dsn(tmp_path), min_size=1, max_size=1, timeout=0.3) as pool:
        saver = CompactPostgresSaver(pool)
        saver.setup()
        with pool.connection():  # the pool's only connection is taken
            start = time.monotonic()
            with pytest.raises(PoolTimeout):  # not retried, not "the server cannot be reached"
                saver.get_tuple(_cfg("t"))
            assert time.monotonic() - start < 3 * 0.3
    with pytest.raises(PoolClosed):  # a closed pool: at once, named as such
        saver.get_tuple(_cfg("t"))


async def test_an_exhausted_async_pool_times_out_at_once(tmp_path: Path) -> None:
    pool = AsyncConnectionPool(schema_dsn(tmp_path), min_size=1, max_size=1, timeout=0.3)
    async with pool:
        saver = AsyncCompactPostgresSaver(pool)
        await saver.setup()
        async with pool.connection():
            start = time.monotonic()
            with pytest.raises(PoolTimeout):
                await saver.aget_tuple(_cfg("t"))
            assert time.monotonic() - start < 3 * 0.3
    with pytest.raises(PoolClosed):
        await saver.aget_tuple(_cfg("t"))
