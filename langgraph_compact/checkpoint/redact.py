"""Redaction: replace a message wherever the saver stored it, and say if bytes remain.

A message's text lives in one row of ``lgc_texts`` (shared by every message of the
thread with the same content, its words indexed by FTS5), its skeleton in
``lgc_messages``; copies can also sit inside serialized values and pending writes of
other channels, and a ``RunningSummary`` derived from it can carry its words. Exactly
the requested ids change (other messages with the same text keep it; see
``_scrub.tombstone_message`` for what a redacted message keeps) and other user values
are never touched. Everything is rewritten in one transaction and logged in
``lgc_redactions``.

No whole-file ``VACUUM`` (it locks every other writer out for as long as it takes to
rewrite the file): the saver runs with ``secure_delete`` on, so SQLite zeroes freed
space as it goes; the FTS index is merged (its own maintenance, ``optimize``) so no
segment keeps the old terms; then a ``wal_checkpoint(TRUNCATE)`` moves every page into
the main file and empties the write-ahead log. If another connection holds a read
transaction, the checkpoint cannot finish: the result says so (``complete`` false,
``remaining_bytes``) and a warning is logged. To finish, end the other readers (close
their connections or let their transactions end) and call ``saver.finish_redaction()``.

Loading the state afterwards yields the tombstoned message under the same id, so its
``message_digest`` changes and any summary whose coverage digest included it no longer
matches: the compaction node rebuilds it on its next call.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import (
    Where,
    blob_check,
    decoding,
    message_check,
    verify_check,
    writes_check,
)
from langgraph_compact.checkpoint._codec import (
    REFS_TYPE,
    WRITE_REFS_TYPE,
    decode_writes,
    encode_writes,
    key,
    unkey,
    unpack_text,
)
from langgraph_compact.checkpoint._fts import index_words
from langgraph_compact.checkpoint._messages import Thread, tool_names
from langgraph_compact.checkpoint._scrub import Scrubber, message_strings, tombstone_message
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.checkpoint._writes import fold_entries, folded_entries
from langgraph_compact.messages import message_digest

__all__ = ["RedactionResult", "redact_program", "tombstone"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RedactionResult:
    """What a redaction changed, and whether the old bytes are gone from the database.

    Attributes:
        thread_id: the thread redacted.
        message_ids: the requested ids that were found and changed (also logged).
        message_rows: stored versions rewritten (edits and id-less copies included).
        values_rewritten: other stored values and pending writes rewritten.
        tombstone: the content the messages carry now.
        complete: no byte of the old content is left in the database files: the
            write-ahead log was checkpointed and no other thread holds a copy.
        remaining_bytes: size of the write-ahead log that may still hold old pages
            (another connection's read transaction kept it); 0 when it was emptied.
        also_in_threads: other threads holding the same messages (``copy_thread``
            copies); redact them too.
    """

    thread_id: str
    message_ids: list[str]
    message_rows: int
    values_rewritten: int
    tombstone: str
    complete: bool = True
    remaining_bytes: int = 0
    also_in_threads: list[str] = field(default_factory=list)

    def finished(self, remaining_bytes: int) -> RedactionResult:
        """This result once the write-ahead log was (or could not be) emptied."""
        result = replace(
            self,
            remaining_bytes=remaining_bytes,
            complete=remaining_bytes == 0 and not self.also_in_threads,
        )
        if remaining_bytes:
            logger.warning(
                "redaction of %s in thread %r: another connection holds a read transaction, "
                "so %d bytes of the write-ahead log may still hold the old content. End the "
                "other readers, then call saver.finish_redaction().",
                self.message_ids,
                self.thread_id,
                remaining_bytes,
            )
        if self.also_in_threads:
            logger.warning(
                "redaction of %s in thread %r: threads %s hold copies of these messages; "
                "redact them there too.",
                self.message_ids,
                self.thread_id,
                self.also_in_threads,
            )
        return result


def tombstone(reason: str) -> str:
    """The text a redacted message carries instead of its content.

    >>> tombstone("PII")
    '[redacted: PII]'
    """
    return f"[redacted: {reason}]"


def redact_program(
    store: CheckpointStore,
    thread_id: str,
    message_ids: Sequence[str],
    reason: str,
    actor: str,
    now: str,
) -> q.Program[RedactionResult]:
    """Tombstone ``message_ids`` of one thread in every table, and log who, why and when.

    Algorithm: take every stored version (row) of the ids, plus the id-less copies of
    those exact contents (a node's pending writes, stored before ``add_messages`` gave
    them an id); rewrite each row as its tombstone; drop an original text row (and its
    index entries) when no other message still uses it, then merge the index; tombstone
    copies of the ids inside serialized values and writes; log one row per id changed.
    """
    text = tombstone(reason)
    ids = list(dict.fromkeys(str(i) for i in message_ids))
    th = yield from store.thread(thread_id)
    if th is None or not ids:
        return RedactionResult(thread_id, [], 0, 0, text)
    where = Where(thread_id)
    keys = [key(i) for i in ids]
    sql = q.SELECT_SEQS_BY_IDS.format(marks=q.marks(len(ids)))
    seqs = [int(r[0]) for r in (yield sql, (th.tid, *keys), "all")]
    rows = yield from _message_rows(th, seqs)
    old_digests = sorted({bytes(r[2]) for r in rows})
    if old_digests:
        sql = q.SELECT_ANONYMOUS_BY_DIGESTS.format(marks=q.marks(len(old_digests)))
        copies = [int(r[0]) for r in (yield sql, (th.tid, key(""), *old_digests), "all")]
        rows += yield from _message_rows(th, copies)
    changed = {unkey(r[1]) for r in rows if r[1]}
    originals: list[str] = []
    updates, texts = [], {}
    for row in rows:
        original = store.decode_row(row, where)
        originals += message_strings(original)
        dead = tombstone_message(original, text)
        seq, mid = int(row[0]), unkey(row[1])
        digest = bytes.fromhex(message_digest(dead))
        t, blob, in_text, new_text = store.split(dead)
        chk = message_check(
            seq, mid, digest, dead.type, tool_names(dead), t, blob, in_text, new_text
        )
        updates.append((digest, t, blob, in_text, chk, th.tid, seq))
        if new_text is not None:
            texts[digest] = new_text
    if updates:
        yield q.UPDATE_MESSAGE, updates, "many"
        for digest, new_text in texts.items():
            yield from store.insert_text(th, digest, new_text)
        yield from _drop_texts(store, th, old_digests)
    scrub = Scrubber.build(ids, old_digests, text, originals)
    rewritten = yield from _scrub_values(store, th, scrub)
    changed |= scrub.hits
    found = [mid for mid in ids if mid in changed]
    if found:
        log = [(thread_id, mid, reason, actor, now) for mid in found]
        yield q.INSERT_REDACTION, log, "many"
    elsewhere: list[tuple[str]] = []
    if old_digests:
        sql = q.SELECT_COPIES_ELSEWHERE.format(
            marks=q.marks(len(ids)), digests=q.marks(len(old_digests))
        )
        elsewhere = yield sql, (th.tid, *keys, *old_digests), "all"
    yield from store.bump(th)
    others = [str(r[0]) for r in elsewhere]
    return RedactionResult(thread_id, found, len(updates), rewritten, text, also_in_threads=others)


def _message_rows(th: Thread, seqs: list[int]) -> q.Program[list[tuple[Any, ...]]]:
    """The message rows (``_sql.SELECT_MESSAGES`` columns) of ``seqs``."""
    out: list[tuple[Any, ...]] = []
    for start in range(0, len(seqs), 400):
        chunk = seqs[start : start + 400]
        sql = q.SELECT_MESSAGES.format(marks=q.marks(len(chunk)))
        out += yield sql, (th.tid, *chunk), "all"
    return out


def _drop_texts(store: CheckpointStore, th: Thread, digests: list[bytes]) -> q.Program[None]:
    """Delete the text rows (and index entries) of ``digests`` no message uses any more."""
    used_sql = q.SELECT_USED_DIGESTS.format(marks=q.marks(len(digests)))
    used = {bytes(r[0]) for r in (yield used_sql, (th.tid, *digests), "all")}
    unused = [d for d in digests if d not in used]
    if not unused:
        return
    sql = q.SELECT_TEXTS_BY_DIGESTS.format(marks=q.marks(len(unused)))
    old = yield sql, (th.tid, *unused), "all"
    fts_delete = store.dialect.fts_delete
    if fts_delete is not None:
        for text_id, packed in old:
            with decoding(Where(th.thread_id), f"text row {text_id}"):
                words = index_words(unpack_text(packed))
            yield fts_delete, (text_id, words), "none"
    yield q.DELETE_TEXT, [(tid,) for tid, _ in old], "many"
    # FTS5 'delete' only adds a tombstone entry; merging the segments drops the old terms.
    yield store.dialect.fts_purge, (), "none"


def _scrub_values(store: CheckpointStore, th: Thread, scrub: Scrubber) -> q.Program[int]:
    """Rewrite serialized values and pending writes that hold copies; returns how many."""
    plain = store.index_text  # an encrypting serializer: every value must be decoded
    rewritten = 0
    values = yield q.SELECT_VALUE_BLOBS, (th.tid, REFS_TYPE), "all"
    for ns, raw_version, channel, t, blob, stored in values:
        if plain and not scrub.may_hold(bytes(blob)):
            continue
        version = unkey(raw_version)
        at = Where(th.thread_id, channel=channel)
        verify_check(at, stored, blob_check(ns, channel, version, t, blob), "a value row")
        with decoding(at, "a value row"):
            value, hit = scrub(store.serde.loads_typed((t, blob)))
        if hit:
            new_t, new_blob = store.serde.dumps_typed(value)
            chk = blob_check(ns, channel, version, new_t, new_blob)
            row_key = (th.tid, ns, raw_version, channel)
            yield q.UPDATE_BLOB_VALUE, (new_t, new_blob, chk, *row_key), "none"
            rewritten += 1
    for ns, raw_cid, raw_task, blob, stored in (yield q.SELECT_THREAD_WRITES, (th.tid,), "all"):
        cid, task_id = unkey(raw_cid), unkey(raw_task)
        new_blob, chk, hits = _scrub_writes(store, scrub, plain, th, ns, cid, task_id, blob, stored)
        if hits:
            yield q.UPDATE_WRITES, (new_blob, chk, th.tid, ns, raw_cid, raw_task), "none"
            rewritten += hits
    for ns, cid, raw in (yield q.SELECT_FOLDED_WRITES, (th.tid,), "all"):
        entries, found = [], 0
        at = Where(th.thread_id, str(cid))
        for raw_task, blob, stored in folded_entries(raw, at):
            with decoding(at, "a pending writes entry's task id"):
                task_id = unkey(raw_task)
            new_blob, chk, hits = _scrub_writes(
                store, scrub, plain, th, ns, str(cid), task_id, blob, stored
            )
            entries.append((raw_task, new_blob, chk))
            found += hits
        if found:
            yield q.UPDATE_FOLDED_WRITES, (fold_entries(entries), 0, th.tid, ns, cid), "none"
            rewritten += found
    return rewritten


def _scrub_writes(
    store: CheckpointStore,
    scrub: Scrubber,
    plain: bool,
    th: Thread,
    ns: str,
    cid: str,
    task_id: str,
    blob: bytes,
    stored: bytes,
) -> tuple[bytes, bytes, int]:
    """A task's packed writes with the redacted values scrubbed: ``(writes, check, hits)``."""
    at = Where(th.thread_id, cid)
    verify_check(at, stored, writes_check(ns, cid, task_id, blob), "a writes row")
    entries: list[tuple[int, str, str, bytes]] = []
    hits = 0
    with decoding(at, "a writes row"):
        path, found = decode_writes(blob)
        for idx, channel, t, value_bytes in found:
            if t == WRITE_REFS_TYPE or (plain and not scrub.may_hold(value_bytes)):
                entries.append((idx, channel, t, value_bytes))
                continue
            scrubbed, hit = scrub(store.serde.loads_typed((t, value_bytes)))
            if hit:
                t, value_bytes = store.serde.dumps_typed(scrubbed)
                hits += 1
            entries.append((idx, channel, t, value_bytes))
    if not hits:
        return blob, stored, 0
    new_blob = encode_writes(path, entries)
    return new_blob, writes_check(ns, cid, task_id, new_blob), hits
