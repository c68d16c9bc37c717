"""Pure pieces shared by every checkpoint backend: SQL, migrations, dialects, encodings.

Nothing here touches a connection. The savers run *programs* (generators that yield
``Stmt`` tuples and receive the fetched rows back), so the sync and async savers of a
backend share every line of logic and differ only in how a statement is executed.

Storage layout (one row per thing, never a whole message list per checkpoint):

- ``lgc_checkpoints``: the checkpoint skeleton (ids, versions, no
  values) and its metadata, zlib-packed msgpack of a few hundred bytes per step.
- ``lgc_blobs``: one blob per ``(channel, version)``, written only for channels in
  ``new_versions`` (the Postgres saver's layout). A message-list channel is stored as a
  *ref list*: integers pointing at ``lgc_messages`` rows, delta-encoded against an
  earlier ref list of the same channel (``base_version`` + kept prefix + tail) with a
  full snapshot every ``REFS_MAX_DEPTH`` links, so both size and reconstruction cost
  stay bounded.
- ``lgc_messages``: each message once per thread, keyed by ``(message id, digest)``
  (the 16-byte ``message_digest``);
  its text lives once per distinct content in ``lgc_message_texts`` (indexed by FTS5).
- ``lgc_writes``: pending writes; message values become refs as well.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from langgraph_compact.checkpoint._codec import (
    REFS_MAX_DEPTH,
    RefList,
    decode_cursor,
    decode_refs,
    encode_cursor,
    encode_refs,
    fts_phrase_query,
    next_version,
    pack_checkpoint,
    pack_skeleton,
    pack_text,
    plan_refs,
    serde_type,
    unpack_checkpoint,
    unpack_skeleton,
    unpack_text,
)
from langgraph_compact.errors import SchemaVersionError

__all__ = [
    "MIGRATIONS",
    "POSTGRES",
    "REFS_MAX_DEPTH",
    "REFS_TYPE",
    "SQLITE",
    "WRITE_REFS_TYPE",
    "Dialect",
    "Migration",
    "Program",
    "RefList",
    "Stmt",
    "decode_cursor",
    "decode_refs",
    "encode_cursor",
    "encode_refs",
    "fts_phrase_query",
    "marks",
    "migrate",
    "next_version",
    "pack_checkpoint",
    "pack_skeleton",
    "pack_text",
    "plan_refs",
    "serde_type",
    "unpack_checkpoint",
    "unpack_skeleton",
    "unpack_text",
]

T = TypeVar("T")

Fetch = Literal["all", "none", "many"]
"""``all``: fetch rows; ``none``: execute only; ``many``: ``executemany`` over params."""

Stmt = tuple[str, Sequence[Any], Fetch]
Program = Generator[Stmt, list[tuple[Any, ...]], T]
"""A storage operation as a generator: it yields statements and receives their rows."""

REFS_TYPE = "lgc.refs"
"""Blob ``type`` of a message ref list (channel values and write values)."""

WRITE_REFS_TYPE = "lgc.msgs"
"""Blob ``type`` of a pending write whose value is a message or a list of messages."""


@dataclass(frozen=True)
class Dialect:
    """What differs between SQL backends; the statements are written once, with ``?``.

    Attributes:
        name: ``"sqlite"`` or ``"postgres"``; selects a migration's statements.
        placeholder: the driver's parameter marker (``?`` or ``%s``).
        has_fts: whether text search uses an FTS index (SQLite FTS5) or not.
    """

    name: str
    placeholder: str = "?"
    has_fts: bool = True

    def sql(self, statement: str) -> str:
        """``statement`` with ``?`` markers rewritten for this driver."""
        if self.placeholder == "?":
            return statement
        return statement.replace("?", self.placeholder)


SQLITE = Dialect("sqlite")
POSTGRES = Dialect("postgres", placeholder="%s", has_fts=False)


@dataclass(frozen=True)
class Migration:
    """One forward schema step; ``statements`` maps a dialect name to its DDL."""

    version: int
    description: str
    statements: dict[str, tuple[str, ...]] = field(default_factory=dict)


CREATE_VERSION_TABLE_SQL = """CREATE TABLE IF NOT EXISTS lgc_schema_version (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at TEXT NOT NULL
)"""
SELECT_SCHEMA_VERSION_SQL = "SELECT MAX(version) FROM lgc_schema_version"
INSERT_SCHEMA_VERSION_SQL = (
    "INSERT INTO lgc_schema_version (version, description, applied_at) "
    "VALUES (?, ?, CURRENT_TIMESTAMP)"
)

MIGRATIONS: list[Migration] = [
    Migration(
        1,
        "checkpoints, blobs, writes",
        {
            "sqlite": (
                """CREATE TABLE lgc_checkpoints (
                    thread_id TEXT NOT NULL,
                    checkpoint_ns TEXT NOT NULL DEFAULT '',
                    checkpoint_id TEXT NOT NULL,
                    parent_checkpoint_id TEXT,
                    run_id TEXT,
                    checkpoint BLOB NOT NULL,
                    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
                ) WITHOUT ROWID""",
                "CREATE INDEX lgc_checkpoints_run_id ON lgc_checkpoints (run_id) "
                "WHERE run_id IS NOT NULL",
                """CREATE TABLE lgc_blobs (
                    thread_id TEXT NOT NULL,
                    checkpoint_ns TEXT NOT NULL DEFAULT '',
                    channel TEXT NOT NULL,
                    version TEXT NOT NULL,
                    type TEXT NOT NULL,
                    blob BLOB,
                    base_version TEXT,
                    PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
                ) WITHOUT ROWID""",
                """CREATE TABLE lgc_writes (
                    thread_id TEXT NOT NULL,
                    checkpoint_ns TEXT NOT NULL DEFAULT '',
                    checkpoint_id TEXT NOT NULL,
                    task_id TEXT NOT NULL,
                    task_path TEXT NOT NULL DEFAULT '',
                    idx INTEGER NOT NULL,
                    channel TEXT NOT NULL,
                    type TEXT,
                    blob BLOB,
                    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
                ) WITHOUT ROWID""",
            )
        },
    ),
    Migration(
        2,
        "messages stored once per thread, texts once per content, FTS5 index",
        {
            "sqlite": (
                """CREATE TABLE lgc_messages (
                    thread_id TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    message_id TEXT NOT NULL,
                    digest BLOB NOT NULL,
                    role TEXT NOT NULL,
                    tool_names TEXT NOT NULL DEFAULT '',
                    type TEXT NOT NULL,
                    skeleton BLOB NOT NULL,
                    content_in_text INTEGER NOT NULL,
                    PRIMARY KEY (thread_id, seq)
                ) WITHOUT ROWID""",
                "CREATE INDEX lgc_messages_id ON lgc_messages (thread_id, message_id)",
                """CREATE TABLE lgc_message_texts (
                    text_id INTEGER PRIMARY KEY,
                    thread_id TEXT NOT NULL,
                    digest BLOB NOT NULL,
                    text,
                    UNIQUE (thread_id, digest)
                )""",
                # Contentless: the text lives (compressed) in lgc_message_texts only, and
                # the programs keep the index in step, passing the old text to 'delete'.
                # detail=none keeps only which rows hold a term (no positions): queries
                # are AND-of-terms, which is what fts_phrase_query builds.
                "CREATE VIRTUAL TABLE lgc_message_fts USING fts5(text, content='', detail=none)",
            )
        },
    ),
    Migration(
        3,
        "redaction log",
        {
            "sqlite": (
                """CREATE TABLE lgc_redactions (
                    thread_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    actor TEXT NOT NULL,
                    redacted_at TEXT NOT NULL
                )""",
            )
        },
    ),
    Migration(
        4,
        "per-thread change counter, so other savers drop stale caches",
        {
            "sqlite": (
                """CREATE TABLE lgc_thread_epochs (
                    thread_id TEXT PRIMARY KEY,
                    epoch INTEGER NOT NULL
                ) WITHOUT ROWID""",
            )
        },
    ),
]


def migrate(dialect: Dialect, migrations: Sequence[Migration] = MIGRATIONS) -> Program[int]:
    """Bring a database to the latest schema, one recorded step at a time.

    Args:
        dialect: selects each migration's statements.
        migrations: the ordered list; its length is the latest version.

    Returns:
        The schema version after migrating.

    Raises:
        SchemaVersionError: the database was written by a newer version of this package.
    """
    latest = migrations[-1].version if migrations else 0
    yield dialect.sql(CREATE_VERSION_TABLE_SQL), (), "none"
    rows = yield dialect.sql(SELECT_SCHEMA_VERSION_SQL), (), "all"
    current = int(rows[0][0] or 0) if rows else 0
    if current > latest:
        raise SchemaVersionError(
            f"this database has checkpoint schema version {current}, but this "
            f"langgraph-compact only knows versions up to {latest}. Upgrade "
            "langgraph-compact (pip install -U langgraph-compact) to open it, or point the "
            "saver at a new database file; downgrading a schema is not supported."
        )
    for m in migrations:
        if m.version <= current:
            continue
        for statement in m.statements.get(dialect.name, ()):
            yield dialect.sql(statement), (), "none"
        yield dialect.sql(INSERT_SCHEMA_VERSION_SQL), (m.version, m.description), "none"
    return latest


# --- statements -------------------------------------------------------------------------

UPSERT_CHECKPOINT_SQL = """INSERT OR REPLACE INTO lgc_checkpoints
    (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, run_id, checkpoint)
    VALUES (?, ?, ?, ?, ?, ?)"""
SELECT_CHECKPOINT_COLUMNS = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint "
    "FROM lgc_checkpoints"
)
INSERT_BLOB_SQL = """INSERT OR IGNORE INTO lgc_blobs
    (thread_id, checkpoint_ns, channel, version, type, blob, base_version)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""
SELECT_BLOB_SQL = """SELECT type, blob, base_version FROM lgc_blobs
    WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?"""
SELECT_CHECKPOINT_BLOBS_SQL = """SELECT b.channel, b.version, b.type, b.blob, b.base_version
    FROM (VALUES {values}) AS v CROSS JOIN lgc_blobs AS b
    WHERE b.thread_id = ? AND b.checkpoint_ns = ? AND b.channel = v.column1
        AND b.version = v.column2"""
SELECT_BLOB_EXISTS_SQL = """SELECT 1 FROM lgc_blobs
    WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?"""
SELECT_BLOB_CHAIN_SQL = """SELECT channel, version, base_version FROM lgc_blobs
    WHERE thread_id = ? AND checkpoint_ns = ?"""
UPDATE_BLOB_SQL = """UPDATE lgc_blobs SET blob = ?, base_version = ?
    WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?"""
DELETE_BLOB_SQL = """DELETE FROM lgc_blobs
    WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?"""
INSERT_WRITE_SQL = """INSERT OR IGNORE INTO lgc_writes
    (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, blob)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""
UPSERT_WRITE_SQL = INSERT_WRITE_SQL.replace("INSERT OR IGNORE", "INSERT OR REPLACE")
SELECT_WRITES_SQL = """SELECT task_id, channel, type, blob, task_path, idx FROM lgc_writes
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
SELECT_MESSAGE_KEYS_SQL = """SELECT message_id, digest, seq FROM lgc_messages
    WHERE thread_id = ? AND message_id = ? AND digest = ?"""
SELECT_MAX_SEQ_SQL = "SELECT COALESCE(MAX(seq), 0) FROM lgc_messages WHERE thread_id = ?"
INSERT_MESSAGE_SQL = """INSERT INTO lgc_messages
    (thread_id, seq, message_id, digest, role, tool_names, type, skeleton, content_in_text)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""
INSERT_TEXT_SQL = """INSERT INTO lgc_message_texts (thread_id, digest, text) VALUES (?, ?, ?)
    ON CONFLICT DO NOTHING RETURNING text_id"""
INSERT_FTS_SQL = "INSERT INTO lgc_message_fts (rowid, text) VALUES (?, ?)"
DELETE_FTS_SQL = (
    "INSERT INTO lgc_message_fts (lgc_message_fts, rowid, text) VALUES ('delete', ?, ?)"
)
SELECT_THREAD_TEXTS_SQL = """SELECT text_id, text FROM lgc_message_texts
    WHERE thread_id = ? AND text IS NOT NULL"""
SELECT_MESSAGES_SQL = """SELECT m.seq, m.type, m.skeleton, m.content_in_text, t.text
    FROM lgc_messages m LEFT JOIN lgc_message_texts t
        ON t.thread_id = m.thread_id AND t.digest = m.digest
    WHERE m.thread_id = ? AND m.seq IN ({marks})"""
THREAD_TABLES = (
    "lgc_checkpoints",
    "lgc_blobs",
    "lgc_writes",
    "lgc_messages",
    "lgc_message_texts",
)
DELETE_THREAD_SQL = tuple(f"DELETE FROM {t} WHERE thread_id = ?" for t in THREAD_TABLES)
COPY_THREAD_SQL = (
    """INSERT OR REPLACE INTO lgc_checkpoints SELECT ?, checkpoint_ns, checkpoint_id,
        parent_checkpoint_id, run_id, checkpoint
        FROM lgc_checkpoints WHERE thread_id = ?""",
    """INSERT OR REPLACE INTO lgc_blobs SELECT ?, checkpoint_ns, channel, version, type,
        blob, base_version FROM lgc_blobs WHERE thread_id = ?""",
    """INSERT OR REPLACE INTO lgc_writes SELECT ?, checkpoint_ns, checkpoint_id, task_id,
        task_path, idx, channel, type, blob FROM lgc_writes WHERE thread_id = ?""",
    """INSERT INTO lgc_messages SELECT ?, seq, message_id, digest, role, tool_names, type,
        skeleton, content_in_text FROM lgc_messages WHERE thread_id = ?""",
    """INSERT INTO lgc_message_texts (thread_id, digest, text)
        SELECT ?, digest, text FROM lgc_message_texts WHERE thread_id = ? ORDER BY text_id""",
)
SELECT_EPOCH_SQL = "SELECT epoch FROM lgc_thread_epochs WHERE thread_id = ?"
BUMP_EPOCH_SQL = """INSERT INTO lgc_thread_epochs (thread_id, epoch) VALUES (?, 1)
    ON CONFLICT (thread_id) DO UPDATE SET epoch = epoch + 1"""
SELECT_ANY_MESSAGE_SQL = "SELECT 1 FROM lgc_messages WHERE thread_id = ? LIMIT 1"
SELECT_RUN_CHECKPOINTS_SQL = """SELECT thread_id, checkpoint_ns, checkpoint_id
    FROM lgc_checkpoints WHERE run_id IN ({marks})"""
DELETE_CHECKPOINT_SQL = """DELETE FROM lgc_checkpoints
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
DELETE_CHECKPOINT_WRITES_SQL = """DELETE FROM lgc_writes
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
SELECT_LIVE_VERSIONS_SQL = """SELECT checkpoint_id, checkpoint FROM lgc_checkpoints
    WHERE thread_id = ? AND checkpoint_ns = ?"""
SELECT_NAMESPACE_HEADS_SQL = """SELECT checkpoint_ns, MAX(checkpoint_id) FROM lgc_checkpoints
    WHERE thread_id = ? GROUP BY checkpoint_ns"""
SELECT_NOT_HEAD_SQL = """SELECT checkpoint_id FROM lgc_checkpoints
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id != ?"""
CLEAR_PARENT_SQL = """UPDATE lgc_checkpoints SET parent_checkpoint_id = NULL
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""


def marks(n: int) -> str:
    """``n`` comma-separated ``?`` markers for an ``IN (...)`` list.

    >>> marks(3)
    '?,?,?'
    """
    return ",".join("?" * n)
