"""Migration 5: rows of schema 4 rewritten in the current layout, thread by thread.

Schema 4 keyed every row by the thread id string, had no row checks, one row per
pending write, JSON ref lists chained at most 32 deep, and indexed every token of every
text. This program reads those tables (renamed ``lgc_v4_*`` by the migration's DDL),
writes the same content in the current tables with checks, and drops the old tables.
Loads then return exactly what they returned before (``tests/checkpoint/test_schema.py``
opens a file written by schema 4). A row that schema 4 already could not decode is
copied with an empty check, so it reports as damaged instead of stopping the migration.
The statements here read only the old tables, so they live with the migration.
"""

from __future__ import annotations

import json
import zlib
from collections import defaultdict
from typing import Any

import ormsgpack

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import (
    DECODE_ERRORS,
    blob_check,
    checkpoint_check,
    head_check,
    message_check,
    thread_check,
    writes_check,
)
from langgraph_compact.checkpoint._codec import (
    REFS_TYPE,
    WRITE_REFS_TYPE,
    encode_message_write,
    encode_writes,
    key,
    unpack_text,
)
from langgraph_compact.checkpoint._fts import index_words
from langgraph_compact.checkpoint._payload import pack_checkpoint
from langgraph_compact.checkpoint._refs import encode_link, link_check

__all__ = ["convert_v4"]

_THREADS_SQL = """SELECT thread_id FROM lgc_v4_checkpoints UNION SELECT thread_id FROM
    lgc_v4_messages UNION SELECT thread_id FROM lgc_v4_blobs UNION SELECT thread_id FROM
    lgc_v4_writes UNION SELECT thread_id FROM lgc_thread_epochs ORDER BY 1"""
_EPOCH_SQL = "SELECT epoch FROM lgc_thread_epochs WHERE thread_id = ?"
_MESSAGES_SQL = """SELECT m.seq, m.message_id, m.digest, m.role, m.tool_names, m.type,
    m.skeleton, m.content_in_text, t.text FROM lgc_v4_messages m LEFT JOIN lgc_v4_texts t
    ON t.thread_id = m.thread_id AND t.digest = m.digest WHERE m.thread_id = ?"""
_COPY_TEXTS_SQL = """INSERT INTO lgc_texts (tid, digest, text) SELECT ?, digest, text
    FROM lgc_v4_texts WHERE thread_id = ? AND text IS NOT NULL ORDER BY text_id"""
_BLOBS_SQL = """SELECT checkpoint_ns, channel, version, type, blob, base_version
    FROM lgc_v4_blobs WHERE thread_id = ?"""
_CHECKPOINTS_SQL = """SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id, run_id,
    checkpoint FROM lgc_v4_checkpoints WHERE thread_id = ?"""
_WRITES_SQL = """SELECT checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel,
    type, blob FROM lgc_v4_writes WHERE thread_id = ?"""
_SET_EPOCH_SQL = "UPDATE lgc_threads SET epoch = ? WHERE tid = ?"
_INSERT_CHECKPOINT_SQL = """INSERT INTO lgc_checkpoints (tid, checkpoint_ns, checkpoint_id,
    run_id, payload, tasks, chk) VALUES (?, ?, ?, ?, ?, ?, ?)"""
_DROP_SQL = (
    *(f"DROP TABLE lgc_v4_{t}" for t in ("checkpoints", "blobs", "writes", "messages", "texts")),
    "DROP TABLE lgc_thread_epochs",
)

_V1_CHECKPOINT_ZDICT = ormsgpack.packb(
    {
        "v": 4,
        "ts": "2026-01-01T00:00:00.000000+00:00",
        "channel_versions": {"__start__": "0000000001.", "messages": "0000000001."},
        "versions_seen": {"__input__": {}, "__start__": {"__start__": "0000000001."}},
        "updated_channels": ["messages", "branch:to:", "__pregel_tasks", "__interrupt__"],
        "source": ["input", "loop", "update", "fork"],
        "step": 1,
        "parents": {},
        "run_id": "",
    }
)


def _unpack_v1(blob: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    if blob[:1] != b"\x01":
        raise ValueError(f"unknown schema-4 checkpoint format {blob[:1]!r}")
    unpacker = zlib.decompressobj(zdict=_V1_CHECKPOINT_ZDICT)
    skeleton, metadata = ormsgpack.unpackb(unpacker.decompress(blob[1:]) + unpacker.flush())
    return skeleton, metadata


def convert_v4(dialect: q.Dialect) -> q.Program[None]:
    """Rewrite every schema-4 row in the current layout, then drop the old tables."""
    for (thread_id,) in list((yield _THREADS_SQL, (), "all")):
        epochs = yield _EPOCH_SQL, (thread_id,), "all"
        epoch = int(epochs[0][0]) + 1 if epochs else 1
        rows = yield q.INSERT_THREAD, (thread_id, b""), "all"
        tid = int(rows[0][0])
        yield q.SET_THREAD_CHECK, (thread_check(tid, thread_id), tid), "none"
        yield _SET_EPOCH_SQL, (epoch, tid), "none"
        yield from _messages(dialect, tid, thread_id)
        blob_keys = yield from _blobs(tid, thread_id)
        yield from _checkpoints(tid, thread_id, blob_keys)
    for statement in _DROP_SQL:
        yield statement, (), "none"


def _messages(dialect: q.Dialect, tid: int, thread_id: str) -> q.Program[None]:
    out = []
    for seq, mid, digest, role, tools, t, skeleton, in_text, packed in (
        yield _MESSAGES_SQL, (thread_id,), "all"
    ):
        try:
            text = unpack_text(packed) if packed is not None else None
            chk = message_check(seq, mid, digest, role, tools, t, skeleton, in_text, text)
        except DECODE_ERRORS:
            chk = b""
        out.append((tid, seq, key(mid), digest, role, tools, t, skeleton, in_text, chk))
    if out:
        yield q.INSERT_MESSAGE, out, "many"
    yield _COPY_TEXTS_SQL, (tid, thread_id), "none"
    fts_insert = dialect.fts_insert
    if fts_insert is None:  # schema 4 was only written by SQLite, which indexes with FTS5
        raise TypeError(f"{dialect.name} has no full-text index to convert schema 4 into")
    for text_id, packed in (yield q.SELECT_THREAD_TEXTS, (tid,), "all"):
        try:
            words = index_words(unpack_text(packed))
        except DECODE_ERRORS:
            continue
        yield fts_insert, (text_id, words), "none"


def _blobs(tid: int, thread_id: str) -> q.Program[set[tuple[str, str, str]]]:
    rows = list((yield _BLOBS_SQL, (thread_id,), "all"))
    keys = {(str(ns), str(c), str(v)) for ns, c, v, *_ in rows}
    out: list[tuple[Any, ...]] = []
    refs: list[tuple[int, str, str, str, str | None, bytes]] = []
    for ns, channel, version, t, blob, base in rows:
        if t != REFS_TYPE:
            value = bytes(blob or b"")
            chk = blob_check(ns, channel, version, t, value)
            out.append((tid, ns, key(version), channel, t, value, None, chk))
            continue
        try:
            keep, tail, depth = json.loads(blob)
            refs.append((int(depth), ns, channel, version, base, encode_link(depth, keep, tail)))
        except DECODE_ERRORS:
            raw_base = None if base is None else key(base)
            out.append((tid, ns, key(version), channel, t, bytes(blob or b""), raw_base, b""))
    checks: dict[tuple[str, str, str], bytes] = {}
    for _depth, ns, channel, version, base, value in sorted(refs, key=lambda r: r[0]):
        base_check = checks.get((ns, channel, base)) if base is not None else None
        if base is not None and base_check is None:
            chk = b""  # its base did not convert: the chain reports as damaged
        else:
            chk = link_check(ns, channel, version, base, base_check, value)
            checks[(ns, channel, version)] = chk
        raw_base = None if base is None else key(base)
        out.append((tid, ns, key(version), channel, REFS_TYPE, value, raw_base, chk))
    if out:
        yield q.INSERT_BLOB, out, "many"
    return keys


def _checkpoints(tid: int, thread_id: str, blob_keys: set[tuple[str, str, str]]) -> q.Program[None]:
    tasks: dict[tuple[str, str, str], list[tuple[Any, ...]]] = defaultdict(list)
    for ns, cid, task_id, path, idx, channel, t, blob in (yield _WRITES_SQL, (thread_id,), "all"):
        tasks[(ns, cid, task_id)].append((path, idx, channel, t, blob))
    per_checkpoint: dict[tuple[str, str], int] = defaultdict(int)
    write_rows = []
    for (ns, cid, task_id), entries in tasks.items():
        per_checkpoint[(ns, cid)] += 1
        packed = []
        for _path, idx, channel, t, blob in entries:
            value = bytes(blob or b"")
            if t == WRITE_REFS_TYPE:
                try:
                    one, seqs = json.loads(value)
                    value = encode_message_write(bool(one), [int(s) for s in seqs])
                except DECODE_ERRORS:
                    pass
            packed.append((int(idx), str(channel), str(t or "null"), value))
        path = str(entries[0][0])
        packed_blob = encode_writes(path, sorted(packed))
        chk = writes_check(ns, cid, task_id, packed_blob)
        write_rows.append((tid, ns, key(cid), key(task_id), packed_blob, chk))
    if write_rows:
        yield q.INSERT_WRITES, write_rows, "many"
    heads: dict[str, tuple[str, int]] = {}
    rows = []
    for ns, cid, parent, run_id, blob in (yield _CHECKPOINTS_SQL, (thread_id,), "all"):
        try:
            skeleton, metadata = _unpack_v1(blob)
            versions = skeleton.get("channel_versions", {})
            empty = [c for c, v in versions.items() if (ns, c, str(v)) not in blob_keys]
            payload = pack_checkpoint(skeleton, metadata, parent, {}, empty, run_id).payload
            chk = checkpoint_check(ns, cid, run_id, payload)
        except DECODE_ERRORS:
            payload, chk = bytes(blob), b""
        rows.append((tid, ns, cid, run_id, payload, per_checkpoint[(ns, cid)], chk))
        newest, count = heads.get(ns, (cid, 0))
        heads[ns] = (max(newest, cid), count + 1)
    if rows:
        yield _INSERT_CHECKPOINT_SQL, rows, "many"
    head_rows = [(tid, ns, c, n, head_check(ns, c, n)) for ns, (c, n) in heads.items()]
    if head_rows:
        yield q.UPSERT_HEAD, head_rows, "many"
