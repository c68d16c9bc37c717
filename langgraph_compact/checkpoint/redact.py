"""Redaction: replace a message's content with a tombstone wherever the saver stored it.

A message's text lives in one row of ``lgc_message_texts`` (shared by every message of
the thread with the same content, and indexed by FTS5), its skeleton in ``lgc_messages``;
copies can also sit inside serialized blobs and pending writes of other channels, and a
``RunningSummary`` derived from it can carry its words. Exactly the requested ids change
(other messages with the same text keep it) and other user values are never touched.
Everything is rewritten in one transaction and logged in ``lgc_redactions``; the saver
then optimizes the FTS index, ``VACUUM``\\s and truncates the WAL, so the old bytes leave
the database file.

Loading the state afterwards yields the tombstoned message under the same id, so its
``message_digest`` changes and any summary whose coverage digest included it no longer
matches: the compaction node rebuilds it on its next call.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from langgraph_compact.checkpoint import _core as q
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.compaction.summary import RunningSummary, SummaryItem
from langgraph_compact.messages import message_digest, message_text

__all__ = [
    "MAINTENANCE_SQL",
    "SCRUBBED",
    "SCRUB_MIN_CHARS",
    "RedactionResult",
    "redact_program",
    "tombstone",
]

_PUNCT = string.punctuation + "“”‘’«»"

_MESSAGE_ROWS_SQL = """SELECT seq, message_id, digest, type, skeleton FROM lgc_messages
    WHERE thread_id = ? AND message_id IN ({marks})"""
_ANONYMOUS_ROWS_SQL = """SELECT seq, message_id, digest, type, skeleton FROM lgc_messages
    WHERE thread_id = ? AND message_id = '' AND digest IN ({marks})"""
_UPDATE_MESSAGE_SQL = """UPDATE lgc_messages
    SET digest = ?, type = ?, skeleton = ?, content_in_text = ?
    WHERE thread_id = ? AND seq = ?"""
_USED_DIGESTS_SQL = """SELECT DISTINCT digest FROM lgc_messages
    WHERE thread_id = ? AND digest IN ({marks})"""
_TEXT_ROWS_SQL = """SELECT text_id, text FROM lgc_message_texts
    WHERE thread_id = ? AND digest IN ({marks})"""
_DELETE_TEXT_SQL = "DELETE FROM lgc_message_texts WHERE text_id = ?"
_VALUE_TABLES = {
    "lgc_blobs": ("checkpoint_ns", "channel", "version"),
    "lgc_writes": ("checkpoint_ns", "checkpoint_id", "task_id", "idx"),
}
_VALUE_ROWS_SQL = """SELECT type, blob, {key} FROM {table}
    WHERE thread_id = ? AND type NOT IN ('empty', 'lgc.refs', 'lgc.msgs')"""
_UPDATE_VALUE_SQL = "UPDATE {table} SET type = ?, blob = ? WHERE thread_id = ? AND {where}"
_LOG_SQL = """INSERT INTO lgc_redactions (thread_id, message_id, reason, actor, redacted_at)
    VALUES (?, ?, ?, ?, ?)"""
_OPTIMIZE_FTS_SQL = "INSERT INTO lgc_message_fts (lgc_message_fts) VALUES ('optimize')"

MAINTENANCE_SQL = ("VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)")
"""Run outside a transaction after a redaction so freed pages leave the file."""


@dataclass(frozen=True)
class RedactionResult:
    """What a redaction touched; ``message_ids`` lists the ids that were found."""

    thread_id: str
    message_ids: list[str]
    message_rows: int
    values_rewritten: int
    tombstone: str


def tombstone(reason: str) -> str:
    """The text a redacted message carries instead of its content.

    >>> tombstone("PII")
    '[redacted: PII]'
    """
    return f"[redacted: {reason}]"


SCRUB_MIN_CHARS = 6
"""Words at least this long from a redacted message are scrubbed from stored summaries."""
SCRUBBED = "[redacted]"


@dataclass(frozen=True)
class _Scrubber:
    """Rewrites a stored value: copies of redacted messages become tombstones, and
    ``RunningSummary`` values lose what they drew from them. Nothing else changes.

    A summary can carry a redacted message's content without being that message. Its
    items drawn from the redacted ids (or of unknown lineage) are dropped with
    ``RunningSummary.without_sources``, which also marks it stale so the compaction node
    rebuilds it; in the remaining items every word of the redacted text of
    ``SCRUB_MIN_CHARS`` or more characters becomes ``[redacted]`` (short words are left
    alone so the text stays readable). Other user values (strings, notes, models) are
    never rewritten: the package cannot know they derive from the message.
    """

    ids: frozenset[str]
    digests: frozenset[str]
    """Contents of the redacted messages: id-less copies of them are tombstoned too."""
    tombstone: str
    words: re.Pattern[str] | None
    hits: set[str] = field(default_factory=set)
    """The ids whose copies were tombstoned inside values."""

    @classmethod
    def build(
        cls, ids: Sequence[str], digests: Sequence[bytes], tombstone: str, texts: Sequence[str]
    ) -> _Scrubber:
        words = {w.strip(_PUNCT) for t in texts for w in t.split()}
        long = sorted((w for w in words if len(w) >= SCRUB_MIN_CHARS), key=len, reverse=True)
        pattern = re.compile("|".join(map(re.escape, long))) if long else None
        return cls(frozenset(ids), frozenset(d.hex() for d in digests), tombstone, pattern)

    def __call__(self, value: Any) -> tuple[Any, bool]:
        """``value`` rewritten, and whether anything changed."""
        if isinstance(value, BaseMessage):
            if value.id in self.ids:
                self.hits.add(value.id)
                return value.model_copy(update={"content": self.tombstone}), True
            if not value.id and message_digest(value) in self.digests:
                # e.g. the graph input in __start__, written before add_messages set ids
                return value.model_copy(update={"content": self.tombstone}), True
            return value, False
        if isinstance(value, RunningSummary):
            return self._summary(value)
        if isinstance(value, (list, tuple)):
            items = [self(v) for v in value]
            if any(changed for _, changed in items):
                return type(value)(v for v, _ in items), True
            return value, False
        if isinstance(value, dict):
            pairs = {k: self(v) for k, v in value.items()}
            if any(changed for _, changed in pairs.values()):
                return {k: v for k, (v, _) in pairs.items()}, True
            return value, False
        if isinstance(value, BaseModel):
            fields = {name: self(getattr(value, name)) for name in type(value).model_fields}
            update = {name: v for name, (v, changed) in fields.items() if changed}
            if update:
                return value.model_copy(update=update), True
        return value, False

    def _words(self, item: SummaryItem) -> SummaryItem:
        if self.words is None:
            return item
        update = {
            name: new
            for name in ("text", "key")
            if isinstance(old := getattr(item, name), str)
            and (new := self.words.sub(SCRUBBED, old)) != old
        }
        return item.model_copy(update=update) if update else item

    def _summary(self, value: RunningSummary) -> tuple[RunningSummary, bool]:
        sections = {s: tuple(map(self._words, items)) for s, items in value.sections.items()}
        stale = sections != value.sections or any(
            not i.sources or self.ids.intersection(i.sources)
            for items in value.sections.values()
            for i in items
        )
        if not stale:
            return value, False
        return value.model_copy(update={"sections": sections}).without_sources(self.ids), True


def redact_program(
    store: CheckpointStore,
    thread_id: str,
    message_ids: Sequence[str],
    reason: str,
    actor: str,
    now: str,
) -> q.Program[RedactionResult]:
    """Tombstone ``message_ids`` of one thread in every table, and log who, why and when.

    Only the requested ids change, never another message that happens to have the same
    content. Algorithm: take every stored version (row) of the ids, plus the id-less
    copies of those exact contents (a node's pending writes, stored before
    ``add_messages`` gave them an id); point each row at the tombstone's digest and text
    row; drop an original text row (and its FTS5 entry) only when no other message
    still uses it; tombstone copies of the ids inside serialized blobs and writes of
    other channels; log one row per id that changed.
    """
    text = tombstone(reason)
    ids = list(dict.fromkeys(message_ids))
    if not ids:
        return RedactionResult(thread_id, [], 0, 0, text)
    sql = _MESSAGE_ROWS_SQL.format(marks=q.marks(len(ids)))
    rows = list((yield sql, (thread_id, *ids), "all"))
    old_digests = sorted({r[2] for r in rows})
    if old_digests:
        sql = _ANONYMOUS_ROWS_SQL.format(marks=q.marks(len(old_digests)))
        rows += yield sql, (thread_id, *old_digests), "all"
    changed: set[str] = {str(r[1]) for r in rows if r[1]}
    originals: list[str] = []
    updates, texts = [], {}
    for seq, _mid, _digest, t, skeleton in rows:
        msg = store.loads_skeleton(t, skeleton)
        if msg.content:  # content kept in the skeleton (non-string or unindexed text)
            originals.append(message_text(msg))
        dead = msg.model_copy(update={"content": text})
        digest = bytes.fromhex(message_digest(dead))
        new_t, blob, in_text, new_text = store._skeleton(dead, dead.id)
        updates.append((digest, new_t, blob, in_text, thread_id, seq))
        texts[digest] = new_text
    if updates:
        yield _UPDATE_MESSAGE_SQL, updates, "many"
        for digest, new_text in texts.items():
            row = (thread_id, digest, q.pack_text(new_text))
            inserted = yield q.INSERT_TEXT_SQL, row, "all"
            if inserted and new_text is not None:
                yield q.INSERT_FTS_SQL, (inserted[0][0], new_text), "none"
        used_sql = _USED_DIGESTS_SQL.format(marks=q.marks(len(old_digests)))
        used = {r[0] for r in (yield used_sql, (thread_id, *old_digests), "all")}
        unused = [d for d in old_digests if d not in used]
        if unused:
            sql = _TEXT_ROWS_SQL.format(marks=q.marks(len(unused)))
            old = [(tid, q.unpack_text(t)) for tid, t in (yield sql, (thread_id, *unused), "all")]
            originals += [t for _, t in old if t]
            if indexed := [(tid, t) for tid, t in old if t is not None]:
                yield q.DELETE_FTS_SQL, indexed, "many"
            yield _DELETE_TEXT_SQL, [(tid,) for tid, _ in old], "many"
        if used:  # shared with other messages: kept, but its words are still scrubbed
            sql = _TEXT_ROWS_SQL.format(marks=q.marks(len(used)))
            kept = yield sql, (thread_id, *sorted(used)), "all"
            originals += [t for _, raw in kept if (t := q.unpack_text(raw))]
        yield _OPTIMIZE_FTS_SQL, (), "none"
    rewritten = 0
    scrub = _Scrubber.build(ids, old_digests, text, originals)
    for table, key in _VALUE_TABLES.items():
        sql = _VALUE_ROWS_SQL.format(table=table, key=", ".join(key))
        update = _UPDATE_VALUE_SQL.format(table=table, where=" AND ".join(f"{k} = ?" for k in key))
        values = yield sql, (thread_id,), "all"
        for t, blob, *pk in values:
            value, hit = scrub(store.serde.loads_typed((t, blob)))
            if hit:
                yield update, (*store.serde.dumps_typed(value), thread_id, *pk), "none"
                rewritten += 1
    changed |= scrub.hits
    found = [mid for mid in ids if mid in changed]
    if found:
        yield _LOG_SQL, [(thread_id, mid, reason, actor, now) for mid in found], "many"
    yield from store.bump_thread(thread_id)
    return RedactionResult(thread_id, found, len(updates), rewritten, text)
