"""Pending writes as programs: one entry per ``(checkpoint, task)`` with all its writes.

A task's writes are packed together (``_codec.encode_writes``): one key instead of one
per write. Message values are stored as message numbers (refs to ``lgc_messages``), so a
tool's output is stored once even though LangGraph writes it before it is in the channel.
Special channels (errors, interrupts, resumes) replace an earlier write of the same task
and index, as in LangGraph's savers; other writes keep the first one.

A task's entry goes into its checkpoint's row (``lgc_checkpoints.writes``, the *folded*
entries: task key, packed writes, check), in the update that counts the task there. An
entry stored before its checkpoint is a row of ``lgc_writes``; the checkpoint's put moves
it into its row when the same store wrote it (other rows stay rows, read as such).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ormsgpack
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

__all__ = [
    "decode_writes_row",
    "fold_entries",
    "folded_entries",
    "load_writes",
    "store_writes",
    "thread_writes",
]


def store_writes(
    store: MessageStore,
    th: Thread,
    ns: str,
    cid: str,
    writes: Sequence[tuple[str, Any]],
    task_id: str,
    task_path: str,
) -> q.Program[None]:
    """Store (or merge into) the writes entry of ``(cid, task_id)``: its row, its
    checkpoint's row, or a new row while the checkpoint is not stored."""
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
    where = Where(th.thread_id, cid)
    rows = yield q.SELECT_TASK_WRITES, (*row_key, th.tid, ns, cid), "all"
    own = [r[1:] for r in rows if int(r[0]) == 0]  # the task's row
    held = [r[1] for r in rows if int(r[0]) == 1]  # the checkpoint row is there
    folded = folded_entries(held[0], where) if held and held[0] is not None and not own else []
    at = next((i for i, e in enumerate(folded) if e[0] == row_key[3]), None)
    stored = own[0] if own else (folded[at][1:] if at is not None else None)
    if stored is not None:  # merge into the task's entry
        _, found = decode_writes_row(ns, cid, task_id, stored, where)
        entries = _merged(found, entries, writes)
    blob = encode_writes(task_path, sorted(entries.values()))
    chk = writes_check(ns, cid, task_id, blob)
    if own:
        yield q.UPDATE_WRITES, (blob, chk, *row_key), "none"
    elif held:  # into the checkpoint's row, counting a new task
        entry = (row_key[3], blob, chk)
        folded = [*folded[:at], entry, *folded[at + 1 :]] if at is not None else [*folded, entry]
        params = (fold_entries(folded), int(at is None), th.tid, ns, cid)
        yield q.UPDATE_FOLDED_WRITES, params, "none"
    else:  # the checkpoint is not stored yet: a row its put moves into it (``early``)
        yield q.INSERT_WRITES, (*row_key, blob, chk), "none"
        store.cache.early(th.tid, ns, cid)


def _merged(
    found: list[tuple[int, str, str, bytes]],
    entries: dict[int, tuple[int, str, str, bytes]],
    writes: Sequence[tuple[str, Any]],
) -> dict[int, tuple[int, str, str, bytes]]:
    """A task's stored writes merged with new ones (special channels replace, as in
    LangGraph's savers; other writes keep the first one)."""
    old = {w[0]: w for w in found}
    replace = all(w[0] in WRITES_IDX_MAP for w in writes)
    return {**old, **entries} if replace else {**entries, **old}


_FOLDED_FORMAT = b"\x01"


def fold_entries(entries: Sequence[tuple[bytes, bytes, bytes]]) -> bytes:
    """A checkpoint row's ``writes``: its tasks' ``(task key, packed writes, check)``."""
    return _FOLDED_FORMAT + ormsgpack.packb([list(e) for e in entries])


def folded_entries(raw: bytes, where: Where) -> list[tuple[bytes, bytes, bytes]]:
    """Inverse of ``fold_entries`` (each entry's check is verified by its reader)."""
    with decoding(where, "the checkpoint row's pending writes"):
        raw = bytes(raw)
        if raw[:1] != _FOLDED_FORMAT:
            raise ValueError(f"unknown pending writes format {raw[:1]!r}")
        out = []
        for entry in ormsgpack.unpackb(raw[1:]):
            if len(entry) != 3 or not all(isinstance(x, bytes) for x in entry):
                raise ValueError("a pending writes entry is not three byte strings")
            out.append((entry[0], entry[1], entry[2]))
    return out


def thread_writes(th: Thread) -> q.Program[list[tuple[str, bytes, bytes, bytes, bytes]]]:
    """Every writes entry of a thread, rows and folded: ``(ns, cid key, task key, writes,
    check)`` (``verify``).

    Raises:
        CorruptionError: a checkpoint row's folded writes do not decode.
    """
    out = [
        (str(n), bytes(c), bytes(t), bytes(b), bytes(k))
        for n, c, t, b, k in (yield q.SELECT_THREAD_WRITES, (th.tid,), "all")
    ]
    for ns, cid, raw in (yield q.SELECT_FOLDED_WRITES, (th.tid,), "all"):
        for task, blob, chk in folded_entries(raw, Where(th.thread_id, str(cid))):
            out.append((str(ns), key(str(cid)), task, blob, chk))
    return out


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
    rows: list[tuple[bytes, bytes, bytes]] = []
    for task, blob, chk in (yield q.SELECT_WRITES, (th.tid, ns, key(cid), th.tid, ns, cid), "all"):
        rows += [(task, blob, chk)] if task is not None else folded_entries(blob, where)
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
