"""Anchor: where the fold of older messages is frozen, so the projection is append-only.

Providers bill the leading part of a prompt that repeats the previous prompt at a
fraction of the input price (prompt caching). A fold whose protected window slides with
every new message rewrites an old message on most calls, and the cache is lost from
there on. So the fold is anchored: messages before the anchor are folded (clipped,
deduped, pruned) and messages from it on are shown verbatim, and the anchor moves only
at a compaction event — when the projection crosses the trigger. Between two events the
projection is a pure function of (messages, anchor) and only grows at its end.

An event must free at least ``min_compaction_gain`` of the usable budget; a smaller one
is declined while the unchanged projection still fits (rewriting the prompt for a few
tokens costs more in lost cache than it saves), and taken once it no longer fits.

The anchor lives in graph state (``CompactState.fold_anchor``): the raw index where the
verbatim window starts and the id of the message before it, so an edited or redacted
history is noticed (the fold then starts afresh, logged).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from langchain_core.messages import BaseMessage, HumanMessage

from langgraph_compact.tokens import TokenCounter

__all__ = [
    "MIN_COMPACTION_GAIN",
    "FoldAnchor",
    "anchor_at",
    "anchored_window",
    "pause_note",
    "shared_prefix",
]

log = logging.getLogger(__name__)

MIN_COMPACTION_GAIN = 0.1
"""Share of the usable budget a compaction event must free to be worth its lost cache.

With cache reads at a tenth of the price, an event that rewrites ``P`` tokens of prompt
costs about ``0.9 P`` once, and saves ``0.1 g`` per later call for the ``g`` tokens it
frees; freeing a tenth of the budget pays that back within the calls the freed room
lasts."""


class FoldAnchor(TypedDict):
    """Where the verbatim window of the projection starts (state key ``fold_anchor``)."""

    index: int
    """Raw index of the first message shown verbatim; earlier ones are folded."""
    last_id: str | None
    """Id of the raw message just before ``index`` (None when ``index`` is 0)."""
    seen: int
    """Raw messages there were at the event: the fold decides (dedupe, consumed outputs)
    as if the history ended there."""
    weak: NotRequired[int]
    """Consecutive summaries that freed little (``CompactionSettings.thrash_events``)."""
    paused_at: NotRequired[int | None]
    """Raw index where summarizing was paused after too many weak summaries."""


def anchor_at(
    raw: Sequence[BaseMessage],
    index: int,
    seen: int,
    *,
    weak: int = 0,
    paused_at: int | None = None,
) -> FoldAnchor:
    """The anchor at raw index ``index``, decided on ``raw[:seen]``."""
    last_id = raw[index - 1].id if index > 0 else None
    anchor = FoldAnchor(index=index, last_id=last_id, seen=seen)
    if weak:
        anchor["weak"] = weak
    if paused_at is not None:
        anchor["paused_at"] = paused_at
    return anchor


def pause_note(paused_at: int, events: int, saving: float, resume: int) -> HumanMessage:
    """The one note shown while summarizing is paused (its text and id stay the same)."""
    text = (
        f"[context compaction paused: the last {events} summaries each freed less than "
        f"{saving:.0%} of the context; summarizing resumes after about {resume:,} more "
        "tokens. Older tool outputs stay shortened with recall refs.]"
    )
    return HumanMessage(
        text, id=f"pause-note-{paused_at}", additional_kwargs={"langgraph_compact_note": "pause"}
    )


def anchored_window(
    anchor: FoldAnchor | Mapping[str, Any] | None, raw: Sequence[BaseMessage], start: int
) -> tuple[int, int] | None:
    """``(index, seen)`` of the anchor, or None when there is none or it no longer fits.

    An anchor before ``start`` (a summary now covers past it) moves up to ``start``; one
    past the end, or whose previous message has another id, belongs to another version of
    the history (edited, redacted, branched) and is dropped, logged.
    """
    if anchor is None:
        return None
    index, last_id = int(anchor.get("index", -1)), anchor.get("last_id")
    if index < 0 or index > len(raw) or (index > 0 and raw[index - 1].id != last_id):
        log.info("fold anchor %r does not match the history; folding afresh", dict(anchor))
        return None
    index = max(index, start)
    return index, min(len(raw), max(index, int(anchor.get("seen", index))))


def shared_prefix(
    before: Sequence[str], after: Sequence[BaseMessage], counter: TokenCounter
) -> int:
    """Tokens of the leading messages of ``after`` whose digests ``before`` starts with."""
    n = 0
    for digest, message in zip(before, after, strict=False):
        if counter.cache.digest(message) != digest:
            break
        n += 1
    return counter.count_messages(after[:n])
