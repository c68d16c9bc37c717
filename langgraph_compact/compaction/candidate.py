"""Candidates of background compaction: when one is due, what it covers, whether it holds.

Data and decisions for ``compaction.background`` (which runs the candidates): when one
is due, what it covers, whether it still holds; no model calls here.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Hashable
from contextlib import suppress
from dataclasses import dataclass, field, replace

from langgraph_compact.compaction.llm import ChatModelSummarizer
from langgraph_compact.compaction.plan import CompactionPlan, check_summary, plan_compaction
from langgraph_compact.compaction.run import read_answer, stamp_summary
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.messages import MessageCache, span_digest
from langgraph_compact.usage import UsageTotals

__all__ = [
    "LEAD",
    "MAX_CANDIDATES",
    "BackgroundCounts",
    "Candidate",
    "Pace",
    "Parent",
    "background_enabled",
    "candidate_invalid",
    "candidate_plan",
    "committed_plan",
    "landed",
    "moving_average",
    "parent_of",
    "read_candidate",
    "slot_key",
]

log = logging.getLogger(__name__)

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
    """The summarizer raised, timed out or answered garbage; or it was closed first."""
    busy: int = 0
    """Not started: ``background_workers`` candidates were running already."""
    stand_in: int = 0
    """Foreground summaries the local summarizer wrote instead of waiting for the model
    (``background_stand_in``): no candidate was ready, none being due yet or the
    workers being busy with other threads' (``busy``)."""


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
    wakers: list[Callable[[], None]] = field(default_factory=list, repr=False)
    """Event loops awaiting it (``landed``): called once it lands, from the worker thread."""

    def land(self) -> None:
        """Set ``landed`` and wake the loops awaiting it; from any thread, idempotent."""
        self.landed.set()
        wakers, self.wakers = tuple(self.wakers), []  # a snapshot: waiters may leave meanwhile
        for wake in wakers:
            wake()


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


LEAD = 3.0
"""A candidate starts once the trigger is expected within this many summarizer runs."""


def moving_average(old: float | None, new: float, weight: float = 0.3) -> float:
    """An exponential moving average: ``new`` weighs ``weight``."""
    return new if old is None else (1 - weight) * old + weight * new


@dataclass
class Pace:
    """How fast one thread's projection grows and how often it calls (moving averages):
    a candidate started too early leaves more in the tail, one started too late is not
    ready at the trigger."""

    at: float | None = None
    total: int = 0
    growth: float | None = None
    """Tokens the projection gains per call (calls that shrank it are skipped)."""
    interval: float | None = None
    """Seconds between two calls."""

    def observe(self, total: int, now: float) -> None:
        if self.at is not None:
            self.interval = moving_average(self.interval, now - self.at)
            if total >= self.total:
                self.growth = moving_average(self.growth, total - self.total)
        self.at, self.total = now, total

    def seconds_to(self, tokens: int) -> float | None:
        """When the projection should reach ``tokens``; None before it was seen to grow."""
        if not self.growth or self.interval is None:
            return None
        return max(0, tokens - self.total) / self.growth * self.interval


def candidate_plan(
    plan: CompactionPlan,
    settings: CompactionSettings,
    eta: float | None = None,
    run_time: float | None = None,
) -> CompactionPlan | None:
    """The plan of the candidate to start after ``plan``, or None when none is due.

    Due in the warning zone only: ``plan`` needs no summary, keeps a valid stored summary
    (or none), is not paused (anti-thrash) and is above ``background_threshold`` of the
    trigger (never below the target); and, once the thread's pace (``eta``: seconds to the
    trigger) and the summarizer's ``run_time`` are known, not before the trigger is
    within ``LEAD`` runs: later means a smaller tail left at the commit, so fewer events.
    The candidate's recent window is the one the trigger would keep, less the tokens still
    to come before the trigger: at commit the verbatim tail is then about what a
    foreground event would keep.
    """
    budget = settings.budget
    total = plan.tokens_before_summary
    warn = max(budget.target_tokens + 1, int(budget.trigger_tokens * settings.background_threshold))
    if plan.request is not None or plan.stale_reason or plan.paused_at is not None:
        return None
    if total < warn or (eta is not None and run_time is not None and eta > LEAD * run_time):
        return None
    keep = max(0, settings.recent_window(plan.head_tokens) - (budget.trigger_tokens - total))
    # Cut once the snapshot's fold, with that smaller window, is over the target; under
    # it a candidate would cover too little yet: a later call starts it.
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
    found: Candidate, plan: CompactionPlan, settings: CompactionSettings
) -> str | None:
    """Why a finished candidate may not be committed after ``plan`` (or kept for a later
    trigger), or None: the compare-and-swap of background compaction.

    Kept only while it still helps: once committing it would leave the projection over
    the trigger (too much arrived since its snapshot), it is dropped and a new one is
    started when due.
    """
    summary, parent = found.summary, found.parent
    if found.error is not None or summary is None:
        return f"failed: {found.error}"
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
    tail = sum(plan.fold.counts[max(0, summary.covered_through - plan.body_start) :])
    after = plan.head_tokens + summary.token_count + tail
    if why is None and plan.request is None and after > settings.budget.trigger_tokens:
        why = f"stale: committed now it would leave {after} tokens, over the trigger"
    return why


def read_candidate(
    ahead: CompactionPlan, answer: object, settings: CompactionSettings
) -> tuple[RunningSummary | None, str | None]:
    """A candidate's summary from its summarizer's ``answer``, or why not (logged)."""
    name = getattr(settings.summarizer, "name", type(settings.summarizer).__name__)
    summary, error = None, None
    try:
        draft, error = read_answer(answer)
        if draft is not None:
            summary = stamp_summary(ahead, draft, settings, str(name))
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"[:500]
    if error is not None:
        log.warning("background summarizer %r failed; the trigger will not use it: %s", name, error)
    return summary, error


def committed_plan(
    plan: CompactionPlan, found: RunningSummary, settings: CompactionSettings
) -> CompactionPlan:
    """The plan of a call at the trigger once candidate ``found`` is its stored summary.

    The fold is placed afresh after it. It was never stored, so what the call stores is
    one step from the stored summary (its ``parent_generation``, which the saver's
    compare-and-swap checks); anti-thrash state (``weak``, a pause) carries over.
    """
    again = plan_compaction(plan.raw, found, settings)
    paused_at = plan.paused_at if again.request is None else None
    return replace(
        again, stored_generation=found.parent_generation, weak=plan.weak, paused_at=paused_at
    )


def slot_key(key: Hashable, plan: CompactionPlan, cache: MessageCache | None = None) -> Hashable:
    """The candidate slot of a call: ``key``; without a thread id (``key`` None, or a tuple
    holding None) also the head's digest, so conversations resent by a stateless caller
    do not share (and keep discarding) one candidate."""
    if key is None or (isinstance(key, tuple) and None in key):
        return key, span_digest(plan.raw[: plan.head_end], cache)
    return key


async def landed(found: Candidate, timeout: float | None) -> bool:
    """Wait for a running candidate without blocking the loop; False on timeout.

    Its worker thread wakes this loop (``Candidate.land``); no thread waits on its behalf,
    so a wait cancelled with its loop leaves nothing behind for the loop's shutdown.
    """
    loop = asyncio.get_running_loop()
    woken: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        with suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_resolve, woken)

    found.wakers.append(wake)
    try:
        if not found.landed.is_set():  # set before the append: no wake will come
            await asyncio.wait({woken}, timeout=timeout)
    finally:
        with suppress(ValueError):
            found.wakers.remove(wake)
    return found.landed.is_set()


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
