"""The packed payload of a checkpoint row: skeleton, parent, metadata, inline values.

The payload holds everything of a checkpoint except its id (the row's key) and the
values stored as their own rows: LangGraph's ids, timestamp, channel versions, the
versions each node has seen, the metadata, and the small values kept in the row itself.
It is msgpack, zlib-packed against a dictionary of LangGraph's vocabulary: about 100
bytes per step. Changing the format or the dictionary needs a new format byte.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ormsgpack

__all__ = ["StoredCheckpoint", "pack_checkpoint", "unpack_checkpoint"]

_CHECKPOINT_FORMAT = b"\x02"


def _sample_payload(step: int, source: str, updated: list[str]) -> list[Any]:
    v = [f"{step + i:010d}.AbCdEf" for i in range(3)]
    skeleton = {
        "v": 4,
        "ts": f"2026-01-01T00:00:0{step % 10}.000000+00:00",
        "channel_versions": {
            "__start__": v[0],
            "messages": v[2],
            "branch:to:agent": v[1],
            "branch:to:tools": v[2],
            "running_summary": v[0],
        },
        "versions_seen": {
            "__input__": {},
            "__start__": {"__start__": v[0]},
            "agent": {"branch:to:agent": v[1]},
            "tools": {"branch:to:tools": v[2]},
            "compact": {"branch:to:compact": v[1]},
        },
        "updated_channels": updated,
    }
    metadata = {"source": source, "step": step, "parents": {}}
    return [skeleton, metadata, "1f0a1b2c-3d4e-6f70-8001-0123456789ab", {}, [], None]


# A zlib preset dictionary of LangGraph checkpoint rows (a few hundred bytes each, too
# small to compress well alone). Stored rows need the dictionary they were packed with:
# changing it needs a new _CHECKPOINT_FORMAT byte.
_CHECKPOINT_ZDICT = b"".join(
    ormsgpack.packb(_sample_payload(*s))
    for s in [
        (1, "input", ["__start__"]),
        (2, "loop", ["messages", "branch:to:agent"]),
        (3, "loop", ["branch:to:tools", "messages"]),
        (4, "update", ["messages", "running_summary"]),
    ]
)


@dataclass(frozen=True)
class StoredCheckpoint:
    """A checkpoint row decoded: everything but the blob values and the id.

    ``inline`` holds the small values (serde type and bytes) stored in the row itself;
    ``empty`` names channels with a version but no value; every other channel of
    ``skeleton["channel_versions"]`` has a blob row.
    """

    skeleton: dict[str, Any]
    metadata: dict[str, Any]
    parent: str | None
    inline: dict[str, tuple[str, bytes]]
    empty: tuple[str, ...]


def pack_checkpoint(
    checkpoint: Mapping[str, Any],
    metadata: Mapping[str, Any],
    parent: str | None,
    inline: Mapping[str, tuple[str, bytes]],
    empty: Sequence[str],
    run_id: str | None,
) -> bytes:
    """The checkpoint without values or id (both live elsewhere), its parent and metadata.

    Like LangGraph's savers, metadata is stored outside the serde. A ``run_id`` equal to
    the row's ``run_id`` column is stored once, in the column.

    >>> cp = {"v": 4, "id": "x", "ts": "t", "channel_values": {"a": 1}, "channel_versions": {}}
    >>> s = unpack_checkpoint(pack_checkpoint(cp, {"step": 1}, "p", {}, (), None), None)
    >>> s.skeleton, s.metadata, s.parent
    ({'v': 4, 'ts': 't', 'channel_versions': {}}, {'step': 1}, 'p')
    """
    skeleton = {k: v for k, v in checkpoint.items() if k not in ("channel_values", "id")}
    md = dict(metadata)
    moved = run_id is not None and md.get("run_id") == run_id
    if moved:
        del md["run_id"]
    row = [skeleton, md, parent, {k: list(v) for k, v in inline.items()}, list(empty), moved]
    packer = zlib.compressobj(9, zdict=_CHECKPOINT_ZDICT)
    raw = ormsgpack.packb(row, default=str)
    return _CHECKPOINT_FORMAT + packer.compress(raw) + packer.flush()


def unpack_checkpoint(payload: bytes, run_id: str | None) -> StoredCheckpoint:
    """Inverse of ``pack_checkpoint`` (``run_id``: the row's column)."""
    if payload[:1] != _CHECKPOINT_FORMAT:
        raise ValueError(f"unknown checkpoint row format {payload[:1]!r}")
    unpacker = zlib.decompressobj(zdict=_CHECKPOINT_ZDICT)
    raw = unpacker.decompress(payload[1:]) + unpacker.flush()
    if not unpacker.eof:
        raise zlib.error("truncated checkpoint row")
    skeleton, md, parent, inline, empty, moved = ormsgpack.unpackb(raw)
    if moved:
        md["run_id"] = run_id
    values = {str(k): (str(t), bytes(b)) for k, (t, b) in inline.items()}
    return StoredCheckpoint(skeleton, md, parent, values, tuple(empty))
