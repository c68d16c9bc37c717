"""Plan, then act: the pure core of the compaction node, shared by sync and async.

``plan_compaction`` reads the raw messages and the current summary and decides
everything — head, fold, whether to summarize and up to where — without calling a
model. ``compact``/``acompact`` run the plan's single summarizer call (if any) and
``finish_compaction`` assembles and verifies the projection. Raw messages are never
modified; the projection is a new list.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_compact.compaction.clip import clip_text
from langgraph_compact.compaction.cut import find_cut_point, find_head_end, is_cut_point
from langgraph_compact.compaction.loops import LoopSignal, detect_loops
from langgraph_compact.compaction.pipeline import FoldConfig, fold
from langgraph_compact.compaction.summarize import (
    ExtractiveSummarizer,
    Summarizer,
    SummaryRequest,
)
from langgraph_compact.compaction.summary import FORMAT_VERSION, RunningSummary
from langgraph_compact.compaction.verify import protocol_violations, repair_projection
from langgraph_compact.errors import ContextBudgetError, ProtocolError
from langgraph_compact.messages import message_text, require_ids, span_digest
from langgraph_compact.policies import ToolPolicies
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = [
    "CompactionPlan",
    "CompactionResult",
    "CompactionSettings",
    "acompact",
    "check_summary",
    "compact",
    "finish_compaction",
    "plan_compaction",
]

MIN_CLIP_CHARS = 400
"""Below this, shrinking a tail message further would leave only its marker."""


@dataclass(frozen=True)
class CompactionSettings:
    """How the node compacts. ``budget`` is the only required setting.

    Attributes:
        budget: token budget; compaction runs above ``budget.trigger_tokens`` and
            compacts down to about ``budget.target_tokens``.
        counter: token counter (tiktoken ``o200k_base`` by default).
        policies: per-tool clip/prune policies for the fold stages.
        summarizer: the summarizer; ``ExtractiveSummarizer`` (no model) by default.
        keep_recent_tokens: verbatim tail budget after a compaction; default: what the
            target leaves after the head and the summary.
        summary_max_tokens: cap on the rendered summary; default a quarter of the target,
            at most 2,000.
        head_max_tokens: cap on the first request; longer ones are clipped (beginning and
            end kept) and their key items carried by the summary. Default: a quarter of
            the usable budget.
        protect_first_human: keep the first human message in the head.
        loop_note: append a short note to the projection when a doom loop is detected.
        summarizer_timeout: seconds to wait for a model summarizer before falling back to
            ``ExtractiveSummarizer`` (None: wait indefinitely). A slow summarizer must not
            block the agent; the deterministic one is never timed.
    """

    budget: Budget
    counter: TokenCounter = field(default_factory=TokenCounter)
    policies: ToolPolicies = field(default_factory=ToolPolicies)
    summarizer: Summarizer = field(default_factory=ExtractiveSummarizer)
    keep_recent_tokens: int | None = None
    summary_max_tokens: int | None = None
    head_max_tokens: int | None = None
    protect_first_human: bool = True
    loop_note: bool = True
    summarizer_timeout: float | None = 120.0

    @property
    def summary_cap(self) -> int:
        """Token cap of the rendered summary."""
        return self.summary_max_tokens or min(2_000, self.budget.target_tokens // 4)

    @property
    def head_cap(self) -> int:
        """Token cap of the clipped first request."""
        return self.head_max_tokens or self.budget.usable // 4


@dataclass(frozen=True)
class CompactionPlan:
    """What to send, before any summarizer runs. ``request`` is None when none is needed."""

    raw: Sequence[BaseMessage]
    head: list[BaseMessage]
    head_clipped: bool
    summary: RunningSummary | None
    """The summary to show (still valid, or None)."""
    body: list[BaseMessage]
    """Folded raw messages from ``body_start`` to the end."""
    body_start: int
    request: SummaryRequest | None
    cut: int
    loop_note: HumanMessage | None
    stats: dict[str, Any]
    clear_summary: bool = False
    """The stored summary is stale and no new one is needed: drop it from state."""


@dataclass(frozen=True)
class CompactionResult:
    """The projection, the summary to store (if it changed) and what happened."""

    messages: list[BaseMessage]
    summary: RunningSummary | None
    summary_changed: bool
    stats: dict[str, Any]


def check_summary(summary: RunningSummary, raw: Sequence[BaseMessage], head_end: int) -> str | None:
    """Why ``summary`` no longer matches ``raw`` (edited, redacted, branched), or None."""
    end = summary.covered_through
    if summary.format_version != FORMAT_VERSION:
        return f"summary format {summary.format_version} != {FORMAT_VERSION}"
    if summary.head_end != head_end:
        return f"head ends at {head_end}, summary expected {summary.head_end}"
    if end > len(raw) or end < head_end:
        return f"summary covers up to {end} but the thread has {len(raw)} messages"
    if end > head_end and raw[end - 1].id != summary.last_covered_id:
        found, expected = raw[end - 1].id, summary.last_covered_id
        return f"message {end - 1} is {found!r}, summary expected {expected!r}"
    if not is_cut_point(raw, end):
        return f"coverage ends inside a tool-call group at {end}"
    if span_digest(raw[head_end:end]) != summary.span_digest:
        return "covered messages changed (edited or redacted)"
    return None


def _clip_head(
    raw: Sequence[BaseMessage], head_end: int, settings: CompactionSettings
) -> tuple[list[BaseMessage], bool]:
    head = list(raw[:head_end])
    counter = settings.counter
    system_tokens = counter.count_messages([m for m in head if isinstance(m, SystemMessage)])
    if system_tokens > settings.budget.usable:
        raise ContextBudgetError(
            f"the system prompt alone is {system_tokens} tokens, over the usable budget of "
            f"{settings.budget.usable} by {system_tokens - settings.budget.usable}; shorten it "
            "or raise Budget.context_window"
        )
    if not head or isinstance(head[-1], SystemMessage):
        return head, False
    first = head[-1]
    cap = settings.head_cap
    if counter.count(first) <= cap:
        return head, False
    text = message_text(first)
    chars = max(MIN_CLIP_CHARS, int(len(text) * cap / counter.count(first)))
    clipped = first.model_copy(update={"content": clip_text(text, chars, first.id or "")})
    while counter.count(clipped) > cap and chars > MIN_CLIP_CHARS:
        chars = max(MIN_CLIP_CHARS, int(chars * 0.8))
        clipped = first.model_copy(update={"content": clip_text(text, chars, first.id or "")})
    head[-1] = clipped
    return head, True


def plan_compaction(
    raw: Sequence[BaseMessage], summary: RunningSummary | None, settings: CompactionSettings
) -> CompactionPlan:
    """Decide the projection and whether (and how far) to summarize. Pure; no model call.

    Raises:
        MessageError: a raw message has no id.
        ContextBudgetError: the system prompt alone exceeds the budget.
    """
    counter, budget = settings.counter, settings.budget
    head_end = find_head_end(raw, protect_first_human=settings.protect_first_human)
    require_ids(raw[:head_end])
    head, head_clipped = _clip_head(raw, head_end, settings)
    stats: dict[str, Any] = {"raw_messages": len(raw), "head_clipped": head_clipped}

    stale = None
    if summary is not None:
        reason = check_summary(summary, raw, head_end)
        if reason:
            stale, summary = summary, None
            stats["rebuilt_reason"] = reason
    start = summary.covered_through if summary else head_end
    # Covered messages were checked when the summary was made; an id lost since then
    # changes the span digest, and the rebuild starts at head_end.
    require_ids(raw[start:], start)
    keep = settings.keep_recent_tokens
    if keep is None:
        keep = max(0, budget.target_tokens - counter.count_messages(head) - settings.summary_cap)
    # The slice starts mid-conversation; protocol and budget are checked on the
    # assembled projection instead, so fold must not repair or verify the slice.
    config = FoldConfig(
        counter=counter,
        policies=settings.policies,
        protect_recent_tokens=keep,
        repair=False,
        verify=False,
    )
    folded = fold(raw[start:], config)
    if len(folded.messages) != len(raw) - start:
        raise AssertionError("fold must keep messages one-to-one")
    body = folded.messages
    stats["fold"] = {"tokens_before": folded.tokens_before, "tokens_after": folded.tokens_after}
    # Loops are judged on the raw history, not the folded slice: the slice starts at the
    # summary's cursor, which can cut a loop that is still going on.
    loop = detect_loops(raw)
    if loop is not None:
        stats["loop"] = {"signature": loop.signature[:300], "count": loop.count}
    note = _loop_note(loop, len(raw)) if settings.loop_note and loop else None

    summary_tokens = counter.count(summary.to_message()) if summary else 0
    note_tokens = counter.count(note) if note else 0
    total = counter.count_messages(head) + summary_tokens + folded.tokens_after + note_tokens
    stats["tokens_before_summary"] = total
    needs = total > budget.trigger_tokens or (head_clipped and summary is None)
    cut = start
    if needs:
        counts = [counter.count(m) for m in body]
        cut = start + find_cut_point(counts, raw[start:], 0, keep)
    request = None
    if needs and (cut > start or (summary is None and head_clipped)):
        base = summary or stale
        request = SummaryRequest(
            previous=summary,
            head=list(raw[:head_end]),
            span=list(raw[start:cut]),
            span_start=start,
            covered=list(raw[head_end:cut]),
            max_tokens=settings.summary_cap,
            count_text=counter.count_text,
            head_clipped=head_clipped,
            generation=base.generation + 1 if base else 1,
            parent_generation=base.generation if base else None,
            rebuilt_reason=stats.get("rebuilt_reason"),
        )
    stats["summarized"] = request is not None
    return CompactionPlan(
        raw=raw,
        head=head,
        head_clipped=head_clipped,
        summary=summary,
        body=body,
        body_start=start,
        request=request,
        cut=cut,
        loop_note=note,
        stats=stats,
        clear_summary=stale is not None and request is None,
    )


def _loop_note(loop: LoopSignal, n: int) -> HumanMessage:
    return HumanMessage(
        loop.note, id=f"loop-note-{n}", additional_kwargs={"langgraph_compact_note": "loop"}
    )


def finish_compaction(
    plan: CompactionPlan, new_summary: RunningSummary | None, settings: CompactionSettings
) -> CompactionResult:
    """Assemble head + summary + tail (+ loop note), repair, shrink to fit and verify.

    Raises:
        ContextBudgetError: the projection cannot fit ``budget.usable``; the message
            says which part is over and which setting to change.
        ProtocolError: the projection breaks the tool protocol even after repair.
    """
    stats = dict(plan.stats)
    summary = new_summary or plan.summary
    tail_start = new_summary.covered_through if new_summary else plan.body_start
    tail = plan.body[tail_start - plan.body_start :]
    middle = [summary.to_message()] if summary else []
    projection = [*plan.head, *middle, *tail, *([plan.loop_note] if plan.loop_note else [])]
    if protocol_violations(projection):
        repaired = repair_projection(projection)
        projection, stats["repairs"] = repaired.messages, list(repaired.repairs)
        if problems := protocol_violations(projection):
            raise ProtocolError("projection is invalid after repair: " + "; ".join(problems))
    fixed = len(plan.head) + len(middle)
    projection, shrunk = _shrink_to_fit(projection, fixed, plan.raw, settings)
    tokens = settings.counter.count_messages(projection)
    usable = settings.budget.usable
    if tokens > usable:
        head_tokens = settings.counter.count_messages(plan.head)
        summary_tokens = settings.counter.count_messages(middle)
        raise ContextBudgetError(
            f"projection is {tokens} tokens, over the usable budget of {usable} by "
            f"{tokens - usable} (head {head_tokens}, summary {summary_tokens}, tail "
            f"{tokens - head_tokens - summary_tokens}); lower head_max_tokens or "
            "summary_max_tokens, or raise Budget.context_window"
        )
    stats.update(
        tokens_after=tokens,
        messages_after=len(projection),
        shrunk=shrunk,
        summary_generation=summary.generation if summary else None,
        covered_through=summary.covered_through if summary else None,
    )
    changed = new_summary is not None or plan.clear_summary
    return CompactionResult(projection, summary, changed, stats)


def _shrink_to_fit(
    projection: list[BaseMessage],
    fixed: int,
    raw: Sequence[BaseMessage],
    settings: CompactionSettings,
) -> tuple[list[BaseMessage], int]:
    """Clip the largest tail messages harder until the projection fits (never drop one).

    Used when a single tail turn alone exceeds the tail budget: its outputs are cut
    from the raw original, head+tail with a marker and ref, halving until it fits.
    """
    counter, usable = settings.counter, settings.budget.usable
    out, shrunk = list(projection), 0
    if counter.count_messages(out) <= usable:
        return out, 0
    originals = {m.id: m for m in raw}
    while counter.count_messages(out) > usable:
        candidates = [
            i
            for i in range(fixed, len(out))
            if out[i].id in originals
            and isinstance(out[i].content, str)
            and len(message_text(out[i])) > 2 * MIN_CLIP_CHARS
        ]
        if not candidates:
            break
        i = max(candidates, key=lambda j: (counter.count(out[j]), j))
        original = originals[out[i].id]
        limit = len(message_text(out[i])) // 2
        clipped = clip_text(message_text(original), limit, original.id or "")
        out[i] = out[i].model_copy(update={"content": clipped})
        shrunk += 1
    return out, shrunk


def _accept(plan: CompactionPlan, candidate: object) -> RunningSummary:
    """The summary to commit: the summarizer's, or extraction when it failed or erred.

    ``candidate`` is what the summarizer returned, or the exception it raised. A failing
    summarizer degrades to ``ExtractiveSummarizer``; it never blocks the agent.
    """
    request = plan.request
    assert request is not None
    problem = None
    if isinstance(candidate, TimeoutError):
        problem = "summarizer timed out (CompactionSettings.summarizer_timeout)"
    elif isinstance(candidate, BaseException):
        problem = f"{type(candidate).__name__}: {candidate}"
    elif not isinstance(candidate, RunningSummary):
        problem = f"summarizer returned {type(candidate).__name__}"
    elif (candidate.head_end, candidate.covered_through) != (
        request.head_end,
        request.covered_through,
    ):
        problem = "summarizer returned the wrong coverage"
    if problem is not None or not isinstance(candidate, RunningSummary):
        plan.stats["summarizer_error"] = (problem or "")[:500]
        candidate = ExtractiveSummarizer().summarize(request)
    plan.stats["summarizer"] = candidate.summarizer
    return candidate


_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="langgraph-compact-summarizer")


def _timeout(settings: CompactionSettings) -> float | None:
    """The summarizer's time limit; extraction is local and fast, so it is not timed."""
    if isinstance(settings.summarizer, ExtractiveSummarizer):
        return None
    return settings.summarizer_timeout


def compact(
    raw: Sequence[BaseMessage], summary: RunningSummary | None, settings: CompactionSettings
) -> CompactionResult:
    """Compute the projection, calling the summarizer at most once."""
    plan = plan_compaction(raw, summary, settings)
    new = None
    if plan.request is not None:
        summarizer, request = settings.summarizer, plan.request
        timeout = _timeout(settings)
        try:
            if timeout is None:
                candidate: object = summarizer.summarize(request)
            else:  # in a worker thread, with this context (callbacks, config) copied
                context = contextvars.copy_context()
                future = _POOL.submit(context.run, summarizer.summarize, request)
                candidate = future.result(timeout=timeout)
        except Exception as exc:
            candidate = exc
        new = _accept(plan, candidate)
    return finish_compaction(plan, new, settings)


async def acompact(
    raw: Sequence[BaseMessage], summary: RunningSummary | None, settings: CompactionSettings
) -> CompactionResult:
    """Async twin of ``compact``: only the summarizer call differs."""
    plan = plan_compaction(raw, summary, settings)
    new = None
    if plan.request is not None:
        try:
            call = settings.summarizer.asummarize(plan.request)
            candidate: object = await asyncio.wait_for(call, _timeout(settings))
        except Exception as exc:
            candidate = exc
        new = _accept(plan, candidate)
    return finish_compaction(plan, new, settings)
