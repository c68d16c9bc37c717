"""The raw-history checkpointer: each message stored once, history, recall, redaction."""

from langgraph_compact.checkpoint._api import CompactSaverBase
from langgraph_compact.checkpoint.aio import AsyncCompactSqliteSaver
from langgraph_compact.checkpoint.history import HistoryItem, HistoryPage, SummaryGeneration
from langgraph_compact.checkpoint.recall import make_recall_tool
from langgraph_compact.checkpoint.redact import RedactionResult
from langgraph_compact.checkpoint.sqlite import CompactSqliteSaver

__all__ = [
    "AsyncCompactSqliteSaver",
    "CompactSaverBase",
    "CompactSqliteSaver",
    "HistoryItem",
    "HistoryPage",
    "RedactionResult",
    "SummaryGeneration",
    "make_recall_tool",
]
