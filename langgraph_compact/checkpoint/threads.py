"""What a database holds, thread by thread, and its redaction log (for inspection tools)."""

from __future__ import annotations

from dataclasses import dataclass

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._lane import load_record
from langgraph_compact.checkpoint._store import CheckpointStore

__all__ = ["RedactionRecord", "ThreadInfo", "redactions_program", "threads_program"]


@dataclass(frozen=True)
class ThreadInfo:
    """One thread: how much it holds and its newest checkpoint.

    ``messages`` counts distinct message ids (an edited message once, a node's id-less
    copy of a message not at all); ``stored_bytes`` counts the thread's rows (keys and
    values, as stored: compressed text counts compressed); shared index structures are
    not attributed to threads.
    """

    thread_id: str
    checkpoints: int
    messages: int
    stored_bytes: int
    last_checkpoint_id: str | None
    last_checkpoint_ts: str | None


@dataclass(frozen=True)
class RedactionRecord:
    """One row of the redaction log: which message, why, who, when (ISO 8601, UTC)."""

    thread_id: str
    message_id: str
    reason: str
    actor: str
    redacted_at: str


def threads_program(
    store: CheckpointStore, thread_id: str | None = None
) -> q.Program[list[ThreadInfo]]:
    """Every thread that holds checkpoints or messages (or just ``thread_id``), by id."""
    where, params = ("WHERE t.thread_id = ?", (thread_id,)) if thread_id else ("", ())
    rows = yield q.THREAD_STATS.format(where=where), params, "all"
    out: list[ThreadInfo] = []
    for _tid, tid_name, checkpoints, messages, size in rows:
        if not checkpoints and not messages:
            continue  # deleted: its row stays so its number is never reused
        th = yield from store.thread(str(tid_name))
        if th is None:
            continue
        last_id = last_ts = None
        for ns, cid, _n, _chk in (yield q.SELECT_HEADS, (th.tid,), "all"):
            if ns == "" or last_id is None:
                last_id = str(cid)
                found = yield q.SELECT_CHECKPOINT, (th.tid, str(ns), last_id), "all"
                if found:
                    stored = yield from load_record(store, th, str(ns), found[0])
                    ts = stored.skeleton.get("ts")
                    last_ts = str(ts) if ts is not None else None
        out.append(
            ThreadInfo(str(tid_name), int(checkpoints), int(messages), int(size), last_id, last_ts)
        )
    return out


def redactions_program(thread_id: str | None = None) -> q.Program[list[RedactionRecord]]:
    """The redaction log, oldest first (of one thread, or of every thread)."""
    where, params = ("WHERE thread_id = ?", (thread_id,)) if thread_id else ("", ())
    rows = yield q.SELECT_REDACTIONS.format(where=where), params, "all"
    return [RedactionRecord(*(str(v) for v in r)) for r in rows]
