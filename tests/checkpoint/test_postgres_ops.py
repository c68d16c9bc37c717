"""Postgres operations: the schema's search index, retried transactions (real 40P01 and
40001 from the server, connections the server dropped)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import psycopg
import pytest
from agent_graph import build_graph, turn_input
from langgraph.checkpoint.base import empty_checkpoint
from pgserver import schema_dsn
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from langgraph_compact.checkpoint import AsyncCompactPostgresSaver, CompactPostgresSaver
from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._fts import word_filter
from langgraph_compact.checkpoint._retry import RetryPolicy
from langgraph_compact.checkpoint._schema import MIGRATIONS, migrate
from langgraph_compact.checkpoint._sql import POSTGRES, Program, Replayable
from langgraph_compact.checkpoint.postgres import drive, thread_lock_key
from langgraph_compact.errors import TransactionRetryError


def _cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


def _turns(saver: Any, thread: str, n: int = 3) -> None:
    graph = build_graph(saver)
    for turn in range(n):
        graph.invoke(turn_input(turn), _cfg(thread))


def _names(dsn: str, sql: str) -> set[str]:
    with psycopg.connect(dsn) as conn:
        return {r[0] for r in conn.execute(sql).fetchall()}


def _indexes(dsn: str) -> set[str]:
    return _names(dsn, "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")


def _tables(dsn: str) -> set[str]:
    sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    return _names(dsn, sql)


def test_a_schema_5_database_loses_its_gin_index_and_still_finds_words(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    with psycopg.connect(dsn, autocommit=True) as conn:  # a database written by schema 5
        assert drive(conn, migrate(POSTGRES, MIGRATIONS[:5]), write=True) == 5
    assert "lgc_text_fts_words" in _indexes(dsn)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        _turns(saver, "t")
        page = saver.history("t", text="module 1")
        assert [item.message.content for item in page.items] == ["please read module 1"]
        with psycopg.connect(dsn) as conn:
            version = conn.execute("SELECT MAX(version) FROM lgc_schema_version").fetchone()
    assert version == (MIGRATIONS[-1].version,) and MIGRATIONS[-1].version >= 6
    assert "lgc_text_fts_words" not in _indexes(dsn)


def _filters(dsn: str) -> list[tuple[int, bytes | None]]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT text_id, words FROM lgc_texts ORDER BY text_id").fetchall()
    return [(int(i), None if w is None else bytes(w)) for i, w in rows]


def test_a_schema_8_database_gets_word_filters_and_still_finds_words(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        _turns(saver, "t")
    written = _filters(dsn)
    assert len(written) >= 6 and all(w for _, w in written)
    with psycopg.connect(dsn, autocommit=True) as conn:  # the same texts as schema 8 held them
        conn.execute("CREATE TABLE lgc_text_fts (text_id BIGINT PRIMARY KEY, terms TEXT NOT NULL)")
        conn.execute("INSERT INTO lgc_text_fts SELECT text_id, 'some words' FROM lgc_texts")
        conn.execute("ALTER TABLE lgc_texts DROP COLUMN words")
        later = conn.execute("SELECT * FROM lgc_schema_version WHERE version > 9").fetchall()
        conn.execute("DELETE FROM lgc_schema_version WHERE version > 8")
        assert drive(conn, migrate(POSTGRES, MIGRATIONS[:9]), write=True) == 9
        for row in later:  # the steps after 9 are applied already
            conn.execute("INSERT INTO lgc_schema_version VALUES (%s, %s, %s)", row)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        page = saver.history("t", text="module 1")
        assert [item.message.content for item in page.items] == ["please read module 1"]
        assert saver.verify().ok
    assert _filters(dsn) == written  # what the migration computed is what a write stores
    assert "lgc_text_fts" not in _tables(dsn)


@pytest.mark.parametrize(
    ("old", "error"),
    [  # schema 7 and 8 statements: the words table is gone
        ("INSERT INTO lgc_text_fts (text_id, words) VALUES (1, to_tsvector('simple', 'a'))", 0),
        ("SELECT 1 FROM lgc_text_fts f WHERE f.words @@ plainto_tsquery('simple', 'a')", 0),
        ("INSERT INTO lgc_text_fts (text_id, terms) VALUES (1, 'a')", 0),
        ("SELECT 1 FROM lgc_text_fts f WHERE strpos(' ' || f.terms || ' ', ' a ') > 0", 0),
        # schema 9 and older: the task count is renamed
        ("SELECT checkpoint_id, run_id, payload, tasks, chk FROM lgc_checkpoints", 1),
        ("UPDATE lgc_checkpoints SET tasks = tasks + 1 WHERE tid = 1", 1),
    ],
)
def test_a_process_of_an_older_schema_still_running_fails_at_once(
    tmp_path: Path, old: str, error: int
) -> None:
    dsn = schema_dsn(tmp_path)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        saver.setup()
    expected = (errors.UndefinedTable, errors.UndefinedColumn)[error]
    with psycopg.connect(dsn) as conn, pytest.raises(expected):
        conn.execute(old)


def test_a_damaged_word_filter_is_reported_and_never_hides_a_match(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        _turns(saver, "d")
        with psycopg.connect(dsn, autocommit=True) as conn:  # every bit set: all candidates
            conn.execute("UPDATE lgc_texts SET words = decode(repeat('ff', 64), 'hex')")
        page = saver.history("d", text="module 1")
        assert [item.message.content for item in page.items] == ["please read module 1"]
        report = saver.verify()
    assert not report.ok
    assert {p.kind for p in report.problems} == {"damaged"}
    assert all("word filter" in p.detail and p.thread_id == "d" for p in report.problems)
    assert len(report.problems) == len(_filters(dsn))


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("alpha", ["alpha beta_gamma 100% done", "ALPHA again"]),
        ("ALPHA done", ["alpha beta_gamma 100% done"]),
        ("alph", []),  # whole words only, not prefixes or substrings
        ("pha", []),
        ("beta_gamma", ["alpha beta_gamma 100% done"]),  # two words, as indexed
        ("gamma beta", ["alpha beta_gamma 100% done"]),  # in any order
        ("100%", ["alpha beta_gamma 100% done"]),
        ("done done alpha", ["alpha beta_gamma 100% done"]),  # a repeated word
        ("betagamma", ["a%c x_y betagamma"]),
        ("²", []),  # a word no text holds
        ("again ² alpha", []),  # every word must be there (as in SQLite's FTS5)
        ("Again ALPHA", ["ALPHA again"]),  # case-insensitive
        ("izmir", ["İzmir Straße"]),  # folded: İ is i, ß is ss
        ("İZMİR STRASSE", ["İzmir Straße"]),
    ],
)
def test_a_text_matches_when_its_words_hold_every_word_of_the_query(
    tmp_path: Path, query: str, found: list[str]
) -> None:
    from langchain_core.messages import HumanMessage

    texts = ["alpha beta_gamma 100% done", "ALPHA again", "a%c x_y betagamma", "İzmir Straße"]
    with CompactPostgresSaver.from_conn_string(schema_dsn(tmp_path)) as saver:
        graph = build_graph(saver)
        for i, text in enumerate(texts):
            graph.invoke({"messages": [HumanMessage(text, id=f"h{i}")]}, _cfg("w"))
        page = saver.history("w", text=query, role="human")
    assert [item.message.content for item in page.items] == found


def test_a_text_of_200_000_distinct_words_is_stored_and_found(
    tmp_path: Path,
) -> None:
    from langchain_core.messages import HumanMessage

    dsn = schema_dsn(tmp_path)
    big = " ".join(f"w{i}" for i in range(200_000))  # 1.3 MB of distinct words
    small = "only w7 and w199999 and Wz"
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        graph = build_graph(saver)
        for i, text in enumerate((big, small)):
            graph.invoke({"messages": [HumanMessage(text, id=f"h{i}")]}, _cfg("big"))
        found = [len(i.message.content) for i in saver.history("big", text="w199999 W7").items]
        assert found == [len(big), len(small)]
        assert saver.history("big", text="w200000").items == []
        assert saver.verify().ok
    filters = {w for _, w in _filters(dsn)}
    assert len(word_filter(big) or b"") == 200_000  # a byte a word
    assert word_filter(big) in filters and word_filter(small) in filters


def test_search_works_without_standard_conforming_strings(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        graph = build_graph(saver)
        graph.invoke(turn_input(4), _cfg("s"))
    options = conninfo_to_dict(dsn).get("options", "")
    old_strings = make_conninfo(dsn, options=f"{options} -c standard_conforming_strings=off")
    with CompactPostgresSaver.from_conn_string(old_strings) as saver:
        page = saver.history("s", text="module 4")
    assert [item.message.content for item in page.items] == ["please read module 4"]


# --- retried transactions -----------------------------------------------------------------

MD: dict[str, Any] = {"source": "input", "step": -1, "parents": {}}
RAISE_40001 = (
    "DO $$ BEGIN RAISE EXCEPTION 'collided' USING ERRCODE = 'serialization_failure'; END $$"
)


def _wait_until_blocked(dsn: str, pid: int) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for _ in range(1000):
            row = conn.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)
            ).fetchone()
            if row and row[0] == "Lock":
                return
            time.sleep(0.01)
    raise AssertionError("the saver's transaction never waited on the row lock")


@contextmanager
def _deadlock_with(dsn: str, saver_pid: int, thread_id: str) -> Iterator[None]:
    """Another session holds the thread's head row, then asks for the thread's lock.

    The saver's next put holds the thread lock and waits for the head row: a deadlock.
    The saver waited first, and the other session checks for deadlocks only after ten
    seconds (the server's default is one), so however the two are scheduled the saver's
    check fires first and it is the victim (40P01); the other session then gets the lock
    and commits.
    """
    other = psycopg.connect(dsn)
    other.execute("SET deadlock_timeout = '10s'")
    other.execute("UPDATE lgc_heads SET checkpoints = checkpoints")

    def collide() -> None:
        try:
            _wait_until_blocked(dsn, saver_pid)
            other.execute("SELECT pg_advisory_xact_lock(%s)", (thread_lock_key(thread_id),))
        finally:
            other.commit()
            other.close()

    worker = threading.Thread(target=collide)
    worker.start()
    try:
        yield
    finally:
        worker.join()


def _retries(caplog: pytest.LogCaptureFixture, sqlstate: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if f"SQLSTATE {sqlstate}" in r.getMessage()]


def test_a_deadlock_victim_put_runs_again_and_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    dsn = schema_dsn(tmp_path)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        first = saver.put(_cfg("t"), empty_checkpoint(), MD, {})
        assert isinstance(saver.conn, psycopg.Connection)
        with (
            caplog.at_level(logging.WARNING),
            _deadlock_with(dsn, saver.conn.info.backend_pid, "t"),
        ):
            second = saver.put(first, empty_checkpoint(), MD, {})
        latest = saver.get_tuple(_cfg("t"))
        assert latest is not None and latest.config == second and latest.parent_config == first
        assert len(list(saver.list(_cfg("t")))) == 2
    assert len(_retries(caplog, "40P01")) == 1


async def test_an_async_deadlock_victim_put_runs_again_and_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    dsn = schema_dsn(tmp_path)
    async with AsyncCompactPostgresSaver.from_conn_string(dsn) as saver:
        first = await saver.aput(_cfg("t"), empty_checkpoint(), MD, {})
        assert isinstance(saver.conn, psycopg.AsyncConnection)
        with (
            caplog.at_level(logging.WARNING),
            _deadlock_with(dsn, saver.conn.info.backend_pid, "t"),
        ):
            second = await saver.aput(first, empty_checkpoint(), MD, {})
        latest = await saver.aget_tuple(_cfg("t"))
        assert latest is not None and latest.config == second
    assert len(_retries(caplog, "40P01")) == 1


def _collides(runs: list[int], failures: int) -> Program[str]:
    """Fails with a real serialization failure from the server ``failures`` times."""
    runs.append(len(runs) + 1)
    if len(runs) <= failures:
        yield RAISE_40001, (), "none"
    rows = yield "SELECT 'stored'", (), "all"
    return str(rows[0][0])


def test_retries_are_bounded_and_the_last_error_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    policy = RetryPolicy(attempts=3, base_delay=0.001)
    with CompactPostgresSaver.from_conn_string(schema_dsn(tmp_path), retry=policy) as saver:
        runs: list[int] = []
        with caplog.at_level(logging.WARNING):
            program = Replayable(partial(_collides, runs, 2))
            assert saver._run(program, write=True, where=Where("t")) == "stored"
        assert runs == [1, 2, 3] and len(_retries(caplog, "40001")) == 2
        runs.clear()
        with pytest.raises(TransactionRetryError, match=r"'t'.*3 times.*40001") as info:
            saver._run(Replayable(partial(_collides, runs, 99)), write=True, where=Where("t"))
        assert runs == [1, 2, 3] and info.value.attempts == 3
        assert isinstance(info.value.__cause__, errors.SerializationFailure)
        with pytest.raises(errors.SerializationFailure):  # cannot start over: not retried
            saver._run(_collides([], 1), write=True, where=Where("t"))
        assert saver.get_tuple(_cfg("t")) is None  # the connection is usable, nothing stored


async def test_async_retries_are_bounded(tmp_path: Path) -> None:
    policy = RetryPolicy(attempts=2, base_delay=0.001)
    dsn = schema_dsn(tmp_path)
    async with AsyncCompactPostgresSaver.from_conn_string(dsn, retry=policy) as saver:
        runs: list[int] = []
        program = Replayable(partial(_collides, runs, 1))
        assert await saver._arun(program, write=True, where=Where("t")) == "stored"
        runs.clear()
        with pytest.raises(TransactionRetryError, match="2 times"):
            await saver._arun(Replayable(partial(_collides, runs, 5)), write=True)
        assert runs == [1, 2]


def _terminate_backends(dsn: str, pids: list[int]) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_read_on_a_connection_the_server_dropped_runs_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    dsn = schema_dsn(tmp_path)
    with ConnectionPool(dsn, min_size=1, max_size=1, kwargs={"autocommit": True}) as pool:
        saver = CompactPostgresSaver(pool)
        stored = saver.put(_cfg("t"), empty_checkpoint(), MD, {})
        with pool.connection() as conn:
            pid = conn.info.backend_pid
        _terminate_backends(dsn, [pid])  # the pooled connection is dead, the pool unaware
        with caplog.at_level(logging.WARNING):
            found = saver.get_tuple(_cfg("t"))
        assert found is not None and found.config == stored
    assert len([r for r in caplog.records if "attempt 1 of" in r.getMessage()]) == 1


async def test_an_async_read_on_a_dropped_connection_runs_again(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    pool = AsyncConnectionPool(dsn, min_size=1, max_size=1, kwargs={"autocommit": True})
    async with pool:
        saver = AsyncCompactPostgresSaver(pool)
        stored = await saver.aput(_cfg("t"), empty_checkpoint(), MD, {})
        async with pool.connection() as conn:
            pid = conn.info.backend_pid
        _terminate_backends(dsn, [pid])
        found = await saver.aget_tuple(_cfg("t"))
        assert found is not None and found.config == stored


def test_a_write_on_a_dropped_connection_is_not_run_again(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    with ConnectionPool(dsn, min_size=1, max_size=1, kwargs={"autocommit": True}) as pool:
        saver = CompactPostgresSaver(pool)
        first = saver.put(_cfg("t"), empty_checkpoint(), MD, {})
        with pool.connection() as conn:
            pid = conn.info.backend_pid
        _terminate_backends(dsn, [pid])
        with pytest.raises(psycopg.OperationalError):  # its COMMIT may have landed: surfaced
            saver.put(first, empty_checkpoint(), MD, {})
        assert len(list(saver.list(_cfg("t")))) == 1  # the pool's next connection works
