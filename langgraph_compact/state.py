"""Graph state schemas for compaction: the keys the node and the other doors read and write.

``CompactState`` for your own ``StateGraph``, ``CompactAgentState`` for the prebuilt
``create_react_agent``; ``CompactionMiddleware`` declares its own (``middleware``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, NotRequired, TypedDict

from langchain_core.messages import AnyMessage, BaseMessage
from langgraph.channels.untracked_value import UntrackedValue
from langgraph.graph.message import add_messages
from langgraph.managed import RemainingSteps

from langgraph_compact.compaction.anchor import FoldAnchor
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.tasks import TaskList
from langgraph_compact.usage import UsageLedger, add_usage

__all__ = ["SERDE_ALLOWLIST", "CompactAgentState", "CompactState"]

SERDE_ALLOWLIST = (
    ("langgraph_compact.compaction.summary", "RunningSummary"),
    ("langgraph_compact.tasks", "TaskList"),
    ("langgraph_compact.tasks", "Task"),
)
"""Msgpack allowlist entry for ``RunningSummary``. Graphs whose state declares
``running_summary: RunningSummary`` (or ``tasks: TaskList``) get it from ``compile()`` in
LangGraph's strict mode;
pass it yourself (``JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)``) to
silence the "unregistered type" warning of the default, non-strict mode."""


class CompactState(TypedDict, total=False):
    """Graph state for agents with compaction; extend it with your own keys.

    ``llm_input_messages`` is an ``UntrackedValue``: recomputed every call and never
    written to the checkpoint, so the projection does not grow the database. ``tasks``
    holds the task list (``langgraph_compact.tasks``) and ``rotation_requested`` the
    reason the ``rotate`` tool gave (``langgraph_compact.rotation``). ``fold_anchor``
    is where the projection's verbatim window starts (``compaction.anchor``): it keeps
    the projection append-only, and cacheable, between compaction events. ``usage`` is
    the thread's usage ledger (``langgraph_compact.usage``): tokens and cost of the
    agent's and the summarizer's calls, apart from what the context holds.
    """

    messages: Annotated[list[AnyMessage], add_messages]
    running_summary: RunningSummary | None
    tasks: TaskList | None
    rotation_requested: str | None
    fold_anchor: FoldAnchor | None
    usage: Annotated[UsageLedger, add_usage]
    llm_input_messages: Annotated[list[AnyMessage], UntrackedValue]


class CompactAgentState(TypedDict):
    """``create_react_agent`` state with compaction: use with ``pre_model_hook=CompactionNode``.

    The fields of the prebuilt agent's state (``messages``, ``remaining_steps``) plus the
    summary and the projection; it does not extend LangGraph's deprecated ``AgentState``.
    For new agents prefer ``langchain.agents.create_agent`` with
    ``langgraph_compact.middleware.CompactionMiddleware``.

    Example::

        agent = create_react_agent(
            model, tools, pre_model_hook=CompactionNode(budget), state_schema=CompactAgentState
        )
    """

    messages: Annotated[Sequence[BaseMessage], add_messages]
    remaining_steps: NotRequired[RemainingSteps]
    running_summary: NotRequired[RunningSummary | None]
    tasks: NotRequired[TaskList | None]
    fold_anchor: NotRequired[FoldAnchor | None]
    usage: NotRequired[Annotated[UsageLedger, add_usage]]
    llm_input_messages: NotRequired[Annotated[list[AnyMessage], UntrackedValue]]
