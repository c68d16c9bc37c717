"""Replays of recorded runs through real graphs, one context strategy at a time.

``replay_trajectory`` drives one trajectory through one ``Strategy`` (ours, LangMem,
LangChain's middleware, ``trim_messages``, the full history) and measures every model
input; ``replay_all`` adds up many; ``run_demo`` is the command-line demo's run on the
checkpointer. The summarizer model of a replay is a deterministic stand-in
(``TailSummaryModel``): nothing here calls a paid API.
"""

from langgraph_compact.replay.compare import ReplayTotals, replay_all
from langgraph_compact.replay.harness import CallRecord, ReplayRun, coverage_gap, replay_trajectory
from langgraph_compact.replay.models import SUMMARY_TOKENS, CountingSummarizer, TailSummaryModel
from langgraph_compact.replay.strategies import (
    DEFAULT_STRATEGIES,
    STRATEGIES,
    Strategy,
    StrategyUnavailable,
    budget_of,
    make_strategy,
)

__all__ = [
    "DEFAULT_STRATEGIES",
    "STRATEGIES",
    "SUMMARY_TOKENS",
    "CallRecord",
    "CountingSummarizer",
    "ReplayRun",
    "ReplayTotals",
    "Strategy",
    "StrategyUnavailable",
    "TailSummaryModel",
    "budget_of",
    "coverage_gap",
    "make_strategy",
    "replay_all",
    "replay_trajectory",
]
