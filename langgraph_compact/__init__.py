"""langgraph-compact: keep long-running LangGraph agents inside their context window.

Two parts: a pre-model compaction node that computes what the model sees, and a
checkpointer that keeps every raw message exactly as written, stored once.
"""

from langgraph_compact.errors import (
    CompactError,
    ContextBudgetError,
    MessageError,
    ProtocolError,
    SchemaVersionError,
    SummaryError,
)

__all__ = [
    "CompactError",
    "ContextBudgetError",
    "MessageError",
    "ProtocolError",
    "SchemaVersionError",
    "SummaryError",
]
