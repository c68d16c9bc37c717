"""Grounding: an item is shown only if every value it states is in what it summarizes.

Extracted items are quotes by construction (``quote.Span``). A model's items, and a
custom summarizer's, are free text: one that states a value (a time, a port, a path, an
id, a name) found in none of the texts the summarizer was given — the head, the delta
span with its tool calls, the previous summary — is *flagged*: kept out of the sections
and recorded in ``RunningSummary.flagged`` with a log line, so a rewritten ``build-7:2222``
never reaches the model as a fact. Values an item states verbatim get a ``Span`` each,
pointing at the newest message that holds them, so the inspector can show the source.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from langchain_core.messages import AIMessage, BaseMessage

from langgraph_compact.compaction.quote import Span, call_sources, value_spans
from langgraph_compact.compaction.summary import Section, SummaryItem

if TYPE_CHECKING:
    from langgraph_compact.compaction.summarize import SummaryRequest
from langgraph_compact.messages import message_text

__all__ = ["Pool", "ground_items", "ground_sections", "request_pool"]

log = logging.getLogger(__name__)


class Pool:
    """The texts a summarizer was given, searchable for values.

    ``messages`` can be quoted (a found value gets a span); ``extra`` texts (the previous
    summary's rendering) only vouch for a value.
    """

    def __init__(self, messages: Sequence[BaseMessage], extra: Sequence[str] = ()) -> None:
        texts: list[tuple[str, str, str]] = []  # (id, part, text), newest first
        names: list[str] = []
        for m in reversed(messages):
            texts.append((m.id or "", "", message_text(m)))
            if isinstance(m, AIMessage):
                for call in m.tool_calls:
                    names.append(str(call.get("name") or ""))
                    names.extend(str(arg) for arg in call.get("args") or {})
                    texts.extend((s.id, s.part, s.text) for s in call_sources(call))
        self._texts = texts
        self._all = "\n".join([*(t for _, _, t in texts), *names, *extra])
        self._folded = self._all.casefold()

    def holds(self, value: str) -> bool:
        """``value`` appears verbatim as a whole value (a capitalized plain word: in any
        case): ``09`` is not in ``09:00``, nor ``7`` in ``build-7:2222``, so a model's
        re-spaced ``09: 00`` or ``build 7: 2222`` is not vouched for by its pieces."""
        if _whole(value).search(self._all):
            return True
        plain = value.isascii() and value.isalpha() and value[1:].islower()
        return plain and _whole(value.casefold()).search(self._folded) is not None

    def span(self, value: str, at: int) -> Span | None:
        """A span for ``value`` shown at ``at``: its place in the newest message holding it."""
        pattern = _whole(value)
        for mid, part, text in self._texts:
            found = pattern.search(text)
            if found:
                return Span(id=mid, start=found.start(), end=found.end(), at=at, part=part)
        return None


_JOIN = r"[-_:/\\.@#=+~%]"
"""Punctuation that joins two word characters into one value (``build-7``, ``09:00``)."""


@lru_cache(maxsize=4096)
def _whole(value: str) -> re.Pattern[str]:
    """``value`` not glued to more of a value on either side; a name may go on with a
    port or a line number (``db-3.internal`` in ``db-3.internal:5432``, ``x.py`` in
    ``x.py:12``), a number may not (``09`` of ``09:00``)."""
    port = r"(?!:\d)" if any(c.isalpha() for c in value) else ""
    return re.compile(rf"(?<!\w)(?<!\w{_JOIN}){re.escape(value)}(?!\w)(?!{port}{_JOIN}\w)")


def ground_item(item: SummaryItem, pool: Pool) -> tuple[SummaryItem, list[str]]:
    """``item`` with a span for each of its unquoted values that ``pool`` holds, and the
    values it holds nowhere (empty: the item is grounded)."""
    quoted = [(s.at, s.at + s.end - s.start) for s in item.spans]
    added: list[Span] = []
    missing: list[str] = []
    for a, b in value_spans(item.text):
        if any(x <= a and b <= y for x, y in quoted):
            continue
        value = item.text[a:b]
        if not pool.holds(value):
            missing.append(value)
        elif (span := pool.span(value, a)) is not None:
            added.append(span)
    if added and not missing:
        spans = tuple(sorted((*item.spans, *added), key=lambda s: s.at))
        item = item.model_copy(update={"spans": spans})
    return item, missing


def request_pool(request: SummaryRequest) -> Pool:
    """What a summarizer was given for ``request``: the head, the span, the previous
    summary as rendered."""
    previous = [request.previous.render()] if request.previous else []
    return Pool([*request.head, *request.span], previous)


def ground_items(
    items: Sequence[tuple[Section, SummaryItem]], pool: Pool
) -> tuple[list[tuple[Section, SummaryItem]], list[str]]:
    """The grounded ``(section, item)`` pairs, and the others as ``"Section: text
    (unsupported: v1, v2)"`` lines (logged)."""
    kept: list[tuple[Section, SummaryItem]] = []
    flagged: list[str] = []
    for section, item in items:
        grounded, missing = ground_item(item, pool)
        if missing:
            flagged.append(f"{section.value}: {item.text} (unsupported: {', '.join(missing)})")
        else:
            kept.append((section, grounded))
    if flagged:
        log.warning(
            "%d summary item(s) state values found in no summarized message; flagged, not "
            "shown: %s",
            len(flagged),
            "; ".join(flagged[:3]),
        )
    return kept, flagged


def ground_sections(
    sections: Mapping[Section, Sequence[SummaryItem]], pool: Pool
) -> tuple[dict[Section, tuple[SummaryItem, ...]], tuple[str, ...]]:
    """``ground_items`` by section: what is kept in each, and the flagged lines."""
    kept, flagged = ground_items([(s, i) for s, items in sections.items() for i in items], pool)
    out: dict[Section, list[SummaryItem]] = {section: [] for section in sections}
    for section, item in kept:
        out[section].append(item)
    return {section: tuple(items) for section, items in out.items()}, tuple(flagged)
