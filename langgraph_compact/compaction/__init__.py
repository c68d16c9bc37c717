"""The compaction pipeline: cheap deterministic stages first, the summarizer last."""

from langgraph_compact.compaction.clip import clip_args, clip_text, clip_tool_outputs
from langgraph_compact.compaction.stage import StageResult, StageStats, marker_ref, marker_refs

__all__ = [
    "StageResult",
    "StageStats",
    "clip_args",
    "clip_text",
    "clip_tool_outputs",
    "marker_ref",
    "marker_refs",
]
