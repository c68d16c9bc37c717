"""The hand-off a rotated thread starts from, and the final summary it carries.

``final_summary`` extends a thread's summary to the end of its history (the stored one
stops where the verbatim tail began); ``build_handoff`` renders it with the original
request, the open tasks and a pointer to the parent as the child's first message.
The summary part is rendered exactly as a projection shows it, so the summary side
reads it back item by item, pins included (``readback.parse_rendered_summary``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from langgraph_compact.compaction.clip import clip_text
from langgraph_compact.compaction.cut import find_head_end, is_cut_point
from langgraph_compact.compaction.plan import check_summary
from langgraph_compact.compaction.select import select_items
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summarize import (
    ExtractiveSummarizer,
    SummaryDraft,
    SummaryRequest,
)
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.messages import message_text, span_digest
from langgraph_compact.tasks import TaskList, render_tasks

__all__ = [
    "HANDOFF_KEY",
    "REQUEST_CHARS",
    "afinal_summary",
    "build_handoff",
    "final_summary",
    "origin_sources",
]

HANDOFF_KEY = "langgraph_compact_handoff"
"""``additional_kwargs`` key of the hand-off message: parent, checkpoint, rotation."""
REQUEST_CHARS = 1_500
"""Characters of the original request the hand-off quotes (longer ones are clipped)."""


@dataclass(frozen=True)
class _Delta:
    """What a final summary needs: the stored summary if valid, and the span it lacks."""

    stored: RunningSummary | None
    head_end: int
    end: int
    request: SummaryRequest | None
    covers_head: bool = False


def _delta(
    raw: Sequence[BaseMessage],
    summary: RunningSummary | Mapping[str, Any] | None,
    settings: CompactionSettings,
) -> _Delta:
    stored = summary if summary is None or isinstance(summary, RunningSummary) else None
    if summary is not None and stored is None:
        stored = RunningSummary.model_validate(summary)
    head_end = find_head_end(raw, protect_first_human=settings.protect_first_human)
    if stored is not None and check_summary(stored, raw, head_end, settings.counter.cache):
        stored = None  # edited or redacted since: rebuild from the head
    start = stored.covered_through if stored is not None else head_end
    end = len(raw)
    while end > start and not is_cut_point(raw, end):
        end -= 1  # a pending tool call at the end stays out
    # The hand-off quotes only the opening of the first request, and a child's first
    # request is its own hand-off: the final summary carries the items of all of it.
    has_request = head_end > 0 and isinstance(raw[head_end - 1], HumanMessage)
    head_done = not has_request or (stored is not None and stored.covers_head)
    if end <= start and head_done:
        return _Delta(stored, head_end, end, None, covers_head=has_request)
    request = SummaryRequest(
        previous=stored,
        head=list(raw[:head_end]),
        span=list(raw[start:end]),
        span_start=start,
        max_tokens=settings.summary_cap,
        count_text=settings.counter.count_text,
        head_clipped=has_request,
    )
    return _Delta(stored, head_end, max(end, start), request, covers_head=has_request)


def _finish(
    raw: Sequence[BaseMessage], delta: _Delta, answer: object, settings: CompactionSettings
) -> RunningSummary | None:
    """Accept the answer (or fall back to extraction) and stamp coverage and lineage."""
    if delta.request is None:
        return delta.stored
    if isinstance(answer, SummaryDraft | RunningSummary):
        sections, path = answer.sections, answer.path
    else:  # a failing model summarizer never blocks a rotation
        sections = ExtractiveSummarizer().summarize(delta.request).sections
        path = f"fallback: {answer!r}"[:200]
    covered = raw[delta.head_end : delta.end]
    parent = delta.stored.generation if delta.stored is not None else None
    bare = RunningSummary(
        head_end=delta.head_end,
        covered_through=delta.end,
        covers_head=delta.covers_head,
        last_covered_id=covered[-1].id if covered else None,
        span_digest=span_digest(covered, settings.counter.cache),
        generation=parent + 1 if parent is not None else 1,
        parent_generation=parent,
        summarizer=str(getattr(settings.summarizer, "name", "extractive")),
        path=path,
    )
    chosen = select_items(
        sections,
        settings.summary_cap,
        settings.counter.count_text,
        title=bare.title(),
        now=delta.end,
    )
    return bare.model_copy(update={"sections": chosen.sections, "token_count": chosen.tokens})


def final_summary(
    raw: Sequence[BaseMessage],
    summary: RunningSummary | Mapping[str, Any] | None,
    settings: CompactionSettings,
) -> RunningSummary | None:
    """The summary extended to the end of ``raw`` (its last complete tool group).

    The stored summary stops where the verbatim tail began; a hand-off needs it all.
    The delta is summarized with the settings' summarizer (an error falls back to
    extraction) and fitted to the cap with coverage stamped, as a compaction would.
    """
    delta = _delta(raw, summary, settings)
    answer: object = None
    if delta.request is not None:
        try:
            answer = settings.summarizer.summarize(delta.request)
        except Exception as exc:
            answer = exc
    return _finish(raw, delta, answer, settings)


async def afinal_summary(
    raw: Sequence[BaseMessage],
    summary: RunningSummary | Mapping[str, Any] | None,
    settings: CompactionSettings,
) -> RunningSummary | None:
    """Async twin of ``final_summary``."""
    delta = _delta(raw, summary, settings)
    answer: object = None
    if delta.request is not None:
        try:
            answer = await settings.summarizer.asummarize(delta.request)
        except Exception as exc:
            answer = exc
    return _finish(raw, delta, answer, settings)


def origin_sources(text: str, sources: Sequence[str], handoff: BaseMessage | None) -> list[str]:
    """``sources`` with the hand-off's id replaced by the parent messages it stands for.

    An item the child read back from its hand-off names the hand-off as its source; the
    hand-off records which parent messages each of its items came from (and those were
    translated the same way at the parent's own rotation). An item not found there is
    given every source the hand-off lists: over-attribution only makes a redaction
    remove more derived data, never less.
    """
    if handoff is None or handoff.id not in sources:
        return list(sources)
    meta = handoff.additional_kwargs.get(HANDOFF_KEY)
    table = meta.get("sources") if isinstance(meta, Mapping) else None
    if not isinstance(table, Mapping):
        return list(sources)
    found = table.get(text)
    origin = list(found) if found else sorted({i for ids in table.values() for i in ids})
    return [*(s for s in sources if s != handoff.id), *origin]


def _origins(summary: RunningSummary | None, first: BaseMessage | None) -> dict[str, list[str]]:
    if summary is None:
        return {}
    return {text: origin_sources(text, ids, first) for text, ids in summary.source_ids().items()}


def _request(first: BaseMessage | None, chars: int) -> tuple[str, str] | None:
    """The original request's text (clipped) and ref; a hand-off passes on its own."""
    if first is None:
        return None
    meta = first.additional_kwargs.get(HANDOFF_KEY)
    if isinstance(meta, Mapping):
        if meta.get("request") is None:
            return None
        return str(meta["request"]), str(meta.get("request_ref") or "")
    ref = first.id or ""
    return clip_text(message_text(first), chars, ref), ref


def build_handoff(
    summary: RunningSummary | None,
    tasks: TaskList | None,
    *,
    parent_thread_id: str,
    rotation: int,
    reason: str,
    first_request: BaseMessage | None = None,
    parent_checkpoint_id: str | None = None,
    request_chars: int = REQUEST_CHARS,
) -> HumanMessage:
    """The child's first message: original request, open tasks, pointer, final summary.

    The original request comes first, as in any thread (its opening is the goal); a
    parent that was itself a child passes on the root's request, so hand-offs never
    nest. The summary comes last, rendered exactly as a projection shows it, so the
    child's summarizer reads it back item by item (``parse_rendered_summary``) with
    its pins; the open tasks are a checklist the child's task reader picks up again.
    """
    lines: list[str] = []
    request = _request(first_request, request_chars)
    if request is not None:
        lines.append(request[0])
    rendered = render_tasks(tasks)
    if rendered is not None:
        lines += ["## Open Tasks", *rendered.splitlines()[1:]]
    lines += [
        "## Hand-off",
        f"[Hand-off {rotation}: this conversation continues thread {parent_thread_id!r} "
        f"({reason}). Its full history is kept; the recall tool reads it with a ref "
        "(message id) or a search query.]",
    ]
    if summary is not None:
        lines.append(summary.render())
    meta = {
        "parent_thread_id": parent_thread_id,
        "parent_checkpoint_id": parent_checkpoint_id,
        "rotation": rotation,
        "reason": reason,
        "summary_generation": summary.generation if summary is not None else None,
        "request": request[0] if request else None,
        "request_ref": request[1] if request else None,
        # item text -> the parent's message ids it came from: what a memory flush in
        # the child records, so a redaction in the parent still finds what it derived
        "sources": _origins(summary, first_request),
    }
    return HumanMessage(
        "\n".join(lines),
        id=f"handoff-{parent_thread_id}-{rotation}",
        additional_kwargs={HANDOFF_KEY: meta},
    )
