"""The storage logic of the savers as programs: pure generators over ``Stmt`` tuples.

``CheckpointStore`` turns each saver operation into a ``Program``; the sync saver runs it
on ``sqlite3`` and the async saver on ``aiosqlite``. Message storage and its caches come
from ``MessageStore``.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from typing import Any, cast

from langchain_core.messages import BaseMessage
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

from langgraph_compact.checkpoint import _core as q
from langgraph_compact.checkpoint._core import REFS_TYPE, WRITE_REFS_TYPE, Program, RefList
from langgraph_compact.checkpoint._messages import MessageStore, is_message_list, is_message_write

__all__ = ["CheckpointStore", "is_message_list"]


def _config(thread_id: str, ns: str, checkpoint_id: str) -> RunnableConfig:
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": ns,
            "checkpoint_id": checkpoint_id,
        }
    }


class CheckpointStore(MessageStore):
    """Every saver operation as a ``Program``, over the shared message store."""

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
        yield from self.sync_thread(thread_id)
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
            self.latest_refs.put(key[:3], key[3])
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
        yield from self.sync_thread(thread_id)
        rows = []
        for idx, (channel, value) in enumerate(writes):
            if is_message_write(value):
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
        yield from self.sync_thread(thread_id)
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
        for thread_id in dict.fromkeys(str(r[0]) for r in rows):
            yield from self.sync_thread(thread_id)
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
            # Driving the join from the VALUES list makes each row a primary-key lookup;
            # "(channel, version) IN (VALUES ...)" scans the thread's blobs instead.
            sql = q.SELECT_CHECKPOINT_BLOBS_SQL.format(values=",".join(["(?, ?)"] * len(pairs)))
            rows = yield sql, (*(x for p in pairs for x in p), thread_id, ns), "all"
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
        self.latest_refs.put(key[:3], key[3])
        self.remember_list(key[:3], seqs, objects)
        return list(objects)

    def load_value(self, thread_id: str, t: str, blob: bytes | None) -> Program[Any]:
        """A write value: message refs are resolved, anything else goes through serde."""
        if t != WRITE_REFS_TYPE:
            return self.serde.loads_typed((t, blob or b""))
        one, seqs = json.loads(blob or b"[false, []]")
        msgs = yield from self.load_messages(thread_id, [int(s) for s in seqs])
        return msgs[0] if one else msgs
