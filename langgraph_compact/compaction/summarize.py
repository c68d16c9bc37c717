"""Summarizers: turn the delta span (and the previous summary) into the next sections.

A summarizer gets a ``SummaryRequest`` — the previous summary, the raw messages of the
delta span (never the already-covered ones), the protected head — and returns a
``SummaryDraft``: the sections it proposes and how it got them. It never writes
coverage: ``compact``/``acompact`` fit the draft to the cap and stamp ``head_end``,
``covered_through``, the last covered id, the span digest and the lineage, so no
summarizer can break idempotence. ``ExtractiveSummarizer`` is the deterministic
default: no model, same input → same summary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import Candidate
from langgraph_compact.compaction.extract import extract_items
from langgraph_compact.compaction.merge import merge_items
from langgraph_compact.compaction.novelty import message_values, raise_novel
from langgraph_compact.compaction.quote import Quote, Source
from langgraph_compact.compaction.steps import next_steps
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.messages import message_text

__all__ = [
    "ExtractiveSummarizer",
    "Summarizer",
    "SummaryDraft",
    "SummaryRequest",
    "extract_span",
]


@dataclass(frozen=True)
class SummaryRequest:
    """Everything a summarizer may read for one compaction event.

    Attributes:
        previous: the summary being extended, or None for the first one (or a rebuild).
        head: the raw protected head (system messages and the first request).
        span: raw messages ``[span_start, span_start + len(span))`` newly covered.
        span_start: raw index of ``span[0]``; equals ``previous.covered_through``.
        max_tokens: the cap the orchestrator will fit the answer to (a guide for models).
        count_text: token counter for rendered text.
        head_clipped: the first request was clipped in the projection, so the items of
            its omitted part must be carried by the summary.
        shown_head: the head as the projection shows it (the first request clipped).
    """

    previous: RunningSummary | None
    head: Sequence[BaseMessage]
    span: Sequence[BaseMessage]
    span_start: int
    max_tokens: int
    count_text: Callable[[str], int]
    head_clipped: bool = False
    shown_head: Sequence[BaseMessage] = ()

    @property
    def head_end(self) -> int:
        """Raw index just past the protected head."""
        return len(self.head)

    @property
    def covered_through(self) -> int:
        """Raw index just past the new summary's coverage."""
        return self.span_start + len(self.span)


@dataclass(frozen=True)
class SummaryDraft:
    """A summarizer's answer: the proposed sections, and how it produced them.

    ``path`` is recorded in the summary's lineage (``extractive``, ``structured``,
    ``json``, ``markdown``, ``prose``, with ``+retry``/``+merged`` when the required items
    needed help); ``notes`` say why, for logs and stats. ``flagged`` lists what the
    summarizer itself refused as stating values no message wrote (``ground``); the
    sections are grounded again either way.
    """

    sections: Mapping[Section, Sequence[SummaryItem]]
    path: str = "extractive"
    notes: tuple[str, ...] = ()
    flagged: tuple[str, ...] = ()


@runtime_checkable
class Summarizer(Protocol):
    """Anything that turns a ``SummaryRequest`` into a ``SummaryDraft``.

    Returning a ``RunningSummary`` is accepted too; only its sections are used.
    """

    @property
    def name(self) -> str:
        """Recorded as the summary's ``summarizer`` (lineage)."""
        ...

    def summarize(self, request: SummaryRequest) -> SummaryDraft | RunningSummary:
        """The sections of the summary covering the head and ``request.span``."""
        ...

    async def asummarize(self, request: SummaryRequest) -> SummaryDraft | RunningSummary:
        """Async twin of ``summarize``."""
        ...


def head_items(request: SummaryRequest) -> list[Candidate]:
    """The goal from the first request; all its items when the projection clips it."""
    first = next((m for m in request.head if isinstance(m, HumanMessage)), None)
    if first is None:
        return []
    seq = next(i for i, m in enumerate(request.head) if m is first)
    goal = goal_quote(Source(first.id or "", message_text(first)))
    shown = ""
    if request.head_clipped and request.shown_head:
        shown = tx.norm(message_text(request.shown_head[-1]))
    out: list[Candidate] = []
    # The projection always shows the request's opening: where the clip kept the goal's
    # words, the summary does not spend its cap repeating them.
    if goal and not (shown and tx.norm(goal.text) in shown):
        out.append((Section.GOAL, SummaryItem(
            text=goal.text, spans=goal.spans, key="goal", kind="goal",
            sources=(first.id or "",), seq=seq, salience=1.0, pinned=True, origin="human",
        )))  # fmt: skip
    if request.head_clipped:
        # A goal found inside the request (a hand-off's current goal) comes after the
        # request's opening, so it replaces it as the current goal.
        for section, item in extract_items(first, seq, {}):
            if _visible(item, shown):
                continue
            if item.pinned and item.kind in _RULES and item.origin != "summary":
                # A brief's or a template's instructions: kept over the cap, but given up
                # when the budget needs the room (a clipped request can hold dozens; the
                # clip marker still points to the full text). What the user states later,
                # and the rules a rendered summary carried, stay pinned.
                # Specific instructions (a named package, host, version) outrank generic
                # process guidance ("use non-interactive flags").
                weight = 0.5 + 0.4 * tx.specificity(item.text)
                item = item.model_copy(update={"pinned": False, "kept": True, "salience": weight})
            out.append((section, item))
    return out


_RULES = frozenset({"constraint", "safety", "preference"})


def _visible(item: SummaryItem, shown: str) -> bool:
    """Whether the clipped first request still shows what ``item`` says."""
    key = item.key or ""
    if key.startswith(("id:", "file:")):
        return tx.norm(key.split(":", 1)[1]) in shown
    return tx.norm(item.text)[:60] in shown


_TAG = re.compile(r"\s*</?[A-Za-z_][\w-]*(?:\s[^<>]*)?>\s*")
GOAL_MAX_CHARS = 240
GOAL_MAX_LINES = 4


def goal_quote(src: Source, limit: int = GOAL_MAX_CHARS) -> Quote:
    """The opening of a request, quoted: its first paragraph outside markup tags (prompt
    templates wrap tasks in tags), at most ``limit`` characters on ``GOAL_MAX_LINES`` lines.

    >>> goal_quote(Source("m", "<pr> Consider the PR:   Fix the bug.</pr>")).text
    'Consider the PR:   Fix the bug.'
    """
    text = src.text
    pos = 0
    while (tag := _TAG.match(text, pos)) is not None and tag.end() > pos:
        pos = tag.end()
    end = len(text)
    if (tag := _TAG.search(text, pos)) is not None:
        end = tag.start()
    return src.slice(pos, end).cut(limit, lines=GOAL_MAX_LINES)


def extract_span(request: SummaryRequest) -> list[Candidate]:
    """Every candidate of the delta: head items on a first summary, then the span's, a
    speaker's own values raised (``novelty``)."""
    found: list[Candidate] = [] if request.previous is not None else head_items(request)
    calls: dict[str, Mapping[str, Any]] = {}
    seen = set().union(*map(message_values, request.head))
    if request.previous is not None:
        seen |= message_values(HumanMessage(request.previous.render()))
    for offset, message in enumerate(request.span):
        if isinstance(message, AIMessage):
            calls.update({c["id"] or "": c for c in message.tool_calls})
        # what a message's own calls pass is not news in its text: the call carries it
        known = seen | message_values(message, calls_only=True)
        found.extend(raise_novel(extract_items(message, request.span_start + offset, calls), known))
        seen |= message_values(message)
    return found


def _latest_ai(request: SummaryRequest) -> tuple[int, AIMessage] | None:
    for i in range(len(request.span) - 1, -1, -1):
        m = request.span[i]
        if isinstance(m, AIMessage):
            return request.span_start + i, m
    return None


def extend(
    previous: Mapping[Section, Sequence[SummaryItem]],
    found: Sequence[Candidate],
    request: SummaryRequest,
    *,
    late: Sequence[Candidate] = (),
) -> dict[Section, list[SummaryItem]]:
    """``previous`` merged with ``found``; progress and next steps from the latest turn.

    In Progress and Next Steps describe the latest turn only: they are replaced by what
    the span's last assistant message says, then ``late`` items (a model's own view of
    the current work) are merged on top.
    """
    evicted = frozenset(request.previous.evicted) if request.previous else frozenset()
    merged = merge_items(previous, found, evicted=evicted)
    latest = _latest_ai(request)
    if latest is not None:
        for s in (Section.IN_PROGRESS, Section.NEXT_STEPS):
            merged[s] = [i for i in merged.get(s, []) if i.historical]
        answered = frozenset(m.tool_call_id for m in request.span if isinstance(m, ToolMessage))
        merged = merge_items(merged, next_steps(latest[1], latest[0], answered))
    return merge_items(merged, late) if late else merged


@dataclass(frozen=True)
class ExtractiveSummarizer:
    """The default summarizer: deterministic, section-aware extraction; no model.

    It reads only the delta span (plus the head on the first generation), proposes
    candidates from every place of every message (``extract_items``) and merges them
    into the previous summary (``merge_items``); the orchestrator then keeps the most
    salient items that fit the cap.
    """

    name: str = "extractive"
    options: Mapping[str, Any] = field(default_factory=dict)

    def summarize(self, request: SummaryRequest) -> SummaryDraft:
        """Extend ``request.previous`` with the items of ``request.span``."""
        previous = request.previous.sections if request.previous else {}
        return SummaryDraft(extend(previous, extract_span(request), request))

    async def asummarize(self, request: SummaryRequest) -> SummaryDraft:
        """Same as ``summarize``: extraction is CPU-only and fast."""
        return self.summarize(request)
