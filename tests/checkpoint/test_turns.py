"""Turn leases (``saver.turn``): a second run waits for the first one's turn, bounded."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import Backend
from pgserver import schema_dsn

from langgraph_compact.checkpoint import AsyncCompactPostgresSaver, AsyncCompactSqliteSaver
from langgraph_compact.errors import ConcurrentRunError

CONFIG: dict[str, Any] = {"configurable": {"thread_id": "shared"}}


def test_a_second_run_waits_for_the_first_runs_turn(backend: Backend) -> None:
    events: list[str] = []
    inside = threading.Event()
    with backend.reopen(single_writer=True) as mine, backend.reopen(single_writer=True) as theirs:

        def second() -> None:
            inside.wait()
            with theirs.turn("shared", wait=20):
                events.append("second in")
                build_graph(theirs).invoke(turn_input(2), CONFIG)

        worker = threading.Thread(target=second)
        worker.start()
        with mine.turn("shared") as holder:
            assert holder
            inside.set()
            graph = build_graph(mine)
            graph.invoke(turn_input(1), CONFIG)
            time.sleep(0.3)  # the second run is waiting meanwhile
            events.append("first out")
        worker.join()
        ids = [m.id for m in build_graph(mine).get_state(CONFIG).values["messages"]]
    assert events == ["first out", "second in"]
    assert ids[:2] == ["human-1", "ai-1"] and ids[3:5] == ["human-2", "ai-2"] and len(ids) == 6


def test_waiting_is_bounded_and_names_the_holder(backend: Backend) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        with mine.turn("shared", holder="run-A"):
            start = time.monotonic()
            with (
                pytest.raises(ConcurrentRunError, match="'run-A' still holds") as caught,
                theirs.turn("shared", wait=0.3),
            ):
                pytest.fail("entered a turn another run holds")
            assert 0.3 <= time.monotonic() - start < 5
            assert caught.value.other_run_id == "run-A" and caught.value.thread_id == "shared"
        with theirs.turn("shared", wait=0):  # released on exit: free at once
            pass


def test_a_dead_holders_lease_expires_and_its_late_release_changes_nothing(
    backend: Backend,
) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        abandoned = mine.turn("shared", lease=0.3, holder="stalled")
        abandoned.__enter__()  # not left in time: the holder stalled (or died) mid-turn
        start = time.monotonic()
        with theirs.turn("shared", wait=10, holder="run-B"):
            assert 0.2 <= time.monotonic() - start < 5
            abandoned.__exit__(None, None, None)  # the stalled holder's late release...
            with (
                pytest.raises(ConcurrentRunError, match="'run-B'"),
                mine.turn("shared", wait=0),  # ...left run-B's lease in place
            ):
                pytest.fail("entered a turn another run holds")


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_async_turns_wait_for_each_other(kind: str, tmp_path: Path) -> None:
    cm: Any = (
        AsyncCompactSqliteSaver.from_conn_string(tmp_path / "db.sqlite")
        if kind == "sqlite"
        else AsyncCompactPostgresSaver.from_conn_string(schema_dsn(tmp_path))
    )
    async with cm as saver:
        async with saver.aturn("shared", holder="run-A"):
            with pytest.raises(ConcurrentRunError, match="run-A"):
                async with saver.aturn("shared", wait=0.2):
                    pytest.fail("entered a turn another run holds")
        async with saver.aturn("shared", wait=0) as holder:
            assert holder != "run-A"
