"""Row checks and corruption errors: every stored row is verified when it is read.

Each row carries ``chk``: 8 bytes of BLAKE2b over a table tag, the row's key (its
namespace, checkpoint id, channel and version, or message number and id) and its
content. A flipped byte, a value moved to another key, two swapped digests or a text
joined to the wrong message all change the check. Ref-list rows also cover the check
of their base row, so a whole chain is verified link by link (a Merkle chain). The
thread's own id (``tid``) is left out on purpose: ``copy_thread`` copies rows verbatim.

8 bytes detect accidental damage (a miss is a 2^-64 event per damaged row); they are not
a signature against someone who can rewrite the file.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

import ormsgpack

from langgraph_compact.errors import CorruptionError

__all__ = [
    "DECODE_ERRORS",
    "Where",
    "blob_check",
    "check",
    "checkpoint_check",
    "corrupt",
    "decoding",
    "head_behind",
    "head_check",
    "message_check",
    "named",
    "thread_check",
    "verify_check",
    "writes_check",
]

CHECK_BYTES = 8

Field = bytes | str | int | None

DECODE_ERRORS: tuple[type[BaseException], ...] = (
    zlib.error,
    ormsgpack.MsgpackDecodeError,
    json.JSONDecodeError,
    UnicodeDecodeError,
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    EOFError,
)
"""What a damaged byte string raises while it is decoded (zlib, msgpack, JSON, UTF-8 ...)."""


def check(tag: bytes, *fields: Field) -> bytes:
    """The 8-byte check of one row: ``tag`` names the table, ``fields`` its key and content.

    Fields are length-prefixed, so ``("ab", "c")`` and ``("a", "bc")`` differ.

    >>> check(b"m", 1, "a") != check(b"m", 1, "b") != check(b"x", 1, "a")
    True
    >>> len(check(b"m", None, b"", "x"))
    8
    """
    h = hashlib.blake2b(tag, digest_size=CHECK_BYTES)
    for f in fields:
        if f is None:
            h.update(b"\x00")
        elif isinstance(f, int):
            h.update(b"\x01" + f.to_bytes(9, "big", signed=True))
        else:
            raw = f.encode("utf-8", "surrogatepass") if isinstance(f, str) else f
            h.update(b"\x02" + len(raw).to_bytes(8, "big"))
            h.update(raw)
    return h.digest()


def thread_check(tid: int, thread_id: str) -> bytes:
    """``lgc_threads``: the thread's number and id."""
    return check(b"thread", tid, thread_id)


def head_check(ns: str, checkpoint_id: str, count: int) -> bytes:
    """``lgc_heads``: a namespace's newest checkpoint id and checkpoint count."""
    return check(b"head", ns, checkpoint_id, count)


def checkpoint_check(ns: str, checkpoint_id: str, run_id: str | None, payload: bytes) -> bytes:
    """``lgc_checkpoints``: the key, the run and the packed skeleton (parent included)."""
    return check(b"checkpoint", ns, checkpoint_id, run_id, payload)


def blob_check(ns: str, channel: str, version: str, type_: str, blob: bytes) -> bytes:
    """``lgc_blobs`` (serialized values): the key and the serde's type and bytes."""
    return check(b"blob", ns, channel, version, type_, blob)


def writes_check(ns: str, checkpoint_id: str, task_id: str, blob: bytes) -> bytes:
    """``lgc_writes``: the key and the packed task path and writes."""
    return check(b"writes", ns, checkpoint_id, task_id, blob)


def message_check(
    seq: int,
    message_id: str,
    digest: bytes,
    role: str,
    tools: str,
    type_: str,
    skeleton: bytes,
    in_text: int,
    text: str | None,
) -> bytes:
    """``lgc_messages``: the number, id, digest, columns and the text it is joined to."""
    return check(b"msg", seq, message_id, digest, role, tools, type_, skeleton, in_text, text)


@dataclass(frozen=True)
class Where:
    """Where a row lives, for error messages: thread, checkpoint, channel, message."""

    thread_id: str
    checkpoint_id: str | None = None
    channel: str | None = None
    message_id: str | None = None
    seq: int | None = None

    def at(self, **changes: object) -> Where:
        """A copy pointing somewhere more precise (``where.at(channel="messages")``)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def describe(self) -> str:
        parts = [f"thread {self.thread_id!r}" if self.thread_id else "the database"]
        parts.append(
            f"checkpoint {self.checkpoint_id}" if self.checkpoint_id else "the newest checkpoint"
        )
        if self.channel is not None:
            parts.append(f"channel {self.channel!r}")
        if self.message_id is not None or self.seq is not None:
            label = f"message {self.message_id!r}" if self.message_id else "message"
            parts.append(label + (f" (row {self.seq})" if self.seq is not None else ""))
        return ", ".join(parts)


def corrupt(where: Where, what: str) -> CorruptionError:
    """A ``CorruptionError`` saying where, what failed, and what to do next."""
    return CorruptionError(
        f"{where.describe()}: {what}. The database file is damaged; nothing was loaded from "
        f"this item. Run saver.verify({where.thread_id or None!r}) for a full report, and "
        "restore the file from a backup (or delete the damaged thread) before writing to it "
        "again.",
        thread_id=where.thread_id or None,
        checkpoint_id=where.checkpoint_id,
        channel=where.channel,
        message_id=where.message_id,
        what=what,
    )


def head_behind(where: Where) -> CorruptionError:
    """The error for a put whose new checkpoint row is already stored.

    ``put`` inserts a checkpoint newer than the head record without asking first whether
    its row exists (no round trip; on Postgres the insert's answer is not waited for), so
    the driver's key conflict, wherever it surfaces, means the head record is behind.
    """
    what = (
        "this checkpoint is already stored, but the namespace's head record is missing or "
        "names an older one: the head record is behind the stored rows (nothing of this "
        "put was stored)"
    )
    return corrupt(where, what)


def named(error: CorruptionError, where: Where | None) -> CorruptionError:
    """``error``, naming the checkpoint the caller asked for when it did not name one."""
    if where is None:
        return error
    thread = error.thread_id or where.thread_id
    checkpoint = error.checkpoint_id or where.checkpoint_id
    if (thread, checkpoint) == (error.thread_id, error.checkpoint_id):
        return error
    at = Where(thread or "", checkpoint, error.channel, error.message_id)
    return corrupt(at, error.what)


def verify_check(where: Where, stored: bytes | None, expected: bytes, what: str) -> None:
    """Raise ``CorruptionError`` unless the stored check equals the recomputed one."""
    if stored != expected:
        raise corrupt(where, f"{what} does not match its stored check")


@contextmanager
def decoding(where: Where, what: str) -> Iterator[None]:
    """Turn a decoder's error (zlib, msgpack, JSON, UTF-8, ...) into a ``CorruptionError``."""
    try:
        yield
    except CorruptionError:
        raise
    except DECODE_ERRORS as e:
        raise corrupt(where, f"{what} cannot be decoded ({type(e).__name__}: {e})") from e
