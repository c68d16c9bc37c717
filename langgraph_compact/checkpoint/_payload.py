"""The packed payload of a checkpoint row: skeleton, parent, metadata, inline values.

The payload holds everything of a checkpoint except its id (the row's key) and the
values stored as rows of their own: LangGraph's timestamp, channel versions, the
versions each node has seen, the metadata, the parent id and the small values kept in
the row itself.

Consecutive checkpoints of a namespace differ in a few fields (two channel versions,
one node's seen versions, the step, the timestamp), so a row is stored as a *delta*
against the row before it (by checkpoint id, in the same namespace): only the fields
that changed, the timestamp as microseconds since the base's, and the parent as a flag
when it is the base. Every ``SNAPSHOT_EVERY``-th row is whole, so a load reads at most
that many rows. A delta carries the check of its base row, so a base that changed or
went missing is detected. The body is msgpack, raw-deflated against a dictionary of
LangGraph's vocabulary: about 50 bytes per delta, 150 per snapshot.

Format: ``b"\\x03"``, the depth as a varint (0: snapshot), the base's 8-byte check
(deltas only), the body. Changing the format or the dictionary needs a new first byte.
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import ormsgpack

from langgraph_compact.checkpoint._codec import decode_varints, encode_varints

__all__ = [
    "SNAPSHOT_EVERY",
    "Packed",
    "StoredCheckpoint",
    "pack_checkpoint",
    "peek",
    "repack",
    "unpack",
]

SNAPSHOT_EVERY = 16
"""A namespace's rows are whole at least every this many (bounds a load's row count)."""

_FORMAT = 3
_DICTS = ("cv", "vs", "sk", "md", "il")


@dataclass(frozen=True)
class StoredCheckpoint:
    """A checkpoint row decoded: everything but the blob values and the id.

    ``inline`` holds the small values (serde type and bytes) stored in the row itself;
    ``empty`` names channels with a version but no value; every other channel of
    ``skeleton["channel_versions"]`` has a value row.
    """

    skeleton: dict[str, Any]
    metadata: dict[str, Any]
    parent: str | None
    inline: dict[str, tuple[str, bytes]]
    empty: tuple[str, ...]
    flat: dict[str, Any]
    """The record deltas are computed against (what the next row's base holds)."""


@dataclass(frozen=True)
class Packed:
    """A payload, the depth it was written at (0: a snapshot) and what it decodes to."""

    payload: bytes
    depth: int
    record: StoredCheckpoint


def _sample(step: int, delta: bool) -> Any:
    v = [f"{step + i:010d}.AbCdEf" for i in range(3)]
    if delta:
        return {
            "t": 1234,
            "pb": True,
            "+cv": {"messages": v[2], "branch:to:tools": v[2]},
            "+vs": {"agent": {"branch:to:agent": True}},
            "+sk": {"updated_channels": ["branch:to:tools", "messages"]},
            "+md": {"step": step},
            "+em": ["branch:to:agent"],
            "-em": ["branch:to:tools"],
        }
    return {
        "ts": "2026-01-01T00:00:00.000000+00:00",
        "cv": {"__start__": v[0], "messages": v[2], "branch:to:agent": v[1]},
        "vs": {
            "__input__": {},
            "__start__": {"__start__": v[0]},
            "tools": {"branch:to:tools": v[2]},
        },
        "sk": {"v": 4, "updated_channels": ["messages"]},
        "md": {"source": "loop", "step": step, "parents": {}},
        "p": "1f0a1b2c-3d4e-6f70-8001-0123456789ab",
        "il": {},
        "em": ["branch:to:agent", "__start__"],
        "mv": False,
    }


# A deflate preset dictionary of LangGraph checkpoint records, whole and deltas.
_ZDICT = b"".join(ormsgpack.packb(_sample(s, d)) for s, d in [(1, False), (2, True), (3, True)])


def _deflate(raw: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=_ZDICT)
    return packer.compress(raw) + packer.flush()


def _inflate(body: bytes) -> bytes:
    unpacker = zlib.decompressobj(-15, zdict=_ZDICT)
    raw = unpacker.decompress(body) + unpacker.flush()
    if not unpacker.eof:
        raise zlib.error("truncated checkpoint row")
    return raw


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)


def _micros(ts: Any) -> int | None:
    """Microseconds since the epoch, if ``ts`` is an ISO string that formats back exactly."""
    if not isinstance(ts, str):
        return None
    try:
        parsed = datetime.fromisoformat(ts)
    except ValueError:
        return None
    if parsed.tzinfo is None or parsed.isoformat() != ts:
        return None
    return (parsed - _EPOCH) // _MICRO


def _flat(
    checkpoint: Mapping[str, Any],
    metadata: Mapping[str, Any],
    parent: str | None,
    inline: Mapping[str, tuple[str, bytes]],
    empty: Sequence[str],
    run_id: str | None,
) -> dict[str, Any]:
    # Copies: the record is cached as the next row's base, while the caller (LangGraph)
    # goes on updating its own checkpoint dicts in place.
    md = copy.deepcopy(dict(metadata))
    moved = run_id is not None and md.get("run_id") == run_id
    if moved:
        del md["run_id"]
    skip = ("channel_values", "id", "ts", "channel_versions", "versions_seen")
    return {
        "ts": checkpoint.get("ts"),
        "cv": dict(checkpoint.get("channel_versions", {})),
        "vs": {k: dict(v) for k, v in checkpoint.get("versions_seen", {}).items()},
        "sk": copy.deepcopy({k: v for k, v in checkpoint.items() if k not in skip}),
        "md": md,
        "p": parent,
        "il": {k: [t, b] for k, (t, b) in inline.items()},
        "em": list(empty),
        "mv": moved,
    }


def _seen(vs: dict[str, Any], cv: dict[str, Any], *, refer: bool) -> dict[str, Any]:
    """Versions a node has seen, with ``True`` for "the base's current version of it"
    (LangGraph copies a channel's version into ``versions_seen`` when a node reads it)."""
    if refer:
        return {k: (True if k in cv and cv[k] == v else v) for k, v in vs.items()}
    return {k: (cv[k] if v is True else v) for k, v in vs.items()}


def _diff(base: dict[str, Any], base_id: str, flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    t0, t1 = _micros(base["ts"]), _micros(flat["ts"])
    if t0 is not None and t1 is not None and _from_micros(t1, flat["ts"]) == flat["ts"]:
        out["t"] = t1 - t0
    elif flat["ts"] != base["ts"]:
        out["=ts"] = flat["ts"]
    for key in _DICTS:
        old, new = base[key], flat[key]
        if changed := {k: v for k, v in new.items() if k not in old or old[k] != v}:
            if key == "vs":
                changed = {k: _seen(v, base["cv"], refer=True) for k, v in changed.items()}
            out["+" + key] = changed
        if removed := [k for k in old if k not in new]:
            out["-" + key] = removed
    if flat["p"] == base_id:
        out["pb"] = True
    elif flat["p"] != base["p"]:
        out["=p"] = flat["p"]
    if added := [c for c in flat["em"] if c not in base["em"]]:
        out["+em"] = added
    if gone := [c for c in base["em"] if c not in flat["em"]]:
        out["-em"] = gone
    if flat["mv"] != base["mv"]:
        out["=mv"] = flat["mv"]
    return out


def _from_micros(micros: int, like: str) -> str:
    """``micros`` as an ISO timestamp in the time zone of ``like``."""
    tz = datetime.fromisoformat(like).tzinfo
    return (_EPOCH + micros * _MICRO).astimezone(tz).isoformat()


def _apply(base: dict[str, Any], base_id: str, delta: dict[str, Any]) -> dict[str, Any]:
    flat = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    if "t" in delta:
        t0 = _micros(base["ts"])
        if t0 is None:
            raise ValueError("a timestamp delta on a base without a timestamp")
        flat["ts"] = _from_micros(t0 + int(delta["t"]), base["ts"])
    for key in _DICTS:
        changed = delta.get("+" + key, {})
        if key == "vs":
            changed = {k: _seen(v, base["cv"], refer=False) for k, v in changed.items()}
        flat[key].update(changed)
        for k in delta.get("-" + key, ()):
            flat[key].pop(k, None)
    flat["p"] = base_id if delta.get("pb") else delta.get("=p", base["p"])
    gone = set(delta.get("-em", ()))
    flat["em"] = [c for c in base["em"] if c not in gone] + list(delta.get("+em", ()))
    for key in ("ts", "mv"):
        if "=" + key in delta:
            flat[key] = delta["=" + key]
    return flat


def _stored(flat: dict[str, Any], run_id: str | None) -> StoredCheckpoint:
    md = dict(flat["md"])
    if flat["mv"]:
        md["run_id"] = run_id
    skeleton = {
        **flat["sk"],
        "ts": flat["ts"],
        "channel_versions": dict(flat["cv"]),
        "versions_seen": {k: dict(v) for k, v in flat["vs"].items()},
    }
    inline = {str(k): (str(t), bytes(b)) for k, (t, b) in flat["il"].items()}
    return StoredCheckpoint(skeleton, md, flat["p"], inline, tuple(flat["em"]), flat)


def pack_checkpoint(
    checkpoint: Mapping[str, Any],
    metadata: Mapping[str, Any],
    parent: str | None,
    inline: Mapping[str, tuple[str, bytes]],
    empty: Sequence[str],
    run_id: str | None,
    base: tuple[str, bytes, StoredCheckpoint, int] | None = None,
) -> Packed:
    """A row payload: whole, or a delta against ``base`` (its id, check, record, depth).

    A ``run_id`` equal to the row's ``run_id`` column is stored once, in the column.

    >>> cp = {"v": 4, "id": "x", "ts": "t", "channel_values": {"a": 1}, "channel_versions": {}}
    >>> p = pack_checkpoint(cp, {"step": 1}, "p", {}, (), None)
    >>> s = unpack(p.payload, None, None)
    >>> s.skeleton["ts"], s.metadata, s.parent, p.depth
    ('t', {'step': 1}, 'p', 0)
    >>> cp2 = {**cp, "id": "y", "channel_versions": {"a": 2}}
    >>> d = pack_checkpoint(cp2, {"step": 2}, "x", {}, (), None, ("x", b"c" * 8, p.record, 0))
    >>> t = unpack(d.payload, None, ("x", p.record))
    >>> t.skeleton["channel_versions"], t.metadata, t.parent, d.depth
    ({'a': 2}, {'step': 2}, 'x', 1)
    """
    flat = _flat(checkpoint, metadata, parent, inline, empty, run_id)
    record = _stored(flat, run_id)
    if base is None or base[3] + 1 >= SNAPSHOT_EVERY:
        head = bytes([_FORMAT]) + encode_varints([0])
        return Packed(head + _deflate(ormsgpack.packb(flat)), 0, record)
    base_id, base_check, base_record, depth = base
    body = ormsgpack.packb(_diff(base_record.flat, base_id, flat))
    head = bytes([_FORMAT]) + encode_varints([depth + 1]) + base_check
    return Packed(head + _deflate(body), depth + 1, record)


def repack(
    record: StoredCheckpoint,
    run_id: str | None,
    base: tuple[str, bytes, StoredCheckpoint, int] | None,
    *,
    parent: str | bool | None = True,
) -> Packed:
    """``record`` packed again (against a new base; ``parent=None`` drops the parent)."""
    new_parent = record.parent if parent is True else (parent or None)
    return pack_checkpoint(
        record.skeleton, record.metadata, new_parent, record.inline, record.empty, run_id, base
    )


def peek(payload: bytes) -> tuple[int, bytes | None]:
    """A payload's depth and, for a delta, the check its base row must have."""
    if payload[:1] != bytes([_FORMAT]):
        raise ValueError(f"unknown checkpoint row format {payload[:1]!r}")
    end = 1
    while payload[end] & 0x80:
        end += 1
    depth = decode_varints(payload[1 : end + 1])[0]
    return depth, (payload[end + 1 : end + 9] if depth else None)


def unpack(
    payload: bytes, run_id: str | None, base: tuple[str, StoredCheckpoint] | None
) -> StoredCheckpoint:
    """Inverse of ``pack_checkpoint``; a delta needs its base's id and record."""
    depth, _ = peek(payload)
    start = 1
    while payload[start] & 0x80:
        start += 1
    start += 1 + (8 if depth else 0)
    record = ormsgpack.unpackb(_inflate(payload[start:]))
    if not depth:
        return _stored(record, run_id)
    if base is None:
        raise ValueError("a delta row needs its base row")
    return _stored(_apply(base[1].flat, base[0], record), run_id)
