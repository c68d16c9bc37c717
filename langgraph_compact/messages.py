"""Message identity: stable ids and content digests shared by counting, coverage and storage.

A message is identified by its ``id`` plus a digest of everything a model sees of it
(role, text, tool calls, tool-call id, name). The token cache, the summary's coverage
digest and the checkpointer's store-once table all key on the same two values, so an
edited message is a new message everywhere at once.
"""

from __future__ import annotations

import hashlib
import json
import operator
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from langgraph_compact.errors import MessageError

__all__ = [
    "MessageCache",
    "canonical_json",
    "check_messages",
    "message_digest",
    "message_text",
    "require_ids",
    "span_digest",
]


def _default(value: object) -> object:
    """JSON fallback for values that are not JSON: a stable, type-tagged string.

    Tool arguments are supposed to be JSON, but Python callers sometimes pass sets,
    paths or datetimes. They are hashed and counted by ``str()`` with the type name,
    never rejected, so one odd argument cannot stop an agent.
    """
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return f"<{type(value).__name__}:{value}>"


_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default
)


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace; non-JSON values become tagged strings.

    >>> canonical_json({"b": 1, "a": [1, 2]})
    '{"a":[1,2],"b":1}'
    """
    return _ENCODER.encode(value)


def message_text(message: BaseMessage) -> str:
    """The text of a message: a string as is, text blocks joined, other blocks skipped.

    >>> from langchain_core.messages import HumanMessage
    >>> message_text(HumanMessage([{"type": "text", "text": "a"}, "b"]))
    'a\\nb'
    """
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and isinstance(block.get("text"), str):
            parts.append(block["text"])
    return "\n".join(parts)


def message_digest(message: BaseMessage) -> str:
    """A 32-hex-digit digest of what a model sees of ``message`` (its id excluded).

    Plain string content, the common case, is hashed directly rather than through JSON:
    this runs for every message on every model call, so it has to be cheap.
    """
    h = hashlib.blake2b(digest_size=16)
    h.update(message.type.encode())
    content = message.content
    if isinstance(content, str):
        h.update(b"\x00s")
        h.update(content.encode("utf-8", "surrogatepass"))
    else:
        h.update(b"\x00j")
        h.update(canonical_json(content).encode("utf-8", "surrogatepass"))
    if isinstance(message, AIMessage):
        for tc in message.tool_calls:
            h.update(f"\x00c{tc.get('id')}\x00{tc['name']}".encode())
            for key, value in sorted(tc["args"].items()):
                tag, text = ("s", value) if isinstance(value, str) else ("j", canonical_json(value))
                h.update(f"\x00k{key}\x00{tag}".encode())
                h.update(text.encode("utf-8", "surrogatepass"))
    elif isinstance(message, ToolMessage):
        h.update(f"\x00t{message.tool_call_id}\x00{message.status}".encode())
    if message.name:
        h.update(f"\x00n{message.name}".encode())
    return h.hexdigest()


def span_digest(messages: Sequence[BaseMessage], cache: MessageCache | None = None) -> str:
    """A digest over the ids and digests of a run of messages, order-sensitive.

    With a ``cache`` the per-message digests (and a recent identical span) are reused.
    """
    if cache is not None:
        return cache.span_digest(messages)
    return _span_digest(messages, message_digest)


def _span_digest(messages: Sequence[BaseMessage], digest: Callable[[BaseMessage], str]) -> str:
    h = hashlib.blake2b(digest_size=16)
    for m in messages:
        h.update((m.id or "").encode())
        h.update(b"\x00")
        h.update(digest(m).encode())
        h.update(b"\x01")
    return h.hexdigest()


class MessageCache:
    """Per-message-object memo of digests and shortened copies, shared deliberately.

    The compaction node sees the same message objects on every model call (LangGraph
    hands each step the objects of the previous one), so hashing and copying only new
    objects keeps a call's cost O(new messages). One instance is owned by each
    ``TokenCounter`` (its count cache keys on these digests) and reached by the fold
    stages through the counter.

    Lifetime: an entry lives exactly as long as its message object (a weak reference
    drops it when the object is collected), so memory is bounded by the messages the
    application itself keeps alive; the span memo keeps at most ``SPAN_CACHE_SIZE``
    spans. All operations take one lock, so a cache may be shared between threads. It
    relies on LangGraph's contract that messages in state are never mutated in place:
    updates create new objects, and new objects are always hashed afresh.
    """

    SPAN_CACHE_SIZE = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._digests: dict[int, tuple[weakref.ref[BaseMessage], str]] = {}
        self._copies: dict[int, tuple[weakref.ref[BaseMessage], dict[str, Any], BaseMessage]] = {}
        self._spans: OrderedDict[tuple[int, int, int], tuple[tuple[BaseMessage, ...], str]] = (
            OrderedDict()
        )

    def __len__(self) -> int:
        with self._lock:
            return len(self._digests) + len(self._copies)

    def _forget(self, table: dict[int, Any], key: int) -> Callable[[object], None]:
        def forget(_: object) -> None:
            # Called by the garbage collector, possibly while this thread holds the lock;
            # a plain dict pop is atomic, so it takes no lock.
            table.pop(key, None)

        return forget

    def digest(self, message: BaseMessage) -> str:
        """``message_digest(message)``, computed once per message object."""
        key = id(message)
        with self._lock:
            hit = self._digests.get(key)
            if hit is not None and hit[0]() is message:
                return hit[1]
        value = message_digest(message)
        ref = weakref.ref(message, self._forget(self._digests, key))
        with self._lock:
            self._digests[key] = (ref, value)
        return value

    def copy(self, message: BaseMessage, update: dict[str, Any]) -> BaseMessage:
        """``message.model_copy(update=update)``; the same copy again for the same inputs.

        Handing back last call's copy keeps its digest and token count cached, so a warm
        fold makes nothing new.
        """
        key = id(message)
        with self._lock:
            hit = self._copies.get(key)
            if hit is not None and hit[0]() is message and hit[1] == update:
                return hit[2]
        copy = message.model_copy(update=update)
        ref = weakref.ref(message, self._forget(self._copies, key))
        with self._lock:
            self._copies[key] = (ref, update, copy)
        return copy

    def span_digest(self, messages: Sequence[BaseMessage]) -> str:
        """``span_digest(messages)``; a span of the very same objects as a recent call is
        answered with one identity comparison per message, no hashing."""
        items = tuple(messages)
        key = (len(items), id(items[0]), id(items[-1])) if items else (0, 0, 0)
        with self._lock:
            hit = self._spans.get(key)
            if hit is not None and all(map(operator.is_, hit[0], items)):
                self._spans.move_to_end(key)
                return hit[1]
        value = _span_digest(items, self.digest)
        with self._lock:
            self._spans[key] = (items, value)
            while len(self._spans) > self.SPAN_CACHE_SIZE:
                self._spans.popitem(last=False)
        return value


def check_messages(messages: Sequence[Any], start: int = 0) -> None:
    """Raise ``MessageError`` naming the first entry that is not a message with an id.

    ``start`` is the index of ``messages[0]`` in the caller's list, for the error text.
    """
    for i, m in enumerate(messages, start):
        if not isinstance(m, BaseMessage):
            raise MessageError(
                f"messages[{i}] is a {type(m).__name__}, not a LangChain message: "
                f"{str(m)[:80]!r}. Convert it first (langchain_core.messages."
                "convert_to_messages) or let the add_messages reducer do it."
            )
    require_ids(messages, start)


def require_ids(messages: Sequence[BaseMessage], start: int = 0) -> None:
    """Raise ``MessageError`` naming the first message that has no id.

    Messages that went through LangGraph's ``add_messages`` reducer always have ids;
    a list built by hand may not, and refs to it could not be resolved later.
    ``start`` is the index of ``messages[0]`` in the caller's list, for the error text.
    """
    for i, m in enumerate(messages, start):
        if not m.id:
            raise MessageError(
                f"message {i} ({m.type}) has no id. Messages need ids so that clip markers "
                "and summaries can refer back to them; pass them through "
                "langgraph.graph.message.add_messages or set id= when you build them."
            )
