"""The saver operations as programs: pure generators over ``Stmt`` tuples.

``CheckpointStore`` turns each ``BaseCheckpointSaver`` operation into a ``Program`` run
by the ``sqlite3``, ``aiosqlite`` or ``psycopg`` driver. Every row read is verified
(``_check``): damage raises ``CorruptionError`` naming where, never a wrong value.
"""

from __future__ import annotations

import builtins
import copy
from collections.abc import Sequence
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_serializable_checkpoint_metadata,
)

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._cas import check_summary_swap
from langgraph_compact.checkpoint._check import Where, blob_check, corrupt, decoding, verify_check
from langgraph_compact.checkpoint._codec import (
    REFS_TYPE,
    key,
    unkey,
)
from langgraph_compact.checkpoint._fold import (
    LINK_TYPE,
    Fold,
    carried,
    from_parent,
    link_row,
    put_value,
    same_version,
)
from langgraph_compact.checkpoint._guard import check_head
from langgraph_compact.checkpoint._lane import (
    Base,
    advance_head,
    check_count,
    lane_base,
    load_record,
    pack_row,
    read_head,
    reencode_after,
    rewrite_lane,
)
from langgraph_compact.checkpoint._lists import load_list
from langgraph_compact.checkpoint._messages import MessageStore, Thread
from langgraph_compact.checkpoint._writes import fold_entries, load_writes, store_writes

__all__ = ["CheckpointStore", "config_for"]


def config_for(thread_id: str, ns: str, checkpoint_id: str) -> RunnableConfig:
    conf = {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint_id}
    return {"configurable": conf}


def _lane(config: RunnableConfig) -> tuple[str, str]:
    conf = config["configurable"]
    return str(conf["thread_id"]), str(conf.get("checkpoint_ns", "") or "")


class CheckpointStore(MessageStore):
    """Every saver operation as a ``Program``, over the message store and its cache."""

    # --- writing -------------------------------------------------------------------------

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
        *,
        expect_head: bool = False,
        continues: bool = False,
    ) -> q.Program[RunnableConfig]:
        """Store a checkpoint: values only for ``new_versions``, message lists as refs.

        ``expect_head``: the parent must be the lane's newest checkpoint (``_guard``);
        ``continues``: the parent was read as the newest, so summaries swap (``_cas``)."""
        thread_id, ns = _lane(config)
        th = cast(Thread, (yield from self.thread(thread_id, create=True)))
        cid = checkpoint["id"]
        values = checkpoint["channel_values"]
        head, appended, base = yield from lane_base(self, th, ns, cid)
        parent = config["configurable"].get("checkpoint_id")
        if expect_head:
            yield from check_head(th.tid, thread_id, ns, parent, head[0] if head else None)
        elif continues:
            yield from check_summary_swap(self, thread_id, ns, parent, head and head[0], values)
        known = base[2] if base is not None else None
        inline: dict[str, tuple[str, bytes]] = {}
        empty: list[str] = []
        unknown: dict[str, tuple[str, Any]] = {}
        fold = Fold(cid, appended)
        for channel, raw_version in checkpoint["channel_versions"].items():
            version = str(raw_version)
            if channel not in values:
                empty.append(channel)
            elif channel in new_versions:
                yield from put_value(self, th, ns, channel, version, values[channel], inline, fold)
            elif known is not None and same_version(known, channel, version):
                if channel in known.inline:  # unchanged, and stored in the row before
                    inline[channel] = carried(known.inline[channel], cast(Base, base)[0])
            else:
                unknown[channel] = (version, values[channel])
        yield from from_parent(self, th, ns, parent, unknown, inline)
        if unknown:  # unchanged but not seen here: store it unless its row exists
            pairs = [(v, c) for c, (v, _) in unknown.items()]
            sql = q.SELECT_BLOB_KEYS.format(values=q.values_list(len(pairs), 2))
            params = [x for v, c in pairs for x in (key(v), c)]
            stored = {str(r[0]) for r in (yield sql, (*params, th.tid, ns), "all")}
            for channel, (version, value) in unknown.items():
                if channel not in stored:
                    yield from put_value(self, th, ns, channel, version, value, inline, fold)
        if fold.blob_rows:
            yield q.INSERT_BLOB, fold.blob_rows, "many"
        md = cast(dict[str, Any], get_serializable_checkpoint_metadata(config, metadata))
        run_id = str(md["run_id"]) if md.get("run_id") is not None else None
        # A row in the middle of the lane (an older id, or the same id again) changes
        # the base of the deltas after it: decode them now, write them again after.
        following = [] if appended else (yield from reencode_after(self, th, ns, cid))
        packed, chk = pack_row(self, th, ns, checkpoint, md, parent, inline, empty, run_id, base)
        early: list[Any] = []  # writes stored before their checkpoint move into its row
        if appended and self.cache.take_early(th.tid, ns, cid):
            early = yield q.SELECT_WRITE_ROWS, (th.tid, ns, key(cid)), "all"
        writes = (
            fold_entries([(bytes(t), bytes(w), bytes(c)) for t, w, c in early]) if early else None
        )
        row = (
            th.tid,
            ns,
            cid,
            run_id,
            packed.payload,
            th.tid,
            ns,
            key(cid),
            chk,
            *fold.columns,
            writes,
        )
        if appended:  # newer than the head, so a new row (one already there is an error)
            yield q.APPEND_CHECKPOINT, row, "none"  # no wait for the answer
            if early:
                yield q.DELETE_CHECKPOINT_WRITES, (th.tid, ns, key(cid)), "none"
        added = appended or bool((yield q.INSERT_CHECKPOINT, row, "all"))
        if not added:
            yield q.REPLACE_CHECKPOINT, (run_id, packed.payload, chk, th.tid, ns, cid), "none"
        if following:
            first = ((cid, run_id, packed.payload, 0, chk), packed.record)
            yield from rewrite_lane(self, th, ns, [first, *following], {})
        yield from advance_head(th, ns, cid, 1 if added else 0, head)
        return config_for(thread_id, ns, cid)

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> q.Program[None]:
        """Store a task's pending writes as one row; message values become refs."""
        thread_id, ns = _lane(config)
        th = cast(Thread, (yield from self.thread(thread_id, create=True)))
        cid = str(config["configurable"]["checkpoint_id"])
        yield from store_writes(self, th, ns, cid, writes, task_id, task_path)

    # --- reading -------------------------------------------------------------------------

    def get_tuple(self, config: RunnableConfig) -> q.Program[CheckpointTuple | None]:
        """The checkpoint named by ``config``, or the thread's newest in its namespace."""
        thread_id, ns = _lane(config)
        th = yield from self.thread(thread_id)
        if th is None:
            return None
        cid = get_checkpoint_id(config)
        if not cid:
            head = yield from read_head(th, ns)
            if head is None:
                rows = yield q.SELECT_LANE_SUMMARY, (th.tid, ns), "all"
                if int(rows[0][1]):
                    raise corrupt(Where(thread_id), f"namespace {ns!r} has no head record")
                return None
            cid = head[0]
        rows = yield q.SELECT_CHECKPOINT, (th.tid, ns, cid), "all"
        if not rows:
            if not get_checkpoint_id(config):
                what = "the thread's newest checkpoint row is missing"
                raise corrupt(Where(thread_id, cid), what)
            yield from check_count(th, ns, Where(thread_id, cid))
            return None
        tup, parent = yield from self.tuple_from_row(th, ns, rows[0], remember=True)
        if parent:
            found = yield (
                q.SELECT_EXISTING_CHECKPOINTS.format(marks="?"),
                (th.tid, ns, parent),
                "all",
            )
            if not found:
                raise corrupt(Where(thread_id, cid), f"its parent checkpoint {parent} is missing")
        return tup

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> q.Program[builtins.list[CheckpointTuple]]:
        """Matching checkpoints, newest first; metadata is filtered before values load."""
        params: builtins.list[Any] = []
        conf = config["configurable"] if config is not None else {}
        ns = conf.get("checkpoint_ns")
        cid = get_checkpoint_id(config) if config is not None else None
        before_id = get_checkpoint_id(before) if before is not None else None
        lane: Thread | None = None
        if config is not None:
            lane = yield from self.thread(str(conf["thread_id"]))
            if lane is None:
                return []
            params.append(lane.tid)
        params += [str(ns)] if ns is not None else []
        params += [cid] if cid else []
        params += [before_id] if before_id else []
        sql = q.list_checkpoints(
            thread=config is not None,
            ns=ns is not None,
            checkpoint=bool(cid),
            before=bool(before_id),
            limit=limit if not filter else None,
        )
        rows = yield sql, params, "all"
        threads: dict[str, Thread] = {}
        out: builtins.list[tuple[CheckpointTuple, Thread, str, str | None]] = []
        for thread_id, _tid, row_ns, *row in rows:
            if limit is not None and len(out) >= limit:
                break
            if thread_id not in threads:
                found = yield from self.thread(thread_id)
                if found is None:
                    continue
                threads[thread_id] = found
            th = threads[thread_id]
            if filter:
                stored = yield from load_record(self, th, row_ns, row)
                if any(stored.metadata.get(k) != v for k, v in filter.items()):
                    continue
            tup, parent = yield from self.tuple_from_row(th, row_ns, row, remember=False)
            out.append((tup, th, row_ns, parent))
        yield from self._check_parents(out)
        if lane is not None and ns is not None and not (cid or before_id or limit or filter):
            head = yield from read_head(lane, str(ns))  # a whole namespace: all rows there?
            if head is not None and head[1] != len(out):
                what = f"{head[1]} checkpoints recorded, {len(out)} rows are left"
                raise corrupt(Where(lane.thread_id, head[0]), what)
        return [t for t, *_ in out]

    def _check_parents(
        self, items: builtins.list[tuple[CheckpointTuple, Thread, str, str | None]]
    ) -> q.Program[None]:
        """Raise if a listed checkpoint's parent is missing (one query per 400 parents)."""
        wanted: dict[tuple[int, str], set[str]] = {}
        for _, th, ns, parent in items:
            if parent:
                wanted.setdefault((th.tid, ns), set()).add(parent)
        missing: set[tuple[int, str, str]] = set()
        for (tid, ns), parents in wanted.items():
            ids = sorted(parents)
            found: set[str] = set()
            for start in range(0, len(ids), 400):
                chunk = ids[start : start + 400]
                sql = q.SELECT_EXISTING_CHECKPOINTS.format(marks=q.marks(len(chunk)))
                found |= {str(r[0]) for r in (yield sql, (tid, ns, *chunk), "all")}
            missing |= {(tid, ns, p) for p in parents - found}
        for tup, th, ns, parent in items:
            if parent and (th.tid, ns, parent) in missing:
                cid = str(tup.config["configurable"]["checkpoint_id"])
                raise corrupt(
                    Where(th.thread_id, cid), f"its parent checkpoint {parent} is missing"
                )

    def tuple_from_row(
        self, th: Thread, ns: str, row: Sequence[Any], *, remember: bool
    ) -> q.Program[tuple[CheckpointTuple, str | None]]:
        """Rebuild a ``CheckpointTuple`` (and its parent id) from a row, its values and writes."""
        cid, _run_id, _payload, tasks, _chk = row
        where = Where(th.thread_id, str(cid))
        stored = yield from load_record(self, th, ns, row)
        versions: dict[str, Any] = stored.skeleton.get("channel_versions", {})
        values: dict[str, Any] = {}
        for channel, (t, b) in stored.inline.items():
            if t == LINK_TYPE:  # a message list whose link a checkpoint row holds
                version, at = str(versions.get(channel)), where.at(channel=channel)
                holder = link_row(str(cid), b, at)
                values[channel] = yield from load_list(
                    self, th, ns, channel, version, at, remember=remember, row=holder
                )
                continue
            with decoding(where.at(channel=channel), "the inline value"):
                values[channel] = self.serde.loads_typed((t, b))
        skip = set(stored.inline) | set(stored.empty)
        need = [(str(v), c) for c, v in versions.items() if c not in skip]
        if need:
            sql = q.SELECT_BLOBS.format(values=q.values_list(len(need), 2))
            params = [x for v, c in need for x in (key(v), c)]
            rows = yield sql, (*params, th.tid, ns), "all"
            found = {(unkey(r[1]), str(r[0])): r for r in rows}
            for version, channel in need:
                blob_row = found.get((version, channel))
                at = where.at(channel=channel)
                if blob_row is None:
                    raise corrupt(at, f"its value row (version {version}) is missing")
                values[channel] = yield from self._value(th, ns, blob_row, at, remember)
        writes = yield from load_writes(self, th, ns, str(cid), int(tasks), where)
        # Fresh copies: LangGraph updates a loaded checkpoint's versions in place, and the
        # decoded record stays cached as the base of the next row.
        skeleton = copy.deepcopy(stored.skeleton)
        checkpoint = cast(Checkpoint, {**skeleton, "id": cid, "channel_values": values})
        parent = stored.parent
        tup = CheckpointTuple(
            config_for(th.thread_id, ns, str(cid)),
            checkpoint,
            cast(CheckpointMetadata, copy.deepcopy(stored.metadata)),
            config_for(th.thread_id, ns, parent) if parent else None,
            writes,
        )
        return tup, parent

    def _value(
        self, th: Thread, ns: str, row: Sequence[Any], where: Where, remember: bool
    ) -> q.Program[Any]:
        channel, raw_version, t, blob, _base, stored = row
        version = unkey(raw_version)
        if t == REFS_TYPE:
            return (yield from load_list(self, th, ns, channel, version, where, remember=remember))
        verify_check(where, stored, blob_check(ns, channel, version, t, blob), "the value row")
        with decoding(where, "the value row"):
            return self.serde.loads_typed((t, blob))
