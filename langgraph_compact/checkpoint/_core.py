"""Pure pieces shared by every checkpoint backend: SQL, migrations, dialects, encodings.

Nothing here touches a connection. The savers run *programs* (generators that yield
``Stmt`` tuples and receive the fetched rows back), so the sync and async savers of a
backend share every line of logic and differ only in how a statement is executed.

Storage layout (one row per thing, never a whole message list per checkpoint):

- ``lgc_checkpoints``: the checkpoint skeleton as compact JSON (ids, versions, no
  values) plus metadata JSON, so blobs can be garbage-collected by SQL alone.
- ``lgc_blobs``: one blob per ``(channel, version)``, written only for channels in
  ``new_versions`` (the Postgres saver's layout). A message-list channel is stored as a
  *ref list*: integers pointing at ``lgc_messages`` rows, delta-encoded against an
  earlier ref list of the same channel (``base_version`` + kept prefix + tail) with a
  full snapshot every ``REFS_MAX_DEPTH`` links, so both size and reconstruction cost
  stay bounded.
- ``lgc_messages``: each message once per thread, keyed by ``(message id, digest)``;
  its text lives once per distinct content in ``lgc_message_texts`` (indexed by FTS5).
- ``lgc_writes``: pending writes; message values become refs as well.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

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

REFS_MAX_DEPTH = 32
"""A ref list chain longer than this is re-written as a snapshot (bounds reconstruction)."""


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
                    checkpoint TEXT NOT NULL,
                    metadata TEXT NOT NULL,
                    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
                ) WITHOUT ROWID""",
                "CREATE INDEX lgc_checkpoints_run_id ON lgc_checkpoints (run_id)",
                """CREATE TABLE lgc_blobs (
                    thread_id TEXT NOT NULL,
                    checkpoint_ns TEXT NOT NULL DEFAULT '',
                    channel TEXT NOT NULL,
                    version TEXT NOT NULL,
                    type TEXT NOT NULL,
                    blob BLOB,
                    base_version TEXT,
                    PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
                )""",
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
                )""",
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
                    digest TEXT NOT NULL,
                    role TEXT NOT NULL,
                    tool_names TEXT NOT NULL DEFAULT '',
                    type TEXT NOT NULL,
                    skeleton BLOB NOT NULL,
                    content_in_text INTEGER NOT NULL,
                    PRIMARY KEY (thread_id, seq),
                    UNIQUE (thread_id, message_id, digest)
                ) WITHOUT ROWID""",
                """CREATE TABLE lgc_message_texts (
                    text_id INTEGER PRIMARY KEY,
                    thread_id TEXT NOT NULL,
                    digest TEXT NOT NULL,
                    text TEXT,
                    UNIQUE (thread_id, digest)
                )""",
                """CREATE VIRTUAL TABLE lgc_message_fts USING fts5(
                    text, content='lgc_message_texts', content_rowid='text_id'
                )""",
                # External-content FTS5 stays in sync through triggers; the delete
                # branch needs the old text, which is how redaction drops its tokens.
                """CREATE TRIGGER lgc_message_texts_ai AFTER INSERT ON lgc_message_texts
                WHEN new.text IS NOT NULL BEGIN
                    INSERT INTO lgc_message_fts (rowid, text) VALUES (new.text_id, new.text);
                END""",
                """CREATE TRIGGER lgc_message_texts_ad AFTER DELETE ON lgc_message_texts
                WHEN old.text IS NOT NULL BEGIN
                    INSERT INTO lgc_message_fts (lgc_message_fts, rowid, text)
                    VALUES ('delete', old.text_id, old.text);
                END""",
                """CREATE TRIGGER lgc_message_texts_au AFTER UPDATE OF text ON lgc_message_texts
                BEGIN
                    INSERT INTO lgc_message_fts (lgc_message_fts, rowid, text)
                    SELECT 'delete', old.text_id, old.text WHERE old.text IS NOT NULL;
                    INSERT INTO lgc_message_fts (rowid, text)
                    SELECT new.text_id, new.text WHERE new.text IS NOT NULL;
                END""",
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


def next_version(current: str | int | float | None) -> str:
    """A channel version after ``current``: a zero-padded counter plus a random tail.

    The random tail keeps forks apart: two branches that both reach counter 7 of a
    channel write different blob keys. Twelve digits keep string order equal to
    numeric order for a trillion steps while keeping checkpoint rows small.

    >>> next_version(None) < next_version("000000000001.0a1b2c3d")
    True
    """
    if current is None:
        n = 0
    elif isinstance(current, (int, float)):
        n = int(current)
    else:
        n = int(str(current).split(".")[0])
    return f"{n + 1:012d}.{random.getrandbits(32):08x}"


@dataclass(frozen=True)
class RefList:
    """A message ref list as stored: ``keep`` refs of ``base`` followed by ``tail``.

    ``base`` is another version of the same channel in the same thread and namespace;
    ``None`` means ``tail`` is the whole list (a snapshot). ``depth`` counts links.
    """

    base: str | None
    keep: int
    tail: tuple[int, ...]
    depth: int = 0


def encode_refs(refs: RefList) -> bytes:
    """Compact JSON for a ref list (ints only, so no serde and nothing to encrypt).

    >>> decode_refs(encode_refs(RefList("v1", 2, (5, 6), 1)))
    RefList(base='v1', keep=2, tail=(5, 6), depth=1)
    """
    return json.dumps(
        [refs.base, refs.keep, list(refs.tail), refs.depth], separators=(",", ":")
    ).encode()


def decode_refs(blob: bytes) -> RefList:
    """Inverse of ``encode_refs``."""
    base, keep, tail, depth = json.loads(blob)
    return RefList(base, int(keep), tuple(int(x) for x in tail), int(depth))


def plan_refs(
    seqs: tuple[int, ...], base_version: str | None, base: tuple[int, ...] | None, depth: int
) -> RefList:
    """Encode ``seqs`` against ``base`` (the channel's previous list) when that pays.

    A snapshot is written when there is no base, when the chain would exceed
    ``REFS_MAX_DEPTH``, or when less than half of the list is a shared prefix.

    >>> plan_refs((1, 2, 3), "v", (1, 2), 0)
    RefList(base='v', keep=2, tail=(3,), depth=1)
    >>> plan_refs((1, 2, 3), None, None, 0)
    RefList(base=None, keep=0, tail=(1, 2, 3), depth=0)
    """
    if base is None or base_version is None or depth + 1 > REFS_MAX_DEPTH:
        return RefList(None, 0, seqs)
    n = len(base)
    if seqs[:n] == base:
        keep = n
    else:
        keep = 0
        for a, b in zip(seqs, base, strict=False):
            if a != b:
                break
            keep += 1
    if keep * 2 < len(seqs) or keep == 0:
        return RefList(None, 0, seqs)
    return RefList(base_version, keep, seqs[keep:], depth + 1)


def fts_phrase_query(text: str) -> str:
    """An FTS5 query matching every whitespace-separated word of ``text`` as a phrase.

    Each word is double-quoted (inner quotes doubled), so FTS5 operators, column
    filters and SQL metacharacters in user or model input are inert.

    >>> fts_phrase_query('a"b OR x*')
    '"a""b" "OR" "x*"'
    """
    words = text.split()
    return " ".join('"' + w.replace('"', '""') + '"' for w in words)


def encode_cursor(payload: dict[str, Any]) -> str:
    """An opaque, URL-safe cursor string for ``payload``."""
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> dict[str, Any]:
    """Inverse of ``encode_cursor``; raises ``ValueError`` on anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw)
    except (ValueError, TypeError) as e:
        raise ValueError(f"not a history cursor: {cursor!r}") from e
    if not isinstance(value, dict):
        raise ValueError(f"not a history cursor: {cursor!r}")
    return value


# --- statements -------------------------------------------------------------------------

UPSERT_CHECKPOINT_SQL = """INSERT OR REPLACE INTO lgc_checkpoints
    (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, run_id, checkpoint, metadata)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""
SELECT_CHECKPOINT_COLUMNS = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata "
    "FROM lgc_checkpoints"
)
INSERT_BLOB_SQL = """INSERT OR IGNORE INTO lgc_blobs
    (thread_id, checkpoint_ns, channel, version, type, blob, base_version)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""
SELECT_BLOB_SQL = """SELECT type, blob FROM lgc_blobs
    WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?"""
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
INSERT_TEXT_SQL = """INSERT OR IGNORE INTO lgc_message_texts (thread_id, digest, text)
    VALUES (?, ?, ?)"""
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
        parent_checkpoint_id, run_id, checkpoint, metadata
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
SELECT_ANY_MESSAGE_SQL = "SELECT 1 FROM lgc_messages WHERE thread_id = ? LIMIT 1"
SELECT_RUN_CHECKPOINTS_SQL = """SELECT thread_id, checkpoint_ns, checkpoint_id
    FROM lgc_checkpoints WHERE run_id IN ({marks})"""
DELETE_CHECKPOINT_SQL = """DELETE FROM lgc_checkpoints
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
DELETE_CHECKPOINT_WRITES_SQL = """DELETE FROM lgc_writes
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
SELECT_LIVE_VERSIONS_SQL = """SELECT checkpoint FROM lgc_checkpoints
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
