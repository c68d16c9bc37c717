"""langgraph-compact: keep long-running LangGraph agents inside their context window.

Two parts: a pre-model compaction node that computes what the model sees, and a
checkpointer that keeps every raw message exactly as written, stored once.

The top level holds what a graph needs; the fold stages and summary internals live in
``langgraph_compact.compaction``, the checkpointer in ``langgraph_compact.checkpoint``,
the ``create_agent`` middleware in ``langgraph_compact.middleware``, LangMem interop in
``langgraph_compact.interop`` and every error in ``langgraph_compact.errors``. Long lives:
the task list in ``langgraph_compact.tasks``, rotation to a child thread in
``langgraph_compact.rotation`` (hand-off in ``.handoff``, parent links and cross-thread
recall in ``.lineage``), long-term memory in ``langgraph_compact.memory``, and the
deepagents recipe in ``langgraph_compact.deep_agents``.
"""

from langgraph_compact.compaction import (
    ChatModelSummarizer,
    CompactionPlan,
    CompactionResult,
    CompactionSettings,
    CompactionStats,
    ExtractiveSummarizer,
    RunningSummary,
    Summarizer,
    acompact,
    compact,
    plan_compaction,
)
from langgraph_compact.errors import CompactError, ContextBudgetError
from langgraph_compact.node import CompactAgentState, CompactionNode, CompactState
from langgraph_compact.policies import ToolPolicies, ToolPolicy
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = [
    "Budget",
    "ChatModelSummarizer",
    "CompactAgentState",
    "CompactError",
    "CompactState",
    "CompactionNode",
    "CompactionPlan",
    "CompactionResult",
    "CompactionSettings",
    "CompactionStats",
    "ContextBudgetError",
    "ExtractiveSummarizer",
    "RunningSummary",
    "Summarizer",
    "TokenCounter",
    "ToolPolicies",
    "ToolPolicy",
    "acompact",
    "compact",
    "plan_compaction",
]
