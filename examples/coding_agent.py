"""A worked example: a coding agent that runs inside an 8k-token window without losing history.

The graph is ``compact → agent → tools → compact …``. The agent is a replaying chat model
(a stand-in for any LangChain chat model) that re-enacts a real mini-swe-agent run shipped
with the package; the tools answer with the recorded outputs, plus a real ``recall`` tool
backed by the checkpointer. Every raw message is persisted once in SQLite; the model
only ever sees the projection.

Run it:  python examples/coding_agent.py [path/to/db.sqlite]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.graph import END, START, StateGraph

from langgraph_compact import Budget, CompactionNode, CompactState, TokenCounter
from langgraph_compact.checkpoint import CompactSqliteSaver, make_recall_tool
from langgraph_compact.trajectories import load_trajectory, sample_path

TRAJECTORY = sample_path("mini-swe-agent-test-django__django-11099")


def build_graph(saver: CompactSqliteSaver, recorded: list[Any], counter: TokenCounter) -> Any:
    """The agent graph with the compaction node in front of the model."""
    agent_turns = [m for m in recorded if isinstance(m, AIMessage)]
    model = GenericFakeChatModel(messages=iter(agent_turns))
    outputs = {m.tool_call_id: m for m in recorded if isinstance(m, ToolMessage)}
    budget = Budget(context_window=8_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
    peak = {"tokens": 0, "calls": 0}

    def agent(state: CompactState) -> dict[str, Any]:
        seen = state["llm_input_messages"]  # the projection, never the raw history
        peak["tokens"] = max(peak["tokens"], counter.count_messages(seen))
        peak["calls"] += 1
        return {"messages": [model.invoke(seen)]}

    def tools(state: CompactState) -> dict[str, Any]:
        last = state["messages"][-1]
        return {"messages": [outputs[c["id"]] for c in last.tool_calls]}

    def next_step(state: CompactState) -> str:
        last = state["messages"][-1]
        if isinstance(last, AIMessage) and last.tool_calls:
            return "tools"
        return END

    def after_tools(state: CompactState) -> str:
        return "compact" if peak["calls"] < len(agent_turns) else END

    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget, counter=counter))
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges("agent", next_step, ["tools", END])
    builder.add_conditional_edges("tools", after_tools, ["compact", END])
    graph = builder.compile(checkpointer=saver)
    graph.peak = peak  # type: ignore[attr-defined]
    return graph


def main(db_path: str | Path) -> dict[str, Any]:
    """Run the agent, then look back through the raw history. Returns what it printed."""
    recorded = load_trajectory(TRAJECTORY)
    counter = TokenCounter()
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        graph = build_graph(saver, recorded, counter)
        config = {"configurable": {"thread_id": "django-11099"}, "recursion_limit": 1_000}
        graph.invoke({"messages": recorded[:2]}, config)

        state = graph.get_state(config).values
        summary = state["running_summary"]
        recall = make_recall_tool(saver)
        clipped_ref = recorded[5].id
        original = recall.invoke(
            {"ref": clipped_ref, "limit": 200},
            config={"configurable": {"thread_id": "django-11099"}},
        )
        report = {
            "raw_messages": len(state["messages"]),
            "raw_tokens": counter.count_messages(state["messages"]),
            "peak_model_input_tokens": graph.peak["tokens"],
            "model_calls": graph.peak["calls"],
            "summary_generation": summary.generation,
            "summary_covers": (summary.head_end, summary.covered_through),
            "history_is_intact": state["messages"] == recorded,
            "recall_sample": original[:120],
            "summary": summary.render(),
        }
    for key, value in report.items():
        if key != "summary":
            print(f"{key:>24}: {value}")
    print("\n" + report["summary"])
    return report


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--write-readme"]
    with tempfile.TemporaryDirectory() as tmp:
        printed = main(args[0] if args else Path(tmp) / "agent.sqlite")
    if "--write-readme" in sys.argv:  # the README shows this summary as printed
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
        from _report import publish

        publish("example", printed["summary"])
