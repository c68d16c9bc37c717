"""deepagents recipe: ``CompactionMiddleware`` in place of deepagents' summarization.

``create_deep_agent`` installs a ``SummarizationMiddleware`` in the main agent and in the
general-purpose subagent; a middleware passed in ``middleware=[...]`` whose ``name`` is
``"SummarizationMiddleware"`` replaces it in place, in both. ``DeepAgentsCompaction`` is
our middleware under that name: the model sees our projection (clip, dedupe, prune, the
structured summary, the to-do list deepagents keeps in ``todos`` after the summary),
and the thread keeps every raw message.

deepagents stores ``messages`` in a ``DeltaChannel`` (each checkpoint holds only the new
messages); ``CompactDeepAgentState`` declares it with ``add_messages`` instead, so
``CompactSqliteSaver`` stores the list once as references and its history, recall and
redaction see every message. Requires ``pip install 'langgraph-compact[deepagents]'``.

Example::

    from deepagents import create_deep_agent
    from langgraph_compact.checkpoint import CompactSqliteSaver, make_recall_tool
    from langgraph_compact.deep_agents import CompactDeepAgentState, DeepAgentsCompaction

    saver = CompactSqliteSaver("agent.sqlite")
    agent = create_deep_agent(
        model,
        tools=[*my_tools, make_recall_tool(saver)],
        middleware=[DeepAgentsCompaction(Budget(context_window=200_000))],
        state_schema=CompactDeepAgentState,
        checkpointer=saver,
    )

``create_compact_deep_agent`` does exactly that in one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from deepagents import create_deep_agent
from deepagents.graph import DeepAgentState
from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from langgraph_compact.checkpoint import CompactSaverBase, make_recall_tool
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.middleware import CompactionMiddleware
from langgraph_compact.tokens import Budget

__all__ = [
    "SUMMARIZATION_NAME",
    "CompactDeepAgentState",
    "DeepAgentsCompaction",
    "create_compact_deep_agent",
]

SUMMARIZATION_NAME = "SummarizationMiddleware"
"""The name deepagents gives its summarization middleware (and replaces by)."""


class CompactDeepAgentState(DeepAgentState):
    """deepagents' state with ``messages`` under ``add_messages``: the raw-history saver
    stores and pages the whole list (deepagents' ``DeltaChannel`` keeps only deltas)."""

    messages: Annotated[list[AnyMessage], add_messages]


class DeepAgentsCompaction(CompactionMiddleware):
    """``CompactionMiddleware`` named so that ``create_deep_agent`` uses it instead of its
    own summarization (main agent and general-purpose subagent)."""

    @property
    def name(self) -> str:
        return SUMMARIZATION_NAME


def create_compact_deep_agent(
    model: Any,
    tools: Sequence[Any] = (),
    *,
    budget: Budget | CompactionSettings,
    checkpointer: Any = None,
    recall: bool = True,
    middleware: Sequence[Any] = (),
    **kwargs: Any,
) -> Any:
    """``create_deep_agent`` with our compaction, the raw-history state, and recall.

    Args:
        model: the chat model (or a ``provider:name`` string).
        tools: the agent's own tools.
        budget: the token budget, or full ``CompactionSettings``.
        checkpointer: the saver; with a compact saver and ``recall``, the recall tool is
            added to the tools.
        recall: add ``make_recall_tool(checkpointer)``.
        middleware: further middleware (after ours).
        **kwargs: passed to ``create_deep_agent`` (``system_prompt``, ``subagents``, ...).
    """
    extra = (
        [make_recall_tool(checkpointer)]
        if recall and isinstance(checkpointer, CompactSaverBase)
        else []
    )
    return create_deep_agent(
        model,
        tools=[*tools, *extra],
        middleware=[DeepAgentsCompaction(budget), *middleware],
        state_schema=kwargs.pop("state_schema", CompactDeepAgentState),
        checkpointer=checkpointer,
        **kwargs,
    )
