"""Thread maintenance as programs: delete, delete runs, copy, prune, blob garbage collection.

Message rows are the thread's audit log: pruning checkpoints and deleting runs never
removes them (the history API and the recall tool still reach every message); only
``delete_thread`` and ``prune(strategy="delete")`` drop a thread's messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from langgraph_compact.checkpoint import _core as q
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.errors import CompactError

__all__ = ["copy_thread", "delete_for_runs", "delete_thread", "gc_blobs", "prune"]

_HEAD_WHERE = " WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"
_DELTA_KEY = "counters_since_delta_snapshot"


def delete_thread(store: CheckpointStore, thread_id: str) -> q.Program[None]:
    """Remove every checkpoint, blob, write and message of a thread, and its FTS rows."""
    texts = yield q.SELECT_THREAD_TEXTS_SQL, (thread_id,), "all"
    if texts:
        yield q.DELETE_FTS_SQL, [(tid, q.unpack_text(t)) for tid, t in texts], "many"
    for sql in q.DELETE_THREAD_SQL:
        yield sql, (thread_id,), "none"
    yield from store.bump_thread(thread_id)


def gc_blobs(store: CheckpointStore, thread_id: str, ns: str) -> q.Program[int]:
    """Delete blobs no remaining checkpoint uses, keeping ref-list chains readable.

    Algorithm: the live set is every ``(channel, version)`` in the remaining
    checkpoints. A live ref list whose base chain passes through a dead blob is first
    rewritten as a snapshot; then the dead blobs are deleted.

    Returns:
        The number of blobs deleted.
    """
    yield from store.sync_thread(thread_id)
    rows = yield q.SELECT_LIVE_VERSIONS_SQL, (thread_id, ns), "all"
    live = {
        (c, str(v))
        for cid, raw in rows
        for c, v in q.unpack_checkpoint(raw, cid)[0]["channel_versions"].items()
    }
    chain = yield q.SELECT_BLOB_CHAIN_SQL, (thread_id, ns), "all"
    base_of = {(c, v): b for c, v, b in chain}
    dead = [k for k in base_of if k not in live]
    dead_set = set(dead)
    for key in [k for k in base_of if k in live and base_of[k] is not None]:
        channel, cur = key[0], base_of[key]
        while cur is not None:
            if (channel, cur) in dead_set:
                seqs = yield from store.resolve_refs(thread_id, ns, channel, key[1])
                snapshot = q.encode_refs(q.RefList(None, 0, seqs))
                yield q.UPDATE_BLOB_SQL, (snapshot, None, thread_id, ns, *key), "none"
                break
            cur = base_of.get((channel, cur))
    if dead:
        yield q.DELETE_BLOB_SQL, [(thread_id, ns, c, v) for c, v in dead], "many"
    yield from store.bump_thread(thread_id)
    return len(dead)


def delete_for_runs(store: CheckpointStore, run_ids: Sequence[str]) -> q.Program[None]:
    """Remove the checkpoints (and their writes) that the given runs created."""
    if not run_ids:
        return
    sql = q.SELECT_RUN_CHECKPOINTS_SQL.format(marks=q.marks(len(run_ids)))
    rows = yield sql, list(run_ids), "all"
    keys = [tuple(r) for r in rows]
    if not keys:
        return
    yield q.DELETE_CHECKPOINT_WRITES_SQL, keys, "many"
    yield q.DELETE_CHECKPOINT_SQL, keys, "many"
    for thread_id, ns in sorted({(k[0], k[1]) for k in keys}):
        yield from gc_blobs(store, thread_id, ns)


def copy_thread(store: CheckpointStore, source: str, target: str) -> q.Program[None]:
    """Copy a thread wholesale; refs stay valid because ``seq`` is per thread.

    Raises:
        CompactError: the target thread already has messages (their seqs would clash).
    """
    rows = yield q.SELECT_ANY_MESSAGE_SQL, (target,), "all"
    if rows:
        raise CompactError(
            f"copy_thread: target thread {target!r} already has messages. Copy into a new "
            f"thread id, or call delete_thread({target!r}) first."
        )
    for sql in q.COPY_THREAD_SQL:
        yield sql, (target, source), "none"
    texts = yield q.SELECT_THREAD_TEXTS_SQL, (target,), "all"
    if texts:
        yield q.INSERT_FTS_SQL, [(tid, q.unpack_text(t)) for tid, t in texts], "many"
    yield from store.bump_thread(target)


def prune(
    store: CheckpointStore, thread_ids: Sequence[str], strategy: str = "keep_latest"
) -> q.Program[None]:
    """``keep_latest``: keep each namespace's newest checkpoint; ``delete``: drop threads.

    Raises:
        ValueError: an unknown strategy.
        CompactError: ``keep_latest`` on a thread that uses a ``DeltaChannel``.
    """
    if strategy not in ("keep_latest", "delete"):
        raise ValueError(f"unknown prune strategy {strategy!r}; use 'keep_latest' or 'delete'")
    for thread_id in thread_ids:
        if strategy == "delete":
            yield from delete_thread(store, thread_id)
            continue
        heads = yield q.SELECT_NAMESPACE_HEADS_SQL, (thread_id,), "all"
        for ns, head in heads:
            rows = yield q.SELECT_CHECKPOINT_COLUMNS + _HEAD_WHERE, (thread_id, ns, head), "all"
            if _DELTA_KEY in q.unpack_checkpoint(rows[0][4], head)[1]:
                raise CompactError(
                    f"prune: thread {thread_id!r} uses a DeltaChannel, whose state is rebuilt "
                    "from older checkpoints' writes; keep_latest would silently empty it. "
                    "Use strategy='delete', or copy the state into a new thread first."
                )
            old = yield q.SELECT_NOT_HEAD_SQL, (thread_id, ns, head), "all"
            keys = [(thread_id, ns, cid) for (cid,) in old]
            if keys:
                yield q.DELETE_CHECKPOINT_WRITES_SQL, keys, "many"
                yield q.DELETE_CHECKPOINT_SQL, keys, "many"
            yield q.CLEAR_PARENT_SQL, (thread_id, ns, head), "none"
            yield from gc_blobs(store, thread_id, ns)
