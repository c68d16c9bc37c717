"""Plan: decide the projection and whether (and up to where) to summarize, without a model.

``plan_compaction`` reads the raw messages and the current summary and decides everything
— the head and its clip, the fold of the uncovered part, the loop signal, whether to
summarize and where the verbatim tail begins. It is pure: the one I/O edge, the
summarizer call, happens in ``compact``/``acompact``; ``assemble`` then builds the
projection from the plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_compact.compaction.anchor import FoldAnchor, anchored_window, pause_note
from langgraph_compact.compaction.clip import clip_text
from langgraph_compact.compaction.cut import find_cut_point, find_head_end, is_cut_point
from langgraph_compact.compaction.fold import FoldResult, fold
from langgraph_compact.compaction.loops import LoopSignal, detect_loops
from langgraph_compact.compaction.readback import rendered_summaries
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summarize import SummaryRequest
from langgraph_compact.compaction.summary import FORMAT_VERSION, RunningSummary
from langgraph_compact.errors import ContextBudgetError
from langgraph_compact.messages import MessageCache, check_messages, message_text, span_digest

__all__ = [
    "MIN_CLIP_CHARS",
    "CompactionPlan",
    "check_summary",
    "clip_first_request",
    "plan_compaction",
]

MIN_CLIP_CHARS = 240
"""Below this, shrinking a message further would leave little more than its marker."""


@dataclass(frozen=True)
class CompactionPlan:
    """What to send, before any summarizer runs. ``request`` is None when none is needed.

    Attributes:
        raw: the raw messages (never modified).
        head_end: index just past the protected head.
        head: the head as shown (the first request possibly clipped).
        head_tokens: tokens of ``head``.
        head_clipped: the first request is clipped in the projection.
        summary: the stored summary, when it still matches the raw history.
        stale_reason: why the stored summary was dropped (edited, redacted, branched).
        body_start: first raw index after the summary's coverage (or the head).
        fold: the fold of ``raw[body_start:]`` (messages one-to-one, with token counts).
        cut: where the verbatim tail starts if the request is committed.
        request: the summarizer's input, or None.
        loop: the doom loop the agent is in now, judged on the raw history.
        loop_note: the note appended to the projection while the loop goes on.
        summary_tokens: tokens of the stored summary's message (0 without one).
        tokens_before_summary: head + stored summary + folded body + note.
        stored_generation: generation of the stored summary, valid or stale (lineage).
        anchor: raw index where the verbatim window starts (``compaction.anchor``).
        refolded: the fold moved its anchor on this call (a compaction event).
        declined: a compaction event was due but would free less than
            ``min_compaction_gain``, so the projection stayed as it was.
        weak: consecutive summaries so far that freed little (anti-thrash).
        paused_at: raw index where summarizing was paused, while it is.
    """

    raw: Sequence[BaseMessage]
    head_end: int
    head: tuple[BaseMessage, ...]
    head_tokens: int
    head_clipped: bool
    summary: RunningSummary | None
    stale_reason: str | None
    body_start: int
    fold: FoldResult
    cut: int
    request: SummaryRequest | None
    loop: LoopSignal | None
    loop_note: HumanMessage | None
    summary_tokens: int
    tokens_before_summary: int
    stored_generation: int | None = None
    anchor: int = 0
    seen: int = 0
    refolded: bool = False
    declined: bool = False
    weak: int = 0
    paused_at: int | None = None

    @property
    def clear_summary(self) -> bool:
        """The stored summary is stale and no new one is being made: drop it from state."""
        return self.stale_reason is not None and self.request is None


def check_summary(
    summary: RunningSummary,
    raw: Sequence[BaseMessage],
    head_end: int,
    cache: MessageCache | None = None,
) -> str | None:
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
    if span_digest(raw[head_end:end], cache) != summary.span_digest:
        return "covered messages changed (edited or redacted)"
    return None


def clip_first_request(
    first: BaseMessage, cap: int, settings: CompactionSettings, *, read_back: bool = True
) -> BaseMessage:
    """``first`` clipped head+tail (with a marker and ref) to at most ``cap`` tokens, when
    it can be; never below ``MIN_CLIP_CHARS`` characters. ``read_back``: the summary
    carries what the clip leaves out, so a summary inside it is left out whole."""
    counter = settings.counter
    tokens = counter.count(first)
    if tokens <= cap:
        return first
    text = message_text(first)
    # A summary inside it (a hand-off) is read back item by item: the clip leaves it out
    # whole rather than showing half of it, whose other half a later parse would misread.
    inside = rendered_summaries(text) if read_back else []
    around = (inside[0][0], inside[-1][1]) if inside else None
    chars = max(MIN_CLIP_CHARS, int(len(text) * cap / tokens))

    def clipped_to(chars: int) -> BaseMessage:
        return first.model_copy(update={"content": clip_text(text, chars, first.id or "", around)})

    clipped = clipped_to(chars)
    while counter.count(clipped) > cap and chars > MIN_CLIP_CHARS:
        chars = max(MIN_CLIP_CHARS, int(chars * 0.8))
        clipped = clipped_to(chars)
    # The same copy object on every call keeps its digest and count cached.
    return counter.cache.copy(first, {"content": clipped.content})


def _head(
    raw: Sequence[BaseMessage], head_end: int, settings: CompactionSettings, *, first: bool
) -> tuple[tuple[BaseMessage, ...], bool]:
    """The head as shown, and whether its first request is clipped. Before the first
    summary (``first``) a whole history under the trigger keeps its first request whole,
    however long: a hand-off, a pasted brief, a previous session's projection come back
    as one message, and clipping what fits would only lose what it says. The first
    compaction event clips it to ``head_cap`` and summarizes what the clip left out."""
    head = list(raw[:head_end])
    usable = settings.budget.usable
    system = settings.counter.count_messages([m for m in head if isinstance(m, SystemMessage)])
    if system > usable:
        raise ContextBudgetError(
            f"the system prompt alone is {system} tokens, over the usable budget of {usable} "
            f"by {system - usable}; shorten it or raise Budget.context_window"
        )
    if first:
        check_messages(raw[head_end:], head_end)  # counted next: a non-message says so
    fits = first and settings.counter.count_messages(raw) <= settings.budget.trigger_tokens
    if head and not isinstance(head[-1], SystemMessage) and not fits:
        head[-1] = clip_first_request(head[-1], settings.head_cap, settings)
    return tuple(head), bool(head) and head[-1] is not raw[head_end - 1]


def plan_compaction(
    raw: Sequence[BaseMessage],
    summary: RunningSummary | dict[str, object] | None,
    settings: CompactionSettings,
    anchor: FoldAnchor | Mapping[str, Any] | None = None,
) -> CompactionPlan:
    """Decide the projection and whether (and how far) to summarize. Pure; no model call.

    Algorithm:
        Fold the uncovered messages with the verbatim window frozen at ``anchor``
        (``compaction.anchor``). Under the trigger that is the projection: append-only
        since the last event. Otherwise (or without a valid anchor) fold again with the
        window where ``keep_recent_tokens`` puts it now and, if still over the trigger,
        cut for the summarizer. An event freeing less than ``min_compaction_gain`` of
        the usable budget is declined while the frozen projection still fits.

    Raises:
        MessageError: an entry is not a message, or a message has no id.
        ContextBudgetError: the system prompt alone exceeds the budget.
    """
    if summary is not None and not isinstance(summary, RunningSummary):
        summary = RunningSummary.model_validate(summary)
    counter, budget = settings.counter, settings.budget
    head_end = find_head_end(raw, protect_first_human=settings.protect_first_human)
    check_messages(raw[:head_end])
    head, head_clipped = _head(raw, head_end, settings, first=summary is None)
    head_tokens = counter.count_messages(head)
    stale_reason = None
    stored = summary
    if summary is not None:
        stale_reason = check_summary(summary, raw, head_end, counter.cache)
        if stale_reason is None and head_clipped and not summary.covers_head:
            stale_reason = "the first request is clipped now and the summary does not carry it"
        if stale_reason is not None:
            summary = None
    start = summary.covered_through if summary else head_end
    # Covered messages were checked when the summary was made; an id lost since then
    # changes the span digest, and the rebuild starts at head_end. Without a stored
    # summary ``_head`` has checked them already.
    if stored is not None:
        check_messages(raw[start:], start)
    keep = settings.recent_window(head_tokens)
    window = anchored_window(anchor, raw, start)
    weak, paused_at = _thrash(anchor, window, raw, settings)
    loop = detect_loops(raw, settings.loop_threshold)
    note = _loop_note(loop, len(raw)) if settings.loop_note and loop else None
    if note is None and paused_at is not None:
        resume = int(settings.thrash_resume * budget.usable)
        note = pause_note(paused_at, settings.thrash_events, settings.thrash_min_saving, resume)
    summary_tokens = counter.count(summary.to_message()) if summary else 0
    note_tokens = counter.count(note) if note else 0
    fixed = head_tokens + summary_tokens + note_tokens
    carry_head = head_clipped and summary is None
    folded = _fold(raw, start, settings, keep, window)
    total = fixed + folded.tokens_after
    needs = refolded = declined = False
    cut, seen = start, window[1] if window else len(raw)
    if window is None or total > budget.trigger_tokens or carry_head:
        kept, kept_total = folded, total
        if window is not None:
            folded = _fold(raw, start, settings, keep, None)
            total = fixed + folded.tokens_after
        refolded, seen = True, len(raw)
        # A pause (anti-thrash) holds while the projection still fits the budget.
        paused = paused_at is not None and total <= budget.usable
        needs = (total > budget.trigger_tokens and not paused) or carry_head
        if needs:
            cut = start + find_cut_point(folded.counts, raw[start:], 0, keep)
        after = total
        if needs and cut > start:
            after -= sum(folded.counts[: cut - start]) + summary_tokens - settings.summary_cap
        if (
            window is not None
            and not carry_head
            and kept_total <= budget.usable
            and kept_total - after < settings.min_compaction_gain * budget.usable
        ):
            folded, total, cut, seen = kept, kept_total, start, window[1]
            needs, refolded, declined = False, False, True
    request = None
    if needs and (cut > start or (summary is None and head_clipped)):
        request = SummaryRequest(
            previous=summary,
            head=list(raw[:head_end]),
            span=list(raw[start:cut]),
            span_start=start,
            max_tokens=settings.summary_cap,
            count_text=counter.count_text,
            head_clipped=head_clipped,
            shown_head=head,
        )
    if request is not None and paused_at is not None and note is not None:
        note = None if note.additional_kwargs.get("langgraph_compact_note") == "pause" else note
    return CompactionPlan(
        raw=raw,
        head_end=head_end,
        head=head,
        head_tokens=head_tokens,
        head_clipped=head_clipped,
        summary=summary,
        stale_reason=stale_reason if stored is not None else None,
        body_start=start,
        fold=folded,
        cut=cut,
        request=request,
        loop=loop,
        loop_note=note,
        summary_tokens=summary_tokens,
        tokens_before_summary=total,
        stored_generation=stored.generation if stored is not None else None,
        anchor=max(cut, start + folded.protected_from),
        seen=seen,
        refolded=refolded,
        declined=declined,
        weak=weak,
        paused_at=paused_at if request is None else None,
    )


def _thrash(
    anchor: Mapping[str, Any] | None,
    window: tuple[int, int] | None,
    raw: Sequence[BaseMessage],
    settings: CompactionSettings,
) -> tuple[int, int | None]:
    """``(weak summaries so far, where summarizing was paused)``: the pause lasts until
    ``thrash_resume`` of the usable budget in new tokens has arrived."""
    if anchor is None or window is None:
        return 0, None
    weak, paused_at = int(anchor.get("weak", 0)), anchor.get("paused_at")
    if paused_at is None or not 0 <= int(paused_at) <= len(raw):
        return weak, None
    arrived = settings.counter.count_messages(raw[int(paused_at) :])
    resumed = arrived >= settings.thrash_resume * settings.budget.usable
    return (0, None) if resumed else (weak, int(paused_at))


def _fold(
    raw: Sequence[BaseMessage],
    start: int,
    settings: CompactionSettings,
    keep: int,
    window: tuple[int, int] | None,
) -> FoldResult:
    """The fold of ``raw[start:]`` frozen at ``window = (index, seen)``, or decided now
    with the window ``keep`` gives; protocol, budget and loops are checked by the
    caller on the whole projection, so fold does none of them."""
    protected_from, decided = (None, len(raw)) if window is None else window
    return fold(
        raw[start:],
        settings,
        keep_recent_tokens=keep,
        head_end=0,
        repair=False,
        verify=False,
        loops=False,
        protected_from=None if protected_from is None else protected_from - start,
        decided=decided - start,
    )


def _loop_note(loop: LoopSignal, n: int) -> HumanMessage:
    return HumanMessage(
        loop.note, id=f"loop-note-{n}", additional_kwargs={"langgraph_compact_note": "loop"}
    )
