"""Pure encodings of the compact savers: versions, texts, skeletons, ref lists, cursors.

Every format here is part of the on-disk schema: changing one needs a migration (or a
new format byte), because rows written with the old one must stay readable.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import ormsgpack

__all__ = [
    "REFS_MAX_DEPTH",
    "RefList",
    "decode_cursor",
    "decode_refs",
    "encode_cursor",
    "encode_refs",
    "fts_phrase_query",
    "next_version",
    "pack_checkpoint",
    "pack_skeleton",
    "pack_text",
    "plan_refs",
    "serde_type",
    "unpack_checkpoint",
    "unpack_skeleton",
    "unpack_text",
]

REFS_MAX_DEPTH = 32
"""A ref list chain longer than this is re-written as a snapshot (bounds reconstruction)."""


def next_version(current: str | int | float | None) -> str:
    """A channel version after ``current``: a zero-padded counter plus a random tail.

    The random tail keeps forks apart: two branches that both reach counter 7 of a
    channel write different blob keys, and blobs are written with ``INSERT OR IGNORE``,
    so a collision would make one fork silently read the other's value. The tail is 36
    random bits in 6 base64url characters: k forks reaching the same counter of the same
    channel collide with probability about k²/2³⁷ (7e-8 for 100 forks). Every checkpoint
    stores its channel versions, so each extra character costs ~1% of the database.
    Older rows with a 24-bit hex tail stay readable, since only the counter is parsed and
    it alone decides the order. Ten digits keep string order equal to numeric order for
    ten billion steps.

    >>> next_version(None) < next_version("0000000001.0a1b2c")
    True
    >>> len(next_version(None).split(".")[1])
    6
    """
    if current is None:
        n = 0
    elif isinstance(current, (int, float)):
        n = int(current)
    else:
        n = int(str(current).split(".")[0])
    tail = base64.urlsafe_b64encode(secrets.token_bytes(6)).decode()[:6]
    return f"{n + 1:010d}.{tail}"


_COMPRESS_MIN_CHARS = 256


def pack_text(text: str | None) -> str | bytes | None:
    """Message text as stored: zlib-compressed bytes when that saves a quarter or more.

    Tool outputs (code, logs, JSON) shrink to about a third, which keeps a long thread's
    database near the size of its raw messages; short texts stay plain strings.

    >>> unpack_text(pack_text("ab" * 500)) == "ab" * 500
    True
    >>> pack_text("short")
    'short'
    """
    if text is None or len(text) < _COMPRESS_MIN_CHARS:
        return text
    raw = text.encode("utf-8", "surrogatepass")
    packed = zlib.compress(raw, 9)
    return packed if len(packed) * 4 <= len(raw) * 3 else text


def unpack_text(value: str | bytes | None) -> str | None:
    """Inverse of ``pack_text``."""
    if isinstance(value, bytes):
        return zlib.decompress(value).decode("utf-8", "surrogatepass")
    return value


_CHECKPOINT_FORMAT = b"\x01"
# A zlib preset dictionary of LangGraph's own checkpoint vocabulary: each row is small
# (a few hundred bytes), too small to compress well on its own. Changing it needs a new
# _CHECKPOINT_FORMAT byte, since stored rows need the dictionary they were packed with.
_CHECKPOINT_ZDICT = ormsgpack.packb(
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


_SKELETON_ZDICT = ormsgpack.packb(
    [
        "langchain_core.messages.human",
        "HumanMessage",
        "langchain_core.messages.system",
        "SystemMessage",
        "langchain_core.messages.ai",
        "AIMessage",
        {
            "content": "",
            "additional_kwargs": {},
            "response_metadata": {"model_provider": "", "model_name": "", "finish_reason": ""},
            "type": "ai",
            "name": None,
            "id": "",
            "tool_calls": [{"name": "", "args": {}, "id": "", "type": "tool_call"}],
            "invalid_tool_calls": [],
            "usage_metadata": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0},
        },
        "model_validate_json",
        "langchain_core.messages.tool",
        "ToolMessage",
        {
            "content": "",
            "additional_kwargs": {},
            "response_metadata": {},
            "type": "tool",
            "name": None,
            "id": "",
            "tool_call_id": "",
            "artifact": None,
            "status": "success",
        },
        "model_validate_json",
    ]
)
_PACKED_SUFFIX = "+z"


def pack_skeleton(type_: str, blob: bytes) -> tuple[str, bytes]:
    """A serde-encoded message skeleton, zlib-packed with a message-field dictionary.

    A skeleton is a few hundred bytes of field names and ids; against a dictionary of
    LangChain's message fields it shrinks by about half. Encrypted output does not
    compress, so it is kept as is (the type says which).

    >>> t, b = pack_skeleton("msgpack", b"additional_kwargs response_metadata" * 3)
    >>> t, unpack_skeleton(t, b) == b"additional_kwargs response_metadata" * 3
    ('msgpack+z', True)
    """
    packer = zlib.compressobj(9, zdict=_SKELETON_ZDICT)
    packed = packer.compress(blob) + packer.flush()
    if len(packed) < len(blob):
        return type_ + _PACKED_SUFFIX, packed
    return type_, blob


def unpack_skeleton(type_: str, blob: bytes) -> bytes:
    """Inverse of ``pack_skeleton``: the serde bytes for ``type_`` (minus the suffix)."""
    if not type_.endswith(_PACKED_SUFFIX):
        return blob
    unpacker = zlib.decompressobj(zdict=_SKELETON_ZDICT)
    return unpacker.decompress(blob) + unpacker.flush()


def serde_type(type_: str) -> str:
    """The serde's own type name for a stored skeleton type.

    >>> serde_type("msgpack+z")
    'msgpack'
    """
    return type_.removesuffix(_PACKED_SUFFIX)


def pack_checkpoint(checkpoint: Mapping[str, Any], metadata: Mapping[str, Any]) -> bytes:
    """The checkpoint without values or id (both live elsewhere) plus its metadata.

    Like LangGraph's savers, metadata is stored outside the serde; the skeleton holds
    only ids, timestamps, channel names and versions. Packed msgpack against a
    dictionary of LangGraph's vocabulary keeps the per-step row at about 150 bytes.

    >>> cp = {"v": 4, "id": "x", "ts": "t", "channel_values": {"a": 1}, "channel_versions": {}}
    >>> unpack_checkpoint(pack_checkpoint(cp, {"step": 1}), "x")
    ({'v': 4, 'ts': 't', 'channel_versions': {}, 'id': 'x'}, {'step': 1})
    """
    skeleton = {k: v for k, v in checkpoint.items() if k not in ("channel_values", "id")}
    packer = zlib.compressobj(9, zdict=_CHECKPOINT_ZDICT)
    raw = ormsgpack.packb([skeleton, dict(metadata)], default=str)
    return _CHECKPOINT_FORMAT + packer.compress(raw) + packer.flush()


def unpack_checkpoint(blob: bytes, checkpoint_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Inverse of ``pack_checkpoint``: ``(checkpoint without values, metadata)``."""
    if blob[:1] != _CHECKPOINT_FORMAT:
        raise ValueError(f"checkpoint {checkpoint_id}: unknown skeleton format {blob[:1]!r}")
    unpacker = zlib.decompressobj(zdict=_CHECKPOINT_ZDICT)
    raw = unpacker.decompress(blob[1:]) + unpacker.flush()
    skeleton, metadata = ormsgpack.unpackb(raw)
    skeleton["id"] = checkpoint_id
    return skeleton, metadata


@dataclass(frozen=True)
class RefList:
    """A message ref list as stored: ``keep`` refs of ``base`` followed by ``tail``.

    ``base`` is another version of the same channel in the same thread and namespace;
    ``None`` means ``tail`` is the whole list (a snapshot). ``depth`` counts links.
    """

    base: str | None
    keep: int
    tail: tuple[int, ...]
    depth: int = 0


def encode_refs(refs: RefList) -> bytes:
    """Compact JSON for a ref list (ints only, so no serde and nothing to encrypt).

    The base version is not in the blob: it is the row's ``base_version`` column, which
    garbage collection reads without decoding.

    >>> decode_refs(encode_refs(RefList("v1", 2, (5, 6), 1)), "v1")
    RefList(base='v1', keep=2, tail=(5, 6), depth=1)
    """
    return json.dumps([refs.keep, list(refs.tail), refs.depth], separators=(",", ":")).encode()


def decode_refs(blob: bytes, base: str | None) -> RefList:
    """Inverse of ``encode_refs``, given the row's ``base_version``."""
    keep, tail, depth = json.loads(blob)
    return RefList(base, int(keep), tuple(int(x) for x in tail), int(depth))


def plan_refs(
    seqs: tuple[int, ...], base_version: str | None, base: tuple[int, ...] | None, depth: int
) -> RefList:
    """Encode ``seqs`` against ``base`` (the channel's previous list) when that pays.

    A snapshot is written when there is no base, when the chain would exceed
    ``REFS_MAX_DEPTH``, or when less than half of the list is a shared prefix.

    >>> plan_refs((1, 2, 3), "v", (1, 2), 0)
    RefList(base='v', keep=2, tail=(3,), depth=1)
    >>> plan_refs((1, 2, 3), None, None, 0)
    RefList(base=None, keep=0, tail=(1, 2, 3), depth=0)
    """
    if base is None or base_version is None or depth + 1 > REFS_MAX_DEPTH:
        return RefList(None, 0, seqs)
    n = len(base)
    if seqs[:n] == base:
        keep = n
    else:
        keep = 0
        for a, b in zip(seqs, base, strict=False):
            if a != b:
                break
            keep += 1
    if keep * 2 < len(seqs) or keep == 0:
        return RefList(None, 0, seqs)
    return RefList(base_version, keep, seqs[keep:], depth + 1)


_TOKEN = re.compile(r"[^\W_]+")


def fts_phrase_query(text: str) -> str:
    """An FTS5 query matching messages that contain every word of ``text``.

    ``text`` is cut into the tokens FTS5's ``unicode61`` tokenizer would produce
    (letters and digits), and each is double-quoted, so FTS5 operators, column filters,
    quotes and SQL metacharacters in user or model input are inert.

    >>> fts_phrase_query('x OR 1=1; DROP "t" -- NEAR(a*)')
    '"x" "OR" "1" "1" "DROP" "t" "NEAR" "a"'
    """
    return " ".join(f'"{t}"' for t in _TOKEN.findall(text))


def encode_cursor(payload: dict[str, Any]) -> str:
    """An opaque, URL-safe cursor string for ``payload``."""
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> dict[str, Any]:
    """Inverse of ``encode_cursor``; raises ``ValueError`` on anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw)
    except (ValueError, TypeError) as e:
        raise ValueError(f"not a history cursor: {cursor!r}") from e
    if not isinstance(value, dict):
        raise ValueError(f"not a history cursor: {cursor!r}")
    return value
