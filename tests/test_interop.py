"""A LangMem summary is imported as coverage the node continues from, and exported back."""

from __future__ import annotations

import pytest
from factories import ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage
from langmem.short_term import RunningSummary as LangMemSummary

from langgraph_compact import Budget, CompactionSettings, TokenCounter, compact
from langgraph_compact.compaction import Section
from langgraph_compact.errors import SummaryError
from langgraph_compact.interop import from_langmem, to_langmem

COUNTER = TokenCounter()
BUDGET = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)


def _history(n: int) -> list[BaseMessage]:
    msgs: list[BaseMessage] = [system(id="s"), human("Audit the modules.", id="h")]
    for i in range(n):
        call = ai_tool_call("cat", {"path": f"m{i}.py"}, id=f"a{i}")
        msgs += [call, tool_result(call, "code line\n" * 200, id=f"t{i}")]
    return msgs


def test_import_continues_with_a_delta_and_keeps_the_text() -> None:
    raw = _history(90)
    imported = from_langmem(
        LangMemSummary(
            summary="Modules m0 to m9 were audited. Ticket AB-1234 tracks the findings.",
            summarized_message_ids={m.id for m in raw[2:22] if m.id},
            last_summarized_message_id="t9",
        ),
        raw,
    )
    assert (imported.head_end, imported.covered_through) == (2, 22)
    assert "Ticket AB-1234 tracks the findings." in imported.current(Section.CRITICAL)
    result = compact(raw, imported, CompactionSettings(BUDGET, counter=COUNTER))
    assert result.summary is not None and result.summary.parent_generation == 1
    assert result.summary.covered_through > 22  # only the delta was summarized
    assert "AB-1234" in result.summary.render()


def test_import_never_splits_a_tool_group_and_rejects_foreign_ids() -> None:
    raw = _history(5)
    summary = LangMemSummary("x.", set(), "a2")  # an AI message whose result follows it
    assert from_langmem(summary, raw).covered_through == 6  # before a2, not between a2/t2
    with pytest.raises(SummaryError, match="not in this thread"):
        from_langmem(LangMemSummary("x.", set(), "elsewhere"), raw)


def test_export_lists_exactly_the_covered_ids() -> None:
    raw = _history(40)
    ours = compact(raw, None, CompactionSettings(BUDGET, counter=COUNTER)).summary
    assert ours is not None
    exported = to_langmem(ours, raw)
    assert exported.summarized_message_ids == {m.id for m in raw[2 : ours.covered_through]}
    assert exported.last_summarized_message_id == raw[ours.covered_through - 1].id
    assert exported.summary.startswith("[Summary of messages 3–")
