"""The compaction pipeline: cheap deterministic stages first, the summarizer last.

Stages (each a pure function over a message list, see DESIGN.md): :func:`clip_tool_outputs`,
:func:`dedupe_tool_reads`, :func:`prune_old_outputs`, :func:`detect_loops`, composed by
:func:`fold`; :func:`verify_projection` / :func:`repair_projection` guard the tool protocol.
"""

from langgraph_compact.compaction.clip import clip_args, clip_text, clip_tool_outputs
from langgraph_compact.compaction.compact import (
    CompactionPlan,
    CompactionResult,
    CompactionSettings,
    acompact,
    check_summary,
    compact,
    finish_compaction,
    plan_compaction,
)
from langgraph_compact.compaction.cut import find_cut_point, find_head_end, is_cut_point
from langgraph_compact.compaction.dedupe import dedupe_tool_reads
from langgraph_compact.compaction.llm import ChatModelSummarizer
from langgraph_compact.compaction.loops import LoopSignal, detect_loops, find_loops
from langgraph_compact.compaction.pipeline import FoldConfig, FoldResult, fold
from langgraph_compact.compaction.prune import protected_start, prune_old_outputs
from langgraph_compact.compaction.stage import StageResult, StageStats, marker_ref, marker_refs
from langgraph_compact.compaction.summarize import (
    ExtractiveSummarizer,
    Summarizer,
    SummaryRequest,
)
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.compaction.verify import (
    RepairResult,
    assert_tool_pairs_intact,
    protocol_violations,
    repair_projection,
    verify_projection,
)

__all__ = [
    "ChatModelSummarizer",
    "CompactionPlan",
    "CompactionResult",
    "CompactionSettings",
    "ExtractiveSummarizer",
    "FoldConfig",
    "FoldResult",
    "LoopSignal",
    "RepairResult",
    "RunningSummary",
    "Section",
    "StageResult",
    "StageStats",
    "Summarizer",
    "SummaryItem",
    "SummaryRequest",
    "acompact",
    "assert_tool_pairs_intact",
    "check_summary",
    "clip_args",
    "clip_text",
    "clip_tool_outputs",
    "compact",
    "dedupe_tool_reads",
    "detect_loops",
    "find_cut_point",
    "find_head_end",
    "find_loops",
    "finish_compaction",
    "fold",
    "is_cut_point",
    "marker_ref",
    "marker_refs",
    "plan_compaction",
    "protected_start",
    "protocol_violations",
    "prune_old_outputs",
    "repair_projection",
    "verify_projection",
]
