"""Thread lineage: a rotated thread's parent and children, and recall across them.

``rotate`` writes ``parent_thread_id`` (and ``root_thread_id``, ``rotation``) into the
child's checkpoint metadata, so lineage is read from the saver with its public
``list(filter=...)``: ``parent_thread`` / ``ancestors`` walk up, ``children`` down.

``make_lineage_recall_tool`` is the recall tool for rotated threads: a ref or a query is
looked up in the current thread first, then in its ancestors, nearest first. The
threads it may read come only from the run's config and the saver's metadata, never
from the model's arguments; a thread that is not an ancestor stays unreachable, so
isolation between unrelated threads is what it is for ``make_recall_tool``.

``redact_lineage`` redacts in a thread and in the hand-offs of its descendants that were
derived from the redacted messages (and, given a store, forgets the memories).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool

from langgraph_compact.checkpoint import CompactSaverBase, HistoryItem
from langgraph_compact.handoff import HANDOFF_KEY
from langgraph_compact.messages import message_text
from langgraph_compact.rotation import PARENT_KEY

__all__ = [
    "LINEAGE_RECALL_DESCRIPTION",
    "LineageRedaction",
    "aancestors",
    "ancestors",
    "children",
    "make_lineage_recall_tool",
    "parent_thread",
    "redact_lineage",
]

LINEAGE_RECALL_DESCRIPTION = (
    "Read back original conversation content that was clipped, pruned or summarized, "
    "also from the earlier threads this conversation was handed off from. Pass `ref` "
    "(the message id shown as ref=... in a marker) to read that message, using `offset` "
    "to page through long content; or pass `query` (words) to search the full history."
)
_SNIPPET_CHARS = 240
_HANDOFF_WITHIN = 8
"""The hand-off is the child's first message after its system messages."""


def _config(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}


def _from_handoff(messages: list[BaseMessage]) -> str | None:
    for message in messages:
        meta = message.additional_kwargs.get(HANDOFF_KEY)
        if isinstance(meta, dict) and meta.get(PARENT_KEY):
            return str(meta[PARENT_KEY])
    return None


def parent_thread(saver: Any, thread_id: str, *, channel: str = "messages") -> str | None:
    """The thread ``thread_id`` was rotated from, or None (a root or unknown thread).

    Read from the newest checkpoint's metadata (a child run with the config ``rotate``
    returned has the link on every checkpoint), else from the hand-off message that
    opens the child; two small reads, never a scan of the thread.
    """
    for item in saver.list(_config(thread_id), limit=1):
        if parent := (item.metadata or {}).get(PARENT_KEY):
            return str(parent)
    page = saver.history(thread_id, end=_HANDOFF_WITHIN, channel=channel)
    return _from_handoff([i.message for i in page.items])


async def _aparent_thread(saver: Any, thread_id: str, channel: str = "messages") -> str | None:
    async for item in saver.alist(_config(thread_id), limit=1):
        if parent := (item.metadata or {}).get(PARENT_KEY):
            return str(parent)
    page = await saver.ahistory(thread_id, end=_HANDOFF_WITHIN, channel=channel)
    return _from_handoff([i.message for i in page.items])


def ancestors(saver: Any, thread_id: str, *, max_depth: int | None = None) -> list[str]:
    """Parent, grandparent, ... of ``thread_id``, nearest first (cycles stop the walk)."""
    out: list[str] = []
    current = thread_id
    while max_depth is None or len(out) < max_depth:
        parent = parent_thread(saver, current)
        if parent is None or parent == thread_id or parent in out:
            break
        out.append(parent)
        current = parent
    return out


async def aancestors(saver: Any, thread_id: str, *, max_depth: int | None = None) -> list[str]:
    """Async ``ancestors``."""
    out: list[str] = []
    current = thread_id
    while max_depth is None or len(out) < max_depth:
        parent = await _aparent_thread(saver, current)
        if parent is None or parent == thread_id or parent in out:
            break
        out.append(parent)
        current = parent
    return out


def children(saver: Any, thread_id: str) -> list[str]:
    """Threads rotated from ``thread_id``, in the order they were started."""
    found: dict[str, str] = {}
    for item in saver.list(None, filter={PARENT_KEY: thread_id}):
        child = str(item.config["configurable"]["thread_id"])
        checkpoint = str(item.config["configurable"].get("checkpoint_id") or "")
        found[child] = min(found.get(child, checkpoint), checkpoint)
    return sorted(found, key=lambda t: found[t])


def _render_message(
    msg: BaseMessage, ref: str, thread: str, own: str, offset: int, size: int
) -> str:
    text = message_text(msg)
    offset = max(0, offset)
    chunk = text[offset : offset + size]
    end = offset + len(chunk)
    label = f"{msg.type}" + (f" (tool {msg.name})" if msg.name else "")
    where = "" if thread == own else f" · from earlier thread {thread!r}"
    head = f"[ref={ref} · {label}{where} · chars {offset}-{end} of {len(text)}"
    head += f" · next offset={end}]" if end < len(text) else " · end]"
    return f"{head}\n{chunk}"


def _render_hits(hits: list[tuple[str, HistoryItem]], query: str, own: str, more: bool) -> str:
    if not hits:
        return f"No messages in this conversation or the threads it continues match {query!r}."
    lines = [f"Messages matching {query!r} (call recall with ref=... to read one):"]
    for thread, item in hits:
        text = message_text(item.message).replace("\n", " ")
        snippet = text[:_SNIPPET_CHARS] + ("…" if len(text) > _SNIPPET_CHARS else "")
        where = "" if thread == own else f" [thread {thread!r}]"
        lines.append(f"- ref={item.message.id} #{item.index}{where} {item.message.type}: {snippet}")
    if more:
        lines.append("(more matches exist; refine the query)")
    return "\n".join(lines)


def _thread_of(config: RunnableConfig | None) -> str | None:
    value = ((config or {}).get("configurable") or {}).get("thread_id")
    return str(value) if value is not None else None


def _lookups(own: str, parents: list[str]) -> Iterator[str]:
    yield own
    yield from parents


def make_lineage_recall_tool(
    saver: CompactSaverBase,
    *,
    name: str = "recall",
    page_chars: int = 4000,
    max_hits: int = 5,
    max_depth: int | None = None,
    channel: str = "messages",
) -> BaseTool:
    """The recall tool, reaching the current thread and the threads it was rotated from.

    Args:
        saver: the graph's compact saver (sync or async).
        name: tool name the model sees.
        page_chars: the most characters one call returns.
        max_hits: search results per query, over all threads searched.
        max_depth: how many generations up it may read (None: to the root).
        channel: the state key holding the messages.
    """

    def size(limit: int | None) -> int:
        return page_chars if limit is None else max(1, min(int(limit), page_chars))

    def unavailable(own: str | None, ref: str | None, query: str | None) -> str | None:
        if own is None:
            return "recall is unavailable: no conversation (thread_id) in this run."
        if not ref and not query:
            return "Pass either ref=<message id> or query=<words>."
        return None

    def recall(
        ref: str | None = None,
        query: str | None = None,
        offset: int = 0,
        limit: int | None = None,
        *,
        config: RunnableConfig,
    ) -> str:
        own = _thread_of(config)
        if (answer := unavailable(own, ref, query)) is not None or own is None:
            return str(answer)
        parents = ancestors(saver, own, max_depth=max_depth)
        if ref:
            for thread in _lookups(own, parents):
                msg = saver.get_message(thread, ref, channel=channel)
                if msg is not None:
                    return _render_message(msg, ref, thread, own, offset, size(limit))
            return f"No message with ref={ref!r} in this conversation or the threads it continues."
        hits: list[tuple[str, HistoryItem]] = []
        more = False
        for thread in _lookups(own, parents):
            page = saver.history(thread, text=query, limit=max_hits - len(hits), channel=channel)
            hits += [(thread, item) for item in page.items]
            more = more or page.has_more
            if len(hits) >= max_hits:
                break
        return _render_hits(hits, str(query), own, more)

    async def arecall(
        ref: str | None = None,
        query: str | None = None,
        offset: int = 0,
        limit: int | None = None,
        *,
        config: RunnableConfig,
    ) -> str:
        own = _thread_of(config)
        if (answer := unavailable(own, ref, query)) is not None or own is None:
            return str(answer)
        parents = await aancestors(saver, own, max_depth=max_depth)
        if ref:
            for thread in _lookups(own, parents):
                msg = await saver.aget_message(thread, ref, channel=channel)
                if msg is not None:
                    return _render_message(msg, ref, thread, own, offset, size(limit))
            return f"No message with ref={ref!r} in this conversation or the threads it continues."
        hits: list[tuple[str, HistoryItem]] = []
        more = False
        for thread in _lookups(own, parents):
            page = await saver.ahistory(
                thread, text=query, limit=max_hits - len(hits), channel=channel
            )
            hits += [(thread, item) for item in page.items]
            more = more or page.has_more
            if len(hits) >= max_hits:
                break
        return _render_hits(hits, str(query), own, more)

    return StructuredTool.from_function(
        func=recall, coroutine=arecall, name=name, description=LINEAGE_RECALL_DESCRIPTION
    )


@dataclass(frozen=True)
class LineageRedaction:
    """What a redaction across a lineage changed, per thread, and the memories it removed."""

    results: dict[str, Any]
    """Thread id → the saver's ``RedactionResult`` (the thread itself first)."""
    memories: int = 0


def _derived_handoffs(messages: Sequence[BaseMessage], ids: set[str]) -> list[str]:
    """Ids of hand-offs that quote or summarize any of ``ids`` (their recorded sources)."""
    out = []
    for message in messages:
        meta = message.additional_kwargs.get(HANDOFF_KEY)
        if not isinstance(meta, dict) or message.id is None:
            continue
        table = meta.get("sources") or {}
        sources = {s for found in table.values() for s in found} | {meta.get("request_ref")}
        if sources & ids:
            out.append(message.id)
    return out


def redact_lineage(
    saver: Any,
    thread_id: str,
    message_ids: Sequence[str],
    reason: str,
    *,
    actor: str = "unknown",
    store: Any = None,
    namespace_prefix: tuple[str, ...] = ("memories",),
    channel: str = "messages",
) -> LineageRedaction:
    """Redact messages in a thread and what its rotated descendants derived from them.

    A child's hand-off quotes the parent's request and summary: every descendant's
    hand-off whose recorded sources include a redacted id is redacted too (the saver
    then drops the child's summary items drawn from it), and with a ``store`` the
    long-term memories derived from any of them are forgotten.
    """
    from langgraph_compact.memory import forget

    ids = {str(i) for i in message_ids}
    results = {thread_id: saver.redact(thread_id, list(ids), reason, actor=actor)}
    derived: set[str] = set()
    queue = children(saver, thread_id)
    while queue:
        child = queue.pop(0)
        if child in results:
            continue
        page = saver.history(child, end=_HANDOFF_WITHIN, channel=channel)
        doomed = _derived_handoffs([i.message for i in page.items], ids)
        if doomed:
            why = f"{reason} (derived from redacted messages of thread {thread_id!r})"
            results[child] = saver.redact(child, doomed, why, actor=actor)
            derived.update(doomed)
        queue.extend(children(saver, child))
    forgotten = forget(store, ids | derived, namespace_prefix=namespace_prefix) if store else 0
    return LineageRedaction(results, forgotten)
