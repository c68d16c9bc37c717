"""The raw-history checkpointer: each message stored once, verified, searchable, redactable.

The Postgres savers import ``psycopg`` (the ``[postgres]`` extra) on first use.
"""

from typing import TYPE_CHECKING, Any

from langgraph_compact.checkpoint._api import CompactSaverBase
from langgraph_compact.checkpoint._features import RedactionListener
from langgraph_compact.checkpoint.aio import AsyncCompactSqliteSaver
from langgraph_compact.checkpoint.history import HistoryItem, HistoryPage, SummaryGeneration
from langgraph_compact.checkpoint.recall import make_recall_tool
from langgraph_compact.checkpoint.redact import RedactionResult
from langgraph_compact.checkpoint.sqlite import CompactSqliteSaver
from langgraph_compact.checkpoint.threads import RedactionRecord, ThreadInfo
from langgraph_compact.checkpoint.verify import Problem, VerifyReport

if TYPE_CHECKING:
    from langgraph_compact.checkpoint.postgres import CompactPostgresSaver
    from langgraph_compact.checkpoint.postgres_aio import AsyncCompactPostgresSaver

__all__ = [
    "AsyncCompactPostgresSaver",
    "AsyncCompactSqliteSaver",
    "CompactPostgresSaver",
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


def __getattr__(name: str) -> Any:
    if name == "CompactPostgresSaver":
        from langgraph_compact.checkpoint.postgres import CompactPostgresSaver

        return CompactPostgresSaver
    if name == "AsyncCompactPostgresSaver":
        from langgraph_compact.checkpoint.postgres_aio import AsyncCompactPostgresSaver

        return AsyncCompactPostgresSaver
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
