"""What differs between the SQL backends: one ``Dialect`` value per backend.

The statements themselves are portable and live in ``_sql`` (which re-exports these
names); a ``Dialect`` holds the marker rewrite and the few statements that cannot be
portable: full-text search, after-redaction maintenance and structural checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from langgraph_compact.checkpoint._codec import PLAIN_TEXT

__all__ = ["PAGE_SIZE", "POSTGRES", "SQLITE", "Dialect"]

PAGE_SIZE = 8192
"""SQLite page size of new files (see ``SQLITE.on_open``)."""


@dataclass(frozen=True)
class Dialect:
    """What differs between SQL backends: markers, text search, maintenance, checks.

    Attributes:
        name: selects each migration's statements (``"sqlite"``, ``"postgres"``).
        placeholder: the driver's parameter marker (``?``, or ``%s`` for psycopg).
        fts_insert: index a text row (params: ``text_id``, indexed words).
        fts_delete: remove a text row from the index (same params as inserted).
        fts_filter: a ``WHERE`` fragment on ``lgc_messages m`` keeping messages whose
            text matches (params: query, ``tid``).
        fts_purge: rewrite the index so deleted rows' terms leave it (after redaction).
        fts_check: checks the index's own structure (``verify``).
        after_redaction: run outside a transaction after a redaction commits; its rows
            say whether the old bytes could be removed (SQLite: a WAL checkpoint).
        on_open: run once per connection, outside a transaction, before migrating.
        integrity_check: a whole-database structural check (``verify``).
        text_bytes: ``lgc_texts.text`` holds bytes only (see ``text_value``).
    """

    name: str
    placeholder: str
    fts_insert: str
    fts_delete: str
    fts_filter: str
    fts_purge: str
    fts_check: str
    after_redaction: str
    on_open: tuple[str, ...]
    integrity_check: str
    text_bytes: bool = False

    def text_value(self, packed: str | bytes) -> str | bytes:
        """A ``pack_text`` result as ``lgc_texts.text`` holds it (``text_bytes``: marked)."""
        if self.text_bytes and isinstance(packed, str):
            return PLAIN_TEXT + packed.encode("utf-8", "surrogatepass")
        return packed

    def prepare(self, statement: str) -> str:
        """``statement`` with ``?`` markers rewritten for this driver."""
        return statement if self.placeholder == "?" else _rewrite(statement, self.placeholder)


@lru_cache(maxsize=512)
def _rewrite(statement: str, placeholder: str) -> str:
    # psycopg reads ``%`` as the start of a marker: a literal one (``LIKE 'a%'``) doubles.
    return statement.replace("%", "%%").replace("?", placeholder)


SQLITE = Dialect(
    name="sqlite",
    placeholder="?",
    fts_insert="INSERT INTO lgc_text_fts (rowid, text) VALUES (?, ?)",
    fts_delete="INSERT INTO lgc_text_fts (lgc_text_fts, rowid, text) VALUES ('delete', ?, ?)",
    fts_filter="""m.digest IN (SELECT t.digest FROM lgc_text_fts f
        JOIN lgc_texts t ON t.text_id = f.rowid
        WHERE lgc_text_fts MATCH ? AND t.tid = ?)""",
    fts_purge="INSERT INTO lgc_text_fts (lgc_text_fts) VALUES ('optimize')",
    fts_check="INSERT INTO lgc_text_fts (lgc_text_fts, rank) VALUES ('integrity-check', 0)",
    after_redaction="PRAGMA wal_checkpoint(TRUNCATE)",
    on_open=(
        # Takes effect on a new, empty file only. 8 KiB pages hold five 1.6 KB rows
        # (a 2 KB base64 output, compressed) where 4 KiB pages hold two, while the dozen
        # tables and indexes that hold a page or less cost half of what 16 KiB pages do.
        f"PRAGMA page_size = {PAGE_SIZE}",
        "PRAGMA journal_mode = WAL",
        # Freed space is zeroed, so deleted and redacted content leaves the file
        # without a VACUUM (the default of many builds, set here for all of them).
        "PRAGMA secure_delete = ON",
    ),
    integrity_check="PRAGMA quick_check",
)


POSTGRES = Dialect(
    name="postgres",
    placeholder="%s",
    # ``simple``: lower-cased words, no stemming and no stop words, as FTS5's unicode61
    # tokenizer indexes them; the programs hand over the same words (see ``_fts``).
    # Each text's distinct words are kept as plain text, sorted and space-separated: a
    # stripped tsvector spends a 4-byte entry on every word besides the word (597
    # against 895 bytes for a 2 KB tool output). No word holds a space: the programs
    # hand over runs of letters and digits, and the parser splits at spaces. A tsvector
    # holds at most 1 MB of words, so past half a megabyte (lower-casing can lengthen a
    # word) each word is parsed on its own and the distinct ones joined in the order a
    # tsvector keeps (bytewise), which costs twice as much.
    fts_insert="""INSERT INTO lgc_text_fts (text_id, terms)
        SELECT ?, CASE WHEN octet_length(w.words) < 500000
            THEN array_to_string(tsvector_to_array(to_tsvector('simple', w.words)), ' ')
            ELSE (SELECT COALESCE(string_agg(DISTINCT x COLLATE "C", ' '
                ORDER BY x COLLATE "C"), '') FROM regexp_split_to_table(w.words, ' ') AS one,
                unnest(tsvector_to_array(to_tsvector('simple', one))) AS x) END
        FROM (SELECT CAST(? AS TEXT) AS words) AS w""",
    # The words are not needed to delete a row of a table; the marker keeps the params.
    fts_delete="DELETE FROM lgc_text_fts WHERE text_id = ? AND CAST(? AS TEXT) IS NOT NULL",
    # The query is the FTS5 string of double-quoted words; the quotes are punctuation
    # to the Postgres parser, so it yields the same words, and a text matches when its
    # words hold every one of them, found as `` word `` in the spaced-out list: 0.5-0.7
    # ms for a thread's 300 tool outputs, as fast as ``@@`` on stored tsvectors (parsing
    # the words back with ``to_tsvector`` took 10-15 ms). A query none of whose words
    # the parser keeps matches nothing, as ``@@`` would.
    fts_filter="""m.digest IN (SELECT t.digest FROM lgc_text_fts f
        JOIN lgc_texts t ON t.text_id = f.text_id
        CROSS JOIN (SELECT array_agg(' ' || w || ' ') AS words
            FROM unnest(tsvector_to_array(to_tsvector('simple', ?))) AS w) AS q
        WHERE q.words IS NOT NULL AND t.tid = ? AND NOT EXISTS
            (SELECT 1 FROM unnest(q.words) AS x WHERE strpos(' ' || f.terms || ' ', x) = 0))""",
    # A deleted index row is gone from every query at once; no index rewrite is needed.
    fts_purge="SELECT 1",
    fts_check="SELECT COUNT(*) FROM lgc_text_fts",
    # The heap keeps dead row versions until VACUUM reuses their space; nothing a
    # transaction can do removes them (see docs/scaling.md, "Redaction").
    after_redaction="SELECT 0, 0, 0",
    on_open=(),
    integrity_check="""SELECT CASE WHEN COUNT(*) = 0 THEN 'ok'
        ELSE COUNT(*) || ' full-text index rows name no stored text' END
        FROM lgc_text_fts f WHERE NOT EXISTS
        (SELECT 1 FROM lgc_texts t WHERE t.text_id = f.text_id)""",
    text_bytes=True,
)
