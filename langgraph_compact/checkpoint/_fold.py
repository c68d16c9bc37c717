"""Where a put's new ref-list link goes: into its own checkpoint row, when it can.

A row holds at most one link (``lgc_checkpoints.link``, its base's row in ``link_base``),
and only a row with a UUID id appended at the head of its lane takes one: a row written
in the middle (or again) keeps the link it has. The checkpoint's record names the row
holding each folded list as an inline value of type ``LINK_TYPE``: the row's id as a
key, or nothing for the row itself (carried to the next row as the id, ``carried``).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import Where, blob_check, corrupt, decoding
from langgraph_compact.checkpoint._codec import (
    INLINE_MAX_BYTES,
    REFS_TYPE,
    key,
    unkey,
)
from langgraph_compact.checkpoint._lane import load_record
from langgraph_compact.checkpoint._lists import ListWrite, fetch_chain, store_list
from langgraph_compact.checkpoint._messages import MessageStore, Thread
from langgraph_compact.checkpoint._payload import StoredCheckpoint
from langgraph_compact.checkpoint._refs import (
    RefLink,
    encode_link,
    folded_value,
    link_check,
    materialize,
    row_blob,
)

__all__ = [
    "LINK_TYPE",
    "Fold",
    "carried",
    "check_folded",
    "folded_lists",
    "from_parent",
    "is_uuid",
    "link_row",
    "put_value",
    "rehome",
    "same_version",
]

LINK_TYPE = "lgc.link"
"""Inline ``type`` of a message list whose ref-list link lives in a checkpoint row's
``link`` column: the value is that row's id as a key, or empty for the row itself."""


def is_uuid(text: str) -> bool:
    """Whether ``text`` is a canonical (lower-case, 8-4-4-4-12) UUID, as LangGraph's ids.

    >>> u = "1f0a1b2c-3d4e-6f70-8001-0123456789ab"
    >>> is_uuid(u), is_uuid(u.upper()), is_uuid(u[:-1])
    (True, False, False)
    """
    try:
        return len(text) == 36 and str(uuid.UUID(text)) == text
    except ValueError:
        return False


class Fold:
    """The link a put folds into its row (at most one), and the row's link columns."""

    def __init__(self, cid: str, appended: bool) -> None:
        self.cid = cid
        self.free: str | None = cid if appended and is_uuid(cid) else None
        """The row a new link may be folded into (``None``: it goes to lgc_blobs). Only
        rows with a UUID id (LangGraph's) take one: ``link_base`` holds its 16 bytes."""
        self.columns: tuple[bytes | None, bytes | None] = (None, None)
        """``link, link_base`` of the row."""
        self.blob_rows: list[tuple[Any, ...]] = []
        """The put's value rows (``INSERT_BLOB``)."""

    def take(self, written: ListWrite) -> None:
        """Record a folded link this put wrote into its row."""
        if written.new and written.link.row == self.cid:
            base = written.link.base
            base_bytes = None if base is None else uuid.UUID(base).bytes
            self.columns = (folded_value(written.link), base_bytes)
            self.free = None

    def pointer(self, row: str) -> bytes:
        """The inline value naming the row that holds a list's link."""
        return b"" if row == self.cid else key(row)


def same_version(record: StoredCheckpoint, channel: str, version: str) -> bool:
    """Whether ``record`` holds ``channel`` at ``version`` with a value."""
    if channel in record.empty:
        return False
    known = record.skeleton.get("channel_versions", {}).get(channel)
    return known is not None and str(known) == version


def carried(value: tuple[str, bytes], base_cid: str) -> tuple[str, bytes]:
    """An unchanged inline value as the next row keeps it (a link in the row before is
    named by that row's id)."""
    if value[0] == LINK_TYPE and not value[1]:
        return LINK_TYPE, key(base_cid)
    return value


def from_parent(
    store: MessageStore,
    th: Thread,
    ns: str,
    parent: str | None,
    unknown: dict[str, tuple[str, Any]],
    inline: dict[str, tuple[str, bytes]],
) -> q.Program[None]:
    """Name the holders of the unchanged lists the parent's row names (a put with no
    base record: a fork, a row in the middle) instead of storing them again; they leave
    ``unknown``."""
    if not parent or not unknown:
        return
    rows = yield q.SELECT_CHECKPOINT, (th.tid, ns, parent), "all"
    if not rows:
        return
    record = yield from load_record(store, th, ns, rows[0])
    versions = record.skeleton.get("channel_versions", {})
    for channel, (version, _) in list(unknown.items()):
        value = record.inline.get(channel)
        if value is not None and value[0] == LINK_TYPE and str(versions.get(channel)) == version:
            inline[channel] = carried(value, parent)
            del unknown[channel]


def link_row(cid: str, value: bytes, where: Where) -> str:
    """The row holding a list's link, from the inline value of checkpoint ``cid``."""
    if not value:
        return cid
    with decoding(where, "a ref-list pointer"):
        return unkey(value)


def put_value(
    store: MessageStore,
    th: Thread,
    ns: str,
    channel: str,
    version: str,
    value: Any,
    inline: dict[str, tuple[str, bytes]],
    fold: Fold,
) -> q.Program[None]:
    """Store a channel value: a ref list (folded into a checkpoint row, or a ref row),
    inline in the checkpoint row, or a value row (``fold.blob_rows``)."""
    written = yield from store_list(store, th, ns, channel, version, value, fold.free)
    if written is not None:
        link = written.link
        if link.row is not None:  # in this row's link, or an older row's
            fold.take(written)
            inline[channel] = (LINK_TYPE, fold.pointer(link.row))
        elif written.new:  # a ref row (an older row with this key stays: drop our chain)
            base = key(link.base) if link.base is not None else None
            row = (th.tid, ns, key(link.version), channel, REFS_TYPE, row_blob(link), base)
            if not (yield q.INSERT_REFS, (*row, link.check), "all"):
                store.cache.forget(th.tid)
        return
    t, b = store.serde.dumps_typed(value)
    if len(b) <= INLINE_MAX_BYTES:
        inline[channel] = (t, b)
    else:
        chk = blob_check(ns, channel, version, t, b)
        fold.blob_rows.append((th.tid, ns, key(version), channel, t, b, None, chk))


def folded_lists(record: StoredCheckpoint, cid: str, where: Where) -> dict[str, tuple[str, str]]:
    """``channel -> (version, holder row)`` of the record's folded message lists."""
    versions = record.skeleton.get("channel_versions", {})
    return {
        channel: (str(versions.get(channel)), link_row(cid, b, where.at(channel=channel)))
        for channel, (t, b) in record.inline.items()
        if t == LINK_TYPE
    }


def check_folded(
    store: MessageStore,
    th: Thread,
    ns: str,
    cid: str,
    record: StoredCheckpoint,
    seqs: set[int],
    checked: set[tuple[str, str | None]],
) -> q.Program[int]:
    """Verify each folded list of a checkpoint link by link (``verify``), and return how
    many links were seen for the first time (``checked``: the ``(channel, row)`` seen).

    Raises:
        CorruptionError: a link fails its check, its chain is broken, or it names a
            message row that does not exist.
    """
    where, new = Where(th.thread_id, cid), 0
    for channel, (version, holder) in folded_lists(record, cid, where).items():
        if (channel, holder) in checked:
            continue
        at = where.at(channel=channel)
        links = yield from fetch_chain(store, th, ns, channel, version, at, holder)
        if absent := [s for s in materialize(links) if s not in seqs]:
            raise corrupt(at, f"its ref list names missing message rows {absent[:5]}")
        new += sum((channel, link.row) not in checked for link in links)
        checked.update((channel, link.row) for link in links)
    return new


def rehome(
    store: MessageStore,
    th: Thread,
    ns: str,
    cid: str,
    record: StoredCheckpoint,
    gone: set[str] | None = None,
    chains: dict[tuple[str, str], list[RefLink]] | None = None,
) -> q.Program[StoredCheckpoint]:
    """The record with its folded lists stored as ``lgc_blobs`` snapshots instead, for
    each list whose chain passes through a row in ``gone`` (``None``: every list); run
    before those rows are deleted (``prune``, ``delete_for_runs``). ``chains`` keeps the
    chains read, by ``(channel, holder)``, for the next rows of the lane."""
    where = Where(th.thread_id, cid)
    inline = dict(record.inline)
    chains = {} if chains is None else chains
    for channel, (version, holder) in folded_lists(record, cid, where).items():
        at = where.at(channel=channel)
        if (channel, holder) not in chains:
            chain = yield from fetch_chain(store, th, ns, channel, version, at, holder)
            chains[(channel, holder)] = chain
        links = chains[(channel, holder)]
        if gone is not None and not any(link.row in gone for link in links):
            continue
        blob = encode_link(0, 0, materialize(links))
        chk = link_check(ns, channel, version, None, None, blob)
        yield q.INSERT_BLOB, (th.tid, ns, key(version), channel, REFS_TYPE, blob, None, chk), "none"
        del inline[channel]
        store.cache.forget(th.tid)
    return record if inline == record.inline else replace(record, inline=inline)
