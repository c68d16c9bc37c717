"""Under LangGraph's strict msgpack mode the summary still loads from the compact saver."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
from langgraph.graph import START, StateGraph
from langgraph_compact import Budget, CompactionNode, CompactState, RunningSummary
from langgraph_compact.checkpoint import CompactSqliteSaver
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

budget = Budget(context_window=2_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
builder = StateGraph(CompactState)
builder.add_node("compact", CompactionNode(budget))
builder.add_edge(START, "compact")
messages = [HumanMessage("Read the modules.", id="h")]
for i in range(40):
    call = {"id": f"c{i}", "name": "cat", "args": {"path": f"m{i}.py"}}
    messages += [AIMessage("", tool_calls=[call], id=f"a{i}"),
                 ToolMessage("line\\n" * 200, tool_call_id=f"c{i}", id=f"t{i}")]
with CompactSqliteSaver.from_conn_string(sys.argv[1]) as saver:
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "strict"}}
    graph.invoke({"messages": messages}, config)
    summary = graph.get_state(config).values["running_summary"]
    assert isinstance(summary, RunningSummary), type(summary)
    print("generation", summary.generation)
"""


def test_summary_loads_in_strict_msgpack_mode(tmp_path: Path) -> None:
    env = {"LANGGRAPH_STRICT_MSGPACK": "true", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "s.sqlite")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "generation 1" in done.stdout
