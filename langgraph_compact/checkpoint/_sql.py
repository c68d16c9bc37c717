"""Every SQL statement of the compact savers, and what differs between SQL backends.

The storage programs (``_store``, ``_messages``, ``_refs``, ``_admin``, ``history``,
``redact``, ``verify``) yield these statements and never build SQL of their own; the
schema itself is in ``_schema``. Statements are written once, with ``?`` markers and
portable syntax (``ON CONFLICT``, ``RETURNING``, ``VALUES`` joins, recursive CTEs); a
driver whose marker differs rewrites it with ``Dialect.prepare``. What cannot be portable
(full-text search, after-redaction maintenance, integrity pragmas) is a field of the
``Dialect`` (``_dialects``: ``SQLITE``, ``POSTGRES``), so a backend is a ``Dialect``
value plus a driver.

Tables (``tid`` is a thread's number in ``lgc_threads``; every stored row carries
``chk``, an 8-byte check of its content and key, see ``_check``):

- ``lgc_threads``: thread id -> ``tid``, a change counter (``epoch``), the turn lease.
- ``lgc_heads``: each namespace's newest checkpoint id and checkpoint count.
- ``lgc_checkpoints``: checkpoint skeleton, parent, metadata, small inline values.
- ``lgc_blobs``: one value per ``(channel, version)``; message lists as ref lists.
- ``lgc_writes``: one row per ``(checkpoint, task)`` with all its pending writes, for
  writes stored before their checkpoint (the others are folded into its row).
- ``lgc_messages`` / ``lgc_texts`` / ``lgc_text_fts``: each message once per thread,
  its text once per content, the text's words in a contentless FTS5 index (Postgres:
  a word filter in the text's row, ``lgc_texts.words``; no ``lgc_text_fts``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, Literal, TypeVar

from langgraph_compact.checkpoint._dialects import POSTGRES, SQLITE, Dialect

__all__ = [
    "POSTGRES",
    "SQLITE",
    "Dialect",
    "Fetch",
    "Program",
    "Replayable",
    "Stmt",
    "marks",
    "values_list",
]

T = TypeVar("T")

Fetch = Literal["all", "none", "many"]
"""``all``: fetch rows; ``none``: execute only; ``many``: ``executemany`` over params.
A statement the database reports as damaged raises ``CorruptionError`` at its ``yield``."""

Stmt = tuple[str, Sequence[Any], Fetch]
Program = Generator[Stmt, list[tuple[Any, ...]], T]
"""A storage operation as a generator: it yields statements and receives their rows."""


class Replayable(Program[T]):
    """A program that can start over: ``again()`` is a fresh run of the same operation.

    The savers hand their programs over as these, so a runner whose transaction the
    server rolled back (Postgres: ``_retry``) can run the operation again from the top.
    """

    def __init__(self, start: Callable[[], Program[T]]) -> None:
        self._start = start
        self._program = start()

    def send(self, value: Any) -> Stmt:
        return self._program.send(value)

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Stmt:
        return self._program.throw(typ, val, tb)

    def close(self) -> None:
        self._program.close()

    def again(self) -> Replayable[T]:
        self.close()
        return Replayable(self._start)


def marks(n: int) -> str:
    """``n`` comma-separated ``?`` markers for an ``IN (...)`` list.

    >>> marks(3)
    '?,?,?'
    """
    return ",".join("?" * n)


def values_list(n: int, width: int) -> str:
    """A ``VALUES`` body of ``n`` rows of ``width`` markers.

    >>> values_list(2, 2)
    '(?,?),(?,?)'
    """
    row = "(" + marks(width) + ")"
    return ",".join([row] * n)


# --- threads and heads ------------------------------------------------------------------

SELECT_THREAD = "SELECT tid, epoch, chk FROM lgc_threads WHERE thread_id = ?"
INSERT_THREAD = "INSERT INTO lgc_threads (thread_id, epoch, chk) VALUES (?, 0, ?) RETURNING tid"
SET_THREAD_CHECK = "UPDATE lgc_threads SET chk = ? WHERE tid = ?"
BUMP_EPOCH = "UPDATE lgc_threads SET epoch = epoch + 1 WHERE tid = ?"
SELECT_THREADS = "SELECT tid, thread_id, chk FROM lgc_threads ORDER BY thread_id"
SELECT_THREAD_BY_TID = "SELECT thread_id, chk FROM lgc_threads WHERE tid = ?"

SELECT_TURN = "SELECT turn_holder, turn_until FROM lgc_threads WHERE tid = ?"
SET_TURN = "UPDATE lgc_threads SET turn_holder = ?, turn_until = ? WHERE tid = ?"
CLEAR_TURN = """UPDATE lgc_threads SET turn_holder = NULL, turn_until = NULL
    WHERE tid = ? AND turn_holder = ?"""

SELECT_HEAD = """SELECT checkpoint_id, checkpoints, chk FROM lgc_heads
    WHERE tid = ? AND checkpoint_ns = ?"""
SELECT_HEADS = "SELECT checkpoint_ns, checkpoint_id, checkpoints, chk FROM lgc_heads WHERE tid = ?"
SELECT_HEAD_ROW = """SELECT h.checkpoint_id, h.checkpoints, h.chk, c.chk FROM lgc_heads h
    LEFT JOIN lgc_checkpoints c ON c.tid = h.tid AND c.checkpoint_ns = h.checkpoint_ns
        AND c.checkpoint_id = h.checkpoint_id
    WHERE h.tid = ? AND h.checkpoint_ns = ?"""
UPSERT_HEAD = """INSERT INTO lgc_heads (tid, checkpoint_ns, checkpoint_id, checkpoints, chk)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (tid, checkpoint_ns) DO UPDATE SET
    checkpoint_id = excluded.checkpoint_id, checkpoints = excluded.checkpoints,
    chk = excluded.chk"""
DELETE_HEAD = "DELETE FROM lgc_heads WHERE tid = ? AND checkpoint_ns = ?"
SELECT_LANE_SUMMARY = """SELECT MAX(checkpoint_id), COUNT(*) FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ?"""
SELECT_NAMESPACES = "SELECT DISTINCT checkpoint_ns FROM lgc_checkpoints WHERE tid = ?"

# --- checkpoints ------------------------------------------------------------------------

_CHECKPOINT_COLUMNS = "checkpoint_id, run_id, payload, task_count, chk"
APPEND_CHECKPOINT = """INSERT INTO lgc_checkpoints
    (tid, checkpoint_ns, checkpoint_id, run_id, payload, task_count, chk, link, link_base,
    writes)
    VALUES (?, ?, ?, ?, ?, (SELECT COUNT(*) FROM lgc_writes
        WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?), ?, ?, ?, ?)"""
INSERT_CHECKPOINT = APPEND_CHECKPOINT + " ON CONFLICT DO NOTHING RETURNING 1"
REPLACE_CHECKPOINT = """UPDATE lgc_checkpoints SET run_id = ?, payload = ?, chk = ?
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
SELECT_CHECKPOINT = f"""SELECT {_CHECKPOINT_COLUMNS} FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
SELECT_LANE_CHECKPOINTS = f"""SELECT {_CHECKPOINT_COLUMNS} FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? ORDER BY checkpoint_id"""
SELECT_PREVIOUS_ROWS = f"""SELECT {_CHECKPOINT_COLUMNS} FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id < ?
    ORDER BY checkpoint_id DESC LIMIT ?"""
SELECT_FOLLOWING_ROWS = f"""SELECT {_CHECKPOINT_COLUMNS} FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id > ?
    ORDER BY checkpoint_id LIMIT ?"""
CLEAR_LINK = """UPDATE lgc_checkpoints SET link = NULL, link_base = NULL
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
SELECT_EXISTING_CHECKPOINTS = """SELECT checkpoint_id FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id IN ({marks})"""
UPDATE_PAYLOAD = """UPDATE lgc_checkpoints SET payload = ?, chk = ?
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
DELETE_CHECKPOINT = """DELETE FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
SELECT_RUN_CHECKPOINTS = """SELECT tid, checkpoint_ns, checkpoint_id FROM lgc_checkpoints
    WHERE run_id IN ({marks})"""


def list_checkpoints(
    *, thread: bool, ns: bool, checkpoint: bool, before: bool, limit: int | None
) -> str:
    """The ``list`` query: newest first, narrowed by whichever keys are given.

    Parameters follow in this order: ``tid``, ``checkpoint_ns``, ``checkpoint_id``,
    ``before``. Rows: ``thread_id``, ``checkpoint_ns`` and the checkpoint columns.
    """
    wheres = [
        clause
        for given, clause in (
            (thread, "c.tid = ?"),
            (ns, "c.checkpoint_ns = ?"),
            (checkpoint, "c.checkpoint_id = ?"),
            (before, "c.checkpoint_id < ?"),
        )
        if given
    ]
    where = " WHERE " + " AND ".join(wheres) if wheres else ""
    sql = (
        "SELECT t.thread_id, c.tid, c.checkpoint_ns, c.checkpoint_id, c.run_id, c.payload, "
        "c.task_count, c.chk FROM lgc_checkpoints c JOIN lgc_threads t ON t.tid = c.tid"
        f"{where} ORDER BY c.checkpoint_id DESC"
    )
    return sql + (f" LIMIT {int(limit)}" if limit is not None else "")


# --- blobs and ref lists ----------------------------------------------------------------

INSERT_BLOB = """INSERT INTO lgc_blobs
    (tid, checkpoint_ns, version, channel, type, blob, base_version, chk)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"""
INSERT_REFS = INSERT_BLOB + " RETURNING 1"
SELECT_BLOBS = """SELECT b.channel, b.version, b.type, b.blob, b.base_version, b.chk
    FROM (VALUES {values}) AS v CROSS JOIN lgc_blobs AS b
    WHERE b.tid = ? AND b.checkpoint_ns = ? AND b.version = v.column1
        AND b.channel = v.column2"""
SELECT_BLOB_KEYS = """SELECT b.channel FROM (VALUES {values}) AS v CROSS JOIN lgc_blobs AS b
    WHERE b.tid = ? AND b.checkpoint_ns = ? AND b.version = v.column1 AND b.channel = v.column2"""
SELECT_BLOB = """SELECT type, blob, base_version, chk FROM lgc_blobs
    WHERE tid = ? AND checkpoint_ns = ? AND version = ? AND channel = ?"""
SELECT_REF_CHAIN = """WITH RECURSIVE chain(version, type, blob, base_version, chk, n) AS (
        SELECT version, type, blob, base_version, chk, 0 FROM lgc_blobs
        WHERE tid = ? AND checkpoint_ns = ? AND version = ? AND channel = ?
    UNION ALL
        SELECT b.version, b.type, b.blob, b.base_version, b.chk, chain.n + 1
        FROM chain JOIN lgc_blobs b ON b.tid = ? AND b.checkpoint_ns = ?
            AND b.version = chain.base_version AND b.channel = ?
        WHERE chain.n < ?
    ) SELECT version, type, blob, base_version, chk FROM chain ORDER BY n"""
SELECT_LANE_BLOBS = """SELECT channel, version, type, blob, base_version, chk FROM lgc_blobs
    WHERE tid = ? AND checkpoint_ns = ?"""
SELECT_LANE_BLOB_KEYS = """SELECT channel, version, base_version FROM lgc_blobs
    WHERE tid = ? AND checkpoint_ns = ?"""
DELETE_BLOB = """DELETE FROM lgc_blobs
    WHERE tid = ? AND checkpoint_ns = ? AND version = ? AND channel = ?"""
SELECT_VALUE_BLOBS = """SELECT checkpoint_ns, version, channel, type, blob, chk
    FROM lgc_blobs WHERE tid = ? AND type != ?"""

# --- pending writes ---------------------------------------------------------------------

# A task's writes row, if any (0), and the checkpoint row's folded writes, if it is there (1).
SELECT_TASK_WRITES = """SELECT 0, writes, chk FROM lgc_writes
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ? AND task_id = ?
    UNION ALL SELECT 1, writes, NULL FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
UPDATE_FOLDED_WRITES = """UPDATE lgc_checkpoints SET writes = ?, task_count = task_count + ?
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
INSERT_WRITES = """INSERT INTO lgc_writes (tid, checkpoint_ns, checkpoint_id, task_id, writes, chk)
    VALUES (?, ?, ?, ?, ?, ?)"""
UPDATE_WRITES = """UPDATE lgc_writes SET writes = ?, chk = ?
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ? AND task_id = ?"""
SELECT_WRITE_ROWS = """SELECT task_id, writes, chk FROM lgc_writes
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
# A checkpoint's writes rows (task id, writes, check), then its folded writes (NULL, ...).
SELECT_WRITES = (
    SELECT_WRITE_ROWS
    + """ UNION ALL SELECT NULL, writes, NULL FROM lgc_checkpoints
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ? AND writes IS NOT NULL"""
)
SELECT_THREAD_WRITES = """SELECT checkpoint_ns, checkpoint_id, task_id, writes, chk
    FROM lgc_writes WHERE tid = ?"""
SELECT_FOLDED_WRITES = """SELECT checkpoint_ns, checkpoint_id, writes FROM lgc_checkpoints
    WHERE tid = ? AND writes IS NOT NULL"""
DELETE_CHECKPOINT_WRITES = """DELETE FROM lgc_writes
    WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""

# --- messages and texts -----------------------------------------------------------------

_MESSAGE_COLUMNS = (
    "m.seq, m.message_id, m.digest, m.role, m.tool_names, m.type, m.skeleton, "
    "m.content_in_text, m.chk, t.text"
)
_MESSAGE_JOIN = "FROM lgc_messages m LEFT JOIN lgc_texts t ON t.tid = m.tid AND t.digest = m.digest"
SELECT_MESSAGE_SEQ = "SELECT seq FROM lgc_messages WHERE tid = ? AND message_id = ? AND digest = ?"
SELECT_MAX_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM lgc_messages WHERE tid = ?"
SELECT_MESSAGE_SEQ_AND_MAX = """SELECT
    (SELECT seq FROM lgc_messages WHERE tid = ? AND message_id = ? AND digest = ?),
    (SELECT COALESCE(MAX(seq), 0) FROM lgc_messages WHERE tid = ?)"""
INSERT_MESSAGE = """INSERT INTO lgc_messages (tid, seq, message_id, digest, role, tool_names,
    type, skeleton, content_in_text, chk) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""
INSERT_TEXT = """INSERT INTO lgc_texts (tid, digest, text) VALUES (?, ?, ?)
    ON CONFLICT DO NOTHING RETURNING text_id"""
INSERT_FILTERED_TEXT = """INSERT INTO lgc_texts (tid, digest, text, words) VALUES (?, ?, ?, ?)
    ON CONFLICT DO NOTHING RETURNING text_id"""
SELECT_TEXTS_AFTER = """SELECT text_id, text FROM lgc_texts
    WHERE text_id > ? ORDER BY text_id LIMIT ?"""
UPDATE_TEXT_FILTER = "UPDATE lgc_texts SET words = ? WHERE text_id = ?"
SELECT_TEXT_FILTERS = """SELECT text_id, text, words FROM lgc_texts
    WHERE tid = ? AND text_id > ? ORDER BY text_id LIMIT ?"""
SELECT_MESSAGES = (
    f"SELECT {_MESSAGE_COLUMNS} {_MESSAGE_JOIN} WHERE m.tid = ? AND m.seq IN ({{marks}})"
)
SELECT_MESSAGE_PAGE = (
    f"SELECT {_MESSAGE_COLUMNS} {_MESSAGE_JOIN} "
    "WHERE m.tid = ? AND m.seq > ? ORDER BY m.seq LIMIT ?"
)
SELECT_SEQS_BY_ID = "SELECT seq FROM lgc_messages WHERE tid = ? AND message_id = ?"
SELECT_MESSAGE_FACETS = "SELECT seq, role, tool_names FROM lgc_messages WHERE tid = ?"
SELECT_THREAD_TEXTS = "SELECT text_id, text FROM lgc_texts WHERE tid = ?"
SELECT_UNUSED_TEXTS = """SELECT t.text_id FROM lgc_texts t WHERE t.tid = ? AND NOT EXISTS
    (SELECT 1 FROM lgc_messages m WHERE m.tid = t.tid AND m.digest = t.digest)"""
SELECT_FTS_FILTER = "SELECT m.seq FROM lgc_messages m WHERE m.tid = ? AND {fts}"

# --- redaction --------------------------------------------------------------------------

SELECT_SEQS_BY_IDS = "SELECT seq FROM lgc_messages WHERE tid = ? AND message_id IN ({marks})"
SELECT_ANONYMOUS_BY_DIGESTS = """SELECT seq FROM lgc_messages
    WHERE tid = ? AND message_id = ? AND digest IN ({marks})"""
UPDATE_MESSAGE = """UPDATE lgc_messages SET digest = ?, type = ?, skeleton = ?,
    content_in_text = ?, chk = ? WHERE tid = ? AND seq = ?"""
SELECT_USED_DIGESTS = """SELECT DISTINCT digest FROM lgc_messages
    WHERE tid = ? AND digest IN ({marks})"""
SELECT_TEXTS_BY_DIGESTS = (
    "SELECT text_id, text FROM lgc_texts WHERE tid = ? AND digest IN ({marks})"
)
DELETE_TEXT = "DELETE FROM lgc_texts WHERE text_id = ?"
UPDATE_BLOB_VALUE = """UPDATE lgc_blobs SET type = ?, blob = ?, chk = ?
    WHERE tid = ? AND checkpoint_ns = ? AND version = ? AND channel = ?"""
INSERT_REDACTION = """INSERT INTO lgc_redactions (thread_id, message_id, reason, actor, redacted_at)
    VALUES (?, ?, ?, ?, ?)"""
SELECT_COPIES_ELSEWHERE = """SELECT DISTINCT t.thread_id FROM lgc_messages m
    JOIN lgc_threads t ON t.tid = m.tid
    WHERE m.tid != ? AND m.message_id IN ({marks}) AND m.digest IN ({digests})
    ORDER BY t.thread_id"""
SELECT_REDACTIONS = """SELECT thread_id, message_id, reason, actor, redacted_at
    FROM lgc_redactions {where} ORDER BY redacted_at, thread_id, message_id"""

# --- whole threads ----------------------------------------------------------------------

_THREAD_TABLES = ("lgc_heads", "lgc_checkpoints", "lgc_blobs", "lgc_writes", "lgc_messages")
DELETE_THREAD = tuple(f"DELETE FROM {t} WHERE tid = ?" for t in (*_THREAD_TABLES, "lgc_texts"))
COPY_THREAD = (
    """INSERT INTO lgc_heads SELECT ?, checkpoint_ns, checkpoint_id, checkpoints, chk
        FROM lgc_heads WHERE tid = ?""",
    """INSERT INTO lgc_checkpoints (tid, checkpoint_ns, checkpoint_id, run_id, payload,
        task_count, chk, link, link_base, writes) SELECT ?, checkpoint_ns, checkpoint_id, run_id,
        payload, task_count, chk, link, link_base, writes FROM lgc_checkpoints WHERE tid = ?""",
    """INSERT INTO lgc_blobs SELECT ?, checkpoint_ns, version, channel, type, blob,
        base_version, chk FROM lgc_blobs WHERE tid = ?""",
    """INSERT INTO lgc_writes SELECT ?, checkpoint_ns, checkpoint_id, task_id, writes, chk
        FROM lgc_writes WHERE tid = ?""",
    """INSERT INTO lgc_messages SELECT ?, seq, message_id, digest, role, tool_names, type,
        skeleton, content_in_text, chk FROM lgc_messages WHERE tid = ?""",
)
COPY_TEXTS = """INSERT INTO lgc_texts (tid, digest, text)
    SELECT ?, digest, text FROM lgc_texts WHERE tid = ? ORDER BY text_id"""
COPY_FILTERED_TEXTS = """INSERT INTO lgc_texts (tid, digest, text, words)
    SELECT ?, digest, text, words FROM lgc_texts WHERE tid = ? ORDER BY text_id"""
SELECT_ANY_ROW = """SELECT 1 FROM lgc_messages WHERE tid = ?
    UNION ALL SELECT 1 FROM lgc_heads WHERE tid = ?
    UNION ALL SELECT 1 FROM lgc_checkpoints WHERE tid = ? LIMIT 1"""
THREAD_STATS = """SELECT t.tid, t.thread_id,
    (SELECT COALESCE(SUM(h.checkpoints), 0) FROM lgc_heads h WHERE h.tid = t.tid),
    (SELECT COUNT(DISTINCT message_id) FROM lgc_messages m
        WHERE m.tid = t.tid AND LENGTH(m.message_id) > 0),
    (SELECT COALESCE(SUM(LENGTH(payload) + LENGTH(checkpoint_id) + COALESCE(LENGTH(link), 0)
        + COALESCE(LENGTH(link_base), 0) + COALESCE(LENGTH(writes), 0) + 16), 0)
        FROM lgc_checkpoints c WHERE c.tid = t.tid)
    + (SELECT COALESCE(SUM(LENGTH(blob) + LENGTH(version) + LENGTH(channel) + 16), 0)
        FROM lgc_blobs b WHERE b.tid = t.tid)
    + (SELECT COALESCE(SUM(LENGTH(writes) + LENGTH(task_id) + LENGTH(checkpoint_id) + 16), 0)
        FROM lgc_writes w WHERE w.tid = t.tid)
    + (SELECT COALESCE(SUM(LENGTH(skeleton) + LENGTH(message_id) + 40), 0)
        FROM lgc_messages m WHERE m.tid = t.tid)
    + (SELECT COALESCE(SUM(LENGTH(CAST(text AS BLOB)) + 24), 0) FROM lgc_texts x
        WHERE x.tid = t.tid)
    FROM lgc_threads t {where} ORDER BY t.thread_id"""
