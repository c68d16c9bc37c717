"""Message storage for the compact savers: each message once per thread, lists as refs.

``MessageStore`` holds the per-process caches that make a put cost O(new messages):
decoded messages by ``(thread, seq)``, ref lists by channel version, and the ``seq`` of
message objects already seen. Its methods are programs (see ``_core.Program``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.serde.base import SerializerProtocol

from langgraph_compact.checkpoint import _core as q
from langgraph_compact.checkpoint._core import Program, RefList
from langgraph_compact.messages import message_digest, message_text

__all__ = ["MessageStore", "is_message_list", "is_message_write"]

_CACHE_LIMIT = 200_000
_CHUNK = 400


class _Lru(OrderedDict[Hashable, Any]):
    """A small bounded LRU map; the caches must not grow with the number of threads.

    Keys are tuples starting with the thread id; ``touched`` (shared by a store's
    caches) collects the threads written to during the current transaction.
    """

    def __init__(self, touched: set[str], limit: int = _CACHE_LIMIT) -> None:
        super().__init__()
        self.limit = limit
        self.touched = touched

    def put(self, key: Hashable, value: Any) -> None:
        if isinstance(key, tuple):
            self.touched.add(key[0])
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.limit:
            self.popitem(last=False)

    def drop_thread(self, thread_id: str) -> None:
        for key in [k for k in self if isinstance(k, tuple) and k[0] == thread_id]:
            del self[key]


def is_message_list(value: object) -> bool:
    """Whether a channel value is stored as refs: a non-empty list of messages with ids."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(m, BaseMessage) and m.id for m in value)
    )


def is_message_write(value: object) -> bool:
    """Whether a pending write is stored as refs: a message or a list of messages."""
    if isinstance(value, BaseMessage):
        return True
    return (
        isinstance(value, list) and bool(value) and all(isinstance(m, BaseMessage) for m in value)
    )


def _tool_names(message: BaseMessage) -> str:
    """``|a|b|``: the tools a message calls or answers, for an exact ``instr`` match."""
    names: list[str] = []
    if isinstance(message, AIMessage):
        names = [tc["name"] for tc in message.tool_calls]
    elif isinstance(message, ToolMessage) and message.name:
        names = [message.name]
    return "|" + "|".join(names) + "|" if names else ""


class MessageStore:
    """Messages stored once per thread, and channel lists stored as delta ref lists.

    Args:
        serde: the saver's serializer, used for message skeletons (the message minus
            its text).
        index_text: store message text (compressed) in clear for FTS5 search and the
            history filters. Turn it off with an encrypting serializer: text then stays
            inside the serde-encoded skeleton and text search is unavailable.
    """

    def __init__(self, serde: SerializerProtocol, *, index_text: bool = True) -> None:
        self.serde = serde
        self.index_text = index_text
        self.touched: set[str] = set()
        t = self.touched
        self.messages = _Lru(t)  # (thread, seq) -> decoded message
        self.refs = _Lru(t)  # (thread, ns, channel, version) -> (seqs, depth)
        self.latest_refs = _Lru(t)  # (thread, ns, channel) -> version
        self.seq_by_key = _Lru(t)  # (thread, message id, digest) -> seq
        self.seq_by_obj = _Lru(t)  # (thread, id(obj)) -> (obj, content, id, seq)
        # Message lists by channel version, and the last list seen per channel: a put
        # whose list starts with the same objects only looks at the new tail.
        self.lists = _Lru(t, limit=256)  # (thread, ns, channel, version) -> messages
        self.last_list = _Lru(t, limit=4096)  # (thread, ns, channel) -> (ids, seqs, objects)
        self._caches = (
            self.messages,
            self.refs,
            self.latest_refs,
            self.seq_by_key,
            self.seq_by_obj,
            self.lists,
            self.last_list,
        )

        # thread -> the lgc_thread_epochs value the thread's cached entries were read at.
        # A thread with cached entries always has an epoch here (forget_thread drops
        # both; overflowing the map drops every cache).
        self.epochs: dict[str, int] = {}

    def forget_thread(self, thread_id: str) -> None:
        """Drop every cached value of a thread (after deletes, prunes and redactions)."""
        for cache in self._caches:
            cache.drop_thread(thread_id)
        self.epochs.pop(thread_id, None)

    def sync_thread(self, thread_id: str) -> Program[None]:
        """Drop the thread's cached state if another saver changed it since we cached it.

        Every program that reads or writes a thread through the caches runs this first:
        one primary-key lookup of the thread's change counter, which ``bump_thread``
        moves on redaction, deletion, pruning, run deletion and copy (in any process).
        """
        rows = yield q.SELECT_EPOCH_SQL, (thread_id,), "all"
        epoch = int(rows[0][0]) if rows else 0
        cached = self.epochs.get(thread_id)
        if cached == epoch:
            return
        if cached is not None:
            self.forget_thread(thread_id)
        if len(self.epochs) >= _CACHE_LIMIT:
            for cache in self._caches:
                cache.clear()
            self.epochs.clear()
        self.epochs[thread_id] = epoch
        self.touched.add(thread_id)

    def bump_thread(self, thread_id: str) -> Program[None]:
        """Record that a thread's stored history changed under every saver's caches."""
        yield q.BUMP_EPOCH_SQL, (thread_id,), "none"
        self.forget_thread(thread_id)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Wrap one program run: if it fails (the runner rolled back), forget its caches.

        Programs fill the caches as they go, before ``COMMIT``; a cached seq or ref list
        from a rolled-back transaction would point at rows that were never stored. The
        savers run one program at a time per store (under their lock), so every thread
        written to since ``transaction`` was entered belongs to this program.
        """
        self.touched.clear()
        try:
            yield
        except BaseException:
            for thread_id in list(self.touched):
                self.forget_thread(thread_id)
            raise
        finally:
            self.touched.clear()

    # --- messages --------------------------------------------------------------------

    def _skeleton(
        self, message: BaseMessage, message_id: str | None
    ) -> tuple[str, bytes, int, str | None]:
        """(type, blob, content_in_text, text): the message with its text split off.

        The id is pinned to ``message_id`` (read once by the caller), because LangGraph
        may assign it in place on another thread while a node's writes are stored.
        """
        content = message.content
        if not self.index_text:
            full = message.model_copy(update={"id": message_id})
            return *q.pack_skeleton(*self.serde.dumps_typed(full)), 0, None
        if isinstance(content, str):
            bare = message.model_copy(update={"content": "", "id": message_id})
            return *q.pack_skeleton(*self.serde.dumps_typed(bare)), 1, content
        full = message.model_copy(update={"id": message_id})
        return *q.pack_skeleton(*self.serde.dumps_typed(full)), 0, message_text(message)

    def loads_skeleton(self, t: str, blob: bytes) -> Any:
        """Decode a stored message skeleton (see ``_core.pack_skeleton``)."""
        return self.serde.loads_typed((q.serde_type(t), q.unpack_skeleton(t, blob)))

    def store_messages(self, thread_id: str, messages: Sequence[BaseMessage]) -> Program[list[int]]:
        """Store each message once per thread and return their ``seq`` numbers.

        Algorithm: an object already seen (same object, same content object) reuses its
        seq without hashing; otherwise the digest is looked up in memory, then in the
        database; only messages never stored are serialized and inserted.
        """
        seqs: list[int] = []
        missing: dict[tuple[str, bytes], list[int]] = {}
        pending: dict[tuple[str, bytes], tuple[BaseMessage, str | None]] = {}
        for i, m in enumerate(messages):
            # The id is read once and checked too: add_messages assigns ids in place,
            # after a node's writes (stored id-less) and before the next checkpoint.
            mid = m.id
            hit = self.seq_by_obj.get((thread_id, id(m)))
            if hit is not None and hit[0] is m and hit[1] is m.content and hit[2] == mid:
                seqs.append(hit[3])
                continue
            key = (mid or "", bytes.fromhex(message_digest(m)))
            seq = self.seq_by_key.get((thread_id, *key))
            if seq is None:
                missing.setdefault(key, []).append(i)
                pending[key] = (m, mid)
                seqs.append(-1)
            else:
                seqs.append(seq)
                self.seq_by_obj.put((thread_id, id(m)), (m, m.content, mid, seq))
        found: dict[tuple[str, bytes], int] = {}
        for key in missing:
            if not key[0]:
                # Id-less copies (a node's writes, before add_messages assigns the id)
                # always get a row of their own; their text is still stored once.
                continue
            rows = yield q.SELECT_MESSAGE_KEYS_SQL, (thread_id, *key), "all"
            if rows:
                found[key] = int(rows[0][2])
        new = [k for k in missing if k not in found]
        if new:
            rows = yield q.SELECT_MAX_SEQ_SQL, (thread_id,), "all"
            nxt = int(rows[0][0]) + 1
            msg_rows, text_rows = [], []
            for key in new:
                m, mid = pending[key]
                t, blob, in_text, text = self._skeleton(m, mid)
                found[key] = nxt
                msg_rows.append(
                    (thread_id, nxt, key[0], key[1], m.type, _tool_names(m), t, blob, in_text)
                )
                text_rows.append((thread_id, key[1], text))
                nxt += 1
            yield q.INSERT_MESSAGE_SQL, msg_rows, "many"
            for thread, digest, text in text_rows:
                inserted = yield q.INSERT_TEXT_SQL, (thread, digest, q.pack_text(text)), "all"
                if inserted and text is not None:
                    yield q.INSERT_FTS_SQL, (inserted[0][0], text), "none"
        for key, positions in missing.items():
            m, mid = pending[key]
            for i in positions:
                seqs[i] = found[key]
            self.seq_by_key.put((thread_id, *key), found[key])
            self.seq_by_obj.put((thread_id, id(m)), (m, m.content, mid, found[key]))
        return seqs

    def store_list(
        self, thread_id: str, ns: str, channel: str, messages: Sequence[BaseMessage]
    ) -> Program[tuple[int, ...]]:
        """``store_messages`` for a channel's whole list, O(new messages) in steady state.

        When the list starts with exactly the objects of the last list seen for this
        channel (LangGraph's ``add_messages`` appends and keeps the objects), only the
        tail is looked at. Messages are treated as immutable, as the reducers do.
        """
        key = (thread_id, ns, channel)
        last = self.last_list.get(key)
        seqs: tuple[int, ...] | None = None
        if last is not None:
            ids, last_seqs, _objects = last
            k = len(ids)
            if len(messages) >= k and tuple(map(id, messages[:k])) == ids:
                tail = yield from self.store_messages(thread_id, messages[k:])
                seqs = last_seqs + tuple(tail)
        if seqs is None:
            seqs = tuple((yield from self.store_messages(thread_id, messages)))
        self.remember_list(key, seqs, list(messages))
        return seqs

    def remember_list(
        self, key: tuple[str, str, str], seqs: tuple[int, ...], objects: list[BaseMessage]
    ) -> None:
        r"""Record the last list of a channel (the objects keep their ``id()``\s valid)."""
        self.last_list.put(key, (tuple(map(id, objects)), seqs, objects))

    def load_messages(self, thread_id: str, seqs: Sequence[int]) -> Program[list[BaseMessage]]:
        """Messages for ``seqs`` in order, decoded once per process.

        The objects are shared between calls, like the values of LangGraph's own
        channels: treat them as immutable (``add_messages`` replaces, never mutates).
        """
        need = sorted({s for s in seqs if (thread_id, s) not in self.messages})
        for start in range(0, len(need), _CHUNK):
            chunk = need[start : start + _CHUNK]
            sql = q.SELECT_MESSAGES_SQL.format(marks=q.marks(len(chunk)))
            rows = yield sql, (thread_id, *chunk), "all"
            for seq, t, skeleton, in_text, text in rows:
                m = cast(BaseMessage, self.loads_skeleton(t, skeleton))
                if in_text:
                    m = m.model_copy(update={"content": q.unpack_text(text) or ""})
                self.messages.put((thread_id, int(seq)), m)
        out: list[BaseMessage] = []
        for s in seqs:
            cached = self.messages.get((thread_id, s))
            if cached is None:
                raise KeyError(f"thread {thread_id!r}: message row {s} is missing")
            out.append(cached)
        return out

    # --- ref lists -------------------------------------------------------------------

    def resolve_refs(
        self, thread_id: str, ns: str, channel: str, version: str, refs: RefList | None = None
    ) -> Program[tuple[int, ...]]:
        """The full seq list of a stored ref list, following at most ``REFS_MAX_DEPTH`` links."""
        key = (thread_id, ns, channel, version)
        hit = self.refs.get(key)
        if hit is not None:
            return cast(tuple[int, ...], hit[0])
        if refs is None:
            rows = yield q.SELECT_BLOB_SQL, (thread_id, ns, channel, version), "all"
            if not rows:
                raise KeyError(f"thread {thread_id!r}: ref list {channel}@{version} is missing")
            refs = q.decode_refs(rows[0][1], rows[0][2])
        seqs = refs.tail
        if refs.base is not None:
            base = yield from self.resolve_refs(thread_id, ns, channel, refs.base)
            seqs = base[: refs.keep] + refs.tail
        self.refs.put(key, (seqs, refs.depth))
        return seqs

    def _plan_refs(
        self, thread_id: str, ns: str, channel: str, version: str, seqs: tuple[int, ...]
    ) -> Program[RefList]:
        base_version = self.latest_refs.get((thread_id, ns, channel))
        hit = self.refs.get((thread_id, ns, channel, base_version)) if base_version else None
        if base_version == version or hit is None:
            return RefList(None, 0, seqs)
        # Another process may have pruned the base since we cached it.
        rows = yield q.SELECT_BLOB_EXISTS_SQL, (thread_id, ns, channel, base_version), "all"
        if not rows:
            return RefList(None, 0, seqs)
        return q.plan_refs(seqs, base_version, hit[0], hit[1])
