"""What the terminal tables, the PNG chart and the HTML inspector show, built once.

A ``ThreadView`` comes from a replay (``view_of_run``: the demo, ``replay``) or from a
database thread (``view_of_thread``: ``inspect``). ``compaction_stats`` is the one reader
of the node's ``{"compaction": stats}`` events, so a renamed stats field is a one-line
change here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from langgraph_compact.compaction import RunningSummary
from langgraph_compact.messages import message_text
from langgraph_compact.replay import ReplayRun

__all__ = [
    "CallPoint",
    "MessageRow",
    "ThreadView",
    "compaction_stats",
    "coverage_range",
    "mark_messages",
    "view_of_run",
]

PREVIEW_CHARS = 4_000
"""Characters of one message shown in the HTML; longer ones say how much is left out."""
_CLIP_RE = re.compile(r"omitted; ref=")


def compaction_stats(event: Any) -> dict[str, Any]:
    """The fields the reports use, from one ``{"compaction": stats}`` event payload."""
    is_instance = dataclasses.is_dataclass(event) and not isinstance(event, type)
    stats = dataclasses.asdict(event) if is_instance else dict(event)
    stages = dict(stats.get("stages") or {})
    fold = stats.get("fold") or {}
    if not stages and fold:
        stages = {"fold": int(fold.get("tokens_before", 0)) - int(fold.get("tokens_after", 0))}
    return {
        "raw_messages": stats.get("raw_messages"),
        "tokens_before_summary": stats.get("tokens_before_summary"),
        "tokens_after": stats.get("tokens_after"),
        "summarized": bool(stats.get("summarized")),
        "summarizer": stats.get("summarizer"),
        "summarizer_error": stats.get("summarizer_error"),
        "summary_generation": stats.get("summary_generation"),
        "covered_through": stats.get("covered_through"),
        "stages": {str(k): int(v) for k, v in stages.items()},
    }


def coverage_range(generation: Mapping[str, Any]) -> str:
    """The messages a generation covers, numbered from 1 as its summary message says."""
    head, through = generation.get("head_end"), generation.get("covered_through")
    if head is None or through is None:
        return f"?–{through}"
    if through <= head:  # nothing after the head: what it summarized is the head's clip
        return f"part of {head}"
    return f"{head + 1}–{through}" + (
        f" and part of {head}" if generation.get("covers_head") else ""
    )


@dataclass(frozen=True)
class CallPoint:
    """One model call on the chart."""

    raw_tokens: int
    projected_tokens: int | None
    event: bool


@dataclass(frozen=True)
class MessageRow:
    """One raw message as the inspector lists it."""

    index: int
    message_id: str
    role: str
    name: str
    text: str
    omitted_chars: int
    mark: str
    """head · summarized · clipped · pruned · deduped · verbatim · dropped · later
    (arrived after the last model call) · "" (no projection known)"""
    ref: str | None
    tool_calls: list[str]
    group: int
    """Tool pairs share a group: an AI message and the results of its calls."""


@dataclass
class ThreadView:
    """Everything one thread's report shows."""

    title: str
    thread_id: str
    source: str
    budget: int | None
    calls: list[CallPoint]
    summary: RunningSummary | None
    messages: list[MessageRow]
    generations: list[dict[str, Any]] = field(default_factory=list)
    stages: dict[str, int] = field(default_factory=dict)
    """Tokens each fold stage saved, summed over the run (when the events carry it)."""
    redactions: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    """The usage ledger's totals by tag: the agent's calls apart from the summarizer's."""

    @property
    def events(self) -> int:
        return sum(c.event for c in self.calls)


def mark_messages(
    raw: Sequence[BaseMessage],
    projection: Sequence[BaseMessage] | None,
    summary: RunningSummary | None,
) -> list[MessageRow]:
    """Rows for ``raw``, marked by what the projection (if known) did with each message."""
    shown = {m.id: m for m in projection or []}
    # messages after the last one the projection shows arrived after that model call
    upto = max((i + 1 for i, m in enumerate(raw) if m.id in shown), default=0)
    head_end = summary.head_end if summary else None
    covered = summary.covered_through if summary else 0
    rows: list[MessageRow] = []
    group = 0
    for i, m in enumerate(raw):
        if not isinstance(m, ToolMessage):
            group += 1
        text = message_text(m)
        if projection is not None and i >= upto:
            mark, ref = "later", None
        else:
            mark, ref = _mark(i, m, shown, head_end, covered, projection is not None)
        calls = [c["name"] for c in m.tool_calls] if isinstance(m, AIMessage) else []
        rows.append(
            MessageRow(
                index=i,
                message_id=str(m.id),
                role=m.type,
                name=str(getattr(m, "name", None) or ""),
                text=text[:PREVIEW_CHARS],
                omitted_chars=max(0, len(text) - PREVIEW_CHARS),
                mark=mark,
                ref=ref,
                tool_calls=calls,
                group=group,
            )
        )
    return rows


def _mark(
    i: int,
    m: BaseMessage,
    shown: Mapping[str | None, BaseMessage],
    head_end: int | None,
    covered: int,
    known: bool,
) -> tuple[str, str | None]:
    if not known:
        return ("summarized" if head_end is not None and head_end <= i < covered else ""), None
    seen = shown.get(m.id)
    if seen is None:
        return (
            "summarized" if head_end is not None and head_end <= i < covered else "dropped"
        ), None
    if head_end is not None and i < head_end:
        return "head", None
    text = message_text(seen)
    if text == message_text(m):
        return "verbatim", None
    if text.startswith("[pruned output"):
        return "pruned", str(m.id)
    if text.startswith("[superseded"):
        return "deduped", str(m.id)
    return ("clipped" if _CLIP_RE.search(text) else "changed"), str(m.id)


def view_of_run(run: ReplayRun, *, title: str, source: str) -> ThreadView:
    """The view of a replayed trajectory: the chart from every call, marks from the last."""
    stages: dict[str, int] = {}
    generations = []
    for event in map(compaction_stats, run.compactions):
        for name, saved in event["stages"].items():
            stages[name] = stages.get(name, 0) + saved
        if event["summarized"]:
            generations.append(
                {
                    "generation": event["summary_generation"],
                    "head_end": run.summary.head_end if run.summary else None,
                    "covers_head": run.summary.covers_head if run.summary else False,
                    "covered_through": event["covered_through"],
                    "summarizer": event["summarizer"],
                }
            )
    return ThreadView(
        title=title,
        thread_id=run.trajectory,
        source=source,
        budget=run.budget,
        calls=[CallPoint(c.raw_tokens, c.input_tokens, c.event) for c in run.calls],
        summary=run.summary,
        messages=mark_messages(run.final_messages, run.last_input, run.summary),
        generations=generations,
        stages=stages,
    )
