"""Long-term memory: stable summary items flushed to a LangGraph ``BaseStore``, per user.

Off by default. With ``CompactionNode(..., memory=MemoryFlush(...))``, every committed
summary sends its stable items — preferences, constraints and safety rules, decisions,
corrected facts (``SummaryItem.kind``), plus any other pinned item but the goal — to the
store, under a namespace built from the run's config (``("memories", "{user_id}")`` by
default), each with the raw message ids it was derived from. Only items new or changed
since the previous summary are written; an item's key is its summary key, so a
superseded value overwrites the old one.

A later thread of the same user reads them with ``make_memory_tool`` (or
``search_memories`` in a pre-model step). A redaction removes what was derived from the
redacted messages: ``forget(store, message_ids)``, or ``redact_with_memory`` which
redacts in the saver and then forgets, in one call. Items a child thread read from its
hand-off carry the parent's message ids (``handoff.origin_sources``), so redacting in the
parent reaches them too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.store.base import BaseStore, PutOp, SearchItem

from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.errors import MemoryNamespaceError, SettingsError
from langgraph_compact.forget import aforget, forget, forget_on_redact, redact_with_memory
from langgraph_compact.handoff import HANDOFF_KEY, origin_sources

__all__ = [
    "DEFAULT_KINDS",
    "DEFAULT_NAMESPACE",
    "MemoryFlush",
    "aforget",
    "asearch_memories",
    "forget",
    "forget_on_redact",
    "make_memory_tool",
    "namespace_for",
    "redact_with_memory",
    "resolve_store",
    "search_memories",
]

DEFAULT_KINDS = frozenset({"preference", "constraint", "safety", "decision", "correction"})
"""Item kinds that outlive a task: what the user wants and what was decided."""
DEFAULT_NAMESPACE = ("memories", "{user_id}")
"""Namespace template; ``{name}`` parts come from ``config["configurable"]``."""
_SCAN = 200
"""Items a search reads (and ranks by words when the store has no index)."""
_WORD = re.compile(r"[\w./-]{2,}")


def _section_of(summary: RunningSummary) -> dict[int, Section]:
    return {id(i): s for s, items in summary.sections.items() for i in items}


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def namespace_for(template: Sequence[str], config: RunnableConfig | None) -> tuple[str, ...]:
    """``template`` with each ``{name}`` filled from ``config["configurable"]``.

    Raises:
        MemoryNamespaceError: a ``{name}`` the config does not carry (the message names it).
    """
    configurable = (config or {}).get("configurable") or {}
    out = []
    for part in template:
        names = re.findall(r"\{(\w+)\}", part)
        missing = [n for n in names if configurable.get(n) in (None, "")]
        if missing:
            raise MemoryNamespaceError(
                f"the memory namespace {tuple(template)!r} needs {missing[0]!r} in "
                "config['configurable'] (e.g. the user id); pass it when invoking the graph"
            )
        out.append(part.format(**{n: str(configurable[n]) for n in names}))
    return tuple(out)


@dataclass(frozen=True)
class MemoryFlush:
    """Which summary items go to which store, under which namespace.

    Attributes:
        store: the ``BaseStore``; None: the graph's store (``compile(store=...)``).
        namespace: the namespace template, filled per run from ``configurable``.
        kinds: item kinds to flush.
        pinned: also flush every other pinned item (except the goal).
    """

    store: BaseStore | None = None
    namespace: tuple[str, ...] = DEFAULT_NAMESPACE
    kinds: frozenset[str] = field(default=DEFAULT_KINDS)
    pinned: bool = True

    def stable(self, item: SummaryItem) -> bool:
        """Whether ``item`` belongs in long-term memory."""
        if item.historical or item.kind == "goal":
            return False
        return item.kind in self.kinds or (self.pinned and item.pinned)

    def records(
        self,
        summary: RunningSummary,
        previous: RunningSummary | None,
        thread_id: str,
        raw: Sequence[BaseMessage] = (),
    ) -> list[tuple[str, dict[str, Any]]]:
        """``(key, value)`` of every stable item new or changed since ``previous``."""
        before = {(i.key, i.text) for i in previous.all_items()} if previous else set()
        handoffs = [m for m in raw[:8] if HANDOFF_KEY in m.additional_kwargs]
        handoff = handoffs[0] if handoffs else None
        sections = _section_of(summary)
        now = datetime.now(UTC).isoformat()
        out = []
        for item in summary.all_items():
            if not self.stable(item) or (item.key, item.text) in before:
                continue
            identity = item.key or item.text.casefold()
            key = hashlib.sha256(identity.encode()).hexdigest()[:32]
            value = {
                "text": item.text,
                "kind": item.kind,
                "section": sections[id(item)].value,
                "pinned": item.pinned,
                "sources": origin_sources(item.text, item.sources, handoff),
                "thread_id": thread_id,
                "generation": summary.generation,
                "updated_at": now,
            }
            out.append((key, value))
        return out

    def _ops(
        self,
        summary: RunningSummary,
        previous: RunningSummary | None,
        config: RunnableConfig,
        raw: Sequence[BaseMessage],
    ) -> list[PutOp]:
        namespace = namespace_for(self.namespace, config)
        thread = str(((config or {}).get("configurable") or {}).get("thread_id", ""))
        records = self.records(summary, previous, thread, raw)
        return [PutOp(namespace, key, value) for key, value in records]

    def flush(
        self,
        store: BaseStore,
        summary: RunningSummary,
        previous: RunningSummary | None,
        config: RunnableConfig,
        raw: Sequence[BaseMessage] = (),
    ) -> int:
        """Write the new stable items; the number written."""
        ops = self._ops(summary, previous, config, raw)
        if ops:
            store.batch(ops)
        return len(ops)

    async def aflush(
        self,
        store: BaseStore,
        summary: RunningSummary,
        previous: RunningSummary | None,
        config: RunnableConfig,
        raw: Sequence[BaseMessage] = (),
    ) -> int:
        """Async ``flush``."""
        ops = self._ops(summary, previous, config, raw)
        if ops:
            await store.abatch(ops)
        return len(ops)


def _rank(items: Sequence[SearchItem], query: str, limit: int) -> list[SearchItem]:
    """Store order when the store scored them (an index), else by words in common."""
    if not query or any(i.score is not None for i in items):
        return list(items[:limit])
    wanted = _words(query)
    scored = [
        (len(wanted & _words(str(i.value.get("text", "")))), n, i) for n, i in enumerate(items)
    ]
    return [i for hits, _, i in sorted(scored, key=lambda t: (-t[0], t[1])) if hits][:limit]


def search_memories(
    store: BaseStore, namespace: tuple[str, ...], query: str = "", *, limit: int = 10
) -> list[SearchItem]:
    """The user's memories that best match ``query`` (all of them, newest, without one)."""
    found = store.search(namespace, query=query or None, limit=max(limit, _SCAN))
    return _rank(found, query, limit)


async def asearch_memories(
    store: BaseStore, namespace: tuple[str, ...], query: str = "", *, limit: int = 10
) -> list[SearchItem]:
    """Async ``search_memories``."""
    found = await store.asearch(namespace, query=query or None, limit=max(limit, _SCAN))
    return _rank(found, query, limit)


def _render(items: Sequence[SearchItem], query: str) -> str:
    if not items:
        return f"No long-term memories match {query!r}." if query else "No long-term memories."
    lines = ["Long-term memories (from earlier conversations):"]
    lines += [f"- {i.value.get('text')} ({i.value.get('kind')})" for i in items]
    return "\n".join(lines)


def make_memory_tool(
    store: BaseStore | None = None,
    *,
    namespace: tuple[str, ...] = DEFAULT_NAMESPACE,
    name: str = "search_memory",
    limit: int = 10,
) -> BaseTool:
    """A tool the model searches its user's long-term memories with.

    The namespace comes from the run's config (the user id), never from the model's
    arguments, so one user's memories are out of reach of another user's thread.

    Args:
        store: the store; None: the graph's store.
        namespace: the namespace template (as in ``MemoryFlush``).
        name: the tool name the model sees.
        limit: most items per answer.
    """

    def _store() -> BaseStore:
        return resolve_store(MemoryFlush(store=store))

    def search_memory(query: str = "", *, config: RunnableConfig) -> str:
        found = search_memories(_store(), namespace_for(namespace, config), query, limit=limit)
        return _render(found, query)

    async def asearch_memory(query: str = "", *, config: RunnableConfig) -> str:
        ns = namespace_for(namespace, config)
        return _render(await asearch_memories(_store(), ns, query, limit=limit), query)

    return StructuredTool.from_function(
        func=search_memory,
        coroutine=asearch_memory,
        name=name,
        description=(
            "Search what you learned about this user in earlier conversations: "
            "preferences, standing rules, decisions. Pass a few words."
        ),
    )


def resolve_store(flush: MemoryFlush) -> BaseStore:
    """The flush's store, else the running graph's.

    Raises:
        SettingsError: neither is set.
    """
    if flush.store is not None:
        return flush.store
    from langgraph.config import get_store

    try:
        store = get_store()
    except (RuntimeError, KeyError):  # outside a run, or a run without a store
        store = None
    if store is None:
        raise SettingsError(
            "MemoryFlush has no store: pass MemoryFlush(store=...) or compile the graph "
            "with store=..."
        )
    return store
