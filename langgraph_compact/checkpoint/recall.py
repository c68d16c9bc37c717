"""The recall tool: lets the model read back original content that compaction hid.

Clip, prune and summary markers say ``ref=<message id>``; the model calls ``recall``
with that ref (or with a text query) and gets the original content back in bounded
pages. The thread comes from the tool's ``RunnableConfig`` (the running graph's
``thread_id``), never from the model's arguments, and every lookup is a parameterized
query scoped to that thread, so a crafted ref cannot reach another thread. The tool
uses only the saver's public ``get_message`` and ``history`` (and their async twins).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool

from langgraph_compact.checkpoint._api import CompactSaverBase
from langgraph_compact.checkpoint.history import HistoryPage
from langgraph_compact.messages import message_text

__all__ = ["RECALL_DESCRIPTION", "RECALL_PAGE_CHARS", "make_recall_tool"]

RECALL_PAGE_CHARS = 4000
"""Default and maximum characters returned per call, so a recall cannot flood the context."""

RECALL_DESCRIPTION = (
    "Read back original conversation content that was clipped, pruned or summarized. "
    "Pass `ref` (the message id shown as ref=... in a marker) to read that message, "
    "using `offset` to page through long content; or pass `query` (words) to search this "
    "conversation's full history."
)
_SNIPPET_CHARS = 240


def _thread_id(config: RunnableConfig | None) -> str | None:
    value = ((config or {}).get("configurable") or {}).get("thread_id")
    return str(value) if value is not None else None


def _checkpoint_id(config: RunnableConfig | None) -> str | None:
    """The checkpoint the tool runs in (set by time travel or a replayed run), if any."""
    value = ((config or {}).get("configurable") or {}).get("checkpoint_id")
    return str(value) if value else None


def _render_message(msg: BaseMessage | None, ref: str, offset: int, limit: int) -> str:
    if msg is None:
        return f"No message with ref={ref!r} in this conversation."
    text = message_text(msg)
    offset = max(0, offset)
    chunk = text[offset : offset + limit]
    end = offset + len(chunk)
    label = f"{msg.type}" + (f" (tool {msg.name})" if msg.name else "")
    head = f"[ref={ref} · {label} · chars {offset}-{end} of {len(text)}"
    head += f" · next offset={end}]" if end < len(text) else " · end]"
    return f"{head}\n{chunk}"


def _render_hits(page: HistoryPage, query: str) -> str:
    if not page.items:
        return f"No messages in this conversation match {query!r}."
    lines = [f"Messages matching {query!r} (call recall with ref=... to read one):"]
    for item in page.items:
        text = message_text(item.message).replace("\n", " ")
        snippet = text[:_SNIPPET_CHARS] + ("…" if len(text) > _SNIPPET_CHARS else "")
        lines.append(f"- ref={item.message.id} #{item.index} {item.message.type}: {snippet}")
    if page.has_more:
        lines.append("(more matches exist; refine the query)")
    return "\n".join(lines)


def make_recall_tool(
    saver: CompactSaverBase,
    *,
    name: str = "recall",
    page_chars: int = RECALL_PAGE_CHARS,
    max_hits: int = 5,
    channel: str = "messages",
) -> BaseTool:
    """Build the recall tool over a compact saver (sync or async).

    Args:
        saver: the graph's ``CompactSqliteSaver`` or ``AsyncCompactSqliteSaver``.
        name: tool name the model sees.
        page_chars: the most characters one call returns; ``limit`` is capped to it.
        max_hits: search results per query.
        channel: the state key holding the messages.

    Returns:
        A LangChain tool with arguments ``ref``, ``query``, ``offset`` and ``limit``.
    """

    def size(limit: int | None) -> int:
        return page_chars if limit is None else max(1, min(int(limit), page_chars))

    def unavailable(ref: str | None, query: str | None, config: RunnableConfig) -> str | None:
        if _thread_id(config) is None:
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
        if (answer := unavailable(ref, query, config)) is not None:
            return answer
        thread_id = str(_thread_id(config))
        if ref:
            msg = saver.get_message(
                thread_id, ref, checkpoint_id=_checkpoint_id(config), channel=channel
            )
            return _render_message(msg, ref, offset, size(limit))
        page = saver.history(thread_id, text=query, limit=max_hits, channel=channel)
        return _render_hits(page, str(query))

    async def arecall(
        ref: str | None = None,
        query: str | None = None,
        offset: int = 0,
        limit: int | None = None,
        *,
        config: RunnableConfig,
    ) -> str:
        if (answer := unavailable(ref, query, config)) is not None:
            return answer
        thread_id = str(_thread_id(config))
        if ref:
            msg = await saver.aget_message(
                thread_id, ref, checkpoint_id=_checkpoint_id(config), channel=channel
            )
            return _render_message(msg, ref, offset, size(limit))
        page = await saver.ahistory(thread_id, text=query, limit=max_hits, channel=channel)
        return _render_hits(page, str(query))

    kwargs: dict[str, Any] = {"name": name, "description": RECALL_DESCRIPTION}
    return StructuredTool.from_function(func=recall, coroutine=arecall, **kwargs)
