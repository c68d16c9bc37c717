"""What differs between the SQL backends: one ``Dialect`` value per backend.

The statements themselves are portable and live in ``_sql`` (which re-exports these
names); a ``Dialect`` holds the marker rewrite and the few statements that cannot be
portable: full-text search, after-redaction maintenance and structural checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from langgraph_compact.checkpoint._codec import PLAIN_TEXT
from langgraph_compact.checkpoint._fts import SearchTerms

__all__ = ["PAGE_SIZE", "POSTGRES", "SQLITE", "Dialect"]

PAGE_SIZE = 8192
"""SQLite page size of new files (see ``SQLITE.on_open``)."""


@dataclass(frozen=True)
class Dialect:
    """What differs between SQL backends: markers, text search, maintenance, checks.

    Attributes:
        name: selects each migration's statements (``"sqlite"``, ``"postgres"``).
        placeholder: the driver's parameter marker (``?``, or ``%s`` for psycopg).
        fts_insert: index a text row (params: ``text_id``, indexed words); ``None``
            when the text row holds its own word filter (``word_filter``).
        fts_delete: remove a text row from the index (same params as inserted);
            ``None`` when deleting the row is enough.
        fts_filter: a ``WHERE`` fragment on ``lgc_messages m`` keeping messages whose
            text matches (params: ``search_param``, ``tid``).
        fts_purge: rewrite the index so deleted rows' terms leave it (after redaction).
        fts_check: checks the index's own structure (``verify``).
        after_redaction: run outside a transaction after a redaction commits; its rows
            say whether the old bytes could be removed (SQLite: a WAL checkpoint).
        on_open: run once per connection, outside a transaction, before migrating.
        integrity_check: a whole-database structural check (``verify``).
        link_chain: a folded ref-list chain, head first (``_refs``; params: ``tid``,
            ``checkpoint_ns``, the head's row, ``tid``, ``checkpoint_ns``, a limit).
        text_bytes: ``lgc_texts.text`` holds bytes only (see ``text_value``).
        word_filter: ``lgc_texts.words`` holds each text's word filter (``_fts``), and
            ``fts_filter`` keeps candidates, which the caller checks word by word.
    """

    name: str
    placeholder: str
    fts_insert: str | None
    fts_delete: str | None
    fts_filter: str
    fts_purge: str
    fts_check: str
    after_redaction: str
    on_open: tuple[str, ...]
    integrity_check: str
    link_chain: str
    text_bytes: bool = False
    word_filter: bool = False

    def __post_init__(self) -> None:
        if self.word_filter != (self.fts_insert is None):
            raise ValueError(f"dialect {self.name}: words go to fts_insert or a word filter")

    def search_param(self, terms: SearchTerms) -> str | list[int]:
        """The query parameter of ``fts_filter``: an FTS5 string, or the filter bits."""
        return terms.probes() if self.word_filter else str(terms.match)

    def text_value(self, packed: str | bytes) -> str | bytes:
        """A ``pack_text`` result as ``lgc_texts.text`` holds it (``text_bytes``: marked)."""
        if self.text_bytes and isinstance(packed, str):
            return PLAIN_TEXT + packed.encode("utf-8", "surrogatepass")
        return packed

    def prepare(self, statement: str) -> str:
        """``statement`` with ``?`` markers rewritten for this driver."""
        return statement if self.placeholder == "?" else _rewrite(statement, self.placeholder)


_UUID_PARTS = ((1, 8), (9, 4), (13, 4), (17, 4), (21, 12))


def _link_chain(text: str, hex_of: str, length_of: str) -> str:
    """The folded-chain query. ``link_base`` holds a UUID's 16 bytes; it is written as
    LangGraph's id (lower-case hex, 8-4-4-4-12) with only string functions, so a damaged
    value finds no row (a chain with a missing base) instead of failing the statement.
    ``text`` wraps the id (``{h}``), ``hex_of`` and ``length_of`` take bytes (``{x}``)."""
    h = hex_of.format(x="chain.base")
    parts = " || '-' || ".join(f"substr({h}, {a}, {n})" for a, n in _UUID_PARTS)
    size = length_of.format(x="chain.base")
    base = f"(CASE WHEN {size} = 16 THEN {text.format(h=f'({parts})')} END)"
    return f"""WITH RECURSIVE chain(cid, link, base, n) AS (
        SELECT checkpoint_id, link, link_base, 0 FROM lgc_checkpoints
        WHERE tid = ? AND checkpoint_ns = ? AND checkpoint_id = ?
    UNION ALL
        SELECT c.checkpoint_id, c.link, c.link_base, chain.n + 1
        FROM chain JOIN lgc_checkpoints c ON c.tid = ? AND c.checkpoint_ns = ?
            AND c.checkpoint_id = {base}
        WHERE chain.n < ?
    ) SELECT cid, link, base FROM chain ORDER BY n"""


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
    link_chain=_link_chain("lower({h})", "hex({x})", "length({x})"),
)


POSTGRES = Dialect(
    name="postgres",
    placeholder="%s",
    # A text's words live in its own row, as a word filter (``_fts``): 100 bytes for a
    # 2 KB tool output, where a stripped tsvector took 895 and the words as sorted text
    # 597, in a table of their own.
    fts_insert=None,
    fts_delete=None,
    # The texts whose filter has every bit of every query word (``get_bit`` numbers bits
    # as ``word_filter`` sets them); the caller reads each candidate and checks its words.
    # A filter of no bytes would divide by zero: NULLIF makes it a candidate instead.
    fts_filter="""m.digest IN (SELECT t.digest FROM lgc_texts t
        CROSS JOIN (SELECT CAST(? AS BIGINT[]) AS bits) AS q
        WHERE t.tid = ? AND t.words IS NOT NULL AND NOT EXISTS (SELECT 1
            FROM unnest(q.bits) AS b WHERE get_bit(t.words,
                CAST(b % NULLIF(8 * octet_length(t.words), 0) AS INTEGER)) = 0))""",
    # A deleted row is gone from every query at once; no index rewrite is needed.
    fts_purge="SELECT 1",
    # Each thread's filters are checked against their texts (``verify``).
    fts_check="SELECT 1",
    # The heap keeps dead row versions until VACUUM reuses their space; nothing a
    # transaction can do removes them (see docs/scaling.md, "Redaction").
    after_redaction="SELECT 0, 0, 0",
    on_open=(),
    integrity_check="""SELECT CASE WHEN COUNT(*) = 0 THEN 'ok'
        ELSE COUNT(*) || ' texts hold a word filter of no bytes' END
        FROM lgc_texts WHERE octet_length(words) = 0""",
    link_chain=_link_chain('{h} COLLATE "C"', "encode({x}, 'hex')", "octet_length({x})"),
    text_bytes=True,
    word_filter=True,
)
