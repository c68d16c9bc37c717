"""Turn leases (``saver.turn``): a second run waits for the first one's turn, bounded."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import Backend, open_saver
from pgserver import schema_dsn

from langgraph_compact.checkpoint import AsyncCompactPostgresSaver, AsyncCompactSqliteSaver
from langgraph_compact.errors import ConcurrentRunError, SaverArgumentError, TurnLostError

CONFIG: dict[str, Any] = {"configurable": {"thread_id": "shared"}}
HOLDER = Path(__file__).with_name("turn_holder.py")


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
        with pytest.raises(SaverArgumentError, match="lease=0"), mine.turn("shared", lease=0):
            pytest.fail("entered a turn whose lease could never be renewed")


def test_a_turn_longer_than_its_lease_keeps_it(backend: Backend) -> None:
    events: list[str] = []
    inside = threading.Event()
    with backend.reopen() as mine, backend.reopen() as theirs:

        def second() -> None:
            inside.wait()
            with theirs.turn("shared", wait=20, holder="run-B"):
                events.append("second in")

        worker = threading.Thread(target=second)
        worker.start()
        with mine.turn("shared", lease=1.5, holder="run-A"):  # renewed, not lost, at 1.5 s
            inside.set()
            time.sleep(3.5)
            with (
                pytest.raises(ConcurrentRunError, match="'run-A' still holds"),
                theirs.turn("shared", wait=0),
            ):
                pytest.fail("entered a turn another run holds")
            events.append("first out")
        worker.join()
    assert events == ["first out", "second in"]


def _holder(kind: str, tmp_path: Path, lease: float) -> subprocess.Popen[str]:
    """A process holding thread ``shared``'s turn (``turn_holder.py``), once it is in."""
    db = tmp_path / "db.sqlite"
    target = str(db) if kind == "sqlite" else schema_dsn(db)
    args = [sys.executable, str(HOLDER), kind, target, str(lease)]
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "in\n"
    return proc


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_dead_holders_lease_expires(kind: str, tmp_path: Path) -> None:
    proc = _holder(kind, tmp_path, lease=1.5)
    with open_saver(kind, tmp_path / "db.sqlite") as theirs:
        with (
            pytest.raises(ConcurrentRunError, match="'holder' still holds"),
            theirs.turn("shared", wait=2.5),  # alive: renewed past its lease
        ):
            pytest.fail("entered a turn a live process holds")
        proc.kill()
        proc.wait()
        start = time.monotonic()
        with theirs.turn("shared", wait=10):
            assert time.monotonic() - start < 5


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_stalled_holder_is_told_it_lost_the_turn(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "db.sqlite"
    with open_saver(kind, db) as mine, open_saver(kind, db) as theirs:
        taken = theirs.turn("shared", wait=10, holder="run-B")
        with (
            pytest.raises(TurnLostError, match=r"'run-A' lost.*'run-B' holds it now") as lost,
            mine.turn("shared", lease=0.4, holder="run-A"),
            mine.lock,  # type: ignore[attr-defined]  # the saver busy past the lease
        ):
            taken.__enter__()
        assert lost.value.other_run_id == "run-B" and lost.value.thread_id == "shared"
        with (
            pytest.raises(ConcurrentRunError, match="'run-B' still holds"),
            mine.turn("shared", wait=0),  # the stalled holder left run-B's lease in place
        ):
            pytest.fail("entered a turn another run holds")
        taken.__exit__(None, None, None)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert errors and "lost the thread's turn" in errors[0].getMessage()


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


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_async_turns_outlast_their_lease_and_report_losing_it(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def opened() -> Any:
        if kind == "sqlite":
            return AsyncCompactSqliteSaver.from_conn_string(tmp_path / "db.sqlite")
        return AsyncCompactPostgresSaver.from_conn_string(schema_dsn(tmp_path))

    async with opened() as mine, opened() as theirs:
        async with mine.aturn("shared", lease=1.2, holder="run-A"):
            await asyncio.sleep(3.0)  # 2.5 leases: renewed meanwhile
            with pytest.raises(ConcurrentRunError, match="'run-A' still holds"):
                async with theirs.aturn("shared", wait=0.3):
                    pytest.fail("entered a turn another run holds")
        taken = theirs.aturn("shared", wait=10, holder="run-B")
        with pytest.raises(TurnLostError, match=r"'run-A' lost.*'run-B' holds it now") as lost:
            async with (
                mine.aturn("shared", lease=0.4, holder="run-A"),
                mine.lock,  # the saver busy past the lease: no renewal
            ):
                await taken.__aenter__()
        assert lost.value.other_run_id == "run-B"
        with pytest.raises(ConcurrentRunError, match="'run-B' still holds"):
            async with mine.aturn("shared", wait=0):
                pytest.fail("entered a turn another run holds")
        await taken.__aexit__(None, None, None)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert errors and "lost the thread's turn" in errors[0].getMessage()
