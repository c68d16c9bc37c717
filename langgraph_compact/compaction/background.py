"""Background compaction: the next summary prepared off the critical path, committed by CAS.

With a model summarizer a compaction event costs seconds between the user and the answer.
``BackgroundCompactor`` takes that call off the critical path:

1. **Start.** A call above ``background_threshold`` of the trigger, once the thread's pace
   says the trigger is near (``compaction.candidate``), starts a *candidate*: the summary
   the next event would commit, from a snapshot, in a worker thread of the compactor's
   pool, through the summarizer's sync ``summarize``, for sync and async graphs alike.
   Not a task on the caller's loop: ``asyncio.run(graph.ainvoke(...))`` per turn closes
   it after the turn and would cancel a paid call; nor a private loop, which would tie the
   model's async client to a loop of its own. A chat model's sync call is bound to none.
2. **Commit.** When a later call reaches the trigger, a finished candidate is committed
   only if it still holds — a compare-and-swap on the summary it extends (generation,
   cursor, digest) and on its own span (still a prefix of the history, same ids and
   digest). The call is then planned with the candidate as the stored summary; what
   arrived since the snapshot is summarized on top of it only if still over the trigger.
3. **Otherwise** the call waits for the candidate still running (``acompact`` without
   blocking the loop: the worker thread wakes it). With none running (a thread's first
   call over the budget, a burst before a candidate was due, every worker busy with other
   threads') and for a top-up, the local ``ExtractiveSummarizer`` stands in, in
   milliseconds (``background_stand_in``; off: the call waits for the model); the model's
   next candidate extends its summary, and lineage names who wrote each generation
   (``chat-model``, ``extractive``, ``chat-model+extractive``: ``compaction.step``).
   Candidates invalidated (edit, redaction, branch, moved generation) or failed are
   discarded: logged, counted, in the stats; never committed.

Bounded: one candidate per thread key (without a thread id, per key and head: stateless
callers resending histories), at most ``background_workers`` running, the summarizer
timeout holds in the worker, failures are never raised into the graph. Worker threads
are daemons: a process exits without waiting for a candidate (``close`` waits), and an
event loop closing under a running one does not touch it. Candidates live in memory: a
restart loses them, never raw data. A candidate's summarizer usage goes to the ledger
of the call that commits or discards it; of one evicted or closed, to ``unclaimed``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.anchor import FoldAnchor
from langgraph_compact.compaction.assemble import CompactionResult
from langgraph_compact.compaction.candidate import (
    MAX_CANDIDATES,
    BackgroundCounts,
    Candidate,
    Pace,
    background_enabled,
    candidate_invalid,
    candidate_plan,
    committed_plan,
    landed,
    moving_average,
    parent_of,
    read_candidate,
    slot_key,
)
from langgraph_compact.compaction.plan import CompactionPlan, plan_compaction
from langgraph_compact.compaction.run import acall_summarizer, call_summarizer
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.step import Step, finish_step, stand_in
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.compaction.workers import Workers
from langgraph_compact.usage import (
    ModelPrice,
    UsageLedger,
    UsageTotals,
    add_usage,
    record_usage,
    summarizer_usage,
)

__all__ = ["BackgroundCompactor"]

log = logging.getLogger(__name__)


class BackgroundCompactor:
    """``compact``/``acompact`` with candidates prepared off the critical path.

    With background off (``background_enabled``) it is exactly ``compact``/``acompact``.
    One compactor serves many threads (by ``key``); the node and the middleware own one.

    Args:
        prices: per-model prices for the usage of the candidates' summarizer calls.
    """

    def __init__(self, prices: Mapping[str, ModelPrice] | None = None) -> None:
        self.prices = prices
        self.counts = BackgroundCounts()
        self._slots: OrderedDict[Hashable, Candidate] = OrderedDict()
        self._lock = threading.Lock()
        self._pool: Workers | None = None
        self._paces: OrderedDict[Hashable, Pace] = OrderedDict()
        self.run_time: float | None = None  # seconds per candidate (moving average)
        self.unclaimed: UsageLedger = {}  # usage of candidates no call took (evicted, closed)

    def compact(
        self,
        raw: Sequence[BaseMessage],
        summary: RunningSummary | Mapping[str, Any] | None,
        settings: CompactionSettings,
        *,
        key: Hashable = None,
        blocks: Sequence[BaseMessage] = (),
        anchor: FoldAnchor | Mapping[str, Any] | None = None,
    ) -> CompactionResult:
        """Like ``compact``; commits a valid finished candidate, starts the next one."""
        step = self._prepare(raw, summary, settings, key, anchor)
        if step.running is not None:
            if step.running.landed.wait(settings.summarizer_timeout):
                step = self._prepare(raw, summary, settings, key, anchor, step.notes)
            step = replace(step, waited=True)  # whatever came of it: the call waited
        used = self._foreground(step, settings)
        answer = call_summarizer(step.plan, used) if step.plan.request is not None else None
        return finish_step(step, answer, used, blocks, local=used is not settings)

    async def acompact(
        self,
        raw: Sequence[BaseMessage],
        summary: RunningSummary | Mapping[str, Any] | None,
        settings: CompactionSettings,
        *,
        key: Hashable = None,
        blocks: Sequence[BaseMessage] = (),
        anchor: FoldAnchor | Mapping[str, Any] | None = None,
    ) -> CompactionResult:
        """Async twin of ``compact``: the same worker threads; waiting never blocks the loop."""
        step = self._prepare(raw, summary, settings, key, anchor)
        if step.running is not None:
            if await landed(step.running, settings.summarizer_timeout):
                step = self._prepare(raw, summary, settings, key, anchor, step.notes)
            step = replace(step, waited=True)
        plan, used = step.plan, self._foreground(step, settings)
        answer = await acall_summarizer(plan, used) if plan.request is not None else None
        return finish_step(step, answer, used, blocks, local=used is not settings)

    def _foreground(self, step: Step, settings: CompactionSettings) -> CompactionSettings:
        """Start the candidate ``step`` admitted; the settings the call summarizes with:
        the local stand-in's (counted) where ``stand_in`` says so, else ``settings``."""
        if step.ahead is not None:
            self._start(*step.ahead, settings)
        local = stand_in(step, settings)
        if local is None:
            return settings
        with self._lock:
            self.counts.stand_in += 1
        return local

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the running candidates have landed (False on timeout); async: ``drain``."""
        return all(found.landed.wait(timeout) for found in self._running())

    async def drain(self, timeout: float | None = None) -> bool:
        """``wait`` without blocking the loop: the worker threads wake it as they land."""
        running = self._running()
        return all(await asyncio.gather(*(landed(found, timeout) for found in running)))

    def close(self, wait: bool = True) -> None:
        """Cancel queued candidates and stop the worker threads (after the running ones
        finish, with ``wait``). Pending candidates are dropped (counted as failed): later
        calls start anew; a running one's usage, when it lands, goes to ``unclaimed``."""
        pool = self._stop()
        if pool is not None:
            pool.shutdown(wait=wait)

    async def aclose(self) -> None:
        """``close`` that waits for the running candidates without blocking the loop."""
        pool = self._stop()
        if pool is not None:
            pool.shutdown(wait=False)
            await asyncio.to_thread(pool.join)

    def _running(self) -> list[Candidate]:
        with self._lock:
            return [found for found in self._slots.values() if not found.done]

    def _stop(self) -> Workers | None:
        """Drop every candidate (the unfinished ones fail) and detach the worker pool."""
        with self._lock:
            pool, self._pool = self._pool, None
            dropped = list(self._slots.values())
            for found in dropped:
                self._unclaim(found.usage)
                if not found.done:
                    self.counts.failed += 1
                    found.error, found.done = "closed before it finished", True
            self._slots.clear()
        for found in dropped:
            found.land()
        return pool

    def _prepare(
        self,
        raw: Sequence[BaseMessage],
        summary: RunningSummary | Mapping[str, Any] | None,
        settings: CompactionSettings,
        key: Hashable,
        anchor: FoldAnchor | Mapping[str, Any] | None,
        waited: list[str] | None = None,
    ) -> Step:
        """Plan the call; ``waited``: the notes so far, after waiting for a candidate."""
        if summary is not None and not isinstance(summary, RunningSummary):
            summary = RunningSummary.model_validate(summary)
        plan = plan_compaction(raw, summary, settings, anchor)
        notes = [*(waited or ()), *(["waited for the running candidate"] if waited else [])]
        if not background_enabled(settings):
            return Step(plan, None, None, notes)
        key = slot_key(key, plan, settings.counter.cache)
        found = self._settle(key, plan, settings, notes)
        running = self._slots.get(key) if plan.request is not None and waited is None else None
        # A running one that landed since ``_settle`` looked is waited for too (at once),
        # so the next plan commits it rather than a stand-in racing past it.
        if found is None and running is not None:
            extends = running.parent == parent_of(plan, settings.counter.cache)
            return Step(plan, None, None, notes, running if extends else None)
        if plan.request is not None and found is not None:
            plan = committed_plan(plan, found, settings)
        with self._lock:
            pace = self._paces.setdefault(key, Pace())
            self._paces.move_to_end(key)
            while len(self._paces) > MAX_CANDIDATES:  # threads long gone: forget the oldest
                self._paces.popitem(last=False)
        pace.observe(plan.tokens_before_summary, time.monotonic())
        eta = pace.seconds_to(settings.budget.trigger_tokens)
        due = plan.request is None and key not in self._slots
        ahead = candidate_plan(plan, settings, eta, self.run_time) if due else None
        started = self._admit(key, ahead, settings, notes) if ahead is not None else None
        begun = (ahead, started) if ahead and started else None
        return Step(plan, found, begun, notes, waited=found is not None and waited is not None)

    def _settle(
        self, key: Hashable, plan: CompactionPlan, settings: CompactionSettings, notes: list[str]
    ) -> RunningSummary | None:
        """The key's finished candidate when valid and due (``plan`` reached the trigger).

        A finished invalid (or failed) one is dropped here, counted and noted; a valid one
        is kept until the trigger; a running one is left alone.
        """
        with self._lock:
            found = self._slots.get(key)
            if found is None:
                return None
            if not found.done:
                notes.append(f"candidate of {found.span[0]}..{found.span[1]} running")
                return None
            why = candidate_invalid(found, plan, settings)
            if why is None and plan.request is None:
                return None
            del self._slots[key]
            if found.error is not None:
                self.counts.failed += 1
            elif why is not None:
                self.counts.discarded += 1
            else:
                self.counts.committed += 1
        record_usage(found.usage)
        if why is not None:
            log.info("background candidate of %r discarded: %s", key, why)
            notes.append(f"discarded: {why}"[:300])
            return None
        notes.append(f"committed: generation {found.summary.generation if found.summary else 0}")
        return found.summary

    def _admit(
        self, key: Hashable, ahead: CompactionPlan, settings: CompactionSettings, notes: list[str]
    ) -> Candidate | None:
        """The key's new candidate, registered; None when the key has one already or
        ``background_workers`` candidates are running."""
        request = ahead.request
        if request is None:
            return None
        span = (request.span_start, request.covered_through)
        with self._lock:
            if key in self._slots:
                return None
            if sum(not c.done for c in self._slots.values()) >= settings.background_workers:
                self.counts.busy += 1
                notes.append("busy: not started")
                return None
            found = self._slots[key] = Candidate(parent_of(ahead, settings.counter.cache), span)
            done = [k for k, c in self._slots.items() if c.done]
            for old in done[: max(0, len(self._slots) - MAX_CANDIDATES)]:
                self._unclaim(self._slots.pop(old).usage)
            self.counts.started += 1
        notes.append(f"started: candidate of {span[0]}..{span[1]}")
        return found

    def _unclaim(self, usage: Mapping[str, UsageTotals]) -> None:
        if usage:
            self.unclaimed = add_usage(self.unclaimed, UsageLedger(by=dict(usage)))

    def _start(self, ahead: CompactionPlan, found: Candidate, settings: CompactionSettings) -> None:
        with self._lock:
            if found.done:  # closed between ``_admit`` and here: nothing to run
                return
            if self._pool is None:
                self._pool = Workers(settings.background_workers, "langgraph-compact-background")
                weakref.finalize(self, self._pool.shutdown, wait=False)  # idle threads end
            pool = self._pool
        # A fresh context: the call's run (callbacks, stream) is over before this is done.
        work = contextvars.Context().run
        pool.submit(lambda: work(self._work, found, ahead, settings), lambda: self._ended(found))

    def _work(self, found: Candidate, ahead: CompactionPlan, settings: CompactionSettings) -> None:
        started = time.monotonic()
        with summarizer_usage(self.prices) as usage:
            answer = call_summarizer(ahead, settings)
        self._land(found, ahead, answer, settings, usage.by, started)

    def _ended(self, found: Candidate) -> None:
        """A candidate's job is over: if it never landed, it was dropped from the queue
        (``close``) or its work raised (a bug, logged): it counts as failed."""
        with self._lock:
            if not found.done:
                found.error, found.done = "its worker ended without an answer", True
        found.land()

    def _land(
        self,
        found: Candidate,
        ahead: CompactionPlan,
        answer: object,
        settings: CompactionSettings,
        usage: Mapping[str, UsageTotals],
        started: float,
    ) -> None:
        """Stamp the answer into the candidate (or record why not); never raises."""
        self.run_time = moving_average(self.run_time, time.monotonic() - started)
        summary, error = read_candidate(ahead, answer, settings)
        with self._lock:
            if found.done:  # closed: nobody will consume it
                self._unclaim(usage)
                return
            found.summary, found.error, found.usage = summary, error, dict(usage)
            found.done = True
        found.land()
