"""Assemble: head + one summary message (+ blocks) + verbatim tail (+ loop note), fitted.

The last pure step. It builds the projection from the plan and the summary to show,
repairs a raw history that already broke the tool protocol (in the projection only),
and brings the result under the usable budget by shrinking, in this order, what may be
shrunk: the tail (its largest messages clipped harder, never dropped), the first
request's clip, the summary's unpinned items. Only when the system prompt, the pinned
items and the least of the rest still do not fit does it raise ``ContextBudgetError``,
naming what takes how many tokens.

A summary stating a value that a later human message in view corrects is shown without
it (``strike_corrected``). Blocks (e.g. ``langgraph_compact.tasks``'s task list) are the
one hook for state the model must keep seeing after a compaction: right after the summary
message, only when there is one, counted in the budget like everything else.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage, SystemMessage

from langgraph_compact.compaction.anchor import FoldAnchor, anchor_at
from langgraph_compact.compaction.clip import clip_args, clip_text
from langgraph_compact.compaction.plan import CompactionPlan, clip_first_request
from langgraph_compact.compaction.select import refit_summary
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.strike import strike_corrected
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.compaction.verify import protocol_violations, repair_projection
from langgraph_compact.errors import ContextBudgetError, ProtocolError
from langgraph_compact.messages import message_text

__all__ = ["CompactionResult", "CompactionStats", "assemble"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CompactionStats:
    """What one call of the node did; the ``compaction`` stream event is its ``asdict``.

    Token fields follow the fold stages' convention (``tokens_before``/``tokens_after``):
    ``tokens_unfolded`` is the raw uncovered part before folding, ``tokens_folded`` the
    same part after, ``tokens_before`` the projection before summarizing and
    ``tokens_after`` the projection sent. ``stages`` holds the tokens each fold stage
    saved; ``shrunk`` what had to be shrunk to fit, in order.
    """

    raw_messages: int
    messages_after: int
    tokens_unfolded: int
    tokens_folded: int
    tokens_before: int
    tokens_after: int
    head_tokens: int
    summary_tokens: int
    tail_tokens: int
    head_clipped: bool
    summarized: bool
    summary_changed: bool
    summarizer: str | None = None
    summarizer_path: str | None = None
    summarizer_error: str | None = None
    summary_generation: int | None = None
    covered_through: int | None = None
    rebuilt_reason: str | None = None
    loop: dict[str, object] | None = None
    stages: dict[str, int] = field(default_factory=dict)
    repairs: tuple[str, ...] = ()
    shrunk: tuple[str, ...] = ()
    block_tokens: int = 0
    """Tokens of the blocks shown after the summary (the task list)."""
    anchor: int = 0
    """Raw index where the verbatim window starts (``compaction.anchor``)."""
    refolded: bool = False
    """The anchor moved: a compaction event rewrote folded messages."""
    declined: bool = False
    """An event was due but freed less than ``min_compaction_gain``: projection kept."""
    paused: bool = False
    """Summarizing is paused: the last summaries freed too little (anti-thrash)."""
    cacheable_prefix: float | None = None
    """Share of the input tokens in leading messages identical to the previous call's
    projection (set by the node, which sees consecutive calls; None elsewhere)."""
    calibration: float = 1.0
    """Provider's count / local count the budget was scaled by (``calibrate``)."""
    tool_tokens: int = 0
    """Tokens of the tool schemas, taken off the budget."""
    summary_source: str | None = None
    """Who wrote the summary committed on this call: ``foreground`` (this call ran the
    summarizer), ``background`` (a candidate prepared earlier, ``compaction.background``),
    ``background+foreground`` (a candidate, then the rest in this call); with
    ``background_stand_in``, ``stand-in`` and ``background+stand-in`` where the local
    summarizer wrote this call's part instead of the model; None: no commit."""
    waited_for_summarizer: bool = False
    """This call waited for a model's answer (its own summarizer call, or a running
    candidate)."""
    background: tuple[str, ...] = ()
    """What background compaction did on this call (started, committed, discarded: why)."""


@dataclass(frozen=True)
class CompactionResult:
    """The projection, the summary to store (if it changed) and what happened."""

    messages: list[BaseMessage]
    summary: RunningSummary | None
    summary_changed: bool
    stats: CompactionStats
    anchor: FoldAnchor | None = None
    """The fold anchor to keep for the next call."""


@dataclass(frozen=True)
class SummarizerOutcome:
    """How the summarizer call went, for the stats."""

    name: str
    path: str
    error: str | None = None


def assemble(
    plan: CompactionPlan,
    new_summary: RunningSummary | None,
    settings: CompactionSettings,
    outcome: SummarizerOutcome | None = None,
    *,
    blocks: Sequence[BaseMessage] = (),
) -> CompactionResult:
    """Build, repair, fit and verify the projection.

    Args:
        blocks: messages shown right after the summary, when there is one (counted).

    Raises:
        ContextBudgetError: the projection cannot fit ``budget.usable`` even after
            shrinking; the message says which part takes how many tokens.
        ProtocolError: the projection breaks the tool protocol even after repair.
    """
    counter = settings.counter
    summary = new_summary or plan.summary
    changed = new_summary is not None or plan.clear_summary
    offset = (new_summary.covered_through if new_summary else plan.body_start) - plan.body_start
    later = plan.raw[plan.body_start + offset :]  # a correction there strikes the stale value
    if summary and (struck := strike_corrected(summary, later, counter.count_text)) is not None:
        summary, changed = struck, True
    tail = list(plan.fold.messages[offset:])
    tail_counts = list(plan.fold.counts[offset:])
    note = [plan.loop_note] if plan.loop_note else []
    head = list(plan.head)
    repairs: tuple[str, ...] = ()
    middle = [summary.to_message(), *blocks] if summary else []
    projection = [*head, *middle, *tail, *note]
    if protocol_violations(projection):
        repaired = repair_projection(projection)
        repairs = repaired.repairs
        log.info("repaired the projection: %s", "; ".join(repairs)[:500])
        tail = repaired.messages[len(head) + len(middle) : len(repaired.messages) - len(note)]
        tail_counts = [counter.count(m) for m in tail]
        if problems := protocol_violations(repaired.messages):
            raise ProtocolError("projection is invalid after repair: " + "; ".join(problems))
    shrunk: list[str] = []
    usable = settings.budget.usable
    summary_tokens = counter.count(middle[0]) if middle else 0
    block_tokens = counter.count_messages(middle[1:])
    head_tokens = plan.head_tokens
    note_tokens = counter.count_messages(note)

    def total() -> int:
        return head_tokens + summary_tokens + block_tokens + sum(tail_counts) + note_tokens

    if total() > usable:
        n = _shrink_tail(tail, tail_counts, later, total() - usable, settings)
        if n:
            shrunk.append(f"tail: {n} clip(s)")
    if total() > usable and head and not isinstance(head[-1], SystemMessage):
        first = plan.raw[plan.head_end - 1]
        room = max(0, counter.count(head[-1]) - (total() - usable))
        smaller = clip_first_request(first, room, settings, read_back=plan.head_clipped)
        if smaller is not head[-1]:
            head_tokens += counter.count(smaller) - counter.count(head[-1])
            head[-1] = smaller
            shrunk.append("first request clipped further")
    if total() > usable and summary is not None:
        # The cap counts rendered text; the message adds its role's overhead on top.
        overhead = summary_tokens - counter.count_text(summary.render())
        target = max(0, summary_tokens - overhead - (total() - usable))
        smaller_summary = refit_summary(summary, target, counter.count_text)
        if smaller_summary.sections != summary.sections:
            summary, changed = smaller_summary, True
            middle = [summary.to_message(), *middle[1:]]
            summary_tokens = counter.count(middle[0])
            shrunk.append("summary: unpinned items evicted")
    tokens = total()
    if tokens > usable:
        raise _budget_error(
            plan,
            head,
            tokens,
            usable,
            summary_tokens,
            tail_counts,
            note_tokens + block_tokens,
            settings,
        )
    messages = [*head, *middle, *tail, *note]
    index = max(plan.anchor, new_summary.covered_through if new_summary else 0)
    stats = CompactionStats(
        raw_messages=len(plan.raw),
        messages_after=len(messages),
        tokens_unfolded=plan.fold.tokens_before,
        tokens_folded=plan.fold.tokens_after,
        tokens_before=plan.tokens_before_summary,
        tokens_after=tokens,
        head_tokens=head_tokens,
        summary_tokens=summary_tokens,
        tail_tokens=sum(tail_counts),
        head_clipped=plan.head_clipped,
        summarized=plan.request is not None,
        summary_changed=changed,
        summarizer=outcome.name if outcome else None,
        summarizer_path=outcome.path if outcome else None,
        summarizer_error=outcome.error if outcome else None,
        summary_generation=summary.generation if summary else None,
        covered_through=summary.covered_through if summary else None,
        rebuilt_reason=plan.stale_reason,
        loop={"signature": plan.loop.signature[:300], "count": plan.loop.count}
        if plan.loop
        else None,
        stages={s.stage: s.saved for s in plan.fold.stats},
        repairs=repairs,
        shrunk=tuple(shrunk),
        block_tokens=block_tokens,
        anchor=index,
        refolded=plan.refolded,
        declined=plan.declined,
        paused=plan.paused_at is not None,
        summary_source="foreground" if plan.request is not None else None,
        waited_for_summarizer=plan.request is not None,
    )
    weak, paused_at = plan.weak, plan.paused_at
    if plan.request is not None and settings.thrash_events:
        before = plan.tokens_before_summary
        weak = weak + 1 if before - tokens < settings.thrash_min_saving * before else 0
        if weak >= settings.thrash_events:
            weak, paused_at = 0, len(plan.raw)
            log.info("summaries freed little %d times in a row: paused", settings.thrash_events)
    anchor = anchor_at(plan.raw, index, max(index, plan.seen), weak=weak, paused_at=paused_at)
    return CompactionResult(messages, summary, changed, stats, anchor)


_MIN_SHRINK_TOKENS = 48
"""A message this small is not clipped further: its marker would be most of it."""
_MARKER_CHARS = 160
"""Room a clip marker and a little text take."""


def _size(message: BaseMessage) -> int:
    """Characters a harder clip could remove: the text, and tool-call string arguments."""
    size = len(message_text(message)) if isinstance(message.content, str) else 0
    for call in getattr(message, "tool_calls", None) or []:
        size += sum(len(v) for v in call["args"].values() if isinstance(v, str))
    return size


def _halved(message: BaseMessage, original: BaseMessage) -> BaseMessage:
    """``message`` cut to about half its size, from ``original`` (text and arguments)."""
    ref = original.id or ""
    update: dict[str, object] = {}
    if isinstance(message.content, str) and isinstance(original.content, str):
        keep = max(_MARKER_CHARS, len(message.content) // 2)
        update["content"] = clip_text(original.content, keep, ref)
    calls = getattr(message, "tool_calls", None) or []
    if calls:
        limit = max(_MARKER_CHARS, _size(message) // 4)
        originals = getattr(original, "tool_calls", None) or calls
        update["tool_calls"] = [
            {**c, "args": clip_args(o["args"], limit, ref)}
            for c, o in zip(calls, originals, strict=False)
        ]
    return message.model_copy(update=update)


def _shrink_tail(
    tail: list[BaseMessage],
    counts: list[int],
    raw: Sequence[BaseMessage],
    excess: int,
    settings: CompactionSettings,
) -> int:
    """Clip the largest tail messages harder until ``excess`` tokens are gone (never drop).

    Each step cuts the currently largest message (its text and its tool-call string
    arguments) to about half, from its raw original in ``raw`` (head+tail kept, with a
    marker and ref; arguments stay valid JSON). Counts are updated in place, so nothing
    is recounted but the clipped message.
    """
    originals = {m.id: m for m in raw if m.id}
    clips = 0
    stuck: set[int] = set()
    while excess > 0:
        # Tokens decide what is large: 300 characters of CJK or noise can cost 500 tokens.
        candidates = [
            i
            for i, m in enumerate(tail)
            if i not in stuck
            and m.id in originals
            and counts[i] > _MIN_SHRINK_TOKENS
            and _size(m) > _MARKER_CHARS
        ]
        if not candidates:
            break
        i = max(candidates, key=lambda j: (counts[j], j))
        smaller = _halved(tail[i], originals[tail[i].id or ""])
        if _size(smaller) >= _size(tail[i]):
            stuck.add(i)  # nothing left to cut in it
            continue
        tail[i] = smaller
        new = settings.counter.count(tail[i])
        excess -= counts[i] - new
        counts[i] = new
        clips += 1
    return clips


def _budget_error(
    plan: CompactionPlan,
    head: list[BaseMessage],
    tokens: int,
    usable: int,
    summary_tokens: int,
    tail_counts: list[int],
    note_tokens: int,
    settings: CompactionSettings,
) -> ContextBudgetError:
    counter = settings.counter
    system = counter.count_messages([m for m in head if isinstance(m, SystemMessage)])
    first = sum(counter.count(m) for m in head if not isinstance(m, SystemMessage))
    return ContextBudgetError(
        f"the projection is {tokens} tokens even after shrinking the tail, the first request "
        f"and the summary's unpinned items, over the usable budget of {usable} by "
        f"{tokens - usable}: system prompt {system}, first request {first} (clipped as far "
        f"as it goes), summary {summary_tokens} (pinned items only), tail {sum(tail_counts)} "
        f"in {len(tail_counts)} message(s), notes {note_tokens}. Raise "
        "Budget.context_window, shorten the system prompt, or state fewer standing "
        "constraints."
    )
