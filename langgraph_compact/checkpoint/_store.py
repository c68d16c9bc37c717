"""The storage logic of the savers as programs: pure generators over ``Stmt`` tuples.

``CheckpointStore`` turns each saver operation into a ``Program``; the sync saver runs it
on ``sqlite3`` and the async saver on ``aiosqlite``. It also owns the per-process caches
that make a put cost O(new messages): decoded messages by ``(thread, seq)``, ref lists by
channel version, and the ``seq`` of message objects already seen.
"""

from __future__ import annotations

import builtins
import json
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any, cast

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    PendingWrite,
    get_checkpoint_id,
    get_serializable_checkpoint_metadata,
    writes_sort_key,
)
from langgraph.checkpoint.serde.base import SerializerProtocol

from langgraph_compact.checkpoint import _core as q
from langgraph_compact.checkpoint._core import REFS_TYPE, WRITE_REFS_TYPE, Program, RefList
from langgraph_compact.messages import message_digest, message_text

__all__ = ["CheckpointStore", "is_message_list"]

_CACHE_LIMIT = 200_000
_CHUNK = 400


class _Lru(OrderedDict[Hashable, Any]):
    """A small bounded LRU map; the caches must not grow with the number of threads."""

    def __init__(self, limit: int = _CACHE_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: Hashable, value: Any) -> None:
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


def _is_message_write(value: object) -> bool:
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


def _config(thread_id: str, ns: str, checkpoint_id: str) -> RunnableConfig:
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": ns,
            "checkpoint_id": checkpoint_id,
        }
    }


class CheckpointStore:
    """Every saver operation as a ``Program``, plus the caches they share.

    Args:
        serde: the saver's serializer, used for every non-message value and for message
            skeletons (the message minus its text).
        index_text: store message text in clear for FTS5 search and history filters.
            Turn it off with an encrypting serializer: text then stays inside the
            serde-encoded skeleton and text search is unavailable.
    """

    def __init__(self, serde: SerializerProtocol, *, index_text: bool = True) -> None:
        self.serde = serde
        self.index_text = index_text
        self.messages = _Lru()  # (thread, seq) -> decoded message
        self.refs = _Lru()  # (thread, ns, channel, version) -> (seqs, depth)
        self.latest_refs: dict[tuple[str, str, str], str] = {}  # -> version
        self.seq_by_key = _Lru()  # (thread, message id, digest) -> seq
        self.seq_by_obj = _Lru()  # (thread, id(obj)) -> (obj, content, id, seq)
        # Message lists by channel version, and the last list seen per channel: a put
        # whose list starts with the same objects only looks at the new tail.
        self.lists = _Lru(limit=256)  # (thread, ns, channel, version) -> list of messages
        self.last_list = _Lru(limit=4096)  # (thread, ns, channel) -> (ids, seqs, objects)

    def forget_thread(self, thread_id: str) -> None:
        """Drop every cached value of a thread (after deletes, prunes and redactions)."""
        caches = (self.messages, self.refs, self.seq_by_key, self.seq_by_obj, self.lists)
        for cache in (*caches, self.last_list):
            cache.drop_thread(thread_id)
        for key in [k for k in self.latest_refs if k[0] == thread_id]:
            del self.latest_refs[key]

    # --- messages --------------------------------------------------------------------

    def _skeleton(self, message: BaseMessage) -> tuple[str, bytes, int, str | None]:
        """(type, blob, content_in_text, text): the message with its text split off."""
        if not self.index_text:
            return *q.pack_skeleton(*self.serde.dumps_typed(message)), 0, None
        if isinstance(message.content, str):
            bare = message.model_copy(update={"content": ""})
            return *q.pack_skeleton(*self.serde.dumps_typed(bare)), 1, message.content
        return *q.pack_skeleton(*self.serde.dumps_typed(message)), 0, message_text(message)

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
        pending: dict[tuple[str, bytes], BaseMessage] = {}
        for i, m in enumerate(messages):
            hit = self.seq_by_obj.get((thread_id, id(m)))
            # The id is checked too: add_messages assigns ids in place, after a node's
            # writes (stored id-less) and before the checkpoint that holds the message.
            if hit is not None and hit[0] is m and hit[1] is m.content and hit[2] == m.id:
                seqs.append(hit[3])
                continue
            key = (m.id or "", bytes.fromhex(message_digest(m)))
            seq = self.seq_by_key.get((thread_id, *key))
            if seq is None:
                missing.setdefault(key, []).append(i)
                pending[key] = m
                seqs.append(-1)
            else:
                seqs.append(seq)
                self.seq_by_obj.put((thread_id, id(m)), (m, m.content, m.id, seq))
        found: dict[tuple[str, bytes], int] = {}
        for key in missing:
            rows = yield q.SELECT_MESSAGE_KEYS_SQL, (thread_id, *key), "all"
            if rows:
                found[key] = int(rows[0][2])
        new = [k for k in missing if k not in found]
        if new:
            rows = yield q.SELECT_MAX_SEQ_SQL, (thread_id,), "all"
            nxt = int(rows[0][0]) + 1
            msg_rows, text_rows = [], []
            for key in new:
                m = pending[key]
                t, blob, in_text, text = self._skeleton(m)
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
            m = pending[key]
            for i in positions:
                seqs[i] = found[key]
            self.seq_by_key.put((thread_id, *key), found[key])
            self.seq_by_obj.put((thread_id, id(m)), (m, m.content, m.id, found[key]))
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

    # --- checkpoints -----------------------------------------------------------------

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Program[RunnableConfig]:
        """Store a checkpoint: blobs only for ``new_versions``, messages as refs."""
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        values = checkpoint["channel_values"]
        blob_rows: list[tuple[Any, ...]] = []
        cached: list[tuple[tuple[str, str, str, str], tuple[int, ...], int]] = []
        for channel, raw_version in new_versions.items():
            version = str(raw_version)
            row: tuple[Any, ...] = (thread_id, ns, channel, version)
            value = values.get(channel)
            if channel not in values:
                continue  # no row: a version without a blob loads as "no value"
            if is_message_list(value):
                msgs = cast(list[BaseMessage], value)
                seqs = yield from self.store_list(thread_id, ns, channel, msgs)
                refs = yield from self._plan_refs(thread_id, ns, channel, version, seqs)
                blob_rows.append((*row, REFS_TYPE, q.encode_refs(refs), refs.base))
                cached.append(((thread_id, ns, channel, version), seqs, refs.depth))
                self.lists.put((thread_id, ns, channel, version), list(msgs))
            else:
                blob_rows.append((*row, *self.serde.dumps_typed(value), None))
        if blob_rows:
            yield q.INSERT_BLOB_SQL, blob_rows, "many"
        md = get_serializable_checkpoint_metadata(config, metadata)
        run_id = cast(dict[str, Any], md).get("run_id")
        yield (
            q.UPSERT_CHECKPOINT_SQL,
            (
                thread_id,
                ns,
                checkpoint["id"],
                conf.get("checkpoint_id"),
                str(run_id) if run_id is not None else None,
                q.pack_checkpoint(checkpoint, md),
            ),
            "none",
        )
        for key, seqs, depth in cached:
            self.refs.put(key, (seqs, depth))
            self.latest_refs[key[:3]] = key[3]
        return _config(thread_id, ns, checkpoint["id"])

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> Program[None]:
        """Store pending writes; message values become refs to the message table."""
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        rows = []
        for idx, (channel, value) in enumerate(writes):
            if _is_message_write(value):
                one = isinstance(value, BaseMessage)
                msgs = [value] if one else list(value)
                seqs = yield from self.store_messages(thread_id, msgs)
                t, blob = WRITE_REFS_TYPE, json.dumps([one, seqs]).encode()
            else:
                t, blob = self.serde.dumps_typed(value)
            rows.append(
                (
                    thread_id,
                    ns,
                    str(conf["checkpoint_id"]),
                    task_id,
                    task_path,
                    WRITES_IDX_MAP.get(channel, idx),
                    channel,
                    t,
                    blob,
                )
            )
        upsert = all(w[0] in WRITES_IDX_MAP for w in writes)
        if rows:
            yield (q.UPSERT_WRITE_SQL if upsert else q.INSERT_WRITE_SQL), rows, "many"

    def get_tuple(self, config: RunnableConfig) -> Program[CheckpointTuple | None]:
        """The checkpoint named by ``config``, or the thread's latest in its namespace."""
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        if checkpoint_id := get_checkpoint_id(config):
            sql = q.SELECT_CHECKPOINT_COLUMNS + (
                " WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"
            )
            params: tuple[Any, ...] = (thread_id, ns, checkpoint_id)
        else:
            sql = q.SELECT_CHECKPOINT_COLUMNS + (
                " WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1"
            )
            params = (thread_id, ns)
        rows = yield sql, params, "all"
        if not rows:
            return None
        return (yield from self.tuple_from_row(rows[0]))

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Program[list[CheckpointTuple]]:
        """Matching checkpoints, newest first; metadata is filtered before values load."""
        wheres: list[str] = []
        params: list[Any] = []
        if config is not None:
            conf = config["configurable"]
            wheres.append("thread_id = ?")
            params.append(str(conf["thread_id"]))
            if conf.get("checkpoint_ns") is not None:
                wheres.append("checkpoint_ns = ?")
                params.append(str(conf["checkpoint_ns"]))
            if checkpoint_id := get_checkpoint_id(config):
                wheres.append("checkpoint_id = ?")
                params.append(checkpoint_id)
        if before is not None and (before_id := get_checkpoint_id(before)):
            wheres.append("checkpoint_id < ?")
            params.append(before_id)
        where = " WHERE " + " AND ".join(wheres) if wheres else ""
        sql = q.SELECT_CHECKPOINT_COLUMNS + where + " ORDER BY checkpoint_id DESC"
        if limit is not None and not filter:
            sql += f" LIMIT {int(limit)}"
        rows = yield sql, params, "all"
        out: list[CheckpointTuple] = []
        for row in rows:
            if limit is not None and len(out) >= limit:
                break
            if filter:
                md = q.unpack_checkpoint(row[4], row[2])[1]
                if any(md.get(k) != v for k, v in filter.items()):
                    continue
            out.append((yield from self.tuple_from_row(row)))
        return out

    def tuple_from_row(self, row: Sequence[Any]) -> Program[CheckpointTuple]:
        """Rebuild a ``CheckpointTuple`` from a checkpoint row, its blobs and its writes."""
        thread_id, ns, checkpoint_id, parent_id, raw = row
        skeleton, metadata = q.unpack_checkpoint(raw, checkpoint_id)
        versions: dict[str, Any] = skeleton.get("channel_versions", {})
        values: dict[str, Any] = {}
        if versions:
            pairs = [(c, str(v)) for c, v in versions.items()]
            sql = (
                "SELECT channel, version, type, blob, base_version FROM lgc_blobs "
                "WHERE thread_id = ? AND checkpoint_ns = ? AND (channel, version) IN (VALUES "
                + ",".join(["(?, ?)"] * len(pairs))
                + ")"
            )
            rows = yield sql, (thread_id, ns, *(x for p in pairs for x in p)), "all"
            for channel, version, t, blob, base in rows:
                if t == "empty":
                    continue
                if t == REFS_TYPE:
                    values[channel] = yield from self._load_list(
                        (thread_id, ns, channel, version), q.decode_refs(blob, base)
                    )
                else:
                    values[channel] = self.serde.loads_typed((t, blob))
        write_rows = yield q.SELECT_WRITES_SQL, (thread_id, ns, checkpoint_id), "all"
        writes: list[PendingWrite] = []
        for task_id, channel, t, blob, _path, _idx in sorted(
            write_rows, key=lambda w: writes_sort_key(w[4], w[0], int(w[5]))
        ):
            writes.append((task_id, channel, (yield from self.load_value(thread_id, t, blob))))
        checkpoint = cast(Checkpoint, {**skeleton, "channel_values": values})
        return CheckpointTuple(
            _config(thread_id, ns, checkpoint_id),
            checkpoint,
            cast(CheckpointMetadata, metadata),
            _config(thread_id, ns, parent_id) if parent_id else None,
            writes,
        )

    def _load_list(
        self, key: tuple[str, str, str, str], refs: RefList
    ) -> Program[builtins.list[BaseMessage]]:
        """A message-list channel value; a copy of the cached list when there is one."""
        thread_id = key[0]
        seqs = yield from self.resolve_refs(*key, refs)
        objects = self.lists.get(key)
        if objects is None:
            objects = yield from self.load_messages(thread_id, seqs)
            self.lists.put(key, objects)
        self.latest_refs[key[:3]] = key[3]
        self.remember_list(key[:3], seqs, objects)
        return list(objects)

    def load_value(self, thread_id: str, t: str, blob: bytes | None) -> Program[Any]:
        """A write value: message refs are resolved, anything else goes through serde."""
        if t != WRITE_REFS_TYPE:
            return self.serde.loads_typed((t, blob or b""))
        one, seqs = json.loads(blob or b"[false, []]")
        msgs = yield from self.load_messages(thread_id, [int(s) for s in seqs])
        return msgs[0] if one else msgs
