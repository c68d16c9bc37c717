"""Writes after damage: each stores exactly what it should or raises a ``CorruptionError``.

The reference of the corruption suite (``damage.Reference``) gets one kind of damage at
a random place per seed, on SQLite and on Postgres; then, on each thread, a fresh saver
puts the thread's newest checkpoint again (a client retrying a put whose answer it
lost), runs one more real graph turn and stores a task's pending writes (a message among
them), and a second fresh saver reads the state and the pending writes back. Each
thread's outcome must be what the same writes give on the intact reference, or a
``CorruptionError`` naming the thread (never another exception, never another state);
when a write raised, ``verify()`` reports the damage.

A put of a checkpoint that is already stored, past a head record left behind the rows
(with a valid check), conflicts with the stored row; on Postgres that conflict surfaces
late (the append is not waited for). It is pinned on every backend at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import Backend, open_saver
from damage import DAMAGE, RAW_DAMAGE, THREADS, Reference
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.checkpoint.base import CheckpointTuple, create_checkpoint

from langgraph_compact.checkpoint import CompactSaverBase
from langgraph_compact.checkpoint._check import head_check
from langgraph_compact.errors import CorruptionError

TASK = "task-after-damage"
WRITES = [("notes", "pending"), ("messages", [HumanMessage("pending", id="human-pending")])]


def _cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}


def _write(saver: CompactSaverBase, thread: str, newest: CheckpointTuple) -> None:
    """A retried put of ``newest``, one graph turn, and a task's pending writes."""
    parent = newest.parent_config or _cfg(thread)
    versions = newest.checkpoint["channel_versions"]
    saver.put(parent, newest.checkpoint, newest.metadata, versions)
    build_graph(saver).invoke(turn_input(50), _cfg(thread))
    latest = saver.get_tuple(_cfg(thread))
    assert latest is not None
    saver.put_writes(latest.config, WRITES, TASK)


def _state(saver: CompactSaverBase, thread: str) -> tuple[Any, Any]:
    """The thread's state and its newest checkpoint's pending writes, as read back.

    A ``ToolNode`` gives each tool message a random id: it is compared by its tool call.
    """
    values = dict(build_graph(saver).get_state(_cfg(thread)).values)
    values["messages"] = [
        {**m.model_dump(), "id": m.tool_call_id} if isinstance(m, ToolMessage) else m
        for m in values["messages"]
    ]
    latest = saver.get_tuple(_cfg(thread))
    assert latest is not None
    return values, latest.pending_writes


def _write_and_read(
    ref: Reference, path: Path, newest: dict[str, CheckpointTuple]
) -> dict[str, Any]:
    """Each thread written by one fresh saver, then read back by another: its state, or
    the ``CorruptionError`` (checked to name the thread) one of them raised."""
    out: dict[str, Any] = {}
    for thread in THREADS:
        try:
            with open_saver(ref.backend, path) as saver:
                _write(saver, thread, newest[thread])
            with open_saver(ref.backend, path) as saver:
                out[thread] = _state(saver, thread)
        except CorruptionError as e:
            assert e.thread_id == thread, (thread, str(e))
            assert "saver.verify(" in str(e), str(e)
            out[thread] = e
    return out


@dataclass(frozen=True)
class Case:
    """A stored reference, each thread's newest checkpoint and what the writes give."""

    ref: Reference
    newest: dict[str, CheckpointTuple]
    expected: dict[str, Any]


def _case(ref: Reference, scratch: Path) -> Case:
    path = ref.damaged(None, 0, scratch)
    with open_saver(ref.backend, path) as saver:
        found = {t: saver.get_tuple(_cfg(t)) for t in THREADS}
    newest = {t: tup for t, tup in found.items() if tup is not None}
    expected = _write_and_read(ref, path, newest)
    assert not any(isinstance(v, Exception) for v in expected.values()), expected
    return Case(ref, newest, expected)


@pytest.fixture(scope="module")
def sqlite_case(tmp_path_factory: pytest.TempPathFactory) -> Case:
    path = tmp_path_factory.mktemp("writes") / "reference.sqlite"
    return _case(Reference.write("sqlite", path), tmp_path_factory.mktemp("intact"))


@pytest.fixture(scope="module")
def pg_case(tmp_path_factory: pytest.TempPathFactory) -> Case:
    path = tmp_path_factory.mktemp("writes-pg") / "reference"
    return _case(Reference.write("postgres", path), tmp_path_factory.mktemp("intact-pg"))


def _writes_after_damage(case: Case, kind: str, scratch: Path) -> None:
    for seed in case.ref.seeds:
        path = case.ref.damaged(kind, seed, scratch)
        got = _write_and_read(case.ref, path, case.newest)
        errors = [t for t, v in got.items() if isinstance(v, CorruptionError)]
        wrong = [t for t, v in got.items() if t not in errors and v != case.expected[t]]
        assert wrong == [], f"{kind} (seed {seed}): wrong state after writing {wrong}"
        if errors:
            with open_saver(case.ref.backend, path) as saver:
                assert not saver.verify().ok, f"{kind} (seed {seed}): writes failed, verify ok"


@pytest.mark.parametrize("kind", [*DAMAGE, *RAW_DAMAGE])
def test_writes_after_damage_are_right_or_a_corruption_error(
    kind: str, sqlite_case: Case, tmp_path: Path
) -> None:
    _writes_after_damage(sqlite_case, kind, tmp_path)


@pytest.mark.parametrize("kind", [*DAMAGE])
def test_writes_after_damage_on_postgres_are_right_or_a_corruption_error(
    kind: str, pg_case: Case, tmp_path: Path
) -> None:
    _writes_after_damage(pg_case, kind, tmp_path)


# --- a head record behind the rows (on every backend) ------------------------------------

HEAD = "SELECT checkpoint_id, checkpoints, chk FROM lgc_heads WHERE tid = ? AND checkpoint_ns = ''"


def _turns(backend: Backend, n: int) -> list[CheckpointTuple]:
    graph = build_graph(backend.saver)
    for turn in range(n):
        graph.invoke(turn_input(turn), _cfg("t"))
    return list(backend.saver.list(_cfg("t")))


def test_a_put_behind_a_stale_head_record_names_the_thread_and_the_checkpoint(
    backend: Backend,
) -> None:
    """The head record names an older checkpoint with a valid check (a restored copy of
    the table, say): a put of a checkpoint stored after it conflicts with its row."""
    tuples = _turns(backend, 3)
    again, older = tuples[1], tuples[3].checkpoint["id"]
    tid = backend.tid("t")
    count = backend.query(HEAD, tid)[0][1]
    backend.execute(
        "UPDATE lgc_heads SET checkpoint_id = ?, chk = ? WHERE tid = ? AND checkpoint_ns = ''",
        older,
        head_check("", older, count),
        tid,
    )
    head = backend.query(HEAD, tid)
    rows = backend.scalar("SELECT COUNT(*) FROM lgc_checkpoints WHERE tid = ?", tid)
    with backend.reopen() as saver:
        with pytest.raises(CorruptionError) as raised:
            saver.put(again.parent_config, again.checkpoint, again.metadata, {})
        assert (raised.value.thread_id, raised.value.checkpoint_id) == ("t", again.checkpoint["id"])
        assert "the head record is behind the stored rows" in str(raised.value)
        assert "saver.verify('t')" in str(raised.value)
        assert backend.query(HEAD, tid) == head  # rolled back: nothing of the put stored
        assert backend.scalar("SELECT COUNT(*) FROM lgc_checkpoints WHERE tid = ?", tid) == rows
        assert [p.kind for p in saver.verify("t").problems] == ["head"]
        found = saver.get_tuple(tuples[0].config)  # the connection goes on after it
        assert found is not None and found.checkpoint == tuples[0].checkpoint


def test_a_put_refuses_a_head_record_that_fails_its_check(backend: Backend) -> None:
    """A damaged head record is not taken as the base of a put (nor rewritten by it with
    a fresh check over a wrong count)."""
    newest = _turns(backend, 2)[0]
    tid = backend.tid("t")
    backend.execute("UPDATE lgc_heads SET checkpoints = checkpoints + 5 WHERE tid = ?", tid)
    head = backend.query(HEAD, tid)
    new = create_checkpoint(newest.checkpoint, None, 1)
    with backend.reopen() as saver, pytest.raises(CorruptionError) as raised:
        saver.put(newest.config, new, newest.metadata, {})
    assert (raised.value.thread_id, raised.value.checkpoint_id) == ("t", newest.checkpoint["id"])
    assert "the head record does not match its stored check" in str(raised.value)
    assert backend.query(HEAD, tid) == head
