"""Shortening summary items without rewriting them: cut around their value for a small
cap, or from their head when pinned items alone exceed it. Both keep verbatim pieces of
the source and show every cut with ``…`` (``Quote.around``, ``Quote.cut``)."""

from __future__ import annotations

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.paths import path_spans
from langgraph_compact.compaction.quote import value_spans
from langgraph_compact.compaction.summary import SummaryItem

__all__ = [
    "FOCUS_MIN_CHARS",
    "PINNED_COMPRESSED_CHARS",
    "PINNED_SHORTEST_CHARS",
    "STATED",
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
    which are state as a whole: what failed, what was chosen and why."""
    if item.pinned or item.kept or item.kind in STATED or len(item.text) <= limit:
        return item
    spans = value_spans(item.text)
    if not spans:
        return item
    named = item.key.partition(":")[2] if item.key else ""
    a, b = max(spans, key=lambda s: (item.text[s[0] : s[1]] == named, _specificity(item, s)))
    for x, y in path_spans(item.text):  # a path with spaces is one value
        if x < b and a < y:
            a, b = min(a, x), max(b, y)
    return item.with_quote(item.quote.around(a, b, limit))


def _specificity(item: SummaryItem, span: tuple[int, int]) -> float:
    return tx.specificity(item.text[span[0] : span[1]])


def compressed(item: SummaryItem, limit: int) -> SummaryItem:
    """A pinned item cut to its first ``limit`` characters (an ellipsis marks the cut;
    the source message keeps the whole text)."""
    if len(item.text) <= limit:
        return item
    return item.with_quote(item.quote.cut(limit, lines=item.text.count("\n") + 1))
