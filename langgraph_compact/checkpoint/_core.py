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

import base64
import json
import random
import re
import zlib
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import ormsgpack

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
    channel write different blob keys. Ten digits keep string order equal to
    numeric order for ten billion steps while keeping checkpoint rows small.

    >>> next_version(None) < next_version("0000000001.0a1b2c")
    True
    """
    if current is None:
        n = 0
    elif isinstance(current, (int, float)):
        n = int(current)
    else:
        n = int(str(current).split(".")[0])
    return f"{n + 1:010d}.{random.getrandbits(24):06x}"


_COMPRESS_MIN_CHARS = 256


def pack_text(text: str | None) -> str | bytes | None:
    """Message text as stored: zlib-compressed bytes when that saves a quarter or more.

    Tool outputs (code, logs, JSON) shrink to about a third, which keeps a long thread's
    database near the size of its raw messages; short texts stay plain strings.

    >>> unpack_text(pack_text("ab" * 500)) == "ab" * 500
    True
    >>> pack_text("short")
    'short'
    """
    if text is None or len(text) < _COMPRESS_MIN_CHARS:
        return text
    raw = text.encode("utf-8", "surrogatepass")
    packed = zlib.compress(raw, 9)
    return packed if len(packed) * 4 <= len(raw) * 3 else text


def unpack_text(value: str | bytes | None) -> str | None:
    """Inverse of ``pack_text``."""
    if isinstance(value, bytes):
        return zlib.decompress(value).decode("utf-8", "surrogatepass")
    return value


_CHECKPOINT_FORMAT = b"\x01"
# A zlib preset dictionary of LangGraph's own checkpoint vocabulary: each row is small
# (a few hundred bytes), too small to compress well on its own. Changing it needs a new
# _CHECKPOINT_FORMAT byte, since stored rows need the dictionary they were packed with.
_CHECKPOINT_ZDICT = ormsgpack.packb(
    {
        "v": 4,
        "ts": "2026-01-01T00:00:00.000000+00:00",
        "channel_versions": {"__start__": "0000000001.", "messages": "0000000001."},
        "versions_seen": {"__input__": {}, "__start__": {"__start__": "0000000001."}},
        "updated_channels": ["messages", "branch:to:", "__pregel_tasks", "__interrupt__"],
        "source": ["input", "loop", "update", "fork"],
        "step": 1,
        "parents": {},
        "run_id": "",
    }
)


_SKELETON_ZDICT = ormsgpack.packb(
    [
        "langchain_core.messages.human",
        "HumanMessage",
        "langchain_core.messages.system",
        "SystemMessage",
        "langchain_core.messages.ai",
        "AIMessage",
        {
            "content": "",
            "additional_kwargs": {},
            "response_metadata": {"model_provider": "", "model_name": "", "finish_reason": ""},
            "type": "ai",
            "name": None,
            "id": "",
            "tool_calls": [{"name": "", "args": {}, "id": "", "type": "tool_call"}],
            "invalid_tool_calls": [],
            "usage_metadata": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0},
        },
        "model_validate_json",
        "langchain_core.messages.tool",
        "ToolMessage",
        {
            "content": "",
            "additional_kwargs": {},
            "response_metadata": {},
            "type": "tool",
            "name": None,
            "id": "",
            "tool_call_id": "",
            "artifact": None,
            "status": "success",
        },
        "model_validate_json",
    ]
)
_PACKED_SUFFIX = "+z"


def pack_skeleton(type_: str, blob: bytes) -> tuple[str, bytes]:
    """A serde-encoded message skeleton, zlib-packed with a message-field dictionary.

    A skeleton is a few hundred bytes of field names and ids; against a dictionary of
    LangChain's message fields it shrinks by about half. Encrypted output does not
    compress, so it is kept as is (the type says which).

    >>> t, b = pack_skeleton("msgpack", b"additional_kwargs response_metadata" * 3)
    >>> t, unpack_skeleton(t, b) == b"additional_kwargs response_metadata" * 3
    ('msgpack+z', True)
    """
    packer = zlib.compressobj(9, zdict=_SKELETON_ZDICT)
    packed = packer.compress(blob) + packer.flush()
    if len(packed) < len(blob):
        return type_ + _PACKED_SUFFIX, packed
    return type_, blob


def unpack_skeleton(type_: str, blob: bytes) -> bytes:
    """Inverse of ``pack_skeleton``: the serde bytes for ``type_`` (minus the suffix)."""
    if not type_.endswith(_PACKED_SUFFIX):
        return blob
    unpacker = zlib.decompressobj(zdict=_SKELETON_ZDICT)
    return unpacker.decompress(blob) + unpacker.flush()


def serde_type(type_: str) -> str:
    """The serde's own type name for a stored skeleton type.

    >>> serde_type("msgpack+z")
    'msgpack'
    """
    return type_.removesuffix(_PACKED_SUFFIX)


def pack_checkpoint(checkpoint: Mapping[str, Any], metadata: Mapping[str, Any]) -> bytes:
    """The checkpoint without values or id (both live elsewhere) plus its metadata.

    Like LangGraph's savers, metadata is stored outside the serde; the skeleton holds
    only ids, timestamps, channel names and versions. Packed msgpack against a
    dictionary of LangGraph's vocabulary keeps the per-step row at about 150 bytes.

    >>> cp = {"v": 4, "id": "x", "ts": "t", "channel_values": {"a": 1}, "channel_versions": {}}
    >>> unpack_checkpoint(pack_checkpoint(cp, {"step": 1}), "x")
    ({'v': 4, 'ts': 't', 'channel_versions': {}, 'id': 'x'}, {'step': 1})
    """
    skeleton = {k: v for k, v in checkpoint.items() if k not in ("channel_values", "id")}
    packer = zlib.compressobj(9, zdict=_CHECKPOINT_ZDICT)
    raw = ormsgpack.packb([skeleton, dict(metadata)], default=str)
    return _CHECKPOINT_FORMAT + packer.compress(raw) + packer.flush()


def unpack_checkpoint(blob: bytes, checkpoint_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Inverse of ``pack_checkpoint``: ``(checkpoint without values, metadata)``."""
    if blob[:1] != _CHECKPOINT_FORMAT:
        raise ValueError(f"checkpoint {checkpoint_id}: unknown skeleton format {blob[:1]!r}")
    unpacker = zlib.decompressobj(zdict=_CHECKPOINT_ZDICT)
    raw = unpacker.decompress(blob[1:]) + unpacker.flush()
    skeleton, metadata = ormsgpack.unpackb(raw)
    skeleton["id"] = checkpoint_id
    return skeleton, metadata


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

    The base version is not in the blob: it is the row's ``base_version`` column, which
    garbage collection reads without decoding.

    >>> decode_refs(encode_refs(RefList("v1", 2, (5, 6), 1)), "v1")
    RefList(base='v1', keep=2, tail=(5, 6), depth=1)
    """
    return json.dumps([refs.keep, list(refs.tail), refs.depth], separators=(",", ":")).encode()


def decode_refs(blob: bytes, base: str | None) -> RefList:
    """Inverse of ``encode_refs``, given the row's ``base_version``."""
    keep, tail, depth = json.loads(blob)
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


_TOKEN = re.compile(r"[^\W_]+")


def fts_phrase_query(text: str) -> str:
    """An FTS5 query matching messages that contain every word of ``text``.

    ``text`` is cut into the tokens FTS5's ``unicode61`` tokenizer would produce
    (letters and digits), and each is double-quoted, so FTS5 operators, column filters,
    quotes and SQL metacharacters in user or model input are inert.

    >>> fts_phrase_query('x OR 1=1; DROP "t" -- NEAR(a*)')
    '"x" "OR" "1" "1" "DROP" "t" "NEAR" "a"'
    """
    return " ".join(f'"{t}"' for t in _TOKEN.findall(text))


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
