"""ExtractiveSummarizer: delta merge, supersede, eviction, pinned constraints."""

from __future__ import annotations

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from langgraph_compact.compaction.summarize import ExtractiveSummarizer, SummaryRequest
from langgraph_compact.compaction.summary import RunningSummary, Section
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()


def _request(
    previous: RunningSummary | None, raw: list[BaseMessage], start: int, end: int, cap: int = 800
) -> SummaryRequest:
    return SummaryRequest(
        previous=previous,
        head=raw[:2],
        span=raw[start:end],
        span_start=start,
        covered=raw[2:end],
        max_tokens=cap,
        count_text=COUNTER.count_text,
        generation=previous.generation + 1 if previous else 1,
        parent_generation=previous.generation if previous else None,
    )


def _turn(i: int, command: str, output: str) -> list[BaseMessage]:
    call = {"id": f"c{i}", "name": "bash", "args": {"command": command}}
    return [
        AIMessage(f"Step {i}: running the next check.", tool_calls=[call], id=f"a{i}"),
        ToolMessage(output, tool_call_id=f"c{i}", name="bash", id=f"t{i}"),
    ]


def test_first_summary_takes_goal_from_head_and_items_from_span() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("You are a coding agent.", id="s"),
        HumanMessage("Fix the crash in the date parser. Never modify tests/.", id="h"),
        *_turn(1, "cat src/dates/parse.py", "def parse(): ..."),
        *_turn(2, "python -m pytest tests/test_parse.py", "ValueError: bad month 13"),
    ]
    summary = ExtractiveSummarizer().summarize(_request(None, raw, 2, len(raw)))
    assert summary.current(Section.GOAL) == [
        "Fix the crash in the date parser. Never modify tests/."
    ]
    assert "src/dates/parse.py" in summary.current(Section.FILES_READ)
    assert any("ValueError: bad month 13" in t for t in summary.current(Section.BLOCKED))
    assert (summary.head_end, summary.covered_through, summary.last_covered_id) == (2, 6, "t2")
    assert summary.generation == 1 and summary.token_count > 0


def test_later_success_unblocks_the_same_call() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Make the tests pass.", id="h"),
        *_turn(1, "pytest -x", "FAILED tests/test_a.py::test_x - AssertionError: 1 != 2"),
    ]
    first = ExtractiveSummarizer().summarize(_request(None, raw, 2, 4))
    assert first.current(Section.BLOCKED)
    raw += _turn(2, "pytest -x", "1 passed")
    second = ExtractiveSummarizer().summarize(_request(first, raw, 4, 6))
    assert second.current(Section.BLOCKED) == []
    assert "bash: pytest -x" in second.current(Section.DONE)
    assert second.generation == 2 and second.parent_generation == 1


def test_corrections_supersede_and_goal_changes_retire_old_task() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Plan the release.", id="h"),
        HumanMessage("The deadline is March 3.", id="u1"),
        AIMessage("Noted. I'll schedule the freeze before then.", id="a1"),
    ]
    s1 = ExtractiveSummarizer().summarize(_request(None, raw, 2, 4))
    assert "deadline: March 3" in s1.current(Section.CRITICAL)
    raw += [
        HumanMessage("Correction: the deadline is now March 9, not March 3.", id="u2"),
        HumanMessage("New task: write the changelog instead.", id="u3"),
    ]
    s2 = ExtractiveSummarizer().summarize(_request(s1, raw, 4, 6))
    critical = s2.current(Section.CRITICAL)
    assert "deadline: March 9" in critical
    assert not any("March 3" in t and "deadline" in t and "March 9" not in t for t in critical)
    assert s2.current(Section.GOAL) == ["New task: write the changelog instead."]
    assert any(i.historical and i.text == "Plan the release." for i in s2.items(Section.GOAL))


def test_eviction_keeps_pinned_constraints_and_respects_the_cap() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Clean up the repo. You must never push to main.", id="h"),
    ]
    summary = None
    for i in range(60):
        raw += _turn(i, f"cat pkg/module_{i}.py", f"contents of module {i}")
        summary = ExtractiveSummarizer().summarize(
            _request(summary, raw, len(raw) - 2, len(raw), cap=300)
        )
    assert summary is not None
    assert summary.token_count <= 300 + 60  # headers are outside the section caps
    assert summary.generation == 60
    read = summary.current(Section.FILES_READ)
    assert "pkg/module_59.py" in read and "pkg/module_0.py" not in read
