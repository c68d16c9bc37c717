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
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from langgraph_compact.errors import MessageError

__all__ = [
    "cached_digest",
    "canonical_json",
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


_DIGESTS: dict[int, tuple[weakref.ref[BaseMessage], str]] = {}


def cached_digest(message: BaseMessage) -> str:
    """``message_digest``, remembered for as long as this message object lives.

    Within a graph run LangGraph hands every step the same message objects, so the node
    re-hashes only new messages. The cache is keyed by object identity and dropped when
    the object dies. It assumes messages in state are not mutated in place, which is
    LangGraph's contract: updates (``update_state``, reducers, redaction on load) create
    new message objects, and new objects are always hashed afresh.
    """
    key = id(message)
    hit = _DIGESTS.get(key)
    if hit is not None and hit[0]() is message:
        return hit[1]
    digest = message_digest(message)

    def forget(_: weakref.ref[BaseMessage]) -> None:
        _DIGESTS.pop(key, None)

    _DIGESTS[key] = (weakref.ref(message, forget), digest)
    return digest


_SPANS: OrderedDict[tuple[int, int, int], tuple[tuple[BaseMessage, ...], str]] = OrderedDict()
_SPANS_LOCK = threading.Lock()
SPAN_CACHE_SIZE = 8


def span_digest(messages: Sequence[BaseMessage]) -> str:
    """A digest over the ids and digests of a run of messages, order-sensitive.

    The node checks its summary's coverage with this on every call. A span made of the
    very same message objects as a recent call is answered from a small identity cache
    (an ``is`` comparison per message), so the steady-state check costs no hashing.
    """
    items = tuple(messages)
    key = (len(items), id(items[0]), id(items[-1])) if items else (0, 0, 0)
    with _SPANS_LOCK:
        hit = _SPANS.get(key)
        if hit is not None and all(map(operator.is_, hit[0], items)):
            _SPANS.move_to_end(key)
            return hit[1]
    h = hashlib.blake2b(digest_size=16)
    for m in items:
        h.update((m.id or "").encode())
        h.update(b"\x00")
        h.update(cached_digest(m).encode())
        h.update(b"\x01")
    digest = h.hexdigest()
    with _SPANS_LOCK:
        _SPANS[key] = (items, digest)
        while len(_SPANS) > SPAN_CACHE_SIZE:
            _SPANS.popitem(last=False)
    return digest


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
