"""Checkpoint rows of one namespace (a *lane*): delta-encoded, decoded with their bases.

A row is a delta against the row before it by checkpoint id (see ``_payload``). These
programs decode a row (fetching the rows its delta needs, at most ``SNAPSHOT_EVERY``,
in one range query unless they are cached), encode a new one against the lane's head,
and re-encode the rows after a change in the middle of a lane (a put with an older id,
a replaced or deleted row), since a delta names its base by the base's check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import (
    Where,
    checkpoint_check,
    corrupt,
    decoding,
    head_check,
    verify_check,
)
from langgraph_compact.checkpoint._messages import MessageStore, Thread
from langgraph_compact.checkpoint._payload import (
    SNAPSHOT_EVERY,
    Packed,
    StoredCheckpoint,
    pack_checkpoint,
    peek,
    repack,
    unpack,
)
from langgraph_compact.errors import CorruptionError

__all__ = [
    "Base",
    "advance_head",
    "check_count",
    "lane_base",
    "load_record",
    "pack_row",
    "read_head",
    "reencode_after",
    "rewrite_lane",
]

Row = Sequence[Any]
"""``checkpoint_id, run_id, payload, task_count, chk`` (``_sql.SELECT_CHECKPOINT``)."""


def _decode(
    store: MessageStore, th: Thread, ns: str, row: Row, base: tuple[str, StoredCheckpoint] | None
) -> tuple[StoredCheckpoint, int]:
    cid, run_id, payload, _tasks, stored = row
    where = Where(th.thread_id, str(cid))
    verify_check(where, stored, checkpoint_check(ns, cid, run_id, payload), "the checkpoint row")
    with decoding(where, "the checkpoint row"):
        depth, _ = peek(payload)
        record = unpack(payload, run_id, base)
    store.cache.put_record(th.cache, stored, str(cid), record, depth)
    return record, depth


def load_record(store: MessageStore, th: Thread, ns: str, row: Row) -> q.Program[StoredCheckpoint]:
    """A checkpoint row decoded and verified, with the base rows its delta needs.

    Raises:
        CorruptionError: the row (or a base) fails its check or does not decode, or a
            base row is missing or not the one the delta was written against.
    """
    cid, _run_id, payload, _tasks, stored = row
    hit = store.cache.record(th.cache, stored)
    if hit is not None and hit[0] == cid:
        return hit[1]
    where = Where(th.thread_id, str(cid))
    with decoding(where, "the checkpoint row"):
        depth, base_check = peek(payload)
    if not depth or base_check is None:
        return _decode(store, th, ns, row, None)[0]
    hit = store.cache.record(th.cache, base_check)
    if hit is not None:
        return _decode(store, th, ns, row, (hit[0], hit[1]))[0]
    rows = yield q.SELECT_PREVIOUS_ROWS, (th.tid, ns, cid, depth), "all"
    chain: list[Row] = []
    expected: bytes | None = base_check
    for older in rows:  # newest first: each must be the base the row after it names
        if older[4] != expected:
            raise corrupt(where, f"the row its delta is based on ({older[0]}) has changed")
        chain.append(older)
        with decoding(Where(th.thread_id, str(older[0])), "the checkpoint row"):
            older_depth, expected = peek(older[2])
        if not older_depth:
            break
    else:
        raise corrupt(where, "a row its delta is based on is missing")
    base: tuple[str, StoredCheckpoint] | None = None
    for link in reversed(chain):
        try:
            base = (str(link[0]), _decode(store, th, ns, link, base)[0])
        except CorruptionError as e:  # name the checkpoint asked for, and the base
            raise corrupt(where, f"its delta's base row {link[0]} is damaged: {e.what}") from e
    return _decode(store, th, ns, row, base)[0]


Base = tuple[str, bytes, StoredCheckpoint, int]
"""The row a new one is a delta against: its id, check, record and depth."""


def lane_base(
    store: MessageStore, th: Thread, ns: str, cid: str
) -> q.Program[tuple[tuple[str, int] | None, bool, Base | None]]:
    """The lane's head before a put of ``cid``, whether the put appends, and its base.

    A row newer than the head is a delta against the head when this process has the
    head decoded (the usual case: it wrote or loaded it); anything else is a snapshot.

    Raises:
        CorruptionError: the head record fails its check (a put would append after a
            wrong head and record a wrong count; a key conflict of that append is
            ``head_behind``).
    """
    rows = yield q.SELECT_HEAD_ROW, (th.tid, ns), "all"
    head = (str(rows[0][0]), int(rows[0][1])) if rows else None
    if head is not None:
        where = Where(th.thread_id, head[0])
        verify_check(where, rows[0][2], head_check(ns, *head), "the head record")
    appended = head is None or cid > head[0]
    if head is None or not appended or rows[0][3] is None:
        return head, appended, None
    hit = store.cache.record(th.cache, rows[0][3])
    if hit is None or hit[0] != head[0]:
        return head, appended, None
    return head, appended, (head[0], rows[0][3], hit[1], hit[2])


def pack_row(
    store: MessageStore,
    th: Thread,
    ns: str,
    checkpoint: Mapping[str, Any],
    metadata: Mapping[str, Any],
    parent: str | None,
    inline: Mapping[str, tuple[str, bytes]],
    empty: Sequence[str],
    run_id: str | None,
    base: Base | None,
) -> tuple[Packed, bytes]:
    """The new row's payload and check (remembered as the lane's newest record)."""
    cid = str(checkpoint["id"])
    packed = pack_checkpoint(checkpoint, metadata, parent, inline, empty, run_id, base)
    chk = checkpoint_check(ns, cid, run_id, packed.payload)
    store.cache.put_record(th.cache, chk, cid, packed.record, packed.depth)
    return packed, chk


def rewrite_lane(
    store: MessageStore,
    th: Thread,
    ns: str,
    rows: Sequence[tuple[Row, StoredCheckpoint]],
    parents: Mapping[str, str | None],
) -> q.Program[None]:
    """Write ``rows`` (id order, decoded before a change) as a fresh chain of deltas.

    ``parents`` overrides the parent of the checkpoints named (``None``: a root now).
    """
    base: Base | None = None
    for row, record in rows:
        cid, run_id = str(row[0]), row[1]
        packed = repack(record, run_id, base, parent=parents.get(cid, True))
        chk = checkpoint_check(ns, cid, run_id, packed.payload)
        if packed.payload != row[2]:
            yield q.UPDATE_PAYLOAD, (packed.payload, chk, th.tid, ns, cid), "none"
        store.cache.put_record(th.cache, chk, cid, packed.record, packed.depth)
        base = (cid, chk, packed.record, packed.depth)


def reencode_after(
    store: MessageStore, th: Thread, ns: str, cid: str
) -> q.Program[list[tuple[Row, StoredCheckpoint]]]:
    """The delta rows after ``cid`` (until a snapshot), decoded before ``cid`` changes.

    After the change, ``rewrite_lane`` with the changed row first writes them again.
    """
    rows = yield q.SELECT_FOLLOWING_ROWS, (th.tid, ns, cid, SNAPSHOT_EVERY), "all"
    out: list[tuple[Row, StoredCheckpoint]] = []
    for row in rows:
        with decoding(Where(th.thread_id, str(row[0])), "the checkpoint row"):
            depth, _ = peek(row[2])
        if not depth:
            break
        out.append((row, (yield from load_record(store, th, ns, row))))
    return out


def advance_head(
    th: Thread, ns: str, cid: str, added: int, head: tuple[str, int] | None
) -> q.Program[None]:
    """Record ``cid`` as the namespace's newest (if it is) and ``added`` more rows."""
    if head is None:
        rows = yield q.SELECT_LANE_SUMMARY, (th.tid, ns), "all"
        newest, count = str(rows[0][0]), int(rows[0][1])
    else:
        newest, count = max(head[0], cid), head[1] + added
    row = (th.tid, ns, newest, count, head_check(ns, newest, count))
    yield q.UPSERT_HEAD, row, "none"


def check_count(th: Thread, ns: str, where: Where) -> q.Program[None]:
    """Raise if the namespace holds fewer checkpoints than its head record counts, or a
    row that fails its check.

    Run when a checkpoint is not found, so a deleted row, or one whose id was damaged,
    is not taken for one that never existed.
    """
    head = yield from read_head(th, ns)
    rows = yield q.SELECT_LANE_SUMMARY, (th.tid, ns), "all"
    if head is not None and head[1] != int(rows[0][1]):
        lost = head[1] - int(rows[0][1])
        raise corrupt(where, f"not found, and {lost} of its namespace's rows are missing")
    # A damaged key hides a row under another id: every row's check covers its id.
    lane = yield q.SELECT_LANE_CHECKPOINTS, (th.tid, ns), "all"
    for cid, run_id, payload, _tasks, stored in lane:
        if stored != checkpoint_check(ns, cid, run_id, payload):
            raise corrupt(where, f"not found, and row {cid!r} of its namespace fails its check")


def read_head(th: Thread, ns: str) -> q.Program[tuple[str, int] | None]:
    """The namespace's recorded newest checkpoint and checkpoint count (verified)."""
    rows = yield q.SELECT_HEAD, (th.tid, ns), "all"
    if not rows:
        return None
    cid, count, stored = rows[0]
    where = Where(th.thread_id, str(cid))
    verify_check(where, stored, head_check(ns, str(cid), int(count)), "the head record")
    return str(cid), int(count)
