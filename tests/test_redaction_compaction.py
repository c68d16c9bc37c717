"""Redaction through the saver reaches the summary: bytes leave the file, coverage rebuilds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factories import ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage
from langgraph.graph import START, StateGraph

from langgraph_compact import Budget, CompactionNode, CompactState, TokenCounter
from langgraph_compact.checkpoint import CompactSqliteSaver

COUNTER = TokenCounter()
SECRET = "SK-99887766"


def _turns(start: int, n: int) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for i in range(start, start + n):
        call = ai_tool_call("bash", {"command": f"cat src/m{i}.py"}, id=f"a{i}")
        out += [call, tool_result(call, "source line\n" * 300, id=f"t{i}")]
    return out


def test_redacted_message_leaves_file_and_summary_is_rebuilt(tmp_path: Path) -> None:
    budget = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget, counter=COUNTER))
    builder.add_edge(START, "compact")
    db = tmp_path / "thread.sqlite"
    with CompactSqliteSaver.from_conn_string(str(db)) as saver:
        graph = builder.compile(checkpointer=saver)
        config: Any = {"configurable": {"thread_id": "t1"}}
        history = [
            system(id="s"),
            human("Deploy the service.", id="h0"),
            human(f"My API key is {SECRET}.", id="secret"),
            *_turns(0, 60),
        ]
        graph.invoke({"messages": history}, config)
        first = graph.get_state(config).values["running_summary"]
        assert first.covered_through > 3  # the secret message is covered...
        assert SECRET in first.render()  # ...and its fact was extracted

        result = saver.redact("t1", ["secret"], reason="credential pasted", actor="test")
        assert result.message_ids == ["secret"]
        assert SECRET.encode() not in db.read_bytes()
        state = graph.get_state(config).values
        assert SECRET not in str(state["messages"][2].content)
        assert [m.id for m in state["messages"]] == [m.id for m in history]

        graph.invoke({"messages": _turns(60, 2)}, config)
        rebuilt = graph.get_state(config).values["running_summary"]
        assert rebuilt.rebuilt_reason and "changed" in rebuilt.rebuilt_reason
        assert rebuilt.generation == first.generation + 1
        assert SECRET not in rebuilt.render()
    assert SECRET.encode() not in db.read_bytes()
