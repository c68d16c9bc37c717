"""Shortening summary items without rewriting them: cut around their value for a small
cap, or from their head when pinned items alone exceed it. Both keep verbatim pieces of
the source and show every cut with ``…`` (``Quote.around``, ``Quote.cut``)."""

from __future__ import annotations

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.paths import path_spans
from langgraph_compact.compaction.quote import ARROW, ELLIPSIS, Quote, value_spans
from langgraph_compact.compaction.shapes import value_groups
from langgraph_compact.compaction.summary import SummaryItem

__all__ = [
    "FOCUS_MIN_CHARS",
    "PINNED_COMPRESSED_CHARS",
    "PINNED_SHORTEST_CHARS",
    "STATED",
    "around",
    "compressed",
    "focused",
]

FOCUS_MIN_CHARS = 80
"""Below a full cap an unpinned line is shown in at most ``ITEM_MAX_CHARS`` scaled by the
cap (this many at least) around its value (``focused``)."""
PINNED_COMPRESSED_CHARS = 120
PINNED_SHORTEST_CHARS = 60
"""How far pinned items are shortened when the budget, not the cap, needs the room."""
STATED = frozenset({"error", "decision"})
"""Kinds that are state as a whole, whatever words they use: what failed, what was chosen."""


def focused(item: SummaryItem, limit: int) -> SummaryItem:
    """An unpinned item longer than ``limit`` characters shown as the sentence (or the
    words) around its value, the one its key names or else its most specific: at a small
    cap the value and its subject are what the line is kept for (the source keeps the
    rest). An item naming no value is left as it is, and so are errors and decisions,
    which are state as a whole: what failed, what was chosen and why. A call's line
    (``call → error``, ``call → value``) is shown around a specific value of what the call
    gave, the last of equals (after the date and host heading a log line): a value of the
    call (a date, a flag) would cut the error off."""
    if item.pinned or item.kept or item.kind in STATED or len(item.text) <= limit:
        return item
    spans = value_spans(item.text)
    if item.origin == "tool" and (item.kind == "blocked" or (item.key or "").startswith("answer:")):
        gave = [s for s in spans if s[0] >= _gave_at(item) and _specific(item, s)]
        if gave:
            a, b = max(reversed(gave), key=lambda s: _specificity(item, s))
            return item.with_quote(around(item.quote, *_whole(item.text, a, b), limit))
    if not spans:
        return item
    named = item.key.partition(":")[2] if item.key else ""
    a, b = max(spans, key=lambda s: (item.text[s[0] : s[1]] == named, _specificity(item, s)))
    return item.with_quote(around(item.quote, *_whole(item.text, a, b), limit))


def _gave_at(item: SummaryItem) -> int:
    """Where what a call gave starts in its line: after the arrow before the quote of the
    output (the call's own text may hold arrows too); the line's end when there is none."""
    spans = item.quote.spans
    if not spans:
        return len(item.text)
    first = min(s.at for s in spans if (s.id, s.part) == (spans[-1].id, spans[-1].part))
    at = item.text.rfind(ARROW, 0, first + 1)
    return len(item.text) if at == -1 else at + len(ARROW)


def _whole(text: str, a: int, b: int) -> tuple[int, int]:
    """The value ``text[a:b]`` widened to its group or path: "14:05 UTC", a path with
    spaces, is one value."""
    groups = [(g[0][0], g[-1][1]) for g in value_groups(text)]
    for x, y in [*groups, *path_spans(text)]:
        if x < b and a < y:
            a, b = min(a, x), max(b, y)
    return a, b


def around(quote: Quote, start: int, end: int, limit: int, *, sentence: bool = True) -> Quote:
    """At most ``limit`` characters of ``quote`` around the value ``text[start:end]``: its
    sentence if that fits (with ``sentence``, and the value inside it), else words on both
    sides, more of them before (a value's subject comes first). The value is never cut,
    nor a value group ("高橋 健太", "14:05 UTC") at either edge; ``…`` shows each cut."""
    text, lo, hi = quote.text, 0, len(quote.text)
    if sentence:
        lo, hi = next(((a, b) for a, b in tx.sentence_spans(text) if a <= start < b), (lo, hi))
        lo, hi = (0, len(text)) if end > hi else (lo, hi)
    if hi - lo > limit:
        room = max(0, limit - (end - start))
        after = min(hi - end, room // 3)
        before = min(start - lo, room - after)
        after = min(hi - end, room - before)
        if start - before > lo:  # from the first word boundary in reach
            lo = text.find(" ", start - before, start) + 1 or start
        if end + after < hi:
            hi = max(end, text.rfind(" ", end, end + after + 1))
    for group in value_groups(text):  # a value cut at an edge is left out whole, to a word
        g0, g1 = group[0][0], group[-1][1]
        lo = (text.find(" ", g1, start) + 1 or start) if g0 < lo < g1 and g1 <= start else lo
        hi = max(end, text.rfind(" ", end, g0)) if g0 < hi < g1 and g0 >= end else hi
    piece = quote.without([(0, lo), (hi, len(text))]).strip()
    # a piece that opens or ends at an earlier cut already shows it: one mark per cut
    head = f"{ELLIPSIS} " if text[:lo].strip() and not piece.text.startswith(ELLIPSIS) else ""
    tail = f" {ELLIPSIS}" if text[hi:].strip() and not piece.text.endswith(ELLIPSIS) else ""
    return head + piece + tail


def _specificity(item: SummaryItem, span: tuple[int, int]) -> float:
    return tx.specificity(item.text[span[0] : span[1]])


def _specific(item: SummaryItem, span: tuple[int, int]) -> bool:
    return tx.is_specific(item.text[span[0] : span[1]])


def compressed(item: SummaryItem, limit: int) -> SummaryItem:
    """A pinned item cut to its first ``limit`` characters (an ellipsis marks the cut;
    the source message keeps the whole text)."""
    if len(item.text) <= limit:
        return item
    return item.with_quote(item.quote.cut(limit, lines=item.text.count("\n") + 1))
