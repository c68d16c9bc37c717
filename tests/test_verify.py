"""Verify and repair: the tool protocol providers enforce, and the budget."""

from __future__ import annotations

import pytest
from factories import ai, ai_tool_call, ai_tool_calls, human, system, tool_result
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from langgraph_compact.compaction.verify import (
    UNKNOWN_TOOL_NAME,
    assert_tool_pairs_intact,
    protocol_violations,
    repair_projection,
    verify_projection,
)
from langgraph_compact.errors import ContextBudgetError, ProtocolError
from langgraph_compact.tokens import TokenCounter


def _valid() -> list[BaseMessage]:
    par = ai_tool_calls([("read", {"p": 1}), ("read", {"p": 2})], id="par")
    one = ai_tool_call("bash", {"command": "ls"}, id="one")
    return [
        system(),
        human(),
        par,
        tool_result(par, "2", index=1),  # parallel results in any order
        tool_result(par, "1", index=0),
        one,
        tool_result(one, "files"),
        ai("done"),
        human("thanks"),
    ]


def test_valid_history_has_no_violations() -> None:
    assert protocol_violations(_valid()) == []
    assert_tool_pairs_intact(_valid())
    verify_projection(_valid())


def test_pending_last_call_is_allowed() -> None:
    msgs = [*_valid(), ai_tool_call("bash", {"command": "pytest"})]
    assert protocol_violations(msgs) == []


def test_partial_answer_at_the_end_is_not_pending() -> None:
    par = ai_tool_calls([("a", {}), ("b", {})])
    msgs = [human(), par, tool_result(par, "x", index=0)]
    assert len(protocol_violations(msgs)) == 1


def _broken_cases() -> dict[str, tuple[list[BaseMessage], str]]:
    call = ai_tool_call("bash", {"command": "ls"}, call_id="c1", id="a1")
    return {
        "orphan": ([human(), ToolMessage("x", tool_call_id="nope", id="t0")], "orphan result"),
        "unanswered": ([human(), call, ai("moving on")], "has no result before message 2"),
        "interleaved": (
            [human(), call, human("wait"), tool_result(call, "x")],
            "has no result before message 2",
        ),
        "second result": (
            [human(), call, tool_result(call, "x"), tool_result(call, "y")],
            "second result",
        ),
        "reused id": (
            [human(), call, tool_result(call, "x"), ai_tool_call("b", call_id="c1"), human()],
            "was already used",
        ),
        "empty name": ([human(), ai_tool_call("", {"x": 1}), human()], "empty name"),
        "ai first": ([system(), ai("hello")], "first non-system message"),
        "no call id": (
            [human(), AIMessage("", tool_calls=[{"name": "x", "args": {}, "id": None}], id="q")],
            "has no id",
        ),
    }


@pytest.mark.parametrize("case", list(_broken_cases()))
def test_each_violation_is_reported_and_raised(case: str) -> None:
    msgs, expected = _broken_cases()[case]
    problems = protocol_violations(msgs)
    assert any(expected in p for p in problems), problems
    with pytest.raises(ProtocolError, match="repair_projection"):
        verify_projection(msgs)
    with pytest.raises(AssertionError, match="tool pairs broken"):
        assert_tool_pairs_intact(msgs)


@pytest.mark.parametrize("case", [c for c in _broken_cases() if c != "no call id"])
def test_repair_makes_each_case_valid_and_reports(case: str) -> None:
    msgs, _ = _broken_cases()[case]
    before = [m.model_dump() for m in msgs]
    result = repair_projection(msgs)
    assert [m.model_dump() for m in msgs] == before  # raw untouched
    assert result.repairs, case
    assert protocol_violations(result.messages) == [], (case, result.repairs)


def test_repair_of_valid_input_is_identity() -> None:
    msgs = _valid()
    result = repair_projection(msgs)
    assert result.repairs == ()
    assert all(a is b for a, b in zip(result.messages, msgs, strict=True))


def test_repair_renames_reused_ids_like_tau_bench() -> None:
    first = ai_tool_call("calculate", {"e": "1+1"}, call_id="call_X", id="a1")
    second = ai_tool_call("book", {"f": "A"}, call_id="call_X", id="a2")
    msgs = [human(), first, tool_result(first, "2"), second, tool_result(second, "booked")]
    result = repair_projection(msgs)
    out = result.messages
    assert isinstance(out[3], AIMessage) and isinstance(out[4], ToolMessage)
    assert out[3].tool_calls[0]["id"] == "call_X-dup1"
    assert out[4].tool_call_id == "call_X-dup1"
    assert out[4].content == "booked"
    assert out[3].id == "a2" and out[4].id == msgs[4].id
    assert any("call_X-dup1" in r for r in result.repairs)


def test_repair_moves_late_results_and_fills_missing_ones() -> None:
    par = ai_tool_calls([("a", {}), ("b", {})], call_ids=["ca", "cb"], id="par")
    late = tool_result(par, "A", index=0, id="late")
    msgs = [human(), par, human("hurry"), late, ai("ok")]
    result = repair_projection(msgs)
    assert [m.id for m in result.messages][:3] == [msgs[0].id, "par", "late"]
    filler = result.messages[3]
    assert isinstance(filler, ToolMessage) and filler.tool_call_id == "cb"
    assert filler.status == "error" and filler.id == "par/missing/cb"
    assert any("moved" in r for r in result.repairs)
    assert any("placeholder" in r for r in result.repairs)


def test_repair_names_nameless_calls() -> None:
    msgs = [human(), ai_tool_call("", {"x": 1}), human()]
    out = repair_projection(msgs).messages[1]
    assert isinstance(out, AIMessage) and out.tool_calls[0]["name"] == UNKNOWN_TOOL_NAME


def test_budget_check() -> None:
    counter = TokenCounter()
    msgs = _valid()
    total = counter.count_messages(msgs)
    verify_projection(msgs, counter=counter, budget_tokens=total)
    with pytest.raises(ContextBudgetError, match=f"over the budget of {total - 1:,} by 1"):
        verify_projection(msgs, counter=counter, budget_tokens=total - 1)


def test_budget_error_says_when_the_system_prompt_alone_is_too_big() -> None:
    msgs = [system("rule " * 2_000), human()]
    with pytest.raises(ContextBudgetError, match="system prompt alone"):
        verify_projection(msgs, budget_tokens=500)
