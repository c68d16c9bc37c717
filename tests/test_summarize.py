"""ExtractiveSummarizer with merge and selection: delta merge, supersede, eviction, pins."""

from __future__ import annotations

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from langgraph_compact.compaction.select import select_items
from langgraph_compact.compaction.summarize import ExtractiveSummarizer, SummaryRequest
from langgraph_compact.compaction.summary import RunningSummary, Section
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()


def _summarize(
    previous: RunningSummary | None, raw: list[BaseMessage], start: int, end: int, cap: int = 800
) -> RunningSummary:
    """What compact() does with the draft: fit it to the cap and stamp coverage."""
    request = SummaryRequest(
        previous=previous,
        head=raw[:2],
        span=raw[start:end],
        span_start=start,
        max_tokens=cap,
        count_text=COUNTER.count_text,
    )
    draft = ExtractiveSummarizer().summarize(request)
    bare = RunningSummary(
        head_end=2,
        covered_through=end,
        generation=previous.generation + 1 if previous else 1,
        parent_generation=previous.generation if previous else None,
    )
    chosen = select_items(draft.sections, cap, COUNTER.count_text, title=bare.title(), now=end)
    return bare.model_copy(update={"sections": chosen.sections, "token_count": chosen.tokens})


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
    summary = _summarize(None, raw, 2, len(raw))
    assert summary.current(Section.GOAL) == [
        "Fix the crash in the date parser. Never modify tests/."
    ]
    assert "src/dates/parse.py" in summary.current(Section.FILES_READ)
    assert any("ValueError: bad month 13" in t for t in summary.current(Section.BLOCKED))
    assert "ValueError: bad month 13" in summary.current(Section.CRITICAL)
    assert summary.token_count > 0


def test_later_success_unblocks_the_same_call() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Make the tests pass.", id="h"),
        *_turn(1, "pytest -x", "FAILED tests/test_a.py::test_x - AssertionError: 1 != 2"),
    ]
    first = _summarize(None, raw, 2, 4)
    assert first.current(Section.BLOCKED)
    raw += _turn(2, "pytest -x", "1 passed")
    second = _summarize(first, raw, 4, 6)
    assert second.current(Section.BLOCKED) == []
    assert "bash: pytest -x" in second.current(Section.DONE)


def test_corrections_supersede_and_goal_changes_retire_old_task() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Plan the release.", id="h"),
        HumanMessage("The deadline is March 3.", id="u1"),
        AIMessage("Noted. I'll schedule the freeze before then.", id="a1"),
    ]
    s1 = _summarize(None, raw, 2, 4)
    assert "The deadline is March 3" in s1.current(Section.CRITICAL)
    raw += [
        HumanMessage("Correction: the deadline is now March 9, not March 3.", id="u2"),
        HumanMessage("New task: write the changelog instead.", id="u3"),
    ]
    s2 = _summarize(s1, raw, 4, 6)
    assert any("the deadline is now March 9" in t for t in s2.current(Section.CRITICAL))
    assert "March 3" not in s2.render()  # the stale value is gone, not merely demoted
    assert s2.current(Section.GOAL) == ["New task: write the changelog instead."]
    assert any(i.historical and i.text == "Plan the release." for i in s2.items(Section.GOAL))
    pinned = {i.text for items in s2.sections.values() for i in items if i.pinned}
    assert any("the deadline is now March 9" in t for t in pinned)


def test_a_correction_by_value_drops_what_still_states_the_old_value() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Set up the proxy.", id="h"),
        HumanMessage("The service listens on port 8080.", id="u1"),
        HumanMessage("Scratch that, use port 8443 instead of 8080.", id="u2"),
    ]
    summary = _summarize(None, raw, 2, 4)
    text = summary.render()
    assert "8443" in text and "8080" not in text


def test_eviction_keeps_pinned_constraints_fills_and_respects_the_cap() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Clean up the repo. You must never push to main.", id="h"),
        HumanMessage("I prefer small commits.", id="u"),
    ]
    summary = _summarize(None, raw, 2, 3, cap=300)
    for i in range(60):
        raw += _turn(i, f"cat pkg/module_{i}.py", f"setting_{i} = {1000 + i}\ncontents")
        summary = _summarize(summary, raw, len(raw) - 2, len(raw), cap=300)
    assert summary.token_count <= 300
    assert summary.token_count >= 240  # the cap is filled, not left half empty
    assert any("small commits" in t for t in summary.current(Section.CONSTRAINTS))
    read = summary.current(Section.FILES_READ)
    assert "pkg/module_59.py" in read and "pkg/module_0.py" not in read


def test_junk_never_enters() -> None:
    raw: list[BaseMessage] = [
        SystemMessage("s", id="s"),
        HumanMessage("Fix it.", id="h"),
        AIMessage(
            "Now let me test again:",
            tool_calls=[{"id": "c1", "name": "bash", "args": {"command": "python t.py"}}],
            id="a1",
        ),
        ToolMessage(
            "Traceback (most recent call last):\n  File \"t.py\", line 1\nKeyError: 'x'",
            tool_call_id="c1",
            id="t1",
        ),
        AIMessage("Good!", id="a2"),
    ]
    summary = _summarize(None, raw, 2, 5)
    text = summary.render()
    assert "Traceback (most recent call last)" not in text
    assert "KeyError: 'x'" in text
    assert "Now let me test again" not in text and "- Good!" not in text
    items = [i.text for items in summary.sections.values() for i in items]
    assert len(items) == len(set(items))
