"""The history API: page a thread's raw messages and list its summary generations.

Positions are indices into the message list of one checkpoint (the thread's latest by
default), the same indices a ``RunningSummary`` coverage cursor uses. Filters (role,
tool name, text) narrow the page but never renumber it, so an item's ``index`` can be
handed straight to a summary or a recall marker.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import Where, blob_check, corrupt, decoding, verify_check
from langgraph_compact.checkpoint._codec import (
    REFS_TYPE,
    decode_cursor,
    encode_cursor,
    key,
)
from langgraph_compact.checkpoint._fold import LINK_TYPE, link_row
from langgraph_compact.checkpoint._fts import SearchTerms, search_terms
from langgraph_compact.checkpoint._lane import check_count, load_record, read_head
from langgraph_compact.checkpoint._lists import resolve_list
from langgraph_compact.checkpoint._messages import Thread
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.errors import CompactError, HistoryCursorError, SaverArgumentError
from langgraph_compact.messages import message_text

__all__ = [
    "HistoryItem",
    "HistoryPage",
    "SummaryGeneration",
    "history_program",
    "message_program",
    "summaries_program",
]

_ROLE_ALIASES = {"user": "human", "assistant": "ai"}
_SUMMARY_FIELDS = ("generation", "head_end", "covered_through", "summarizer", "token_count")
_SCAN_WINDOW = 200


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


def _checkpoint(
    store: CheckpointStore, th: Thread, ns: str, checkpoint_id: str | None
) -> q.Program[tuple[Any, ...] | None]:
    """The checkpoint row named (or the namespace's newest), or ``None``.

    Raises:
        CorruptionError: the newest row is missing, or one named is and the namespace
            holds fewer rows than its head record counts.
    """
    newest = checkpoint_id is None
    if checkpoint_id is None:
        head = yield from read_head(th, ns)
        if head is None:
            return None
        checkpoint_id = head[0]
    rows = yield q.SELECT_CHECKPOINT, (th.tid, ns, checkpoint_id), "all"
    if rows:
        return tuple(rows[0])
    where = Where(th.thread_id, checkpoint_id)
    if newest:
        raise corrupt(where, "the thread's newest checkpoint row is missing")
    yield from check_count(th, ns, where)
    return None


def _list_seqs(
    store: CheckpointStore, th: Thread, ns: str, row: tuple[Any, ...], channel: str
) -> q.Program[list[int]]:
    """The message numbers of ``channel`` in a checkpoint row, or ``[]`` if not a list."""
    stored = yield from load_record(store, th, ns, row)
    version = stored.skeleton.get("channel_versions", {}).get(channel)
    where = Where(th.thread_id, str(row[0]), channel)
    t, b = stored.inline.get(channel, ("", b""))
    if version is not None and t == LINK_TYPE:
        holder = link_row(str(row[0]), b, where)
        return (yield from resolve_list(store, th, ns, channel, str(version), where, holder))
    if version is None or channel in stored.inline or channel in stored.empty:
        return []
    rows = yield q.SELECT_BLOB, (th.tid, ns, key(str(version)), channel), "all"
    if not rows:
        raise corrupt(where, f"its value row (version {version}) is missing")
    if rows[0][0] != REFS_TYPE:
        return []
    return (yield from resolve_list(store, th, ns, channel, str(version), where))


def _filtered(
    store: CheckpointStore, th: Thread, role: str | None, tool_name: str | None, text: str | None
) -> q.Program[tuple[set[int] | None, SearchTerms | None]]:
    """Message numbers passing the role, tool and indexed-text filters (``None``: all),
    and the query terms when each candidate's text is still to be checked: for blob-like
    runs, and behind a word filter (which only narrows) for the words too."""
    allowed: set[int] | None = None
    if role or tool_name:
        want = f"|{tool_name}|" if tool_name else None
        rows = yield q.SELECT_MESSAGE_FACETS, (th.tid,), "all"
        allowed = {
            int(seq)
            for seq, r, tools in rows
            if (not role or r == role) and (want is None or want in tools)
        }
    if not (text and text.strip()):
        return allowed, None
    if not store.index_text:
        raise CompactError(
            f"thread {th.thread_id!r}: text search needs index_text=True; this saver keeps "
            "message text inside its (encrypting) serializer."
        )
    terms = search_terms(text)
    if terms.empty:  # only punctuation: nothing can match
        return set(), None
    if terms.match is not None:
        sql = q.SELECT_FTS_FILTER.format(fts=store.dialect.fts_filter)
        rows = yield sql, (th.tid, store.dialect.search_param(terms), th.tid), "all"
        hits = {int(r[0]) for r in rows}
        allowed = hits if allowed is None else allowed & hits
    checked = bool(terms.scan) or (store.dialect.word_filter and bool(terms.words))
    return allowed, terms if checked else None


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
        SaverArgumentError: ``limit`` below 1.
        HistoryCursorError: a cursor from another thread or another set of filters.
        CompactError: a text filter on a saver that does not index text.
    """
    if limit < 1:
        raise SaverArgumentError(f"history: limit must be at least 1, got {limit}")
    role = _ROLE_ALIASES.get(role, role) if role else None
    filters = {"s": start, "e": end, "r": role, "t": tool_name, "q": text, "ch": channel}
    fkey = _filter_key({**filters, "thread": thread_id, "ns": checkpoint_ns})
    pos = max(start, 0)
    if cursor is not None:
        c = decode_cursor(cursor)
        if c.get("f") != fkey:
            raise HistoryCursorError("this cursor belongs to another thread or other filters")
        pos, checkpoint_id = int(c["i"]), str(c["c"])
    th = yield from store.thread(thread_id)
    row = None if th is None else (yield from _checkpoint(store, th, checkpoint_ns, checkpoint_id))
    if th is None or row is None:
        return HistoryPage([], False, None, checkpoint_id, 0)
    cid = str(row[0])
    where = Where(thread_id, cid, channel)
    seqs = yield from _list_seqs(store, th, checkpoint_ns, row, channel)
    allowed, scan = yield from _filtered(store, th, role, tool_name, text)
    stop = len(seqs) if end is None else min(end, len(seqs))
    picks: list[int] = []
    i = pos
    while i < stop and len(picks) <= limit:
        window = range(i, min(stop, i + _SCAN_WINDOW))
        found = [j for j in window if allowed is None or seqs[j] in allowed]
        i = window.stop
        if scan is not None and found:
            need = limit + 1 - len(picks)  # read no more candidates than the page can take
            if len(found) > need:
                found, i = found[:need], found[need - 1] + 1
            msgs = yield from store.load_messages(th, [seqs[j] for j in found], where)
            words = store.dialect.word_filter
            found = [
                j
                for j, m in zip(found, msgs, strict=True)
                if scan.matches(message_text(m), words=words)
            ]
        picks += found
    has_more = len(picks) > limit
    picks = picks[:limit]
    loaded = yield from store.load_messages(th, [seqs[j] for j in picks], where)
    items = [HistoryItem(j, m) for j, m in zip(picks, loaded, strict=True)]
    next_cursor = encode_cursor({"c": cid, "i": picks[-1] + 1, "f": fkey}) if has_more else None
    return HistoryPage(items, has_more, next_cursor, cid, len(seqs))


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
    th = yield from store.thread(thread_id)
    if th is None:
        return None
    rows = yield q.SELECT_SEQS_BY_ID, (th.tid, key(message_id)), "all"
    if not rows:
        return None
    candidates = sorted((int(r[0]) for r in rows), reverse=True)  # newest first
    row = yield from _checkpoint(store, th, checkpoint_ns, checkpoint_id)
    if row is None and checkpoint_id is not None:
        row = yield from _checkpoint(store, th, checkpoint_ns, None)
    seqs = set((yield from _list_seqs(store, th, checkpoint_ns, row, channel)) if row else ())
    pick = next((s for s in candidates if s in seqs), candidates[0])
    where = Where(thread_id, str(row[0]) if row else None, channel, message_id)
    return (yield from store.load_messages(th, [pick], where))[0]


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
    channel version is one value, decoded once; the first checkpoint that carries a
    generation is reported with it.
    """
    th = yield from store.thread(thread_id)
    if th is None:
        return []
    first_seen: dict[str, tuple[str, tuple[str, bytes] | None]] = {}
    for row in (yield q.SELECT_LANE_CHECKPOINTS, (th.tid, checkpoint_ns), "all"):
        stored = yield from load_record(store, th, checkpoint_ns, row)
        version = stored.skeleton.get("channel_versions", {}).get(channel)
        if version is not None and channel not in stored.empty and str(version) not in first_seen:
            first_seen[str(version)] = (str(row[0]), stored.inline.get(channel))
    out: dict[int, SummaryGeneration] = {}
    for version, (cid, inline) in first_seen.items():
        where = Where(thread_id, cid, channel)
        if inline is not None and inline[0] == LINK_TYPE:  # a message list
            continue
        if inline is None:
            rows = yield q.SELECT_BLOB, (th.tid, checkpoint_ns, key(version), channel), "all"
            if not rows:
                raise corrupt(where, f"its value row (version {version}) is missing")
            t, blob, _base, stored_chk = rows[0]
            if t == REFS_TYPE:
                continue
            expected = blob_check(checkpoint_ns, channel, version, t, blob)
            verify_check(where, stored_chk, expected, "the value row")
            inline = (t, blob)
        with decoding(where, "the summary value"):
            value = store.serde.loads_typed(inline)
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
