"""Candidates of background compaction: when one is due, what it covers, whether it holds.

Pure functions over plans, used by ``compaction.background`` (which runs them): no
threads, no model calls.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field, replace

from langgraph_compact.compaction.assemble import CompactionResult
from langgraph_compact.compaction.llm import ChatModelSummarizer
from langgraph_compact.compaction.plan import CompactionPlan, check_summary, plan_compaction
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.messages import MessageCache, span_digest
from langgraph_compact.usage import UsageTotals

__all__ = [
    "MAX_CANDIDATES",
    "BackgroundCounts",
    "Candidate",
    "Parent",
    "background_enabled",
    "candidate_invalid",
    "candidate_plan",
    "parent_of",
    "with_candidate",
]

Parent = tuple[int | None, int, str | None, str]
"""The summary a candidate extends, (generation, covered_through, span digest), or (None,
head_end, None) without one; and the digest of the head it read (the first request)."""


MAX_CANDIDATES = 1_024
"""Finished candidates kept for threads that have not called again; the oldest go first."""


@dataclass
class BackgroundCounts:
    """What a compactor's candidates came to, since it was made."""

    started: int = 0
    committed: int = 0
    discarded: int = 0
    """Finished but invalid when consulted (edited, redacted, branched, generation moved)."""
    failed: int = 0
    """The summarizer raised, timed out or answered garbage; or the loop was closed."""
    busy: int = 0
    """Not started: ``background_workers`` candidates were running already."""


@dataclass
class Candidate:
    """A background summary: what it extends, its span, and how it landed."""

    parent: Parent
    span: tuple[int, int]
    done: bool = False
    summary: RunningSummary | None = None
    error: str | None = None
    usage: dict[str, UsageTotals] = field(default_factory=dict)
    landed: threading.Event = field(default_factory=threading.Event)
    task: asyncio.Task[None] | None = None
    """The task summarizing it (async graphs); None: a worker thread."""


def background_enabled(settings: CompactionSettings) -> bool:
    """``settings.background``, or by default: on for a model summarizer."""
    if settings.background is not None:
        return settings.background
    return isinstance(settings.summarizer, ChatModelSummarizer)


def parent_of(plan: CompactionPlan, cache: MessageCache | None = None) -> Parent:
    """What a candidate made after ``plan`` extends: its valid stored summary (or none),
    and the head: a summary's coverage digest starts after it."""
    s, head = plan.summary, span_digest(plan.raw[: plan.head_end], cache)
    if s is None:
        return None, plan.head_end, None, head
    return s.generation, s.covered_through, s.span_digest, head


def candidate_plan(plan: CompactionPlan, settings: CompactionSettings) -> CompactionPlan | None:
    """The plan of the candidate to start after ``plan``, or None when none is due.

    Due in the warning zone only: ``plan`` needs no summary, keeps a valid stored summary
    (or none), is not paused (anti-thrash) and is above ``background_threshold`` of the
    trigger (never below the target). The candidate's recent window is the one the trigger
    would keep, less the tokens still to come before the trigger: at commit time the
    verbatim tail is then about what a foreground event would have kept.
    """
    budget = settings.budget
    total = plan.tokens_before_summary
    warn = max(budget.target_tokens + 1, int(budget.trigger_tokens * settings.background_threshold))
    if plan.request is not None or plan.stale_reason or plan.paused_at is not None:
        return None
    if total < warn:
        return None
    keep = max(0, settings.recent_window(plan.head_tokens) - (budget.trigger_tokens - total))
    early = budget.model_copy(
        update={"trigger_fraction": (budget.target_tokens + 1) / budget.usable}
    )
    ahead = plan_compaction(
        plan.raw, plan.summary, replace(settings, budget=early, keep_recent_tokens=keep)
    )
    if ahead.request is None or ahead.body_start != plan.body_start:
        return None
    return ahead


def candidate_invalid(
    summary: RunningSummary, parent: Parent, plan: CompactionPlan, settings: CompactionSettings
) -> str | None:
    """Why a finished candidate (``summary``, extending ``parent``) may not be committed
    after ``plan``, or None: the compare-and-swap of background compaction."""
    now = parent_of(plan, settings.counter.cache)
    if parent[:3] != now[:3]:
        return (
            f"it extends generation {parent[0]} through {parent[1]}; the stored summary is "
            f"generation {now[0]} through {now[1]} now"
        )
    if parent[3] != now[3]:
        return "the head (system prompt or first request) changed since it was made"
    why = check_summary(summary, plan.raw, plan.head_end, settings.counter.cache)
    if why is None and plan.head_clipped and not summary.covers_head:
        why = "the first request is clipped now and the candidate does not carry it"
    return why


def with_candidate(
    result: CompactionResult,
    committed: RunningSummary | None,
    topped_up: bool,
    notes: tuple[str, ...],
    waited: bool = False,
) -> CompactionResult:
    """``result`` with what background compaction did; a committed candidate counts as the
    call's summary (``topped_up``: the call summarized the rest in the foreground;
    ``waited``: the call waited for the candidate to land)."""
    stats = replace(result.stats, background=notes)
    if waited:
        stats = replace(stats, waited_for_summarizer=True)
    if committed is not None and not topped_up:
        stats = replace(
            stats,
            summarized=True,
            summary_changed=True,
            summarizer=committed.summarizer,
            summarizer_path=committed.path,
            summary_source="background",
        )
        return replace(result, summary_changed=True, stats=stats)
    if committed is not None:
        stats = replace(stats, summary_source="background+foreground")
    return replace(result, stats=stats)
