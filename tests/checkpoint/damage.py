"""One kind of damage at one random place of a stored reference, on SQLite or Postgres.

The corruption suites (``test_corruption``: loads, ``test_damaged_writes``: writes) share
this. A ``Reference`` is written once per backend (two threads of a real graph, with an
edit, a summary value, a fork and pending writes); each case restores it and damages
one place a seeded RNG picks: a flipped byte in each kind of stored value, two rows
swapping their values or digests, a deleted row of each table, a changed flag or key,
a base or head pointer moved. Damage is SQL on the saver's tables, written once with
``?`` markers (``Db`` runs it on either backend); random bytes over the file's pages
and a truncated file (``RAW_DAMAGE``) are damage of SQLite's file, so SQLite only.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from agent_graph import build_graph, turn_input
from backends import open_saver
from langchain_core.messages import HumanMessage
from pgserver import schema_dsn

from langgraph_compact.checkpoint import CompactSaverBase, CompactSqliteSaver
from langgraph_compact.checkpoint._sql import POSTGRES
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem

__all__ = ["DAMAGE", "RAW_DAMAGE", "SEEDS", "THREADS", "Db", "Reference", "damaged_copy"]

THREADS = ("alpha", "beta")
SEEDS = (1, 2, 3)
PG_SEEDS = SEEDS[:2]
"""Postgres cases take about four times as long as SQLite's: two places per kind there."""


class Db:
    """Runs the damage statements (``?`` markers) on a SQLite or psycopg connection."""

    def __init__(self, conn: sqlite3.Connection | psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.dialect = "sqlite" if isinstance(conn, sqlite3.Connection) else "postgres"

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if isinstance(self.conn, sqlite3.Connection):
            return self.conn.execute(sql, params).fetchall()
        cur = self.conn.execute(POSTGRES.prepare(sql), params or None)
        return cur.fetchall() if cur.description else []

    def pick(self, where: str | Mapping[str, str]) -> str:
        """A condition that is written per backend (``{"sqlite": ..., "postgres": ...}``)."""
        return where if isinstance(where, str) else where[self.dialect]


Damage = Callable[[Db, random.Random], None]
Cond = str | Mapping[str, str]

KEYS = {
    "lgc_threads": ("tid",),
    "lgc_heads": ("tid", "checkpoint_ns"),
    "lgc_checkpoints": ("tid", "checkpoint_ns", "checkpoint_id"),
    "lgc_blobs": ("tid", "checkpoint_ns", "version", "channel"),
    "lgc_writes": ("tid", "checkpoint_ns", "checkpoint_id", "task_id"),
    "lgc_messages": ("tid", "seq"),
    "lgc_texts": ("text_id",),
}
"""Each table's key."""

PLAIN_TEXT: Cond = {"sqlite": "typeof(text) = 'text'", "postgres": "get_byte(text, 0) = 0"}
PACKED_TEXT: Cond = {"sqlite": "typeof(text) = 'blob'", "postgres": "get_byte(text, 0) != 0"}
"""Texts stored plain or zlib-compressed (Postgres marks plain bytes, ``Dialect.text_bytes``)."""


def _rows(db: Db, table: str, column: str, where: Cond) -> list[Any]:
    key = ", ".join(KEYS[table])
    sql = f"SELECT {key}, {column} FROM {table} WHERE {db.pick(where)} ORDER BY {key}"
    return db.execute(sql)


def _set(db: Db, table: str, column: str, row: Any, value: Any) -> None:
    keys = KEYS[table]
    where = " AND ".join(f"{k} = ?" for k in keys)
    db.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value, *row[: len(keys)]))


def _flip(value: bytes | str, rng: random.Random) -> bytes | str:
    if isinstance(value, str):
        i = rng.randrange(len(value))
        return value[:i] + chr(ord(value[i]) ^ 1) + value[i + 1 :]
    raw = bytearray(value)
    raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
    return bytes(raw)


def _flip_column(table: str, column: str, where: Cond = "1 = 1") -> Damage:
    def damage(db: Db, rng: random.Random) -> None:
        row = rng.choice(_rows(db, table, column, f"{db.pick(where)} AND length({column}) > 0"))
        _set(db, table, column, row, _flip(row[-1], rng))

    return damage


def _swap_column(table: str, column: str, where: str = "1 = 1") -> Damage:
    """Two rows of the same thread swap ``column`` (thread ids: any two rows)."""

    def damage(db: Db, rng: random.Random) -> None:
        if table != "lgc_threads":
            sql = f"SELECT DISTINCT tid FROM {table} WHERE {where} ORDER BY tid"
            tids = [t for (t,) in db.execute(sql)]
            rows = _rows(db, table, column, f"{where} AND tid = {rng.choice(tids)}")
        else:
            rows = _rows(db, table, column, where)
        a = rng.choice(rows)
        b = rng.choice([r for r in rows if r[-1] != a[-1]])
        # Out of the way of unique keys first (Postgres text holds no NUL character).
        _set(db, table, column, a, b"\x00swap" if isinstance(a[-1], bytes) else "\x01swap")
        _set(db, table, column, b, a[-1])
        _set(db, table, column, a, b[-1])

    return damage


def _delete_row(table: str, where: str = "1 = 1") -> Damage:
    def damage(db: Db, rng: random.Random) -> None:
        keys = KEYS[table]
        row = rng.choice(_rows(db, table, keys[0], where))
        match = " AND ".join(f"{k} = ?" for k in keys)
        db.execute(f"DELETE FROM {table} WHERE {match}", row[: len(keys)])

    return damage


def _update(table: str, column: str, expression: str, where: str = "1 = 1") -> Damage:
    def damage(db: Db, rng: random.Random) -> None:
        row = rng.choice(_rows(db, table, column, where))
        value = db.execute(f"SELECT {expression}", (row[-1],))[0][0]
        _set(db, table, column, row, value)

    return damage


def _move_folded_base(db: Db, rng: random.Random) -> None:
    row = rng.choice(_rows(db, "lgc_checkpoints", "link_base", "link_base IS NOT NULL"))
    others = _rows(db, "lgc_checkpoints", "checkpoint_id", f"link IS NOT NULL AND tid = {row[0]}")
    older = [r[-1] for r in others if r[-1] < row[2] and r[-1] != row[-1]]
    _set(db, "lgc_checkpoints", "link_base", row, rng.choice(older))


def _older_head(db: Db, rng: random.Random) -> None:
    head = rng.choice(_rows(db, "lgc_heads", "checkpoint_id", "1 = 1"))
    older = _rows(db, "lgc_checkpoints", "checkpoint_id", f"tid = {head[0]}")
    choices = [r[-1] for r in older if r[-1] < head[-1]]
    _set(db, "lgc_heads", "checkpoint_id", head, rng.choice(choices))


MIDDLE = "checkpoint_id NOT IN (SELECT checkpoint_id FROM lgc_heads)"
DAMAGE: dict[str, Damage] = {
    "flipped byte in a checkpoint row": _flip_column("lgc_checkpoints", "payload"),
    "flipped byte in a ref list": _flip_column("lgc_checkpoints", "link", "link IS NOT NULL"),
    "flipped byte in a value": _flip_column("lgc_blobs", "blob", "type != 'lgc.refs'"),
    "flipped byte in a writes row": _flip_column("lgc_checkpoints", "writes"),
    "flipped byte in a message skeleton": _flip_column("lgc_messages", "skeleton"),
    "flipped byte in a compressed text": _flip_column("lgc_texts", "text", PACKED_TEXT),
    "changed character in a plain text": _flip_column("lgc_texts", "text", PLAIN_TEXT),
    "swapped message digests": _swap_column("lgc_messages", "digest"),
    "swapped text digests": _swap_column("lgc_texts", "digest"),
    "swapped ref lists": _swap_column("lgc_checkpoints", "link", "link IS NOT NULL"),
    "swapped checkpoint rows": _swap_column("lgc_checkpoints", "payload"),
    "deleted message row": _delete_row("lgc_messages"),
    "deleted text row": _delete_row("lgc_texts"),
    "deleted ref list": _update(
        "lgc_checkpoints", "link", "CASE WHEN ? IS NULL THEN NULL END", "link IS NOT NULL"
    ),
    "deleted value row": _delete_row("lgc_blobs", "type != 'lgc.refs'"),
    "deleted middle checkpoint": _delete_row("lgc_checkpoints", MIDDLE),
    "deleted newest checkpoint": _delete_row("lgc_checkpoints", "NOT " + MIDDLE),
    "deleted writes row": _update(
        "lgc_checkpoints", "writes", "CASE WHEN ? IS NULL THEN NULL END", "writes IS NOT NULL"
    ),
    "changed content_in_text flag": _update("lgc_messages", "content_in_text", "1 - ?"),
    "changed message id": _update(
        "lgc_messages", "message_id", "CAST(? || 'x' AS BLOB)", "length(message_id) > 0"
    ),
    "changed message number": _update("lgc_messages", "seq", "? + 100000"),
    "changed task count": _update("lgc_checkpoints", "task_count", "? + 1"),
    "moved ref list base": _move_folded_base,
    "flipped byte in a ref list base": _flip_column(
        "lgc_checkpoints", "link_base", "link_base IS NOT NULL"
    ),
    "cut ref list base": _update(
        "lgc_checkpoints", "link_base", "substr(?, 1, 5)", "link_base IS NOT NULL"
    ),
    "moved head to an older checkpoint": _older_head,
    "swapped thread ids": _swap_column("lgc_threads", "thread_id"),
}
RAW_DAMAGE = ("random bytes over the file", "truncated file")


def write_reference(saver: CompactSaverBase) -> None:
    """The reference threads: five turns, an edit, a summary, a fork with pending writes."""
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
        fork = next(s for s in graph.get_state_history(config) if len(s.values["messages"]) == 6)
        graph.invoke(turn_input(40), graph.update_state(fork.config, {"notes": "fork"}))


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


def _rng(kind: str, seed: int) -> random.Random:
    return random.Random(f"{kind}/{seed}")


def damaged_copy(source: Path, target: Path, kind: str, seed: int) -> None:
    """A copy of the SQLite file ``source`` at ``target`` with one ``kind`` of damage."""
    shutil.copy(source, target)
    rng = _rng(kind, seed)
    if kind in RAW_DAMAGE:
        _raw_damage(target, kind, rng)
        return
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.execute("BEGIN")
        DAMAGE[kind](Db(conn), rng)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


_PG_TABLES = (
    "lgc_threads",
    "lgc_heads",
    "lgc_checkpoints",
    "lgc_blobs",
    "lgc_writes",
    "lgc_messages",
    "lgc_texts",
    "lgc_redactions",
)
"""The tables a Postgres case restores (the schema version stays)."""


@dataclass(frozen=True)
class Reference:
    """The reference database of one backend (``sqlite`` or ``postgres``).

    SQLite: the file at ``path``; each case damages a copy. Postgres: the schema named
    after ``path`` (``pgserver.schema_dsn``) with a pristine copy of its tables in a
    schema of their own; each case restores them in place (its sequences stay ahead of
    every stored id, so a write after the damage gets fresh ones) and damages them.
    """

    backend: str
    path: Path
    dsn: str = ""

    @classmethod
    def write(cls, backend: str, path: Path) -> Reference:
        with open_saver(backend, path) as saver:
            write_reference(saver)
            if isinstance(saver, CompactSqliteSaver):
                saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        ref = cls(backend, path, schema_dsn(path) if backend == "postgres" else "")
        if backend == "postgres":
            with ref._pg() as conn:
                pristine = ref._pristine(conn)
                conn.execute(f"CREATE SCHEMA {pristine}")
                for table in _PG_TABLES:
                    conn.execute(f"CREATE TABLE {pristine}.{table} AS TABLE {table}")
        return ref

    @property
    def seeds(self) -> tuple[int, ...]:
        return SEEDS if self.backend == "sqlite" else PG_SEEDS

    def damaged(self, kind: str | None, seed: int, scratch: Path) -> Path:
        """The reference with ``kind`` of damage (``None``: intact), as a path that
        ``backends.open_saver(self.backend, path)`` opens (SQLite: a copy in ``scratch``)."""
        if self.backend == "sqlite":
            target = scratch / f"damaged-{seed}.sqlite"
            if kind is None:
                shutil.copy(self.path, target)
            else:
                damaged_copy(self.path, target, kind, seed)
            return target
        with self._pg() as conn, conn.transaction():
            pristine = self._pristine(conn)
            conn.execute(f"TRUNCATE {', '.join(_PG_TABLES)}")
            for table in _PG_TABLES:
                conn.execute(f"INSERT INTO {table} SELECT * FROM {pristine}.{table}")
            if kind is not None:
                DAMAGE[kind](Db(conn), _rng(kind, seed))
        return self.path

    @contextmanager
    def saver(self, kind: str | None, seed: int, scratch: Path) -> Iterator[CompactSaverBase]:
        """A fresh saver on the reference with ``kind`` of damage (see ``damaged``)."""
        with open_saver(self.backend, self.damaged(kind, seed, scratch)) as saver:
            yield saver

    def _pg(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.dsn, autocommit=True)

    @staticmethod
    def _pristine(conn: psycopg.Connection[Any]) -> str:
        schema = conn.execute("SELECT current_schema()").fetchone()
        assert schema is not None
        return f"{schema[0]}_pristine"
