"""The schema: one ordered list of forward migrations, recorded in ``lgc_schema_version``.

Each ``Migration`` has DDL per dialect and, when rows must be rewritten, a data
``program`` (a ``Program`` like every other storage operation, so it runs on the sync
and the async driver alike). A file written by a newer version of the package is
refused with ``SchemaVersionError``; an older one is brought forward on open.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import DECODE_ERRORS, Where, corrupt
from langgraph_compact.checkpoint._codec import unpack_text
from langgraph_compact.checkpoint._fts import word_filter
from langgraph_compact.checkpoint._legacy import convert_v4
from langgraph_compact.checkpoint._sql import Dialect, Program
from langgraph_compact.errors import SchemaVersionError

__all__ = ["MIGRATIONS", "Migration", "migrate"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Migration:
    """One forward schema step: DDL per dialect name, then an optional data program."""

    version: int
    description: str
    statements: dict[str, tuple[str, ...]] = field(default_factory=dict)
    program: Callable[[Dialect], Program[None]] | None = None
    program_dialects: tuple[str, ...] = ("sqlite",)
    """The dialects whose databases can hold rows the program rewrites."""


CREATE_VERSION_TABLE = """CREATE TABLE IF NOT EXISTS lgc_schema_version (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at TEXT NOT NULL
)"""
SELECT_VERSION = "SELECT MAX(version), COUNT(*), MIN(version) FROM lgc_schema_version"
INSERT_VERSION = (
    "INSERT INTO lgc_schema_version (version, description, applied_at) "
    "VALUES (?, ?, CURRENT_TIMESTAMP)"
)

_V1_TO_V4 = (
    """CREATE TABLE lgc_checkpoints (thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL
        DEFAULT '', checkpoint_id TEXT NOT NULL, parent_checkpoint_id TEXT, run_id TEXT,
        checkpoint BLOB NOT NULL, PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id))
        WITHOUT ROWID""",
    "CREATE INDEX lgc_checkpoints_run_id ON lgc_checkpoints (run_id) WHERE run_id IS NOT NULL",
    """CREATE TABLE lgc_blobs (thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL
        DEFAULT '', channel TEXT NOT NULL, version TEXT NOT NULL, type TEXT NOT NULL,
        blob BLOB, base_version TEXT,
        PRIMARY KEY (thread_id, checkpoint_ns, channel, version)) WITHOUT ROWID""",
    """CREATE TABLE lgc_writes (thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL
        DEFAULT '', checkpoint_id TEXT NOT NULL, task_id TEXT NOT NULL, task_path TEXT NOT
        NULL DEFAULT '', idx INTEGER NOT NULL, channel TEXT NOT NULL, type TEXT, blob BLOB,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)) WITHOUT ROWID""",
    """CREATE TABLE lgc_messages (thread_id TEXT NOT NULL, seq INTEGER NOT NULL,
        message_id TEXT NOT NULL, digest BLOB NOT NULL, role TEXT NOT NULL, tool_names TEXT
        NOT NULL DEFAULT '', type TEXT NOT NULL, skeleton BLOB NOT NULL, content_in_text
        INTEGER NOT NULL, PRIMARY KEY (thread_id, seq)) WITHOUT ROWID""",
    "CREATE INDEX lgc_messages_id ON lgc_messages (thread_id, message_id)",
    """CREATE TABLE lgc_message_texts (text_id INTEGER PRIMARY KEY, thread_id TEXT NOT NULL,
        digest BLOB NOT NULL, text, UNIQUE (thread_id, digest))""",
    "CREATE VIRTUAL TABLE lgc_message_fts USING fts5(text, content='', detail=none)",
    """CREATE TABLE lgc_redactions (thread_id TEXT NOT NULL, message_id TEXT NOT NULL,
        reason TEXT NOT NULL, actor TEXT NOT NULL, redacted_at TEXT NOT NULL)""",
    """CREATE TABLE lgc_thread_epochs (thread_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL)
        WITHOUT ROWID""",
)

_V5 = (
    # Rows move to new tables keyed by a thread number; the old ones are renamed first
    # and dropped by the data program once converted.
    *(
        f"ALTER TABLE {t} RENAME TO lgc_v4_{t.removeprefix('lgc_')}"
        for t in ("lgc_checkpoints", "lgc_blobs", "lgc_writes", "lgc_messages")
    ),
    "ALTER TABLE lgc_message_texts RENAME TO lgc_v4_texts",
    "DROP INDEX lgc_checkpoints_run_id",
    "DROP INDEX lgc_messages_id",
    "DROP TABLE lgc_message_fts",
    """CREATE TABLE lgc_threads (tid INTEGER PRIMARY KEY, thread_id TEXT NOT NULL UNIQUE,
        epoch INTEGER NOT NULL DEFAULT 0, chk BLOB NOT NULL)""",
    """CREATE TABLE lgc_heads (tid INTEGER NOT NULL, checkpoint_ns TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL, checkpoints INTEGER NOT NULL, chk BLOB NOT NULL,
        PRIMARY KEY (tid, checkpoint_ns)) WITHOUT ROWID""",
    """CREATE TABLE lgc_checkpoints (tid INTEGER NOT NULL, checkpoint_ns TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL, run_id TEXT, payload BLOB NOT NULL,
        tasks INTEGER NOT NULL DEFAULT 0, chk BLOB NOT NULL,
        PRIMARY KEY (tid, checkpoint_ns, checkpoint_id)) WITHOUT ROWID""",
    "CREATE INDEX lgc_checkpoints_run ON lgc_checkpoints (run_id) WHERE run_id IS NOT NULL",
    # Columns named *_id or version in lgc_blobs, lgc_writes and lgc_messages hold
    # _codec.key()s (a UUID in 17 bytes, a version in 8): they are only compared for
    # equality. Checkpoint ids elsewhere stay text: their order is the thread's order.
    # Keyed by version first: versions grow with the steps, so rows are appended in
    # key order and pages fill up (by channel first, each channel inserts mid-page).
    """CREATE TABLE lgc_blobs (tid INTEGER NOT NULL, checkpoint_ns TEXT NOT NULL,
        version BLOB NOT NULL, channel TEXT NOT NULL, type TEXT NOT NULL,
        blob BLOB NOT NULL, base_version BLOB, chk BLOB NOT NULL,
        PRIMARY KEY (tid, checkpoint_ns, version, channel)) WITHOUT ROWID""",
    """CREATE TABLE lgc_writes (tid INTEGER NOT NULL, checkpoint_ns TEXT NOT NULL,
        checkpoint_id BLOB NOT NULL, task_id BLOB NOT NULL, writes BLOB NOT NULL,
        chk BLOB NOT NULL,
        PRIMARY KEY (tid, checkpoint_ns, checkpoint_id, task_id)) WITHOUT ROWID""",
    """CREATE TABLE lgc_messages (tid INTEGER NOT NULL, seq INTEGER NOT NULL,
        message_id BLOB NOT NULL, digest BLOB NOT NULL, role TEXT NOT NULL,
        tool_names TEXT NOT NULL, type TEXT NOT NULL, skeleton BLOB NOT NULL,
        content_in_text INTEGER NOT NULL, chk BLOB NOT NULL,
        PRIMARY KEY (tid, seq)) WITHOUT ROWID""",
    # Covering for the lookups by id (with the digest: the store-once check): SQLite's
    # planner scans a thread's rows by primary key rather than use a non-covering index.
    "CREATE INDEX lgc_messages_by_id ON lgc_messages (tid, message_id, digest)",
    """CREATE TABLE lgc_texts (text_id INTEGER PRIMARY KEY, tid INTEGER NOT NULL,
        digest BLOB NOT NULL, text, UNIQUE (tid, digest))""",
    # Contentless: the text lives (compressed) in lgc_texts only, and the programs keep
    # the index in step, handing it the words (blob-like ones left out, see _fts) and
    # the same words again to 'delete'. detail=none keeps only which rows hold a term
    # (queries are AND-of-terms); columnsize=0 drops the per-row token counts.
    "CREATE VIRTUAL TABLE lgc_text_fts USING fts5(text, content='', detail=none, columnsize=0)",
)

_K = 'TEXT COLLATE "C" NOT NULL'  # ordered and compared byte by byte, as in SQLite

_PG_V5 = (
    # Postgres databases start at schema 5 (no older layout was ever written there).
    # ``blob`` is the name the portable statements cast to (``CAST(x AS BLOB)``).
    "CREATE DOMAIN blob AS BYTEA",
    f"""CREATE TABLE lgc_threads (tid BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        thread_id {_K} UNIQUE, epoch BIGINT NOT NULL DEFAULT 0, chk BYTEA NOT NULL)""",
    f"""CREATE TABLE lgc_heads (tid BIGINT NOT NULL, checkpoint_ns {_K},
        checkpoint_id {_K}, checkpoints BIGINT NOT NULL, chk BYTEA NOT NULL,
        PRIMARY KEY (tid, checkpoint_ns))""",
    f"""CREATE TABLE lgc_checkpoints (tid BIGINT NOT NULL, checkpoint_ns {_K},
        checkpoint_id {_K}, run_id TEXT, payload BYTEA NOT NULL,
        tasks BIGINT NOT NULL DEFAULT 0, chk BYTEA NOT NULL,
        PRIMARY KEY (tid, checkpoint_ns, checkpoint_id))""",
    "CREATE INDEX lgc_checkpoints_run ON lgc_checkpoints (run_id) WHERE run_id IS NOT NULL",
    f"""CREATE TABLE lgc_blobs (tid BIGINT NOT NULL, checkpoint_ns {_K},
        version BYTEA NOT NULL, channel {_K}, type TEXT NOT NULL,
        blob BYTEA NOT NULL, base_version BYTEA, chk BYTEA NOT NULL,
        PRIMARY KEY (tid, checkpoint_ns, version, channel))""",
    f"""CREATE TABLE lgc_writes (tid BIGINT NOT NULL, checkpoint_ns {_K},
        checkpoint_id BYTEA NOT NULL, task_id BYTEA NOT NULL, writes BYTEA NOT NULL,
        chk BYTEA NOT NULL, PRIMARY KEY (tid, checkpoint_ns, checkpoint_id, task_id))""",
    """CREATE TABLE lgc_messages (tid BIGINT NOT NULL, seq BIGINT NOT NULL,
        message_id BYTEA NOT NULL, digest BYTEA NOT NULL, role TEXT NOT NULL,
        tool_names TEXT NOT NULL, type TEXT NOT NULL, skeleton BYTEA NOT NULL,
        content_in_text BIGINT NOT NULL, chk BYTEA NOT NULL, PRIMARY KEY (tid, seq))""",
    "CREATE INDEX lgc_messages_by_id ON lgc_messages (tid, message_id, digest)",
    """CREATE TABLE lgc_texts (text_id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        tid BIGINT NOT NULL, digest BYTEA NOT NULL, text BYTEA, UNIQUE (tid, digest))""",
    # The words of each text as a tsvector (the text itself stays compressed in
    # lgc_texts), searched through a GIN index (version 6 drops the index, version 8
    # keeps the words as plain text).
    """CREATE TABLE lgc_text_fts (text_id BIGINT PRIMARY KEY, words TSVECTOR NOT NULL)""",
    # Entries go straight into the index (no pending list held until a VACUUM).
    "CREATE INDEX lgc_text_fts_words ON lgc_text_fts USING GIN (words) WITH (fastupdate = off)",
    f"""CREATE TABLE lgc_redactions (thread_id {_K}, message_id {_K},
        reason TEXT NOT NULL, actor TEXT NOT NULL, redacted_at {_K})""",
)

MIGRATIONS: list[Migration] = [
    Migration(1, "checkpoints, blobs, writes", {"sqlite": _V1_TO_V4[:4]}),
    Migration(
        2,
        "messages stored once per thread, texts once per content, FTS5 index",
        {"sqlite": _V1_TO_V4[4:8]},
    ),
    Migration(3, "redaction log", {"sqlite": _V1_TO_V4[8:9]}),
    Migration(
        4,
        "per-thread change counter, so other savers drop stale caches",
        {"sqlite": _V1_TO_V4[9:10]},
    ),
    Migration(
        5,
        "thread numbers, a check on every row, heads, one writes row per task, "
        "inline small values, Fenwick-linked ref lists, blob words left out of FTS",
        {"sqlite": _V5, "postgres": _PG_V5},
        convert_v4,
    ),
    # Searches are per thread (``Dialect.fts_filter`` joins ``lgc_texts`` on ``tid``):
    # the planner reaches a thread's rows through ``lgc_texts`` and tests ``@@`` on
    # each, so a store-wide GIN index is never needed for them. It held as many bytes
    # as the words themselves and cost every text insert a posting-list update.
    Migration(
        6,
        "Postgres: no store-wide GIN index on the words; searches scan the thread's rows",
        {"postgres": ("DROP INDEX IF EXISTS lgc_text_fts_words",)},
    ),
    Migration(
        7,
        "turn leases: who holds a thread's turn, until when (see checkpoint._turns)",
        {
            "sqlite": (
                "ALTER TABLE lgc_threads ADD COLUMN turn_holder TEXT",
                "ALTER TABLE lgc_threads ADD COLUMN turn_until REAL",
            ),
            "postgres": (
                "ALTER TABLE lgc_threads ADD COLUMN turn_holder TEXT",
                "ALTER TABLE lgc_threads ADD COLUMN turn_until DOUBLE PRECISION",
            ),
        },
    ),
    # A stripped tsvector holds a 4-byte entry per word besides the word itself; the
    # same words as sorted plain text take two thirds of the bytes, and a search reads
    # a thread's rows one by one anyway (version 6), finding each word of the query in
    # them (``Dialect.fts_filter``). The column is renamed so that a process of an
    # older version still running fails at once instead of storing or matching the
    # text form of a tsvector. The type change rewrites the table under an exclusive
    # lock (no dead row versions are left; on a large store, searches and writes wait
    # for it: upgrade when the workers are stopped).
    Migration(
        8,
        "Postgres: each text's words as sorted plain text (lgc_text_fts.terms)",
        {
            "postgres": (
                """ALTER TABLE lgc_text_fts ALTER COLUMN words TYPE TEXT
                    USING array_to_string(tsvector_to_array(words), ' ')""",
                "ALTER TABLE lgc_text_fts RENAME COLUMN words TO terms",
            )
        },
    ),
    # Each text's words become a word filter in its own row (``_fts``): about 100
    # bytes for a 2 KB tool output, where the words took 597 in a row and a table of
    # their own. Dropping the table makes a process of an older version still running
    # fail at its next text instead of writing words no search reads. Filling the
    # column rewrites every text row (the old versions stay until VACUUM reuses them)
    # under an exclusive lock: on a large store, upgrade when the workers are stopped.
    Migration(
        9,
        "Postgres: each text's words as a word filter in its row (lgc_texts.words)",
        {"postgres": ("ALTER TABLE lgc_texts ADD COLUMN words BYTEA", "DROP TABLE lgc_text_fts")},
        lambda _dialect: _fill_word_filters(),
        ("postgres",),
    ),
    # What a put and its tasks' writes add to a thread goes into the checkpoint row where
    # it can: the ref-list link the put wrote (``_fold``; its base's row by its 16 UUID
    # bytes) and each task's pending writes (``_writes``), in the update that counts the
    # task, writes stored before their checkpoint moving into its row when it is written.
    # For a chat loop that is 6 rows a turn fewer, each a small value in a 90-byte row
    # with a key entry. Lists and writes stored before stay where they are and are read
    # there. The task count is renamed so that a process of an older version still
    # running fails at its next checkpoint instead of writing rows without links or
    # reading rows without their writes: stop the workers to upgrade.
    Migration(
        10,
        "ref-list links and pending writes folded into their checkpoint row",
        {
            "sqlite": (
                "ALTER TABLE lgc_checkpoints ADD COLUMN link BLOB",
                "ALTER TABLE lgc_checkpoints ADD COLUMN link_base BLOB",
                "ALTER TABLE lgc_checkpoints ADD COLUMN writes BLOB",
                "ALTER TABLE lgc_checkpoints RENAME COLUMN tasks TO task_count",
            ),
            "postgres": (
                "ALTER TABLE lgc_checkpoints ADD COLUMN link BYTEA",
                "ALTER TABLE lgc_checkpoints ADD COLUMN link_base BYTEA",
                "ALTER TABLE lgc_checkpoints ADD COLUMN writes BYTEA",
                "ALTER TABLE lgc_checkpoints RENAME COLUMN tasks TO task_count",
            ),
        },
    ),
]


def _fill_word_filters(batch: int = 500) -> Program[None]:
    """Compute the word filter of every stored text (a damaged one is left for verify)."""
    last = 0
    while True:
        rows = yield q.SELECT_TEXTS_AFTER, (last, batch), "all"
        if not rows:
            return
        filters = []
        for text_id, packed in rows:
            last = int(text_id)
            try:
                filters.append((word_filter(unpack_text(bytes(packed))), last))
            except DECODE_ERRORS:
                log.warning("text row %s does not decode; it is left out of searches", last)
        if filters:
            yield q.UPDATE_TEXT_FILTER, filters, "many"


def migrate(dialect: Dialect, migrations: Sequence[Migration] = MIGRATIONS) -> Program[int]:
    """Bring a database to the latest schema, one recorded step at a time.

    Args:
        dialect: selects each migration's statements.
        migrations: the ordered list; its last version is the latest.

    Returns:
        The schema version after migrating.

    Raises:
        SchemaVersionError: the database was written by a newer version of this package.
        CorruptionError: the version table does not record each step exactly once.
    """
    latest = migrations[-1].version if migrations else 0
    yield CREATE_VERSION_TABLE, (), "none"
    rows = yield SELECT_VERSION, (), "all"
    current, count, first = (int(v or 0) for v in rows[0])
    consistent = count == current and (not count or first == 1)
    if current > latest and consistent:
        raise SchemaVersionError(
            f"this database has checkpoint schema version {current}, but this "
            f"langgraph-compact only knows versions up to {latest}. Upgrade "
            "langgraph-compact (pip install -U langgraph-compact) to open it, or point the "
            "saver at a new database file; downgrading a schema is not supported."
        )
    if not consistent:
        raise corrupt(
            Where(""),
            f"the schema version table is damaged (versions {first}..{current}, {count} rows)",
        )
    for m in migrations:
        if m.version <= current:
            continue
        for statement in m.statements.get(dialect.name, ()):
            yield statement, (), "none"
        if m.program is not None and dialect.name in m.program_dialects:
            yield from m.program(dialect)
        yield INSERT_VERSION, (m.version, m.description), "none"
    return latest
