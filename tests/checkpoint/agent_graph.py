"""A small real agent graph for the checkpoint tests (also run in subprocesses).

``agent`` plays a deterministic model: it calls ``read_file`` with an argument derived
from the turn; ``tools`` is LangGraph's ``ToolNode`` running a real tool. Each turn
(``invoke({"messages": [HumanMessage]})``) adds a human message, an AIMessage with one
tool call and a ToolMessage.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, messages_to_dict
from langchain_core.tools import tool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode

from langgraph_compact.compaction.summary import RunningSummary


@tool
def read_file(path: str) -> str:
    """Read a file."""
    return f"contents of {path}\n" + "\n".join(f"{path}:{i}: line {i} of {path}" for i in range(40))


class AgentState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    notes: str
    summary: RunningSummary


def agent(state: AgentState) -> dict[str, Any]:
    last_human = next(m for m in reversed(state["messages"]) if m.type == "human")
    tail = str(last_human.id).rsplit("-", 1)[-1]
    turn = int(tail) if tail.isdigit() else len(state["messages"])
    call = {"id": f"call-{turn}", "name": "read_file", "args": {"path": f"src/mod{turn}.py"}}
    return {"messages": [AIMessage(f"reading mod{turn}", id=f"ai-{turn}", tool_calls=[call])]}


def build_graph(saver: BaseCheckpointSaver[Any]) -> Any:
    """START -> agent -> tools -> END, compiled with ``saver``."""
    builder = StateGraph(AgentState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([read_file]))
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "tools")
    builder.add_edge("tools", END)
    return builder.compile(checkpointer=saver)


def turn_input(turn: int) -> dict[str, Any]:
    return {"messages": [HumanMessage(f"please read module {turn}", id=f"human-{turn}")]}


def state_json(graph: Any, config: dict[str, Any]) -> str:
    """The thread's state as canonical JSON, for byte-for-byte comparison."""
    values = graph.get_state(config).values
    return json.dumps(
        {"messages": messages_to_dict(values["messages"]), "notes": values.get("notes")},
        sort_keys=True,
    )


def file_bytes(db_path: Path) -> bytes:
    """Every byte SQLite keeps for a database: the file, its WAL and shared memory."""
    return b"".join(
        p.read_bytes() for p in sorted(db_path.parent.glob(db_path.name + "*")) if p.is_file()
    )


def main() -> None:
    """``python agent_graph.py DB THREAD FIRST_TURN N``: run N turns, print the state."""
    from langgraph_compact.checkpoint import CompactSqliteSaver

    path, thread, first, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    config = {"configurable": {"thread_id": thread}}
    with CompactSqliteSaver.from_conn_string(path) as saver:
        graph = build_graph(saver)
        for turn in range(first, first + n):
            graph.invoke(turn_input(turn), config)
        print(state_json(graph, config))


if __name__ == "__main__":
    main()
