"""Opening a database named on the command line, and the saver reads the commands share.

``open_saver`` is the one place a DB argument is parsed: a SQLite path or a Postgres
DSN (``postgresql://...`` or ``dbname=... host=...``; a ``search_path`` option selects a
schema). Reads go through
the saver's public API; ``threads`` and ``verify`` use the saver's own methods when it has
them and a walk over ``list``/``history`` otherwise.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from langgraph_compact.checkpoint import CompactSaverBase, CompactSqliteSaver
from langgraph_compact.cli.errors import BadInput
from langgraph_compact.compaction import RunningSummary
from langgraph_compact.errors import CompactError
from langgraph_compact.node import SERDE_ALLOWLIST

__all__ = [
    "ThreadRow",
    "VerifyFinding",
    "all_messages",
    "latest_summary",
    "open_saver",
    "require_thread",
    "thread_config",
    "threads",
    "verify",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
LOCK_TIMEOUT = 2.0
"""Seconds to wait for a lock held by another process before saying the file is locked."""


@contextmanager
def open_saver(db: str) -> Iterator[CompactSaverBase]:
    """A saver on ``db``, closed on exit; any problem becomes one ``BadInput`` line."""
    if db.startswith(("postgresql://", "postgres://")) or (
        "dbname=" in db and not Path(db).exists()  # a libpq key=value string
    ):
        with _open_postgres(db) as pg:
            yield pg
        return
    path = Path(db)
    if not path.is_file():
        raise BadInput(f"{db}: no such database file")
    with path.open("rb") as f:
        if f.read(16) != SQLITE_MAGIC:
            raise BadInput(f"{db}: not a SQLite database")
    conn = sqlite3.connect(path, timeout=LOCK_TIMEOUT, check_same_thread=False)
    try:
        if not _has_our_schema(conn):
            raise BadInput(f"{db}: not a langgraph-compact database (no lgc_schema_version table)")
        saver = CompactSqliteSaver(conn, serde=_serde())
        saver.setup()
        yield saver
    except sqlite3.Error as exc:
        raise BadInput(f"{db}: {exc}") from None
    except (CompactError, ValueError) as exc:  # a newer schema, a damaged row
        raise BadInput(f"{db}: {exc}") from None
    finally:
        conn.close()


def _serde() -> JsonPlusSerializer:
    return JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)


@contextmanager
def _open_postgres(dsn: str) -> Iterator[CompactSaverBase]:
    """A saver on a Postgres DSN that already holds the saver's tables (never creates them)."""
    try:
        import psycopg

        from langgraph_compact.checkpoint import CompactPostgresSaver
    except ImportError:
        needs = "Postgres needs psycopg: pip install 'langgraph-compact[postgres]'"
        raise BadInput(f"{dsn}: {needs}") from None
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=int(LOCK_TIMEOUT * 5)) as conn:
            row = conn.execute("SELECT to_regclass('lgc_schema_version')").fetchone()
            if row is None or row[0] is None:
                raise BadInput(
                    f"{dsn}: not a langgraph-compact database (no lgc_schema_version table)"
                )
            saver = CompactPostgresSaver(conn, serde=_serde())
            saver.setup()
            yield saver
    except psycopg.Error as exc:
        raise BadInput(f"{dsn}: {str(exc).strip()}") from None
    except (CompactError, ValueError) as exc:
        raise BadInput(f"{dsn}: {exc}") from None


def _has_our_schema(conn: sqlite3.Connection) -> bool:
    """A format check before the saver (which would add its tables to any SQLite file)."""
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lgc_schema_version'"
    ).fetchone()
    return row is not None


def thread_config(thread_id: str, checkpoint_id: str | None = None) -> RunnableConfig:
    """The config of a root-graph thread (at one checkpoint, if given)."""
    configurable: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": ""}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


def require_thread(saver: CompactSaverBase, thread_id: str) -> None:
    """Refuse a thread the database does not hold, which would otherwise list nothing."""
    if saver.get_tuple(thread_config(thread_id)) is None:
        raise BadInput(f"thread {thread_id!r}: no checkpoints in this database")


@dataclass
class ThreadRow:
    """One thread: how much it holds and when it last changed."""

    thread_id: str
    checkpoints: int = 0
    messages: int = 0
    last_checkpoint: str = ""
    last_activity: str = ""
    stored_bytes: int | None = None
    """Bytes of the thread's rows, when the saver reports them (``saver.threads()``)."""


def threads(saver: CompactSaverBase) -> list[ThreadRow]:
    """Every thread, most recently active first (``saver.threads()`` when it exists)."""
    native = getattr(saver, "threads", None)
    if callable(native):
        rows = [
            ThreadRow(
                str(_get(t, "thread_id")),
                int(_get(t, "checkpoints") or 0),
                int(_get(t, "messages") or 0),
                str(_get(t, "last_checkpoint_id") or ""),
                str(_get(t, "last_checkpoint_ts") or ""),
                _get(t, "stored_bytes"),
            )
            for t in native()
        ]
    else:
        by_id: dict[str, ThreadRow] = {}
        for tup in saver.list(None):
            tid = str(tup.config["configurable"]["thread_id"])
            row = by_id.setdefault(tid, ThreadRow(tid))
            row.checkpoints += 1
            if tup.checkpoint["id"] > row.last_checkpoint:
                row.last_checkpoint, row.last_activity = tup.checkpoint["id"], tup.checkpoint["ts"]
                row.messages = len(tup.checkpoint["channel_values"].get("messages") or [])
        rows = list(by_id.values())
    return sorted(rows, key=lambda r: r.last_activity, reverse=True)


def _get(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else getattr(value, name, None)


def all_messages(
    saver: CompactSaverBase, thread_id: str, checkpoint_id: str | None = None
) -> list[BaseMessage]:
    """The whole raw message list of a checkpoint (the latest by default), page by page."""
    out: list[BaseMessage] = []
    cursor = None
    while True:
        page = saver.history(thread_id, limit=500, cursor=cursor, checkpoint_id=checkpoint_id)
        out += [item.message for item in page.items]
        if not page.has_more:
            return out
        cursor = page.cursor


def latest_summary(saver: CompactSaverBase, thread_id: str) -> RunningSummary | None:
    """The thread's current ``running_summary``, if it has one."""
    tup = saver.get_tuple(thread_config(thread_id))
    if tup is None:
        raise BadInput(f"thread {thread_id!r}: no checkpoints in this database")
    value = tup.checkpoint["channel_values"].get("running_summary")
    if value is None or isinstance(value, RunningSummary):
        return value
    return RunningSummary.model_validate(value)


@dataclass
class VerifyFinding:
    """What ``verify`` checked in one thread (or the whole file) and the problems found."""

    thread_id: str
    checkpoints: int = 0
    messages: int = 0
    problems: list[str] = field(default_factory=list)


def verify(saver: CompactSaverBase, thread_id: str | None = None) -> list[VerifyFinding]:
    """Check every checkpoint and message of each thread (``saver.verify()`` when it exists).

    The fallback loads every checkpoint and pages through every message list, so damage
    that fails to decode surfaces as a finding naming the checkpoint.
    """
    native = getattr(saver, "verify", None)
    if callable(native):
        report = native(thread_id)
        return [
            VerifyFinding(
                thread_id or "(all threads)",
                int(_get(report, "checkpoints") or 0),
                int(_get(report, "messages") or 0),
                [str(p) for p in (_get(report, "problems") or [])],
            )
        ]
    try:
        ids = [thread_id] if thread_id else [t.thread_id for t in threads(saver)]
    except Exception as exc:  # damage while listing: report it, do not crash
        return [VerifyFinding("(listing threads)", problems=[f"{type(exc).__name__}: {exc}"])]
    findings = []
    for tid in ids:
        finding = VerifyFinding(tid)
        try:
            for tup in saver.list(thread_config(tid)):
                finding.checkpoints += 1
                finding.messages = max(
                    finding.messages, len(all_messages(saver, tid, tup.checkpoint["id"]))
                )
        except Exception as exc:  # any damage is a finding, not a crash
            finding.problems.append(f"{type(exc).__name__}: {exc}")
        findings.append(finding)
    return findings
