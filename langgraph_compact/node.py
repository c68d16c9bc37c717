"""``CompactionNode``: the pre-model node that writes the projection and the summary.

Add it before the model node of any ``StateGraph`` whose state extends ``CompactState``;
the model node then reads ``llm_input_messages``. The node never writes ``messages``:
the raw history stays exactly as the agent wrote it.

Example:
    >>> from langgraph.graph import START, StateGraph
    >>> from langgraph_compact import Budget, CompactionNode, CompactState
    >>> builder = StateGraph(CompactState)
    >>> _ = builder.add_node("compact", CompactionNode(Budget(context_window=32_000)))
    >>> _ = builder.add_edge(START, "compact")
    >>> graph = builder.compile()
    >>> out = graph.invoke({"messages": [("user", "hello")]})
    >>> [m.content for m in out["llm_input_messages"]]
    ['hello']
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import asdict, replace
from typing import Any, NamedTuple

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.config import get_stream_writer

from langgraph_compact.calibrate import CallMemory, LastCall, calibrated, next_ratio, tool_tokens
from langgraph_compact.compaction.anchor import shared_prefix
from langgraph_compact.compaction.assemble import CompactionResult
from langgraph_compact.compaction.background import BackgroundCompactor
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.errors import CompactError
from langgraph_compact.memory import MemoryFlush, resolve_store
from langgraph_compact.messages import span_digest
from langgraph_compact.state import SERDE_ALLOWLIST, CompactAgentState, CompactState
from langgraph_compact.tasks import TaskList, refresh_tasks, task_block
from langgraph_compact.tokens import Budget
from langgraph_compact.usage import (
    ModelPrice,
    UsageLedger,
    add_usage,
    count_replies,
    summarizer_usage,
)

__all__ = ["SERDE_ALLOWLIST", "CompactAgentState", "CompactState", "CompactionNode", "Door"]

log = logging.getLogger(__name__)


class CompactionNode(RunnableLambda[Any, dict[str, Any]]):
    """Pre-model node: fold, summarize when over the trigger, verify, write the projection.

    A ``RunnableLambda`` with a sync and an async body, so it runs natively in ``invoke``
    and ``ainvoke`` graphs, as a ``StateGraph`` node or as ``create_react_agent``'s
    ``pre_model_hook``.

    Args:
        budget: the token budget (``Budget``), or full ``CompactionSettings``.
        messages_key: state key of the raw messages.
        summary_key: state key of the ``RunningSummary``.
        output_key: state key the projection is written to; ``llm_input_messages``
            matches ``create_react_agent``'s ``pre_model_hook`` contract.
        tasks_key: state key of the ``TaskList`` (``langgraph_compact.tasks``): the node
            reads new messages for task updates, writes the list when it changed, and
            shows it after the summary once there is one. None: no task list.
        anchor_key: state key of the fold anchor (``compaction.anchor``); None: the
            projection's window is placed afresh on every call (not cache-stable).
        usage_key: state key of the usage ledger (``langgraph_compact.usage``), updated
            on every call with the agent replies since the last one and the
            summarizer's calls; None: no ledger.
        prices: per-model prices (``ModelPrice``, by ``response_metadata["model_name"]``)
            for the ledger's ``cost``.
        tools: the agent's tools (or their schemas, or the model bound with them): their
            schemas are sent with every call, so they count toward the budget.
        calibrate: budget by the provider's count: the local count times the drift the
            agent's last reply reported (``langgraph_compact.calibrate``).
        memory: flush stable items of each committed summary to a ``BaseStore``
            (``langgraph_compact.memory.MemoryFlush``); off by default. A failing
            store is logged and the call goes on (raw history is not at stake).
        name: node name.
        **settings: any other ``CompactionSettings`` field (``counter``, ``summarizer``,
            ``policies``, ``keep_recent_tokens``, ``dedupe``, ...).

    With ``background`` (a setting; on by default for ``ChatModelSummarizer``) the next
    summary is prepared off the critical path (``compaction.background``); ``close()``
    stops its worker threads, ``node.background.counts`` says what candidates came to.

    The node emits a custom stream event ``{"compaction": stats}`` (``stream_mode=
    "custom"``): ``dataclasses.asdict`` of the call's ``CompactionStats``, with
    ``cacheable_prefix`` measured against the thread's previous projection.
    """

    def __init__(
        self,
        budget: Budget | CompactionSettings,
        *,
        messages_key: str = "messages",
        summary_key: str = "running_summary",
        output_key: str = "llm_input_messages",
        tasks_key: str | None = "tasks",
        anchor_key: str | None = "fold_anchor",
        usage_key: str | None = "usage",
        prices: Mapping[str, ModelPrice] | None = None,
        tools: Any = None,
        calibrate: bool = True,
        memory: MemoryFlush | None = None,
        name: str = "compact",
        **settings: Any,
    ) -> None:
        super().__init__(self._run, afunc=self._arun, name=name)
        base = budget if isinstance(budget, CompactionSettings) else CompactionSettings(budget)
        self.settings = replace(base, **settings) if settings else base
        self.messages_key = messages_key
        self.summary_key = summary_key
        self.output_key = output_key
        self.tasks_key = tasks_key
        self.anchor_key = anchor_key
        self.usage_key = usage_key
        self.prices = prices
        self.memory = memory
        self.calibrate = calibrate
        self.tool_tokens = tool_tokens(tools, self.settings.counter)
        self.calls = CallMemory()
        self.background = BackgroundCompactor(prices)

    def close(self) -> None:
        """Stop background compaction: cancel queued candidates, wait for running ones.

        Optional at exit: the workers are daemon threads, so a process ends without
        waiting for a candidate nobody will commit."""
        self.background.close()

    async def aclose(self) -> None:
        """Async twin of ``close``: waits for running candidates without blocking the loop."""
        await self.background.aclose()

    def __repr__(self) -> str:
        return f"CompactionNode({self.settings.budget!r}, name={self.name!r})"

    def _inputs(self, state: Any) -> tuple[list[BaseMessage], Any, Any]:
        get = state.get if isinstance(state, dict) else lambda k, d=None: getattr(state, k, d)
        messages = get(self.messages_key)
        if messages is None:
            raise CompactError(
                f"state has no {self.messages_key!r} key; pass messages_key= to CompactionNode"
            )
        anchor = get(self.anchor_key, None) if self.anchor_key else None
        return list(messages), get(self.summary_key, None), anchor

    def _task_state(
        self, state: Any, messages: list[BaseMessage], summary: Any
    ) -> tuple[TaskList | None, bool]:
        """The refreshed task list and whether it changed; None without a ``tasks_key``.

        Messages a summary covers were read on an earlier call, so reading starts no
        earlier than the summary's cursor: O(uncovered messages), like the fold.
        """
        if self.tasks_key is None:
            return None, False
        get = state.get if isinstance(state, dict) else lambda k, d=None: getattr(state, k, d)
        covered = getattr(summary, "covered_through", None)
        if covered is None and isinstance(summary, dict):
            covered = summary.get("covered_through")
        return refresh_tasks(get(self.tasks_key, None), messages, int(covered or 0))

    def _call_slot(self, key: Any, messages: Sequence[BaseMessage]) -> Any:
        """The call memory's slot: the thread, or else the conversation's opening too."""
        if key[0] is not None:
            return key
        first = next((i for i, m in enumerate(messages) if m.type == "human"), 0)
        return (*key, span_digest(messages[: first + 1], self.settings.counter.cache))

    def _update(
        self,
        result: CompactionResult,
        call: _Call,
        anchor: Any,
        raw: list[BaseMessage],
        usage: UsageLedger | None,
    ) -> dict[str, Any]:
        key, ratio, tasks = call.slot, call.ratio, call.tasks
        counter = self.settings.counter
        last = self.calls.last(key)
        digests = tuple(counter.cache.digest(m) for m in result.messages)
        tokens = counter.count_messages(result.messages)
        prefix = shared_prefix(last.digests, result.messages, counter) if last else 0
        self.calls.record(key, LastCall(digests, tokens + call.schemas, len(raw), ratio))
        stats = replace(
            result.stats,
            cacheable_prefix=round(prefix / tokens, 4) if tokens else 0.0,
            calibration=ratio,
            tool_tokens=call.schemas,
        )
        # Outside a graph run (the node invoked on its own) there is no stream to write to.
        with suppress(RuntimeError, KeyError):
            get_stream_writer()({"compaction": asdict(stats)})
        update: dict[str, Any] = {self.output_key: result.messages}
        if result.summary_changed:
            update[self.summary_key] = result.summary
        if self.anchor_key and result.anchor is not None and result.anchor != anchor:
            update[self.anchor_key] = result.anchor
        if usage is not None and self.usage_key:
            update[self.usage_key] = usage
        if tasks is not None and self.tasks_key is not None:
            update[self.tasks_key] = tasks
        return update

    def _usage(
        self, state: Any, messages: list[BaseMessage], summarizer: Mapping[str, Any]
    ) -> UsageLedger | None:
        """The ledger delta: agent replies since the last call plus the summarizer's calls."""
        if self.usage_key is None:
            return None
        get = state.get if isinstance(state, dict) else lambda k, d=None: getattr(state, k, d)
        delta = count_replies(get(self.usage_key, None), messages, self.prices)
        return add_usage(delta, UsageLedger(by=dict(summarizer))) if summarizer else delta

    @staticmethod
    def _key(config: RunnableConfig) -> Any:
        configurable = config.get("configurable") or {}
        # A node's namespace holds its task id ("compact:<uuid>"): keep the names only.
        ns = str(configurable.get("checkpoint_ns", ""))
        return configurable.get("thread_id"), "|".join(p.split(":")[0] for p in ns.split("|"))

    def _flushes(self, result: CompactionResult) -> bool:
        return self.memory is not None and result.summary_changed and result.stats.summarized

    def _flush_failed(self, config: RunnableConfig, exc: Exception) -> None:
        thread = (config.get("configurable") or {}).get("thread_id")
        log.warning("memory flush of thread %r failed; the run goes on: %s", thread, exc)

    def _run(
        self, state: Any, config: RunnableConfig, *, door: Door | None = None
    ) -> dict[str, Any]:
        messages, summary, anchor = self._inputs(state)
        call = self._prepare(state, config, messages, summary, door)
        with summarizer_usage(self.prices) as collector:
            result = self.background.compact(
                messages, summary, call.settings, key=call.key, blocks=call.blocks, anchor=anchor
            )
        if self.memory is not None and result.summary is not None and self._flushes(result):
            store = resolve_store(self.memory)
            try:
                self.memory.flush(store, result.summary, _summary(summary), config, messages)
            except Exception as exc:
                self._flush_failed(config, exc)
        usage = self._usage(state, messages, collector.by)
        return self._update(result, call, anchor, messages, usage)

    async def _arun(
        self, state: Any, config: RunnableConfig, *, door: Door | None = None
    ) -> dict[str, Any]:
        messages, summary, anchor = self._inputs(state)
        call = self._prepare(state, config, messages, summary, door)
        with summarizer_usage(self.prices) as collector:
            result = await self.background.acompact(
                messages, summary, call.settings, key=call.key, blocks=call.blocks, anchor=anchor
            )
        if self.memory is not None and result.summary is not None and self._flushes(result):
            store = resolve_store(self.memory)
            try:
                old = _summary(summary)
                await self.memory.aflush(store, result.summary, old, config, messages)
            except Exception as exc:
                self._flush_failed(config, exc)
        usage = self._usage(state, messages, collector.by)
        return self._update(result, call, anchor, messages, usage)

    def _prepare(
        self,
        state: Any,
        config: RunnableConfig,
        messages: list[BaseMessage],
        summary: Any,
        door: Door | None,
    ) -> _Call:
        """What both twins need before compacting: the task list (or the door's blocks),
        the thread key, and this call's calibrated settings."""
        tasks, changed = self._task_state(state, messages, summary)
        blocks = task_block(tasks) if door is None else list(door.blocks)
        key = self._key(config)
        schemas = self.tool_tokens if door is None else door.tool_tokens
        slot = self._call_slot(key, messages)
        ratio = next_ratio(messages, self.calls.last(slot)) if self.calibrate else 1.0
        settings = calibrated(self.settings, ratio, schemas)
        return _Call(tasks if changed else None, blocks, key, slot, ratio, schemas, settings)


class _Call(NamedTuple):
    """One call's inputs besides the state: see ``CompactionNode._prepare``."""

    tasks: TaskList | None
    """The task list to write back, when it changed."""
    blocks: list[BaseMessage]
    key: Any
    slot: Any
    ratio: float
    schemas: int
    settings: CompactionSettings


class Door(NamedTuple):
    """What another entry point (``CompactionMiddleware``) knows per call that the node
    is told once: the blocks to show after the summary and the tools' schema tokens."""

    blocks: Sequence[BaseMessage]
    tool_tokens: int


def _summary(value: Any) -> RunningSummary | None:
    """The stored summary as a ``RunningSummary`` (state may hold its dict)."""
    if value is None or isinstance(value, RunningSummary):
        return value
    return RunningSummary.model_validate(value)
