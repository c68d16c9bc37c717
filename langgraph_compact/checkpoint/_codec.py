"""Pure encodings of the compact savers: versions, texts, skeletons, checkpoints, writes.

Every format here is part of the on-disk schema: changing one needs a new format byte
(or a migration), because rows written with the old one must stay readable. Decoders
raise the decoder's own errors; callers wrap them with ``_check.decoding`` so a damaged
row becomes a ``CorruptionError`` naming where it is.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import uuid
import zlib
from collections.abc import Sequence
from typing import Any

import ormsgpack

from langgraph_compact.errors import HistoryCursorError

__all__ = [
    "INLINE_MAX_BYTES",
    "REFS_TYPE",
    "WRITE_REFS_TYPE",
    "decode_cursor",
    "decode_message_write",
    "decode_varints",
    "decode_writes",
    "encode_cursor",
    "encode_message_write",
    "encode_varints",
    "encode_writes",
    "key",
    "next_version",
    "pack_skeleton",
    "pack_text",
    "serde_type",
    "unkey",
    "unpack_skeleton",
    "unpack_text",
]

REFS_TYPE = "lgc.refs"
"""Blob ``type`` of a message ref list (see ``_refs``)."""

WRITE_REFS_TYPE = "lgc.msgs"
"""Write ``type`` of a pending write whose value is a message or a list of messages."""

INLINE_MAX_BYTES = 16
"""Channel values whose serialized form is at most this long live in the checkpoint row.

LangGraph's trigger channels (``branch:to:<node>``, value ``None``) and small flags and
counters change every step; a blob row each would cost more than its key."""


def next_version(current: str | int | float | None) -> str:
    """A channel version after ``current``: a zero-padded counter plus a random tail.

    The random tail keeps forks apart: two branches that both reach counter 7 of a
    channel write different blob keys, and blobs are written with ``ON CONFLICT DO
    NOTHING``, so a collision would make one fork silently read the other's value. The
    tail is 36 random bits in 6 base64url characters: k forks reaching the same counter
    of the same channel collide with probability about k²/2³⁷ (7e-8 for 100 forks).
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


# --- message text and skeletons -----------------------------------------------------------

_COMPRESS_MIN_CHARS = 256
PLAIN_TEXT = b"\x00"
"""Starts plain text stored as bytes (``Dialect.text_value``); no zlib stream does."""


def pack_text(text: str) -> str | bytes:
    """Message text as stored: zlib-compressed bytes when that saves an eighth or more.

    Tool outputs (code, logs, JSON) shrink to about a third, base64 blobs to about
    three quarters (6 bits per character); text zlib cannot shrink by an eighth
    (encrypted or random characters) and short texts stay plain strings, which saves
    the decompression on load.

    >>> unpack_text(pack_text("ab" * 500)) == "ab" * 500
    True
    >>> pack_text("short")
    'short'
    """
    if len(text) < _COMPRESS_MIN_CHARS:
        return text
    raw = text.encode("utf-8", "surrogatepass")
    packed = zlib.compress(raw, 9)
    return packed if len(packed) * 8 <= len(raw) * 7 else text


def unpack_text(value: str | bytes) -> str:
    """Inverse of ``pack_text`` (and of ``Dialect.text_value``)."""
    if isinstance(value, str):
        return value
    plain = value[:1] == PLAIN_TEXT
    return (value[1:] if plain else zlib.decompress(value)).decode("utf-8", "surrogatepass")


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
    out = unpacker.decompress(blob) + unpacker.flush()
    if not unpacker.eof:
        raise zlib.error("truncated skeleton")
    return out


def serde_type(type_: str) -> str:
    """The serde's own type name for a stored skeleton type.

    >>> serde_type("msgpack+z")
    'msgpack'
    """
    return type_.removesuffix(_PACKED_SUFFIX)


# --- varints, pending writes --------------------------------------------------------------


def encode_varints(values: Sequence[int]) -> bytes:
    """Unsigned LEB128 varints, one after the other.

    >>> decode_varints(encode_varints([0, 1, 127, 128, 300000]))
    [0, 1, 127, 128, 300000]
    """
    out = bytearray()
    for v in values:
        if v < 0:
            raise ValueError(f"varint must be non-negative, got {v}")
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v)
    return bytes(out)


def decode_varints(data: bytes) -> list[int]:
    """Inverse of ``encode_varints``; raises ``ValueError`` on a truncated varint."""
    out: list[int] = []
    v = shift = 0
    for b in data:
        v |= (b & 0x7F) << shift
        if b & 0x80:
            shift += 7
        else:
            out.append(v)
            v = shift = 0
    if shift:
        raise ValueError("truncated varint")
    return out


_WRITES_FORMAT = 2
_WRITES_ZDICT = ormsgpack.packb(
    [
        "~__pregel_pull, agent",
        [[0, "messages", WRITE_REFS_TYPE, b""], [1, "branch:to:tools", "null", b""]],
        "~__pregel_pull, tools",
        [[0, "messages", "msgpack", b""], [1, "branch:to:agent", "null", b""]],
        "~__pregel_push, __start__",
        [[-1, "__error__", "msgpack", b""], [-3, "__interrupt__", "msgpack", b""]],
        [[-2, "__scheduled__", "null", b""], [-4, "__resume__", "msgpack", b""]],
        "~__pregel_pull, __start__",
    ]
)


def encode_writes(path: str, writes: Sequence[tuple[int, str, str, bytes]]) -> bytes:
    """One task's path and pending writes ``(idx, channel, type, value)`` as one value.

    Deflated against a dictionary of LangGraph's task paths and channel names: a tool
    call's writes take about 20 bytes.

    >>> decode_writes(encode_writes("~__pregel_pull, agent", [(0, "messages", "lgc.msgs", b"")]))
    ('~__pregel_pull, agent', [(0, 'messages', 'lgc.msgs', b'')])
    """
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=_WRITES_ZDICT)
    raw = ormsgpack.packb([path, [list(w) for w in writes]])
    return bytes([_WRITES_FORMAT]) + packer.compress(raw) + packer.flush()


def decode_writes(blob: bytes) -> tuple[str, list[tuple[int, str, str, bytes]]]:
    """Inverse of ``encode_writes``: ``(task path, writes)``."""
    if blob[:1] != bytes([_WRITES_FORMAT]):
        raise ValueError(f"unknown writes row format {blob[:1]!r}")
    unpacker = zlib.decompressobj(-15, zdict=_WRITES_ZDICT)
    raw = unpacker.decompress(blob[1:]) + unpacker.flush()
    if not unpacker.eof:
        raise zlib.error("truncated writes row")
    path, rows = ormsgpack.unpackb(raw)
    return str(path), [(int(i), str(c), str(t), bytes(b)) for i, c, t, b in rows]


# --- keys -----------------------------------------------------------------------------

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z")
_VERSION = re.compile(r"(\d{10})\.([A-Za-z0-9_-]{6})\Z")


def key(text: str) -> bytes:
    """An id or version as a short key for columns compared only for equality.

    A canonical UUID (LangGraph's message, task and checkpoint ids) takes 17 bytes
    instead of 36, one of our channel versions 8 to 12 instead of 17; anything else
    is kept as UTF-8. The first byte says which, so every string has one key.

    >>> [len(key(s)) for s in ("1f0a1b2c-3d4e-6f70-8001-0123456789ab", "0000000013.V8iLmF")]
    [17, 8]
    >>> all(unkey(key(s)) == s for s in ("", "ai-1", "0000000013.V8iLmF", "1", "ÄÖ"))
    True
    """
    if not text:
        return b""
    if len(text) == 36 and _UUID.match(text):
        return b"\x01" + uuid.UUID(text).bytes
    if len(text) == 17 and (m := _VERSION.match(text)):
        return b"\x02" + encode_varints([int(m[1])]) + m[2].encode()
    return b"\x00" + text.encode("utf-8", "surrogatepass")


def unkey(raw: bytes) -> str:
    """Inverse of ``key``."""
    if not raw:
        return ""
    kind, body = raw[0], bytes(raw[1:])
    if kind == 1 and len(body) == 16:
        return str(uuid.UUID(bytes=body))
    if kind == 2 and len(body) >= 7:
        return f"{decode_varints(body[:-6])[0]:010d}.{body[-6:].decode()}"
    if kind == 0:
        return body.decode("utf-8", "surrogatepass")
    raise ValueError(f"not a key: {raw!r}")


def encode_message_write(one: bool, seqs: Sequence[int]) -> bytes:
    """A message write's value: one message or a list, as message numbers.

    >>> decode_message_write(encode_message_write(True, [7]))
    (True, [7])
    """
    return bytes([1 if one else 0]) + encode_varints(seqs)


def decode_message_write(blob: bytes) -> tuple[bool, list[int]]:
    """Inverse of ``encode_message_write``."""
    if not blob or blob[0] not in (0, 1):
        raise ValueError("not a message write")
    return bool(blob[0]), decode_varints(blob[1:])


# --- history cursors ----------------------------------------------------------------------


def encode_cursor(payload: dict[str, Any]) -> str:
    """An opaque, URL-safe cursor string for ``payload``."""
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> dict[str, Any]:
    """Inverse of ``encode_cursor``; raises ``HistoryCursorError`` on anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw)
    except (ValueError, TypeError) as e:
        raise HistoryCursorError(f"not a history cursor: {cursor!r}") from e
    if not isinstance(value, dict):
        raise HistoryCursorError(f"not a history cursor: {cursor!r}")
    return value
