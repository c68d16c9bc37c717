"""Damaged files: every load is either exactly right or a ``CorruptionError`` naming where.

A reference file (two threads of a real graph, with an edit, a summary value, a fork
and pending writes) is copied, and each copy gets one kind of damage at one randomly
chosen place: a flipped byte in each kind of stored value, two rows swapping their
values or digests, a deleted row of each table, a changed flag or key, a base or head
pointer moved, random bytes over the file, a truncated file. A fresh saver then loads
every checkpoint by id, the newest one, the whole history and every message page. The
suite asserts 0 silently wrong loads (a load returning anything but the original), that
every error is a ``CorruptionError`` naming the thread and the checkpoint asked for, and
that ``verify()`` reports every kind of damage.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import BACKENDS, open_saver
from langchain_core.messages import HumanMessage

from langgraph_compact.checkpoint import CompactSaverBase, CompactSqliteSaver
from langgraph_compact.checkpoint._codec import unkey
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.errors import CorruptionError

THREADS = ("alpha", "beta")
SEEDS = (1, 2, 3)

Damage = Callable[[sqlite3.Connection, random.Random], None]


KEYS = {
    "lgc_threads": ("rowid",),
    "lgc_heads": ("tid", "checkpoint_ns"),
    "lgc_checkpoints": ("tid", "checkpoint_ns", "checkpoint_id"),
    "lgc_blobs": ("tid", "checkpoint_ns", "version", "channel"),
    "lgc_writes": ("tid", "checkpoint_ns", "checkpoint_id", "task_id"),
    "lgc_messages": ("tid", "seq"),
    "lgc_texts": ("rowid",),
}
"""Each table's key (the WITHOUT ROWID tables have no rowid)."""


def _rows(conn: sqlite3.Connection, table: str, column: str, where: str) -> list[Any]:
    key = ", ".join(KEYS[table])
    return conn.execute(f"SELECT {key}, {column} FROM {table} WHERE {where}").fetchall()


def _set(conn: sqlite3.Connection, table: str, column: str, row: Any, value: Any) -> None:
    keys = KEYS[table]
    where = " AND ".join(f"{k} = ?" for k in keys)
    conn.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value, *row[: len(keys)]))


def _flip(value: bytes | str, rng: random.Random) -> bytes | str:
    if isinstance(value, str):
        i = rng.randrange(len(value))
        return value[:i] + chr(ord(value[i]) ^ 1) + value[i + 1 :]
    raw = bytearray(value)
    raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
    return bytes(raw)


def _flip_column(table: str, column: str, where: str = "1") -> Damage:
    def damage(conn: sqlite3.Connection, rng: random.Random) -> None:
        row = rng.choice(_rows(conn, table, column, f"{where} AND length({column}) > 0"))
        _set(conn, table, column, row, _flip(row[-1], rng))

    return damage


def _swap_column(table: str, column: str, where: str = "1") -> Damage:
    """Two rows of the same thread swap ``column`` (thread ids: any two rows)."""

    def damage(conn: sqlite3.Connection, rng: random.Random) -> None:
        if table != "lgc_threads":
            tids = [t for (t,) in conn.execute(f"SELECT DISTINCT tid FROM {table} WHERE {where}")]
            rows = _rows(conn, table, column, f"{where} AND tid = {rng.choice(tids)}")
        else:
            rows = _rows(conn, table, column, where)
        a = rng.choice(rows)
        b = rng.choice([r for r in rows if r[-1] != a[-1]])
        _set(conn, table, column, a, b"\x00swap" if isinstance(a[-1], bytes) else "\x00swap")
        _set(conn, table, column, b, a[-1])
        _set(conn, table, column, a, b[-1])

    return damage


def _delete_row(table: str, where: str = "1") -> Damage:
    def damage(conn: sqlite3.Connection, rng: random.Random) -> None:
        keys = KEYS[table]
        row = rng.choice(_rows(conn, table, keys[0], where))
        match = " AND ".join(f"{k} = ?" for k in keys)
        conn.execute(f"DELETE FROM {table} WHERE {match}", row[: len(keys)])

    return damage


def _update(table: str, column: str, expression: str, where: str = "1") -> Damage:
    def damage(conn: sqlite3.Connection, rng: random.Random) -> None:
        row = rng.choice(_rows(conn, table, column, where))
        value = conn.execute(f"SELECT {expression}", (row[-1],)).fetchone()[0]
        _set(conn, table, column, row, value)

    return damage


def _move_base(conn: sqlite3.Connection, rng: random.Random) -> None:
    row = rng.choice(_rows(conn, "lgc_blobs", "base_version", "base_version IS NOT NULL"))
    others = _rows(conn, "lgc_blobs", "version", f"type = 'lgc.refs' AND tid = {row[0]}")
    older = [r[-1] for r in others if unkey(r[-1]) < unkey(row[2]) and r[-1] != row[-1]]
    _set(conn, "lgc_blobs", "base_version", row, rng.choice(older))


def _older_head(conn: sqlite3.Connection, rng: random.Random) -> None:
    head = rng.choice(_rows(conn, "lgc_heads", "checkpoint_id", "1"))
    older = _rows(conn, "lgc_checkpoints", "checkpoint_id", f"tid = {head[0]}")
    choices = [r[-1] for r in older if r[-1] < head[-1]]
    _set(conn, "lgc_heads", "checkpoint_id", head, rng.choice(choices))


MIDDLE = "checkpoint_id NOT IN (SELECT checkpoint_id FROM lgc_heads)"
DAMAGE: dict[str, Damage] = {
    "flipped byte in a checkpoint row": _flip_column("lgc_checkpoints", "payload"),
    "flipped byte in a ref list": _flip_column("lgc_blobs", "blob", "type = 'lgc.refs'"),
    "flipped byte in a value": _flip_column("lgc_blobs", "blob", "type != 'lgc.refs'"),
    "flipped byte in a writes row": _flip_column("lgc_writes", "writes"),
    "flipped byte in a message skeleton": _flip_column("lgc_messages", "skeleton"),
    "flipped byte in a compressed text": _flip_column("lgc_texts", "text", "typeof(text) = 'blob'"),
    "changed character in a plain text": _flip_column("lgc_texts", "text", "typeof(text) = 'text'"),
    "swapped message digests": _swap_column("lgc_messages", "digest"),
    "swapped text digests": _swap_column("lgc_texts", "digest"),
    "swapped ref lists": _swap_column("lgc_blobs", "blob", "type = 'lgc.refs'"),
    "swapped checkpoint rows": _swap_column("lgc_checkpoints", "payload"),
    "deleted message row": _delete_row("lgc_messages"),
    "deleted text row": _delete_row("lgc_texts"),
    "deleted ref list": _delete_row("lgc_blobs", "type = 'lgc.refs'"),
    "deleted value row": _delete_row("lgc_blobs", "type != 'lgc.refs'"),
    "deleted middle checkpoint": _delete_row("lgc_checkpoints", MIDDLE),
    "deleted newest checkpoint": _delete_row("lgc_checkpoints", "NOT " + MIDDLE),
    "deleted writes row": _delete_row("lgc_writes"),
    "changed content_in_text flag": _update("lgc_messages", "content_in_text", "1 - ?"),
    "changed message id": _update(
        "lgc_messages", "message_id", "CAST(? || 'x' AS BLOB)", "length(message_id) > 0"
    ),
    "changed message number": _update("lgc_messages", "seq", "? + 100000"),
    "changed task count": _update("lgc_checkpoints", "tasks", "? + 1"),
    "moved ref list base": _move_base,
    "moved head to an older checkpoint": _older_head,
    "swapped thread ids": _swap_column("lgc_threads", "thread_id"),
}
RAW_DAMAGE = ("random bytes over the file", "truncated file")


def _reference(path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(path)) as saver:
        graph = build_graph(saver)
        for thread in THREADS:
            config = {"configurable": {"thread_id": thread}}
            for turn in range(5):
                graph.invoke(turn_input(turn), config)
            graph.update_state(config, {"messages": [HumanMessage("edited", id="human-2")]})
            summary = RunningSummary(
                sections={Section.CRITICAL: (SummaryItem(text="mod1 read", sources=("human-1",)),)},
                head_end=1,
                covered_through=4,
                span_digest="x",
            )
            graph.update_state(config, {"summary": summary, "notes": f"notes of {thread}"})
            fork = next(
                s for s in graph.get_state_history(config) if len(s.values["messages"]) == 6
            )
            graph.invoke(turn_input(40), graph.update_state(fork.config, {"notes": "fork"}))
        saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


@dataclass
class Truth:
    checkpoints: dict[str, dict[str, Any]] = field(default_factory=dict)
    latest: dict[str, Any] = field(default_factory=dict)
    lists: dict[str, list[Any]] = field(default_factory=dict)
    history: dict[str, list[Any]] = field(default_factory=dict)


def _cfg(thread: str, checkpoint_id: str | None = None) -> Any:
    conf = {"thread_id": thread, "checkpoint_ns": ""}
    return {"configurable": {**conf, "checkpoint_id": checkpoint_id} if checkpoint_id else conf}


def _read(saver: CompactSaverBase, thread: str, kind: str, arg: Any = None) -> Any:
    if kind == "checkpoint":
        return saver.get_tuple(_cfg(thread, arg))
    if kind == "latest":
        return saver.get_tuple(_cfg(thread))
    if kind == "list":
        return list(saver.list(_cfg(thread)))
    return [(i.index, i.message) for i in saver.history(thread, limit=1000).items]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Truth]:
    path = tmp_path_factory.mktemp("corruption") / "reference.sqlite"
    _reference(path)
    truth = Truth()
    with CompactSqliteSaver.from_conn_string(str(path)) as saver:
        for thread in THREADS:
            tuples = list(saver.list(_cfg(thread)))
            truth.lists[thread] = tuples
            truth.checkpoints[thread] = {t.checkpoint["id"]: t for t in tuples}
            truth.latest[thread] = _read(saver, thread, "latest")
            truth.history[thread] = _read(saver, thread, "history")
        assert saver.verify().ok
    return path, truth


def _raw_damage(path: Path, kind: str, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    page = 16384
    if kind == "truncated file":
        cut = rng.randrange(2, len(data) // page) * page + rng.choice((0, 100, page // 2))
        path.write_bytes(bytes(data[:cut]))
        return
    # Four bursts of 64 random bytes, each inside the used part of a random page of a
    # table (cells fill a page from its end), so that they hit stored data.
    conn = sqlite3.connect(path)
    pages = conn.execute(
        "SELECT pgoffset, pgsize, unused FROM dbstat WHERE name LIKE 'lgc_%' AND pgsize > unused"
    ).fetchall()
    conn.close()
    for _ in range(4):
        offset, size, unused = rng.choice(pages)
        start = offset + size - rng.randrange(64, max(65, size - unused))
        data[start : start + 64] = rng.randbytes(64)
    path.write_bytes(bytes(data))


def _damaged_copy(source: Path, target: Path, kind: str, seed: int) -> None:
    shutil.copy(source, target)
    rng = random.Random(f"{kind}/{seed}")
    if kind in RAW_DAMAGE:
        _raw_damage(target, kind, rng)
        return
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.execute("BEGIN")
        DAMAGE[kind](conn, rng)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


@dataclass
class Outcome:
    silent: list[str] = field(default_factory=list)
    errors: int = 0
    verify_problems: int = 0


def _load_all(saver: CompactSaverBase, truth: Truth) -> Outcome:
    out = Outcome()
    reads: list[tuple[str, str, Any, Any]] = []
    for thread in THREADS:
        for cid, expected in truth.checkpoints[thread].items():
            reads.append((thread, "checkpoint", cid, expected))
        reads.append((thread, "latest", None, truth.latest[thread]))
        reads.append((thread, "list", None, truth.lists[thread]))
        reads.append((thread, "history", None, truth.history[thread]))
    for thread, kind, arg, expected in reads:
        try:
            got = _read(saver, thread, kind, arg)
        except CorruptionError as e:
            out.errors += 1
            assert e.thread_id == thread, (kind, arg, str(e))
            if kind == "checkpoint":
                assert e.checkpoint_id == arg, (kind, arg, str(e))
            else:
                assert e.checkpoint_id or "newest checkpoint" in str(e), (kind, str(e))
            assert "saver.verify(" in str(e)
            continue
        if got != expected:
            out.silent.append(f"{kind} {thread} {arg}")
    return out


@pytest.mark.parametrize("kind", [*DAMAGE, *RAW_DAMAGE])
def test_damage_is_never_loaded_silently_and_verify_reports_it(
    kind: str, reference: tuple[Path, Truth], tmp_path: Path
) -> None:
    source, truth = reference
    reported = 0
    for seed in SEEDS:
        path = tmp_path / f"damaged-{seed}.sqlite"
        _damaged_copy(source, path, kind, seed)
        with CompactSqliteSaver.from_conn_string(str(path)) as saver:
            outcome = _load_all(saver, truth)
            report = saver.verify()
        assert outcome.silent == [], f"{kind} (seed {seed}): silently wrong {outcome.silent}"
        if outcome.errors:
            assert not report.ok, f"{kind} (seed {seed}): loads failed but verify saw nothing"
        reported += not report.ok
        for problem in report.problems:
            assert problem.kind and problem.detail
    assert reported, f"verify() reported none of the {kind} damage"


@pytest.mark.parametrize(
    "kind", ["flipped byte in a message skeleton", "deleted ref list", "truncated file"]
)
def test_the_async_saver_reports_damage_the_same_way(
    kind: str, reference: tuple[Path, Truth], tmp_path: Path
) -> None:
    source, truth = reference
    path = tmp_path / "damaged.sqlite"
    _damaged_copy(source, path, kind, SEEDS[0])
    with open_saver(BACKENDS[1], path) as saver:
        outcome = _load_all(saver, truth)
        assert outcome.silent == [] and outcome.errors > 0
        assert not saver.verify().ok
