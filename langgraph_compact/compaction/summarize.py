"""Summarizers: fold a span of raw messages into the previous ``RunningSummary``.

A summarizer gets a ``SummaryRequest`` — the previous summary, the raw messages of the
delta span (never the already-covered ones), the protected head — and returns the next
``RunningSummary``. ``ExtractiveSummarizer`` is the deterministic default: no model,
same input → same summary.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from langgraph_compact.compaction.extract import extract_items, next_steps
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.messages import message_text, span_digest

__all__ = [
    "DEFAULT_SECTION_WEIGHTS",
    "ExtractiveSummarizer",
    "Summarizer",
    "SummaryRequest",
    "fit_sections",
    "merge_items",
]

DEFAULT_SECTION_WEIGHTS: Mapping[Section, float] = {
    Section.GOAL: 0.10,
    Section.CONSTRAINTS: 0.20,
    Section.DONE: 0.07,
    Section.IN_PROGRESS: 0.05,
    Section.BLOCKED: 0.08,
    Section.DECISIONS: 0.10,
    Section.CRITICAL: 0.20,
    Section.FILES_READ: 0.05,
    Section.FILES_MODIFIED: 0.07,
    Section.NEXT_STEPS: 0.08,
}
"""Share of the summary's token cap each section may use before eviction."""

_PROGRESS = frozenset({Section.DONE, Section.IN_PROGRESS, Section.BLOCKED})


@dataclass(frozen=True)
class SummaryRequest:
    """Everything a summarizer may read for one compaction event.

    Attributes:
        previous: the summary being extended, or None for the first one.
        head: the raw protected head (system messages and the first request).
        span: raw messages ``[span_start, span_start + len(span))`` newly covered.
        span_start: raw index of ``span[0]``; equals ``previous.covered_through``.
        covered: every raw message the new summary covers, ``[head_end, end)``; the
            summarizer uses it only for the coverage digest, never re-reads it.
        head_clipped: the first request was clipped in the projection, so its key
            items must be carried by the summary.
        max_tokens: the rendered summary must not exceed this.
        count_text: token counter for rendered text.
    """

    previous: RunningSummary | None
    head: Sequence[BaseMessage]
    span: Sequence[BaseMessage]
    span_start: int
    covered: Sequence[BaseMessage]
    max_tokens: int
    count_text: Callable[[str], int]
    head_clipped: bool = False
    generation: int = 1
    parent_generation: int | None = None
    rebuilt_reason: str | None = None

    @property
    def head_end(self) -> int:
        """Raw index just past the protected head."""
        return len(self.head)

    @property
    def covered_through(self) -> int:
        """Raw index just past the new summary's coverage."""
        return self.span_start + len(self.span)


@runtime_checkable
class Summarizer(Protocol):
    """Anything that turns a ``SummaryRequest`` into the next ``RunningSummary``."""

    @property
    def name(self) -> str:
        """Recorded as the summary's ``summarizer`` (lineage)."""
        ...

    def summarize(self, request: SummaryRequest) -> RunningSummary:
        """Return the summary covering ``[request.head_end, request.covered_through)``."""
        ...

    async def asummarize(self, request: SummaryRequest) -> RunningSummary:
        """Async twin of ``summarize``."""
        ...


def merge_items(
    sections: Mapping[Section, Sequence[SummaryItem]],
    new: Sequence[tuple[Section, SummaryItem]],
) -> dict[Section, list[SummaryItem]]:
    """Merge new items into sections; later values of the same key supersede earlier ones.

    Algorithm:
        An item with a key already present in its supersede group (the three progress
        sections share keys; so do the two file sections) replaces the old item, keeps
        its lineage (sources and reference count) and moves to the new section. A new
        goal makes the previous goal and the in-progress/next-step items historical.
        Files once modified stay under "modified" when read again.
    """
    out: dict[Section, dict[str, SummaryItem]] = {}
    where: dict[str, Section] = {}  # key -> the section holding it (keys are namespaced)
    slots = itertools.count()

    def put(section: Section, item: SummaryItem) -> None:
        slot = item.key if item.key else f"\x00{next(slots)}"
        out.setdefault(section, {})[slot] = item
        if item.key:
            where[item.key] = section

    for section, items in sections.items():
        for item in items:
            put(section, item)
    for section, item in new:
        if section is Section.GOAL and item.key == "goal":
            _retire_current_task(out, where)
        held = where.get(item.key) if item.key else None
        if held is Section.FILES_MODIFIED and section is Section.FILES_READ:
            old = out[held][item.key or ""]
            out[held][item.key or ""] = old.model_copy(
                update={"refs": old.refs + 1, "seq": item.seq}
            )
            continue
        if held is not None and held in _GROUPS.get(section, {section}):
            previous = out[held].pop(item.key or "")
            item = item.model_copy(
                update={
                    "sources": tuple(dict.fromkeys(previous.sources + item.sources))[-8:],
                    "refs": previous.refs + 1,
                    "priority": max(previous.priority, item.priority),
                    "pinned": previous.pinned or item.pinned,
                }
            )
        put(section, item)
    return {section: list(items.values()) for section, items in out.items() if items}


_FILES = frozenset({Section.FILES_READ, Section.FILES_MODIFIED})
_GROUPS: Mapping[Section, frozenset[Section]] = {
    **dict.fromkeys(_PROGRESS, _PROGRESS),
    Section.FILES_MODIFIED: _FILES,
}
"""Sections whose items share keys: a key moves between them instead of duplicating."""


def _retire_current_task(
    out: dict[Section, dict[str, SummaryItem]], where: dict[str, Section]
) -> None:
    for section in (Section.GOAL, Section.IN_PROGRESS, Section.NEXT_STEPS):
        retired: dict[str, SummaryItem] = {}
        for slot, item in out.get(section, {}).items():
            if item.key and not item.historical:
                where.pop(item.key, None)
                slot = f"old:{item.seq}:{item.key}"
                item = item.model_copy(update={"historical": True, "key": slot})
            retired[slot] = item
        out[section] = retired


def fit_sections(
    sections: Mapping[Section, Sequence[SummaryItem]],
    max_tokens: int,
    count_text: Callable[[str], int],
    weights: Mapping[Section, float] = DEFAULT_SECTION_WEIGHTS,
) -> dict[Section, tuple[SummaryItem, ...]]:
    """Evict items until every section fits its share of ``max_tokens``.

    Eviction order: historical first, then lowest priority, fewest references, oldest.
    Pinned items (constraints, safety rules) are never evicted.
    """
    out: dict[Section, tuple[SummaryItem, ...]] = {}
    for section, items in sections.items():
        cap = int(max_tokens * weights.get(section, 0.05))
        cost = {id(i): count_text(i.text) + 3 for i in items}
        total = sum(cost.values())
        evicted: set[int] = set()
        for victim in sorted(
            (i for i in items if not i.pinned),
            key=lambda i: (not i.historical, i.priority, i.refs, i.seq),
        ):
            if total <= cap:
                break
            evicted.add(id(victim))
            total -= cost[id(victim)]
        keep = tuple(i for i in items if id(i) not in evicted)
        if keep:
            out[section] = keep
    return out


@dataclass(frozen=True)
class ExtractiveSummarizer:
    """The default summarizer: deterministic, section-aware extraction; no model.

    It reads only the delta span (plus the head on the first generation) and merges
    what it finds into the previous summary with ``merge_items``, then evicts with
    ``fit_sections`` so the rendered summary stays under ``request.max_tokens``.
    """

    name: str = "extractive"
    weights: Mapping[Section, float] = field(default_factory=lambda: dict(DEFAULT_SECTION_WEIGHTS))

    def summarize(self, request: SummaryRequest) -> RunningSummary:
        """Extend ``request.previous`` with the items of ``request.span``."""
        previous = request.previous
        found: list[tuple[Section, SummaryItem]] = []
        if previous is None:
            found.extend(_head_items(request))
        calls: dict[str, Mapping[str, Any]] = {}
        for offset, message in enumerate(request.span):
            if isinstance(message, AIMessage):
                calls.update({c["id"] or "": c for c in message.tool_calls})
            found.extend(extract_items(message, request.span_start + offset, calls))
        last_ai = next(
            (
                (request.span_start + i, m)
                for i, m in reversed(list(enumerate(request.span)))
                if isinstance(m, AIMessage)
            ),
            None,
        )
        merged = merge_items(previous.sections if previous else {}, found)
        if last_ai is not None:
            for s in (Section.IN_PROGRESS, Section.NEXT_STEPS):
                merged[s] = [i for i in merged.get(s, []) if i.historical]
            merged = merge_items(merged, next_steps(last_ai[1], last_ai[0]))
        return finish_summary(request, merged, self.name, self.weights)

    async def asummarize(self, request: SummaryRequest) -> RunningSummary:
        """Same as ``summarize``: extraction is CPU-only and fast."""
        return self.summarize(request)


def _head_items(request: SummaryRequest) -> list[tuple[Section, SummaryItem]]:
    """The goal from the first request; its other items only when the head is clipped."""
    first = next((m for m in request.head if isinstance(m, HumanMessage)), None)
    if first is None:
        return []
    text = message_text(first)
    goal = _goal_text(text)
    seq = next(i for i, m in enumerate(request.head) if m is first)
    out = [
        (
            Section.GOAL,
            SummaryItem(
                text=goal[:240], key="goal", sources=(first.id or "",), seq=seq, priority=3
            ),
        )
    ]
    if request.head_clipped:
        # Constraints of a clipped first request are kept but not pinned: templates and
        # in-context demonstrations can hold dozens, and the head's marker still points
        # to the full text. Constraints the user states later in the thread stay pinned.
        out.extend(
            (section, item.model_copy(update={"pinned": False}))
            for section, item in extract_items(first, seq, {})
            if section is not Section.GOAL
        )
    return out


def _goal_text(text: str, limit: int = 240) -> str:
    """The opening of a request without markup: prompt templates wrap tasks in tags.

    >>> _goal_text("<pr_description> Consider the PR:   Fix the bug.</pr_description>")
    'Consider the PR: Fix the bug.'
    """
    plain = " ".join(re.sub(r"</?[A-Za-z_][\w-]*>", " ", text).split())
    if len(plain) <= limit:
        return plain
    cut = plain.rfind(" ", 0, limit)
    return plain[: cut if cut > limit // 2 else limit] + " …"


def finish_summary(
    request: SummaryRequest,
    sections: Mapping[Section, Sequence[SummaryItem]],
    summarizer: str,
    weights: Mapping[Section, float] = DEFAULT_SECTION_WEIGHTS,
) -> RunningSummary:
    """Fit ``sections`` to the cap and stamp coverage and lineage onto a new summary."""
    fitted = fit_sections(sections, request.max_tokens, request.count_text, weights)
    covered = request.covered
    summary = RunningSummary(
        sections=fitted,
        head_end=request.head_end,
        covered_through=request.covered_through,
        last_covered_id=covered[-1].id if covered else None,
        span_digest=span_digest(covered),
        generation=request.generation,
        parent_generation=request.parent_generation,
        summarizer=summarizer,
        rebuilt_reason=request.rebuilt_reason,
    )
    return summary.model_copy(update={"token_count": request.count_text(summary.render())})
