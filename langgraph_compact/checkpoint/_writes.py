"""Pending writes as programs: one row per ``(checkpoint, task)`` with all its writes.

A task's writes are packed into one row (``_codec.encode_writes``): one key instead of
one per write. Message values are stored as message numbers (refs to ``lgc_messages``),
so a tool's output is stored once even though LangGraph writes it before it is in the
channel. Special channels (errors, interrupts, resumes) replace an earlier write of the
same task and index, as in LangGraph's savers; other writes keep the first one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.checkpoint.base import WRITES_IDX_MAP, PendingWrite, writes_sort_key

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import Where, corrupt, decoding, verify_check, writes_check
from langgraph_compact.checkpoint._codec import (
    WRITE_REFS_TYPE,
    decode_message_write,
    decode_writes,
    encode_message_write,
    encode_writes,
    key,
    unkey,
)
from langgraph_compact.checkpoint._messages import MessageStore, Thread, is_message_write

__all__ = ["decode_writes_row", "load_writes", "store_writes"]


def store_writes(
    store: MessageStore,
    th: Thread,
    ns: str,
    cid: str,
    writes: Sequence[tuple[str, Any]],
    task_id: str,
    task_path: str,
) -> q.Program[None]:
    """Store (or merge into) the writes row of ``(cid, task_id)``."""
    entries: dict[int, tuple[int, str, str, bytes]] = {}
    for idx, (channel, value) in enumerate(writes):
        widx = WRITES_IDX_MAP.get(channel, idx)
        if is_message_write(value):
            one = isinstance(value, BaseMessage)
            msgs = [value] if one else list(value)
            seqs = yield from store.store_messages(th, msgs)
            entries[widx] = (widx, channel, WRITE_REFS_TYPE, encode_message_write(one, seqs))
        else:
            entries[widx] = (widx, channel, *store.serde.dumps_typed(value))
    if not entries:
        return
    row_key = (th.tid, ns, key(cid), key(task_id))
    rows = yield q.SELECT_TASK_WRITES, row_key, "all"
    if rows:
        where = Where(th.thread_id, cid)
        _, found = decode_writes_row(ns, cid, task_id, rows[0], where)
        old = {w[0]: w for w in found}
        replace = all(w[0] in WRITES_IDX_MAP for w in writes)
        entries = {**old, **entries} if replace else {**entries, **old}
    blob = encode_writes(task_path, sorted(entries.values()))
    chk = writes_check(ns, cid, task_id, blob)
    if rows:
        yield q.UPDATE_WRITES, (blob, chk, *row_key), "none"
    else:
        yield q.INSERT_WRITES, (*row_key, blob, chk), "none"
        yield q.ADD_TASK, (th.tid, ns, cid), "none"


def decode_writes_row(
    ns: str, cid: str, task_id: str, row: Sequence[Any], where: Where
) -> tuple[str, list[tuple[int, str, str, bytes]]]:
    """A writes row's task path and entries (its last two columns: writes, check)."""
    blob, stored = row[-2:]
    verify_check(where, stored, writes_check(ns, cid, task_id, blob), "a writes row")
    with decoding(where, "a writes row"):
        return decode_writes(blob)


def load_writes(
    store: MessageStore, th: Thread, ns: str, cid: str, tasks: int, where: Where
) -> q.Program[list[PendingWrite]]:
    """A checkpoint's pending writes in LangGraph's order; ``tasks`` rows must be there."""
    rows = yield q.SELECT_WRITES, (th.tid, ns, key(cid)), "all"
    if len(rows) != tasks:
        raise corrupt(where, f"{tasks} tasks wrote pending writes, {len(rows)} rows are left")
    found: list[tuple[str, int, str, str, Any]] = []
    for row in rows:
        with decoding(where, "a writes row's task id"):
            task_id = unkey(row[0])
        path, entries = decode_writes_row(ns, cid, task_id, row, where)
        for idx, channel, t, blob in entries:
            at = where.at(channel=channel)
            if t == WRITE_REFS_TYPE:
                with decoding(at, "a message write"):
                    one, seqs = decode_message_write(blob)
                msgs = yield from store.load_messages(th, seqs, at)
                value: Any = msgs[0] if one else msgs
            else:
                with decoding(at, "a pending write"):
                    value = store.serde.loads_typed((t, blob))
            found.append((path, idx, task_id, channel, value))
    found.sort(key=lambda w: writes_sort_key(w[0], w[2], w[1]))
    return [(task_id, channel, value) for _, _, task_id, channel, value in found]
