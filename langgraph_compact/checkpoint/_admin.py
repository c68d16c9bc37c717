"""Thread maintenance as programs: delete, delete runs, copy, prune, value garbage collection.

Message rows are the thread's audit log: pruning checkpoints and deleting runs never
removes them (the history API and the recall tool still reach every message); only
``delete_thread`` and ``prune(strategy="delete")`` drop a thread's messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import Where, decoding, head_check
from langgraph_compact.checkpoint._codec import key, unpack_text
from langgraph_compact.checkpoint._fold import rehome
from langgraph_compact.checkpoint._fts import index_words
from langgraph_compact.checkpoint._lane import load_record, rewrite_lane
from langgraph_compact.checkpoint._messages import Thread
from langgraph_compact.checkpoint._refs import RefLink
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.errors import CompactError, SaverArgumentError

__all__ = ["PRUNE_STRATEGIES", "copy_thread", "delete_for_runs", "delete_thread", "prune"]

PRUNE_STRATEGIES = ("keep_latest", "delete")
_DELTA_KEY = "counters_since_delta_snapshot"


def delete_thread(store: CheckpointStore, thread_id: str) -> q.Program[None]:
    """Remove every checkpoint, value, write and message of a thread, and its index rows.

    The thread's row stays (its number is never reused), with its change counter moved.
    """
    th = yield from store.thread(thread_id)
    if th is None:
        return
    fts_delete = store.dialect.fts_delete
    if fts_delete is not None:
        for text_id, packed in (yield q.SELECT_THREAD_TEXTS, (th.tid,), "all"):
            with decoding(Where(thread_id), f"text row {text_id}"):
                words = index_words(unpack_text(packed))
            yield fts_delete, (text_id, words), "none"
    for sql in q.DELETE_THREAD:
        yield sql, (th.tid,), "none"
    yield from store.bump(th)


def _lane_rows(store: CheckpointStore, th: Thread, ns: str) -> q.Program[list[Any]]:
    """The namespace's checkpoints in id order as ``(row, record)`` pairs, each verified."""
    out = []
    for row in (yield q.SELECT_LANE_CHECKPOINTS, (th.tid, ns), "all"):
        out.append((row, (yield from load_record(store, th, ns, row))))
    return out


def gc_values(store: CheckpointStore, th: Thread, ns: str) -> q.Program[int]:
    """Delete value rows no remaining checkpoint uses, keeping every ref-list base they need.

    Returns:
        The number of rows deleted.
    """
    live: set[tuple[str, bytes]] = set()  # (channel, version key)
    for _row, stored in (yield from _lane_rows(store, th, ns)):
        skip = set(stored.inline) | set(stored.empty)
        versions = stored.skeleton.get("channel_versions", {})
        live |= {(c, key(str(v))) for c, v in versions.items() if c not in skip}
    rows = yield q.SELECT_LANE_BLOB_KEYS, (th.tid, ns), "all"
    base_of = {(str(c), bytes(v)): b for c, v, b in rows}
    needed = set()
    for at in live:
        while at in base_of and at not in needed:
            needed.add(at)
            base = base_of[at]
            if base is None:
                break
            at = (at[0], bytes(base))
    dead = [(th.tid, ns, v, c) for c, v in base_of if (c, v) not in needed]
    if dead:
        yield q.DELETE_BLOB, dead, "many"
    return len(dead)


def _set_head(th: Thread, ns: str) -> q.Program[None]:
    rows = yield q.SELECT_LANE_SUMMARY, (th.tid, ns), "all"
    newest, count = rows[0][0], int(rows[0][1])
    if count:
        row = (th.tid, ns, str(newest), count, head_check(ns, str(newest), count))
        yield q.UPSERT_HEAD, row, "none"
    else:
        yield q.DELETE_HEAD, (th.tid, ns), "none"


def delete_for_runs(store: CheckpointStore, run_ids: Sequence[str]) -> q.Program[None]:
    """Remove the checkpoints (and their writes) that the given runs created.

    A remaining checkpoint whose parent was removed becomes a root (no parent), so no
    checkpoint points at a missing one.
    """
    if not run_ids:
        return
    sql = q.SELECT_RUN_CHECKPOINTS.format(marks=q.marks(len(run_ids)))
    keys = [(int(t), str(n), str(c)) for t, n, c in (yield sql, list(run_ids), "all")]
    if not keys:
        return
    lanes = sorted({(k[0], k[1]) for k in keys})
    before: dict[tuple[int, str], tuple[Thread, list[Any]]] = {}
    for tid, ns in lanes:  # decoded first: the deltas after a deleted row need its base
        names = yield q.SELECT_THREAD_BY_TID, (tid,), "all"
        th = cast(Thread, (yield from store.thread(str(names[0][0]))))  # rows outlive runs
        gone = {c for t, n, c in keys if t == tid and n == ns}
        kept: list[Any] = []  # the lists whose chains pass a deleted row are stored whole
        chains: dict[tuple[str, str], list[RefLink]] = {}
        for row, record in (yield from _lane_rows(store, th, ns)):
            if str(row[0]) not in gone:
                moved = yield from rehome(store, th, ns, str(row[0]), record, gone, chains)
                kept.append((row, moved))
        before[(tid, ns)] = (th, kept)
    yield q.DELETE_CHECKPOINT_WRITES, [(t, n, key(c)) for t, n, c in keys], "many"
    yield q.DELETE_CHECKPOINT, keys, "many"
    for tid, ns in lanes:
        th, kept = before[(tid, ns)]
        gone = {c for t, n, c in keys if t == tid and n == ns}
        orphans = {str(row[0]): None for row, record in kept if record.parent in gone}
        yield from rewrite_lane(store, th, ns, kept, orphans)
        yield from _set_head(th, ns)
        yield from gc_values(store, th, ns)
        yield from store.bump(th)


def copy_thread(store: CheckpointStore, source: str, target: str) -> q.Program[None]:
    """Copy a thread wholesale; refs stay valid because message numbers are per thread.

    Raises:
        CompactError: the target thread already has messages or checkpoints.
    """
    src = yield from store.thread(source)
    if src is None:
        return
    dst = cast(Thread, (yield from store.thread(target, create=True)))
    if (yield q.SELECT_ANY_ROW, (dst.tid, dst.tid, dst.tid), "all"):
        raise CompactError(
            f"copy_thread: target thread {target!r} already has messages or checkpoints. "
            f"Copy into a new thread id, or call delete_thread({target!r}) first."
        )
    for sql in q.COPY_THREAD:
        yield sql, (dst.tid, src.tid), "none"
    fts_insert = store.dialect.fts_insert
    if fts_insert is None:  # the word filters are copied with the texts
        yield q.COPY_FILTERED_TEXTS, (dst.tid, src.tid), "none"
    else:
        yield q.COPY_TEXTS, (dst.tid, src.tid), "none"
        for text_id, packed in (yield q.SELECT_THREAD_TEXTS, (dst.tid,), "all"):
            with decoding(Where(source), f"text row {text_id}"):
                words = index_words(unpack_text(packed))
            yield fts_insert, (text_id, words), "none"
    yield from store.bump(dst)


def prune(
    store: CheckpointStore, thread_ids: Sequence[str], strategy: str = "keep_latest"
) -> q.Program[None]:
    """``keep_latest``: keep each namespace's newest checkpoint; ``delete``: drop threads.

    Raises:
        SaverArgumentError: an unknown strategy.
        CompactError: ``keep_latest`` on a thread that uses a ``DeltaChannel``.
    """
    if strategy not in PRUNE_STRATEGIES:
        raise SaverArgumentError(
            f"unknown prune strategy {strategy!r}; use one of {', '.join(PRUNE_STRATEGIES)}"
        )
    for thread_id in thread_ids:
        if strategy == "delete":
            yield from delete_thread(store, thread_id)
            continue
        th = yield from store.thread(thread_id)
        if th is None:
            continue
        for (ns,) in (yield q.SELECT_NAMESPACES, (th.tid,), "all"):
            yield from _keep_latest(store, th, str(ns))
        yield from store.bump(th)


def _keep_latest(store: CheckpointStore, th: Thread, ns: str) -> q.Program[None]:
    rows = yield from _lane_rows(store, th, ns)
    head_row, head = max(rows, key=lambda r: str(r[0][0]))
    if _DELTA_KEY in head.metadata:
        raise CompactError(
            f"prune: thread {th.thread_id!r} uses a DeltaChannel, whose state is rebuilt "
            "from older checkpoints' writes; keep_latest would silently empty it. "
            "Use strategy='delete', or copy the state into a new thread first."
        )
    keys = [(th.tid, ns, str(r[0])) for r, _ in rows if r is not head_row]
    head = yield from rehome(store, th, ns, str(head_row[0]), head)  # its lists, whole
    yield q.CLEAR_LINK, (th.tid, ns, str(head_row[0])), "none"
    if keys:
        yield q.DELETE_CHECKPOINT_WRITES, [(t, n, key(c)) for t, n, c in keys], "many"
        yield q.DELETE_CHECKPOINT, keys, "many"
    yield from rewrite_lane(store, th, ns, [(head_row, head)], {str(head_row[0]): None})
    yield from _set_head(th, ns)
    yield from gc_values(store, th, ns)
