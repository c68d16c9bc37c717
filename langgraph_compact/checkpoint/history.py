"""The history API: page a thread's raw messages and list its summary generations.

Positions are indices into the message list of one checkpoint (the thread's latest by
default), the same indices a ``RunningSummary`` coverage cursor uses. Filters (role,
tool name, FTS5 text) narrow the page but never renumber it, so an item's ``index`` can
be handed straight to a summary or a recall marker.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

from langgraph_compact.checkpoint import _core as q
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.errors import CompactError

__all__ = [
    "HistoryItem",
    "HistoryPage",
    "SummaryGeneration",
    "history_program",
    "message_program",
    "summaries_program",
]

_ROLE_ALIASES = {"user": "human", "assistant": "ai"}
_LATEST_SQL = """SELECT checkpoint_id, checkpoint FROM lgc_checkpoints
    WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1"""
_BY_ID_SQL = """SELECT checkpoint_id, checkpoint FROM lgc_checkpoints
    WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"""
_BLOB_TYPE_SQL = """SELECT type FROM lgc_blobs
    WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?"""
_FTS_FILTER = """m.digest IN (SELECT t.digest FROM lgc_message_fts f
    JOIN lgc_message_texts t ON t.text_id = f.rowid
    WHERE lgc_message_fts MATCH ? AND t.thread_id = ?)"""
_MESSAGE_BY_ID_SQL = """SELECT seq FROM lgc_messages
    WHERE thread_id = ? AND message_id = ? ORDER BY seq DESC"""
_ALL_CHECKPOINTS_SQL = """SELECT checkpoint_id, checkpoint FROM lgc_checkpoints
    WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id"""
_SUMMARY_FIELDS = ("generation", "head_end", "covered_through", "summarizer", "token_count")


@dataclass(frozen=True)
class HistoryItem:
    """One raw message and its position in the checkpoint's message list."""

    index: int
    message: BaseMessage


@dataclass(frozen=True)
class HistoryPage:
    """A page of history; pass ``cursor`` back (with the same filters) for the next one."""

    items: list[HistoryItem]
    has_more: bool
    cursor: str | None
    checkpoint_id: str | None
    total: int
    """Length of the whole message list (unfiltered) at ``checkpoint_id``."""


@dataclass(frozen=True)
class SummaryGeneration:
    """One stored summary value: its coverage, size and summarizer, and where it appeared."""

    generation: int
    head_end: int | None
    covered_through: int | None
    summarizer: str | None
    token_count: int | None
    checkpoint_id: str
    version: str


def _filter_key(filters: Mapping[str, Any]) -> str:
    raw = json.dumps(filters, sort_keys=True, default=str).encode()
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def _checkpoint_row(thread_id: str, ns: str, checkpoint_id: str | None) -> q.Stmt:
    if checkpoint_id:
        return _BY_ID_SQL, (thread_id, ns, checkpoint_id), "all"
    return _LATEST_SQL, (thread_id, ns), "all"


def history_program(
    store: CheckpointStore,
    thread_id: str,
    *,
    start: int = 0,
    end: int | None = None,
    role: str | None = None,
    tool_name: str | None = None,
    text: str | None = None,
    limit: int = 50,
    cursor: str | None = None,
    checkpoint_id: str | None = None,
    checkpoint_ns: str = "",
    channel: str = "messages",
) -> q.Program[HistoryPage]:
    """Page raw messages by index range, role, tool name and text (see ``history``).

    Raises:
        ValueError: a cursor from another thread or another set of filters.
        CompactError: a text filter on a saver that does not index text.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    role = _ROLE_ALIASES.get(role, role) if role else None
    filters = {"s": start, "e": end, "r": role, "t": tool_name, "q": text, "ch": channel}
    fkey = _filter_key({**filters, "thread": thread_id, "ns": checkpoint_ns})
    pos = max(start, 0)
    if cursor is not None:
        c = q.decode_cursor(cursor)
        if c.get("f") != fkey:
            raise ValueError("this cursor belongs to another thread or other filters")
        pos, checkpoint_id = int(c["i"]), str(c["c"])
    yield from store.sync_thread(thread_id)
    rows = yield _checkpoint_row(thread_id, checkpoint_ns, checkpoint_id)
    if not rows:
        return HistoryPage([], False, None, checkpoint_id, 0)
    cid, raw = rows[0]
    version = q.unpack_checkpoint(raw, cid)[0].get("channel_versions", {}).get(channel)
    seqs: tuple[int, ...] = ()
    if version is not None:
        key = (thread_id, checkpoint_ns, channel, str(version))
        types = yield _BLOB_TYPE_SQL, key, "all"
        if types and types[0][0] == q.REFS_TYPE:
            seqs = yield from store.resolve_refs(*key)
    matching: set[int] | None = None
    if role or tool_name or (text and text.strip()):
        where, params = ["m.thread_id = ?"], [thread_id]
        if role:
            where.append("m.role = ?")
            params.append(role)
        if tool_name:
            where.append("instr(m.tool_names, ?) > 0")
            params.append(f"|{tool_name}|")
        if text and text.strip():
            if not store.index_text:
                raise CompactError(
                    f"thread {thread_id!r}: text search needs index_text=True; this saver "
                    "keeps message text inside its (encrypting) serializer."
                )
            query = q.fts_phrase_query(text)
            # No words (only punctuation): nothing can match; FTS5 rejects an empty query.
            where.append(_FTS_FILTER if query else "0")
            params += [query, thread_id] if query else []
        found = yield "SELECT m.seq FROM lgc_messages m WHERE " + " AND ".join(where), params, "all"
        matching = {int(r[0]) for r in found}
    stop = len(seqs) if end is None else min(end, len(seqs))
    picks: list[int] = []
    i = pos
    while i < stop and len(picks) <= limit:
        if matching is None or seqs[i] in matching:
            picks.append(i)
        i += 1
    has_more = len(picks) > limit
    picks = picks[:limit]
    msgs = yield from store.load_messages(thread_id, [seqs[i] for i in picks])
    next_cursor = (
        q.encode_cursor({"c": cid, "i": picks[-1] + 1, "f": fkey}) if has_more and picks else None
    )
    items = [HistoryItem(i, m) for i, m in zip(picks, msgs, strict=True)]
    return HistoryPage(items, has_more, next_cursor, cid, len(seqs))


def _checkpoint_seqs(
    store: CheckpointStore, thread_id: str, ns: str, checkpoint_id: str | None, channel: str
) -> q.Program[tuple[int, ...]]:
    """The message refs of ``channel`` in a checkpoint (the latest by default), or ``()``."""
    rows = yield _checkpoint_row(thread_id, ns, checkpoint_id)
    if not rows:
        return ()
    cid, raw = rows[0]
    version = q.unpack_checkpoint(raw, cid)[0].get("channel_versions", {}).get(channel)
    if version is None:
        return ()
    key = (thread_id, ns, channel, str(version))
    types = yield _BLOB_TYPE_SQL, key, "all"
    if not types or types[0][0] != q.REFS_TYPE:
        return ()
    return (yield from store.resolve_refs(*key))


def message_program(
    store: CheckpointStore,
    thread_id: str,
    message_id: str,
    *,
    checkpoint_id: str | None = None,
    checkpoint_ns: str = "",
    channel: str = "messages",
) -> q.Program[BaseMessage | None]:
    """One message of one thread: the version in the checkpoint's list, or ``None``.

    A message id can have several stored versions (``update_state`` edits, time
    travel). The one in ``channel`` of ``checkpoint_id`` (the thread's latest checkpoint
    by default; the latest too when that checkpoint is not found) wins; an id no longer
    in that list (removed, or only in an older branch) gives its newest stored version.
    """
    yield from store.sync_thread(thread_id)
    rows = yield _MESSAGE_BY_ID_SQL, (thread_id, message_id), "all"
    if not rows:
        return None
    candidates = [int(r[0]) for r in rows]
    seqs = yield from _checkpoint_seqs(store, thread_id, checkpoint_ns, checkpoint_id, channel)
    if not seqs and checkpoint_id is not None:
        seqs = yield from _checkpoint_seqs(store, thread_id, checkpoint_ns, None, channel)
    current = set(seqs)
    pick = next((s for s in candidates if s in current), candidates[0])
    msgs = yield from store.load_messages(thread_id, [pick])
    return msgs[0]


def _field(value: Any, name: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


def summaries_program(
    store: CheckpointStore,
    thread_id: str,
    *,
    channel: str = "running_summary",
    checkpoint_ns: str = "",
) -> q.Program[list[SummaryGeneration]]:
    """Each distinct summary generation stored in ``channel``, oldest first.

    The value is read generically: any object or mapping with ``generation``,
    ``head_end``, ``covered_through``, ``summarizer`` and ``token_count``. Each
    channel version is one blob, loaded once; the first checkpoint that carries a
    generation is reported with it.
    """
    rows = yield _ALL_CHECKPOINTS_SQL, (thread_id, checkpoint_ns), "all"
    first_seen: dict[str, str] = {}
    for cid, raw in rows:
        version = q.unpack_checkpoint(raw, cid)[0].get("channel_versions", {}).get(channel)
        if version is not None:
            first_seen.setdefault(str(version), cid)
    out: dict[int, SummaryGeneration] = {}
    for version, cid in first_seen.items():
        blob = yield q.SELECT_BLOB_SQL, (thread_id, checkpoint_ns, channel, version), "all"
        if not blob or blob[0][0] in ("empty", q.REFS_TYPE):
            continue
        value = store.serde.loads_typed((blob[0][0], blob[0][1]))
        generation = _field(value, "generation")
        if not isinstance(generation, int) or generation in out:
            continue
        fields = {f: _field(value, f) for f in _SUMMARY_FIELDS[1:]}
        out[generation] = SummaryGeneration(
            generation=generation,
            head_end=fields["head_end"],
            covered_through=fields["covered_through"],
            summarizer=str(fields["summarizer"]) if fields["summarizer"] is not None else None,
            token_count=fields["token_count"],
            checkpoint_id=cid,
            version=version,
        )
    return [out[g] for g in sorted(out)]
