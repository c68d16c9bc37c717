"""langgraph-compact: keep long-running LangGraph agents inside their context window.

Two parts: a pre-model compaction node that computes what the model sees, and a
checkpointer that keeps every raw message exactly as written, stored once.
"""

from langgraph_compact.compaction import (
    ChatModelSummarizer,
    CompactionResult,
    CompactionSettings,
    ExtractiveSummarizer,
    FoldConfig,
    FoldResult,
    RunningSummary,
    Section,
    Summarizer,
    SummaryItem,
    SummaryRequest,
    acompact,
    compact,
    fold,
    plan_compaction,
    protocol_violations,
    repair_projection,
    verify_projection,
)
from langgraph_compact.errors import (
    CompactError,
    ContextBudgetError,
    MessageError,
    ProtocolError,
    SchemaVersionError,
    SummaryError,
)
from langgraph_compact.node import (
    SERDE_ALLOWLIST,
    CompactAgentState,
    CompactionNode,
    CompactState,
)
from langgraph_compact.policies import ToolMode, ToolPolicies, ToolPolicy
from langgraph_compact.tokens import Budget, TokenCounter, get_encoding

__all__ = [
    "SERDE_ALLOWLIST",
    "Budget",
    "ChatModelSummarizer",
    "CompactAgentState",
    "CompactError",
    "CompactState",
    "CompactionNode",
    "CompactionResult",
    "CompactionSettings",
    "ContextBudgetError",
    "ExtractiveSummarizer",
    "FoldConfig",
    "FoldResult",
    "MessageError",
    "ProtocolError",
    "RunningSummary",
    "SchemaVersionError",
    "Section",
    "Summarizer",
    "SummaryError",
    "SummaryItem",
    "SummaryRequest",
    "TokenCounter",
    "ToolMode",
    "ToolPolicies",
    "ToolPolicy",
    "acompact",
    "compact",
    "fold",
    "get_encoding",
    "plan_compaction",
    "protocol_violations",
    "repair_projection",
    "verify_projection",
]
