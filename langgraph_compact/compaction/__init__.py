"""The compaction pipeline: cheap deterministic stages first, the summarizer last.

Plan → one I/O edge → assemble: ``plan_compaction`` (pure) decides the head, the fold
of the uncovered part and the cut; ``compact``/``acompact`` make the one summarizer
call; ``assemble`` builds, repairs and fits the projection. The fold stages are pure
functions over a message list (see DESIGN.md): :func:`clip_tool_outputs`,
:func:`dedupe_tool_reads`, :func:`prune_old_outputs`, :func:`detect_loops`, composed by
:func:`fold`; :func:`verify_projection` / :func:`repair_projection` guard the tool
protocol. The summary side: :func:`extract_items` proposes candidates,
:func:`merge_items` merges them into the previous sections, :func:`select_items` fills
the cap by salience.
"""

from langgraph_compact.compaction.assemble import CompactionResult, CompactionStats, assemble
from langgraph_compact.compaction.clip import clip_args, clip_text, clip_tool_outputs
from langgraph_compact.compaction.cut import find_cut_point, find_head_end, is_cut_point
from langgraph_compact.compaction.dedupe import dedupe_tool_reads
from langgraph_compact.compaction.extract import extract_items
from langgraph_compact.compaction.fold import FoldResult, fold
from langgraph_compact.compaction.llm import ChatModelSummarizer
from langgraph_compact.compaction.loops import LoopSignal, detect_loops, find_loops
from langgraph_compact.compaction.merge import merge_items
from langgraph_compact.compaction.plan import CompactionPlan, check_summary, plan_compaction
from langgraph_compact.compaction.prune import protected_start, prune_old_outputs
from langgraph_compact.compaction.run import acompact, compact, finish_compaction
from langgraph_compact.compaction.select import select_items
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.stage import StageResult, StageStats, marker_ref, marker_refs
from langgraph_compact.compaction.summarize import (
    ExtractiveSummarizer,
    Summarizer,
    SummaryDraft,
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
    "CompactionStats",
    "ExtractiveSummarizer",
    "FoldResult",
    "LoopSignal",
    "RepairResult",
    "RunningSummary",
    "Section",
    "StageResult",
    "StageStats",
    "Summarizer",
    "SummaryDraft",
    "SummaryItem",
    "SummaryRequest",
    "acompact",
    "assemble",
    "assert_tool_pairs_intact",
    "check_summary",
    "clip_args",
    "clip_text",
    "clip_tool_outputs",
    "compact",
    "dedupe_tool_reads",
    "detect_loops",
    "extract_items",
    "find_cut_point",
    "find_head_end",
    "find_loops",
    "finish_compaction",
    "fold",
    "is_cut_point",
    "marker_ref",
    "marker_refs",
    "merge_items",
    "plan_compaction",
    "protected_start",
    "protocol_violations",
    "prune_old_outputs",
    "repair_projection",
    "select_items",
    "verify_projection",
]
