"""Message storage: each message once per thread, its text once per content, verified.

``MessageStore`` is the base of the storage programs: it resolves a thread id to its
row (creating it for writes) and stores and loads message rows. A message row holds the
message's *skeleton* (the serde-encoded message without its id and, when the content is
a string, without its text); the text lives in ``lgc_texts`` (zlib-packed when that
pays, its words indexed by FTS5) and is shared by every message of the thread with the
same content. Every row is checked against its ``chk`` when it is read (``_check``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.serde.base import SerializerProtocol

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._cache import StoreCache, ThreadCache
from langgraph_compact.checkpoint._check import (
    DECODE_ERRORS,
    Where,
    corrupt,
    decoding,
    message_check,
    thread_check,
    verify_check,
)
from langgraph_compact.checkpoint._codec import key as ckey
from langgraph_compact.checkpoint._codec import (
    pack_skeleton,
    pack_text,
    serde_type,
    unkey,
    unpack_skeleton,
    unpack_text,
)
from langgraph_compact.checkpoint._fts import index_words, word_filter
from langgraph_compact.messages import message_digest, message_text

__all__ = ["MessageStore", "Thread", "is_message_write", "tool_names"]

_CHUNK = 400


@dataclass(frozen=True)
class Thread:
    """A thread as the programs use it: its id, its row number and its cache."""

    thread_id: str
    tid: int
    cache: ThreadCache


def is_message_write(value: object) -> bool:
    """Whether a pending write is stored as refs: a message or a list of messages."""
    if isinstance(value, BaseMessage):
        return True
    return (
        isinstance(value, list) and bool(value) and all(isinstance(m, BaseMessage) for m in value)
    )


def tool_names(message: BaseMessage) -> str:
    """``|a|b|``: the tools a message calls or answers, for the ``tool_name`` filter."""
    names: list[str] = []
    if isinstance(message, AIMessage):
        names = [tc["name"] for tc in message.tool_calls]
    elif isinstance(message, ToolMessage) and message.name:
        names = [message.name]
    return "|" + "|".join(names) + "|" if names else ""


class MessageStore:
    """Threads and message rows as programs, over one serializer and one cache.

    Args:
        dialect: the SQL backend's differences (``_sql.SQLITE``).
        serde: the saver's serializer, used for message skeletons and values.
        index_text: store message text (compressed) in clear for FTS5 search and the
            history filters. Turn it off with an encrypting serializer: text then stays
            inside the serde-encoded skeleton and text search is unavailable.
        max_messages: the cache bound (see ``_cache``).
    """

    def __init__(
        self,
        dialect: q.Dialect,
        serde: SerializerProtocol,
        *,
        index_text: bool = True,
        max_messages: int | None = None,
    ) -> None:
        self.dialect = dialect
        self.serde = serde
        self.index_text = index_text
        self.cache = StoreCache() if max_messages is None else StoreCache(max_messages)

    # --- threads -------------------------------------------------------------------------

    def thread(self, thread_id: str, *, create: bool = False) -> q.Program[Thread | None]:
        """The thread's row (verified), created for writes; ``None`` if absent on reads.

        One primary-key lookup per operation. Its ``epoch`` moves on every redaction,
        deletion, prune and copy (in any process), which drops stale cached state.
        """
        rows = yield q.SELECT_THREAD, (thread_id,), "all"
        if rows:
            tid, epoch, stored = rows[0]
            tid = int(tid)
            verify_check(Where(thread_id), stored, thread_check(tid, thread_id), "the thread row")
            return Thread(thread_id, tid, self.cache.thread(tid, int(epoch)))
        if not create:
            return None
        rows = yield q.INSERT_THREAD, (thread_id, b""), "all"
        tid = int(rows[0][0])
        yield q.SET_THREAD_CHECK, (thread_check(tid, thread_id), tid), "none"
        self.cache.touch(tid)
        return Thread(thread_id, tid, self.cache.thread(tid, 0))

    def bump(self, th: Thread) -> q.Program[None]:
        """Record that the thread's stored history changed under every saver's caches."""
        yield q.BUMP_EPOCH, (th.tid,), "none"
        self.cache.forget(th.tid)

    # --- message rows --------------------------------------------------------------------

    def split(self, message: BaseMessage) -> tuple[str, bytes, int, str | None]:
        """``(type, skeleton, content_in_text, text)``: the message with id and text split off.

        The id lives in its own column, so the skeleton leaves it out. String content
        goes to the text table (``content_in_text`` 1); other content stays in the
        skeleton, and its text blocks are still stored for search.
        """
        content = message.content
        if self.index_text and isinstance(content, str) and content:
            bare = message.model_copy(update={"content": "", "id": None})
            return *pack_skeleton(*self.serde.dumps_typed(bare)), 1, content
        full = message.model_copy(update={"id": None})
        text = message_text(message) if self.index_text else None
        return *pack_skeleton(*self.serde.dumps_typed(full)), 0, text or None

    def store_messages(self, th: Thread, messages: Sequence[BaseMessage]) -> q.Program[list[int]]:
        """Store each message once per thread and return their numbers (``seq``).

        Algorithm: an object already seen (same object, same content object, same id)
        reuses its number without hashing; otherwise its digest is looked up in memory,
        then in the database; only messages never stored are serialized and inserted.
        """
        tc, cache = th.cache, self.cache
        seqs: list[int] = []
        missing: dict[tuple[str, bytes], list[int]] = {}
        pending: dict[tuple[str, bytes], tuple[BaseMessage, str | None]] = {}
        for i, m in enumerate(messages):
            # The id is read once: add_messages assigns ids in place, after a node's
            # writes (stored id-less) and before the next checkpoint.
            mid = m.id
            seq = cache.seq_of(tc, m, mid)
            if seq is not None:
                seqs.append(seq)
                continue
            key = (mid or "", bytes.fromhex(message_digest(m)))
            seq = cache.seq_for_key(tc, key)
            if seq is None:
                missing.setdefault(key, []).append(i)
                pending[key] = (m, mid)
                seq = -1
            else:
                cache.put_seq(tc, key, seq, m, mid)
            seqs.append(seq)
        found: dict[tuple[str, bytes], int] = {}
        last: int | None = None  # the thread's highest number, asked with the first lookup
        for key in missing:
            if key[0]:  # id-less copies always get a row of their own (text still shared)
                params = (th.tid, ckey(key[0]), key[1])
                if last is None:
                    rows = yield q.SELECT_MESSAGE_SEQ_AND_MAX, (*params, th.tid), "all"
                    seq, last = rows[0][0], int(rows[0][1])
                else:
                    rows = yield q.SELECT_MESSAGE_SEQ, params, "all"
                    seq = rows[0][0] if rows else None
                if seq is not None:
                    found[key] = int(seq)
        new = [k for k in missing if k not in found]
        if new:
            yield from self._insert(th, new, pending, found, last)
        for key, positions in missing.items():
            m, mid = pending[key]
            for i in positions:
                seqs[i] = found[key]
            cache.put_seq(tc, key, found[key], m, mid)
        return seqs

    def _insert(
        self,
        th: Thread,
        keys: list[tuple[str, bytes]],
        pending: dict[tuple[str, bytes], tuple[BaseMessage, str | None]],
        found: dict[tuple[str, bytes], int],
        last: int | None,
    ) -> q.Program[None]:
        self.cache.touch(th.tid)
        if last is None:
            rows = yield q.SELECT_MAX_SEQ, (th.tid,), "all"
            last = int(rows[0][0])
        nxt = last + 1
        msg_rows: list[tuple[Any, ...]] = []
        texts: dict[bytes, str] = {}
        for key in keys:
            m, _ = pending[key]
            t, blob, in_text, text = self.split(m)
            role, tools = m.type, tool_names(m)
            chk = message_check(nxt, key[0], key[1], role, tools, t, blob, in_text, text)
            mid = ckey(key[0])
            msg_rows.append((th.tid, nxt, mid, key[1], role, tools, t, blob, in_text, chk))
            if text is not None:
                texts[key[1]] = text
            found[key] = nxt
            nxt += 1
        yield q.INSERT_MESSAGE, msg_rows, "many"
        for digest, text in texts.items():
            yield from self.insert_text(th, digest, text)

    def insert_text(self, th: Thread, digest: bytes, text: str) -> q.Program[None]:
        """Store a text once per thread, with its words (FTS5, or the row's word filter)."""
        packed = self.dialect.text_value(pack_text(text))
        if self.dialect.fts_insert is None:
            params = (th.tid, digest, packed, word_filter(text))
            yield q.INSERT_FILTERED_TEXT, params, "none"
            return
        inserted = yield q.INSERT_TEXT, (th.tid, digest, packed), "all"
        if inserted:
            yield self.dialect.fts_insert, (inserted[0][0], index_words(text)), "none"

    def stale_word_filters(self, th: Thread, batch: int = 500) -> q.Program[list[str]]:
        """A line for each text whose stored word filter is not the one its text gives
        (a text that does not decode is left out: its messages report it)."""
        stale: list[str] = []
        last = 0
        while self.dialect.word_filter and (
            rows := (yield q.SELECT_TEXT_FILTERS, (th.tid, last, batch), "all")
        ):
            for text_id, packed, stored in rows:
                last = int(text_id)
                try:
                    expected = word_filter(unpack_text(bytes(packed)))
                except DECODE_ERRORS:
                    continue
                if (None if stored is None else bytes(stored)) != expected:
                    stale.append(f"text row {last}'s word filter is not its text's")
        return stale

    def load_messages(
        self, th: Thread, seqs: Sequence[int], where: Where
    ) -> q.Program[list[BaseMessage]]:
        """Messages for ``seqs`` in order, decoded and verified once per process.

        The objects are shared between calls, like the values of LangGraph's own
        channels: treat them as immutable (``add_messages`` replaces, never mutates).

        Raises:
            CorruptionError: a row is missing, fails its check or does not decode.
        """
        tc, cache = th.cache, self.cache
        got: dict[int, BaseMessage] = {}
        need = sorted({s for s in seqs if cache.message(tc, s) is None})
        for start in range(0, len(need), _CHUNK):
            chunk = need[start : start + _CHUNK]
            sql = q.SELECT_MESSAGES.format(marks=q.marks(len(chunk)))
            for row in (yield sql, (th.tid, *chunk), "all"):
                m = self.decode_row(row, where)
                got[int(row[0])] = m
                cache.put_message(tc, int(row[0]), m)
        out: list[BaseMessage] = []
        for s in seqs:
            found = got.get(s) or cache.message(tc, s)
            if found is None:
                raise corrupt(where.at(seq=s), f"message row {s} is missing")
            out.append(found)
        return out

    def decode_row(self, row: Sequence[Any], where: Where) -> BaseMessage:
        """A message from its row (``_sql.SELECT_MESSAGES`` columns), verified first."""
        seq, raw_id, digest, role, tools, t, skeleton, in_text, stored, packed = row
        with decoding(where.at(seq=int(seq)), "the message id"):
            mid = unkey(raw_id)
        at = where.at(seq=int(seq), message_id=mid or None)
        if in_text and packed is None:
            raise corrupt(at, "its text row is missing")
        with decoding(at, "the message text"):
            text = unpack_text(packed) if packed is not None else None
        expected = message_check(int(seq), mid, digest, role, tools, t, skeleton, in_text, text)
        verify_check(at, stored, expected, "the message row")
        with decoding(at, "the message skeleton"):
            message = self.serde.loads_typed((serde_type(t), unpack_skeleton(t, skeleton)))
        if not isinstance(message, BaseMessage):
            raise corrupt(at, f"the message row decodes to {type(message).__name__}")
        update: dict[str, Any] = {"id": mid or None}
        if in_text:
            update["content"] = text
        return message.model_copy(update=update)
