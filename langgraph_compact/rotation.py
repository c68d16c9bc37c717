"""Rotation: when summaries of summaries would drift, continue in a fresh child thread.

After many compactions a thread's summary is a summary of summaries: pinned items fill
it and new material is squeezed out. At a critical condition (``RotationPolicy``: a
summary generation, a drift signal, or a request the model made with the ``rotate``
tool) ``rotate``/``arotate`` start a child thread whose first message is a structured
hand-off — the final summary (rendered as the summary side reads it back, pins
included), the open tasks, the original request, and a pointer to the parent — and
link it to the parent in checkpoint metadata (``parent_thread_id``, ``root_thread_id``,
``rotation``). The parent thread is never written to: its raw history stays exactly as
it was, and ``langgraph_compact.lineage`` reads it back from the child.

Typical driver::

    policy = RotationPolicy(max_generations=6)
    graph.invoke(inputs, config)
    if policy.reason(graph.get_state(config).values, settings):
        config = rotate(graph, config, settings).config   # continue with the child
        graph.invoke(None, config)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, InjectedToolCallId, StructuredTool
from langgraph.types import Command

from langgraph_compact.compaction.cut import find_head_end
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summary import RunningSummary, render_sections
from langgraph_compact.errors import RotationError
from langgraph_compact.handoff import HANDOFF_KEY, afinal_summary, build_handoff, final_summary
from langgraph_compact.tasks import TaskList, coerce_tasks

__all__ = [
    "PARENT_KEY",
    "ROTATE_KEY",
    "RotationPolicy",
    "RotationResult",
    "arotate",
    "make_rotate_tool",
    "rotate",
]

PARENT_KEY = "parent_thread_id"
"""Checkpoint metadata key of a child thread naming its parent."""
ROTATE_KEY = "rotation_requested"
"""State key the ``rotate`` tool sets (to the model's reason)."""


@dataclass(frozen=True)
class RotationPolicy:
    """When a thread should rotate; ``reason`` says why, or None.

    Attributes:
        max_generations: rotate once the summary reached this generation.
        max_pinned_share: the drift signal: rotate once the items a summary never
            evicts (pinned and kept) take this share of the summary cap, leaving
            little room for anything new.
        on_request: honour the ``rotate`` tool (``ROTATE_KEY`` in state).
    """

    max_generations: int | None = 10
    max_pinned_share: float | None = 0.8
    on_request: bool = True

    def reason(
        self,
        state: Mapping[str, Any],
        settings: CompactionSettings | None = None,
        *,
        summary_key: str = "running_summary",
    ) -> str | None:
        """Why the thread in ``state`` should rotate now, or None."""
        if self.on_request and state.get(ROTATE_KEY):
            return f"requested: {str(state[ROTATE_KEY])[:200]}"
        value = state.get(summary_key)
        if value is None:
            return None
        summary = (
            value if isinstance(value, RunningSummary) else RunningSummary.model_validate(value)
        )
        if self.max_generations is not None and summary.generation >= self.max_generations:
            return f"summary generation {summary.generation} reached {self.max_generations}"
        if self.max_pinned_share is not None and settings is not None:
            fixed = {
                s: tuple(i for i in items if i.pinned or i.kept)
                for s, items in summary.sections.items()
            }
            tokens = settings.counter.count_text(render_sections(summary.title(), fixed))
            cap = settings.summary_cap
            if cap and tokens >= self.max_pinned_share * cap:
                share = tokens / cap
                return f"drift: items that are never evicted take {share:.0%} of the summary cap"
        return None


@dataclass(frozen=True)
class RotationResult:
    """The child thread a rotation started, and what it was started with."""

    config: RunnableConfig
    """Run the child with this config: its metadata links every checkpoint to the parent."""
    thread_id: str
    parent_thread_id: str
    parent_checkpoint_id: str | None
    rotation: int
    reason: str
    handoff: HumanMessage
    summary: RunningSummary | None
    tasks: TaskList


def _thread(config: RunnableConfig) -> str:
    thread = (config.get("configurable") or {}).get("thread_id")
    if thread is None:
        raise RotationError("rotate needs config['configurable']['thread_id'] of the parent")
    return str(thread)


def _rotation_of(metadata: Mapping[str, Any] | None, raw: Sequence[BaseMessage]) -> int:
    """How many rotations led to this thread (metadata first, then its hand-off)."""
    if metadata and isinstance(metadata.get("rotation"), int):
        return int(metadata["rotation"])
    for message in raw[:4]:
        meta = message.additional_kwargs.get(HANDOFF_KEY)
        if isinstance(meta, Mapping) and isinstance(meta.get("rotation"), int):
            return int(meta["rotation"])
    return 0


@dataclass(frozen=True)
class _Plan:
    result: RotationResult
    values: dict[str, Any]


def _raw(snapshot: Any, config: RunnableConfig, messages_key: str) -> list[BaseMessage]:
    raw = list((snapshot.values or {}).get(messages_key) or [])
    if not raw:
        raise RotationError(
            f"thread {_thread(config)!r} has no messages under {messages_key!r} to hand off"
        )
    return raw


def _plan(
    snapshot: Any,
    config: RunnableConfig,
    settings: CompactionSettings,
    reason: str,
    child_thread_id: str | None,
    keys: tuple[str, str, str],
    summary: RunningSummary | None,
) -> _Plan:
    messages_key, _, tasks_key = keys
    parent = _thread(config)
    values = snapshot.values or {}
    raw = _raw(snapshot, config, messages_key)
    metadata = dict(snapshot.metadata or {})
    rotation = _rotation_of(metadata, raw) + 1
    tasks = coerce_tasks(values.get(tasks_key))
    head_end = find_head_end(raw, protect_first_human=settings.protect_first_human)
    first = raw[head_end - 1] if head_end and raw[head_end - 1].type == "human" else None
    checkpoint = (snapshot.config.get("configurable") or {}).get("checkpoint_id")
    handoff = build_handoff(
        summary,
        tasks,
        parent_thread_id=parent,
        rotation=rotation,
        reason=reason,
        first_request=first,
        parent_checkpoint_id=checkpoint,
    )
    child = child_thread_id or f"{metadata.get('root_thread_id', parent)}~{rotation}"
    configurable = {
        k: v
        for k, v in (config.get("configurable") or {}).items()
        if k not in ("thread_id", "checkpoint_id", "checkpoint_ns")
    }
    child_config: RunnableConfig = {
        **{k: v for k, v in config.items() if k not in ("configurable", "metadata")},  # type: ignore[typeddict-item]
        "configurable": {**configurable, "thread_id": child},
        "metadata": {
            **(config.get("metadata") or {}),
            PARENT_KEY: parent,
            "parent_checkpoint_id": checkpoint or "",
            "root_thread_id": str(metadata.get("root_thread_id", parent)),
            "rotation": rotation,
        },
    }
    system = [m for m in raw[:head_end] if isinstance(m, SystemMessage)]
    # The child reads its own messages from the start; the tasks keep no parent cursor.
    child_tasks = TaskList(tasks=tasks.tasks)
    # A ``todos`` list (create_agent, deepagents) stays a list of dicts in the child.
    listed = isinstance(values.get(tasks_key), list)
    shown: Any = [{"content": t.content, "status": t.status} for t in tasks.tasks]
    child_values = {messages_key: [*system, handoff], tasks_key: shown if listed else child_tasks}
    result = RotationResult(
        config=child_config,
        thread_id=child,
        parent_thread_id=parent,
        parent_checkpoint_id=checkpoint,
        rotation=rotation,
        reason=reason,
        handoff=handoff,
        summary=summary,
        tasks=child_tasks,
    )
    return _Plan(result, child_values)


def _check_fresh(snapshot: Any, child: str) -> None:
    if snapshot.values or snapshot.metadata:
        raise RotationError(
            f"thread {child!r} already has checkpoints; pass another child_thread_id to rotate"
        )


def rotate(
    graph: Any,
    config: RunnableConfig,
    settings: CompactionSettings,
    *,
    reason: str = "rotation requested",
    child_thread_id: str | None = None,
    messages_key: str = "messages",
    summary_key: str = "running_summary",
    tasks_key: str = "tasks",
    as_node: str | None = None,
) -> RotationResult:
    """Start a child thread of ``config``'s thread from a hand-off; the parent is untouched.

    Args:
        graph: the compiled graph (with a checkpointer) the thread runs in.
        config: the parent's config (``thread_id``; other configurable keys such as a
            user id carry over to the child).
        settings: the compaction settings (summarizer, counter, cap) of the thread.
        reason: why (``RotationPolicy.reason``), written into the hand-off.
        child_thread_id: the child's id (default ``<root>~<rotation>``).
        as_node: passed to ``update_state`` for the child's first checkpoint.

    Returns:
        A ``RotationResult``; invoke the graph with its ``config`` to continue.

    Raises:
        RotationError: no thread id, no messages, or the child id is taken.
    """
    snapshot = graph.get_state(config)
    raw = _raw(snapshot, config, messages_key)
    summary = final_summary(raw, snapshot.values.get(summary_key), settings)
    keys = (messages_key, summary_key, tasks_key)
    plan = _plan(snapshot, config, settings, reason, child_thread_id, keys, summary)
    _check_fresh(graph.get_state(plan.result.config), plan.result.thread_id)
    graph.update_state(plan.result.config, plan.values, as_node=as_node)
    return plan.result


async def arotate(
    graph: Any,
    config: RunnableConfig,
    settings: CompactionSettings,
    *,
    reason: str = "rotation requested",
    child_thread_id: str | None = None,
    messages_key: str = "messages",
    summary_key: str = "running_summary",
    tasks_key: str = "tasks",
    as_node: str | None = None,
) -> RotationResult:
    """Async twin of ``rotate`` (the final summary uses the summarizer's async call)."""
    snapshot = await graph.aget_state(config)
    raw = _raw(snapshot, config, messages_key)
    summary = await afinal_summary(raw, snapshot.values.get(summary_key), settings)
    keys = (messages_key, summary_key, tasks_key)
    plan = _plan(snapshot, config, settings, reason, child_thread_id, keys, summary)
    _check_fresh(await graph.aget_state(plan.result.config), plan.result.thread_id)
    await graph.aupdate_state(plan.result.config, plan.values, as_node=as_node)
    return plan.result


def make_rotate_tool(*, name: str = "rotate") -> BaseTool:
    """A tool the model calls to ask for a fresh thread (sets ``ROTATE_KEY`` in state).

    The state schema needs a ``rotation_requested`` key (``CompactState`` has one); the
    driver sees it through ``RotationPolicy.reason`` and calls ``rotate``.
    """

    def request_rotation(
        reason: str, tool_call_id: Annotated[str, InjectedToolCallId]
    ) -> Command[Any]:
        message = ToolMessage(
            "Rotation requested: the conversation continues in a fresh thread from a "
            "hand-off after this turn.",
            tool_call_id=tool_call_id,
            name=name,
        )
        return Command(update={ROTATE_KEY: reason or "requested", "messages": [message]})

    return StructuredTool.from_function(
        func=request_rotation,
        name=name,
        description=(
            "Ask to continue this conversation in a fresh thread that starts from a "
            "hand-off (summary, open tasks, constraints). Use it when the context has "
            "drifted or been summarized many times. Give a one-line reason."
        ),
    )
