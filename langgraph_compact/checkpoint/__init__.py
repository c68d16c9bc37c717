"""The raw-history checkpointer: each message stored once, verified, searchable, redactable."""

from langgraph_compact.checkpoint._api import CompactSaverBase
from langgraph_compact.checkpoint._features import RedactionListener
from langgraph_compact.checkpoint.aio import AsyncCompactSqliteSaver
from langgraph_compact.checkpoint.history import HistoryItem, HistoryPage, SummaryGeneration
from langgraph_compact.checkpoint.recall import make_recall_tool
from langgraph_compact.checkpoint.redact import RedactionResult
from langgraph_compact.checkpoint.sqlite import CompactSqliteSaver
from langgraph_compact.checkpoint.threads import RedactionRecord, ThreadInfo
from langgraph_compact.checkpoint.verify import Problem, VerifyReport

__all__ = [
    "AsyncCompactSqliteSaver",
    "CompactSaverBase",
    "CompactSqliteSaver",
    "HistoryItem",
    "HistoryPage",
    "Problem",
    "RedactionListener",
    "RedactionRecord",
    "RedactionResult",
    "SummaryGeneration",
    "ThreadInfo",
    "VerifyReport",
    "make_recall_tool",
]
