"""Run: the one I/O edge of compaction — the summarizer call — shared by sync and async.

``compact``/``acompact`` plan, call the summarizer at most once, accept its draft (or
fall back to extraction, logged), stamp coverage and lineage, and assemble. Only the
call itself differs between the twins. A summarizer that throws, hangs, times out or
returns garbage degrades to ``ExtractiveSummarizer``; it never blocks the agent, and a
hung call holds only its own thread, never a shared pool.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.anchor import FoldAnchor
from langgraph_compact.compaction.assemble import CompactionResult, SummarizerOutcome, assemble
from langgraph_compact.compaction.ground import ground_sections, request_pool
from langgraph_compact.compaction.plan import CompactionPlan, plan_compaction
from langgraph_compact.compaction.select import select_items
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.strike import evicted_values
from langgraph_compact.compaction.summarize import ExtractiveSummarizer, SummaryDraft
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.messages import span_digest

__all__ = [
    "acall_summarizer",
    "acompact",
    "call_summarizer",
    "compact",
    "finish_compaction",
    "read_answer",
    "stamp_summary",
]

log = logging.getLogger(__name__)


def compact(
    raw: Sequence[BaseMessage],
    summary: RunningSummary | Mapping[str, Any] | None,
    settings: CompactionSettings,
    *,
    blocks: Sequence[BaseMessage] = (),
    anchor: FoldAnchor | Mapping[str, Any] | None = None,
) -> CompactionResult:
    """The projection for ``raw``, calling the summarizer at most once.

    Args:
        raw: the raw messages (never modified).
        summary: the stored summary (a ``RunningSummary`` or its dict), or None.
        settings: the compaction settings.
        blocks: shown after the summary when there is one (see ``assemble``).
        anchor: the previous call's ``CompactionResult.anchor``: keeps the projection
            append-only between compaction events (``compaction.anchor``). None: the
            fold's window is placed afresh.

    Raises:
        MessageError: an entry is not a message, or a message has no id.
        ContextBudgetError: the projection cannot fit the budget (see ``assemble``).
    """
    plan = plan_compaction(raw, _coerce(summary), settings, anchor)
    answer = call_summarizer(plan, settings) if plan.request is not None else None
    return finish_compaction(plan, answer, settings, blocks=blocks)


async def acompact(
    raw: Sequence[BaseMessage],
    summary: RunningSummary | Mapping[str, Any] | None,
    settings: CompactionSettings,
    *,
    blocks: Sequence[BaseMessage] = (),
    anchor: FoldAnchor | Mapping[str, Any] | None = None,
) -> CompactionResult:
    """Async twin of ``compact``: only the summarizer call differs."""
    plan = plan_compaction(raw, _coerce(summary), settings, anchor)
    answer = await acall_summarizer(plan, settings) if plan.request is not None else None
    return finish_compaction(plan, answer, settings, blocks=blocks)


def _coerce(summary: RunningSummary | Mapping[str, Any] | None) -> RunningSummary | None:
    if summary is None or isinstance(summary, RunningSummary):
        return summary
    return RunningSummary.model_validate(summary)


def _timeout(settings: CompactionSettings) -> float | None:
    """The summarizer's time limit; extraction is local and fast, so it is not timed."""
    if isinstance(settings.summarizer, ExtractiveSummarizer):
        return None
    return settings.summarizer_timeout


def call_summarizer(plan: CompactionPlan, settings: CompactionSettings) -> object:
    """The summarizer's answer or the exception it raised; a ``TimeoutError`` when late.

    With a time limit the call runs in a thread of its own (with this context, so
    callbacks and config carry over). A call that never returns keeps only that thread;
    later calls start their own, so hung calls cannot starve the next one.
    """
    summarizer, request, timeout = settings.summarizer, plan.request, _timeout(settings)
    if timeout is None:
        try:
            return summarizer.summarize(request)  # type: ignore[arg-type]
        except Exception as exc:
            return exc
    box: list[object] = []
    context = contextvars.copy_context()

    def target() -> None:
        try:
            box.append(context.run(summarizer.summarize, request))  # type: ignore[arg-type]
        except BaseException as exc:
            box.append(exc)

    worker = threading.Thread(target=target, name="langgraph-compact-summarizer", daemon=True)
    worker.start()
    worker.join(timeout)
    if not box:
        return TimeoutError(f"no answer within {timeout} s (CompactionSettings.summarizer_timeout)")
    return box[0]


async def acall_summarizer(plan: CompactionPlan, settings: CompactionSettings) -> object:
    try:
        call = settings.summarizer.asummarize(plan.request)  # type: ignore[arg-type]
        return await asyncio.wait_for(call, _timeout(settings))
    except TimeoutError:
        timeout = _timeout(settings)
        return TimeoutError(f"no answer within {timeout} s (CompactionSettings.summarizer_timeout)")
    except Exception as exc:
        return exc


def read_answer(answer: object) -> tuple[SummaryDraft | None, str | None]:
    """The answer as a draft, or why it cannot be one."""
    if isinstance(answer, BaseException):
        return None, f"{type(answer).__name__}: {answer}"[:500]
    if isinstance(answer, RunningSummary):
        answer = SummaryDraft(answer.sections, path=answer.path)
    if not isinstance(answer, SummaryDraft):
        return None, f"summarizer returned {type(answer).__name__}, not a SummaryDraft"
    try:
        sections = {
            Section(s): tuple(SummaryItem.model_validate(i) for i in items)
            for s, items in answer.sections.items()
        }
    except (ValueError, TypeError, AttributeError) as exc:
        return None, f"summarizer returned malformed sections: {exc}"[:500]
    return SummaryDraft(sections, answer.path, answer.notes, answer.flagged), None


def finish_compaction(
    plan: CompactionPlan,
    answer: object,
    settings: CompactionSettings,
    *,
    blocks: Sequence[BaseMessage] = (),
) -> CompactionResult:
    """Accept the summarizer's answer (or fall back), stamp coverage, and assemble.

    Coverage and lineage are written here, never by the summarizer: ``head_end``,
    ``covered_through``, the last covered id, the span digest, the generation chain,
    the summarizer's name and path. A failed answer is logged and replaced by
    ``ExtractiveSummarizer``'s.
    """
    request = plan.request
    if request is None:
        return assemble(plan, None, settings, blocks=blocks)
    name = getattr(settings.summarizer, "name", type(settings.summarizer).__name__)
    draft, error = read_answer(answer)
    if draft is None:
        log.warning("summarizer %r failed, falling back to extraction: %s", name, error)
        draft = SummaryDraft(ExtractiveSummarizer().summarize(request).sections, "fallback")
        name = "extractive"
    if plan.stale_reason is not None:
        log.info("summary rebuilt from the head: %s", plan.stale_reason)
    summary = stamp_summary(plan, draft, settings, str(name), error)
    outcome = SummarizerOutcome(str(name), summary.path, error)
    return assemble(plan, summary, settings, outcome, blocks=blocks)


def stamp_summary(
    plan: CompactionPlan,
    draft: SummaryDraft,
    settings: CompactionSettings,
    name: str,
    error: str | None = None,
) -> RunningSummary:
    """The summary ``plan.request`` asked for: ``draft`` grounded in what the summarizer
    was given (``ground``), fitted to the cap, with coverage (head end, cursor, last id,
    span digest) and lineage stamped from the plan."""
    request = plan.request
    if request is None:
        raise ValueError("stamp_summary needs a plan with a summary request")
    covered = plan.raw[plan.head_end : request.covered_through]
    parent = plan.stored_generation
    bare = RunningSummary(
        head_end=plan.head_end,
        covered_through=request.covered_through,
        covers_head=plan.head_clipped,
        last_covered_id=covered[-1].id if covered else None,
        span_digest=span_digest(covered, settings.counter.cache),
        generation=parent + 1 if parent is not None else 1,
        parent_generation=parent,
        summarizer=name,
        path=f"fallback: {error}"[:200] if error else draft.path,
        rebuilt_reason=plan.stale_reason,
    )
    sections, flagged = ground_sections(draft.sections, request_pool(request))
    chosen = select_items(
        sections,
        settings.summary_cap,
        settings.counter.count_text,
        title=bare.title(),
        now=request.covered_through,
    )
    flagged = tuple(dict.fromkeys((*draft.flagged, *flagged)))
    earlier = request.previous.evicted if request.previous else ()
    update = {
        "sections": chosen.sections,
        "token_count": chosen.tokens,
        "flagged": flagged,
        "evicted": evicted_values(earlier, sections, chosen.sections),
    }
    return bare.model_copy(update=update)
