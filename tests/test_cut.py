"""Head and cut-point selection: tool-call groups are never split."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from langgraph_compact.compaction.cut import find_cut_point, find_head_end, is_cut_point


def _call(i: int, n: int = 1) -> list:
    ids = [f"c{i}-{k}" for k in range(n)]
    ai = AIMessage("", id=f"a{i}", tool_calls=[{"id": c, "name": "t", "args": {}} for c in ids])
    return [ai, *(ToolMessage("out", tool_call_id=c, id=f"t{c}") for c in ids)]


def test_head_is_system_messages_and_first_request() -> None:
    msgs = [SystemMessage("a"), SystemMessage("b"), HumanMessage("task"), *_call(1)]
    assert find_head_end(msgs) == 3
    assert find_head_end(msgs, protect_first_human=False) == 2
    assert find_head_end([*_call(1)]) == 0


def test_cut_never_lands_on_a_tool_message_with_parallel_calls() -> None:
    msgs = [HumanMessage("task", id="h"), *_call(1, 3), *_call(2, 3), HumanMessage("go", id="h2")]
    counts = [10] * len(msgs)
    for keep in range(0, 100, 5):
        cut = find_cut_point(counts, msgs, 1, keep)
        assert is_cut_point(msgs, cut), (keep, cut)
        assert cut >= 1


def test_cut_keeps_the_largest_tail_that_fits() -> None:
    msgs = [HumanMessage("task", id="h"), *_call(1), *_call(2), *_call(3)]
    counts = [10] * len(msgs)
    assert find_cut_point(counts, msgs, 1, 40) == 3  # last two groups: 4 messages
    assert find_cut_point(counts, msgs, 1, 39) == 5  # only the last group fits


def test_oversized_last_turn_is_returned_not_dropped() -> None:
    msgs = [HumanMessage("task", id="h"), *_call(1), *_call(2, 2)]
    counts = [10, 10, 10, 10, 500, 500]
    assert find_cut_point(counts, msgs, 1, 50) == 3  # the AI message of the last turn
