"""Stage 2, dedupe: latest-wins by (tool name, canonical args); pairs never broken."""

from __future__ import annotations

from factories import ai, ai_tool_call, ai_tool_calls, human, tool_result
from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.dedupe import dedupe_tool_reads
from langgraph_compact.compaction.stage import marker_ref
from langgraph_compact.compaction.verify import assert_tool_pairs_intact
from langgraph_compact.policies import ToolPolicies, ToolPolicy

BIG = "file contents line\n" * 100


def _reads(args_a: dict[str, object], args_b: dict[str, object]) -> list[BaseMessage]:
    first = ai_tool_call("read_file", args_a, id="a1")
    second = ai_tool_call("read_file", args_b, id="a2")
    return [
        human(id="h"),
        first,
        tool_result(first, BIG, id="t1"),
        ai("thinking", id="x"),
        human("go on", id="h2"),
        second,
        tool_result(second, BIG + "changed", id="t2"),
    ]


def test_earlier_identical_read_becomes_placeholder_naming_the_later_one() -> None:
    msgs = _reads({"path": "a.py", "lines": [1, 2]}, {"lines": [1, 2], "path": "a.py"})
    res = dedupe_tool_reads(msgs, ToolPolicies())
    assert res.changed == (2,)
    placeholder = str(res.messages[2].content)
    assert placeholder.startswith("[superseded by a later identical call read_file")
    assert "result in message t2" in placeholder
    assert marker_ref(placeholder) == "t1"
    assert res.messages[6] is msgs[6]  # latest wins, verbatim
    assert len(res.messages) == len(msgs)
    assert_tool_pairs_intact(res.messages)


def test_different_args_are_not_duplicates() -> None:
    msgs = _reads({"path": "a.py"}, {"path": "b.py"})
    assert dedupe_tool_reads(msgs, ToolPolicies()).changed == ()


def test_different_tools_same_args_are_not_duplicates() -> None:
    first = ai_tool_call("read_file", {"path": "a.py"})
    second = ai_tool_call("stat_file", {"path": "a.py"})
    msgs = [human(), first, tool_result(first, BIG), second, tool_result(second, BIG)]
    assert dedupe_tool_reads(msgs, ToolPolicies()).changed == ()


def test_open_world_tools_are_never_deduped() -> None:
    msgs = _reads({"path": "a.py"}, {"path": "a.py"})
    policies = ToolPolicies({"read_file": ToolPolicy(open_world=True)})
    assert dedupe_tool_reads(msgs, policies).changed == ()


def test_three_copies_keep_only_the_last() -> None:
    calls = [ai_tool_call("bash", {"command": "pytest"}) for _ in range(3)]
    msgs: list[BaseMessage] = [human()]
    for c in calls:
        msgs += [c, tool_result(c, "FAILED test_x\n" * 50)]
    res = dedupe_tool_reads(msgs, ToolPolicies())
    assert res.changed == (2, 4)
    last_id = msgs[6].id
    assert all(f"result in message {last_id}" in str(res.messages[i].content) for i in (2, 4))


def test_parallel_identical_calls_in_one_message() -> None:
    both = ai_tool_calls([("read_file", {"path": "a.py"}), ("read_file", {"path": "a.py"})])
    msgs = [human(), both, tool_result(both, BIG, index=0), tool_result(both, BIG, index=1)]
    res = dedupe_tool_reads(msgs, ToolPolicies())
    assert res.changed == (2,)
    assert_tool_pairs_intact(res.messages)


def test_tiny_outputs_are_left_alone() -> None:
    msgs = _reads({"path": "a.py"}, {"path": "a.py"})
    msgs[2] = msgs[2].model_copy(update={"content": "ok"})
    assert dedupe_tool_reads(msgs, ToolPolicies()).changed == ()


def test_input_not_mutated() -> None:
    msgs = _reads({"path": "a.py"}, {"path": "a.py"})
    before = [m.model_dump() for m in msgs]
    dedupe_tool_reads(msgs, ToolPolicies())
    assert [m.model_dump() for m in msgs] == before


def test_reused_call_id_pairs_with_nearest_call() -> None:
    """tau-bench reuses call ids; each result belongs to the call right before it."""
    first = ai_tool_call("calc", {"x": 1}, call_id="dup")
    second = ai_tool_call("book", {"flight": "A1"}, call_id="dup")
    third = ai_tool_call("calc", {"x": 1}, call_id="fresh")
    msgs = [
        human(),
        first,
        tool_result(first, BIG),
        second,
        tool_result(second, BIG),
        third,
        tool_result(third, BIG),
    ]
    res = dedupe_tool_reads(msgs, ToolPolicies())
    assert res.changed == (2,)  # calc result replaced, the book result (same id) kept
