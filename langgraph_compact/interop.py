"""Move a thread between LangMem's ``RunningSummary`` and ours.

A thread that used ``langmem.short_term.SummarizationNode`` keeps a LangMem summary (free
text plus the ids it summarized). ``from_langmem`` turns it into a ``RunningSummary``
whose coverage ends at the last summarized message, so ``CompactionNode`` continues from
there with a delta instead of re-summarizing the thread; ``to_langmem`` goes the other way.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage
from langmem.short_term import RunningSummary as LangMemSummary

from langgraph_compact.compaction.cut import find_head_end, is_cut_point
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.compaction.text import sentences
from langgraph_compact.errors import SummaryError
from langgraph_compact.messages import span_digest

__all__ = ["from_langmem", "to_langmem"]


def from_langmem(
    summary: LangMemSummary,
    messages: Sequence[BaseMessage],
    *,
    protect_first_human: bool = True,
) -> RunningSummary:
    """A ``RunningSummary`` carrying LangMem's text, covering what LangMem summarized.

    The LangMem text becomes Critical Context items (one per sentence). Coverage ends just
    after ``last_summarized_message_id``, moved back to a point that does not split a
    tool-call group: messages after it stay in the verbatim tail, so nothing is dropped.

    Raises:
        SummaryError: the last summarized message is not in ``messages``.
    """
    head_end = find_head_end(messages, protect_first_human=protect_first_human)
    last = summary.last_summarized_message_id
    index = next((i for i, m in enumerate(messages) if m.id == last), None)
    if index is None:
        raise SummaryError(
            f"LangMem's last summarized message {last!r} is not in this thread's messages; "
            "pass the same thread's raw messages"
        )
    end = max(head_end, index + 1)
    while end > head_end and not is_cut_point(messages, end):
        end -= 1
    items = tuple(
        SummaryItem(text=text, key=f"langmem:{n}", kind="note", seq=end - 1, salience=0.6)
        for n, text in enumerate(sentences(summary.summary))
    )
    covered = messages[head_end:end]
    return RunningSummary(
        sections={Section.CRITICAL: items} if items else {},
        head_end=head_end,
        covered_through=end,
        last_covered_id=covered[-1].id if covered else None,
        span_digest=span_digest(covered),
        summarizer="langmem-import",
    )


def to_langmem(summary: RunningSummary, messages: Sequence[BaseMessage]) -> LangMemSummary:
    """LangMem's ``RunningSummary`` for a thread this package compacted."""
    covered = messages[summary.head_end : summary.covered_through]
    return LangMemSummary(
        summary=summary.render(),
        summarized_message_ids={m.id for m in covered if m.id},
        last_summarized_message_id=summary.last_covered_id,
    )
