"""Replay a recorded trajectory through a real compiled LangGraph graph.

The model node is a real LangChain chat model (``GenericFakeChatModel``) that answers
with the recorded assistant turns in order; the tool node answers with the recorded
tool results. The compaction node sits in front of the model, and every model input is
checked against the budget and the tool protocol as it is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.compaction.verify import protocol_violations
from langgraph_compact.node import CompactionNode, CompactState
from langgraph_compact.tokens import TokenCounter


@dataclass
class ReplayLog:
    """What the model saw on each call."""

    input_tokens: list[int] = field(default_factory=list)
    violations: list[list[str]] = field(default_factory=list)
    coverage: list[tuple[int, int] | None] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    """Steps where head + summary + tail did not account for every raw message exactly."""


def coverage_gap(
    raw: list[BaseMessage], seen: list[BaseMessage], summary: RunningSummary | None
) -> str | None:
    """Why ``seen`` is not exactly head + summary of ``[head_end, covered_through)`` + tail."""
    ids = [m.id for m in seen if not m.additional_kwargs.get("langgraph_compact_note")]
    if summary is None:
        expected = [m.id for m in raw]
    else:
        expected = [
            *(m.id for m in raw[: summary.head_end]),
            summary.to_message().id,
            *(m.id for m in raw[summary.covered_through :]),
        ]
    return None if ids == expected else f"projection ids {ids[:6]}... != expected {expected[:6]}..."


def build_replay_graph(
    trajectory: list[BaseMessage],
    node: CompactionNode,
    counter: TokenCounter,
    *,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    on_model_input: Callable[[list[BaseMessage]], None] | None = None,
) -> tuple[CompiledStateGraph[Any, Any, Any, Any], ReplayLog]:
    """A compact → agent → tools loop that replays ``trajectory``'s agent side."""
    log = ReplayLog()
    recorded = [m for m in trajectory if isinstance(m, AIMessage)]
    model = GenericFakeChatModel(messages=iter(recorded))
    results = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}

    def agent(state: CompactState) -> dict[str, Any]:
        seen = state["llm_input_messages"]
        log.input_tokens.append(counter.count_messages(seen))
        log.violations.append(protocol_violations(seen))
        summary = state.get("running_summary")
        log.coverage.append((summary.head_end, summary.covered_through) if summary else None)
        if gap := coverage_gap(state["messages"], seen, summary):
            log.gaps.append(gap)
        if on_model_input:
            on_model_input(seen)
        return {"messages": [model.invoke(seen)]}

    def tools(state: CompactState) -> dict[str, Any]:
        last = state["messages"][-1]
        assert isinstance(last, AIMessage)
        return {"messages": [results[c["id"] or ""] for c in last.tool_calls]}

    def route(state: CompactState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    def after_tools(state: CompactState) -> str:
        # The recording may end on a tool result: then there is no model turn left.
        return "compact" if len(log.input_tokens) < len(recorded) else END

    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges("agent", route, ["tools", END])
    builder.add_conditional_edges("tools", after_tools, ["compact", END])
    graph = builder.compile(checkpointer=checkpointer or InMemorySaver())
    return graph, log


def replay(
    trajectory: list[BaseMessage],
    node: CompactionNode,
    counter: TokenCounter,
    *,
    thread_id: str = "replay",
    checkpointer: BaseCheckpointSaver[Any] | None = None,
) -> tuple[list[BaseMessage], ReplayLog, CompiledStateGraph[Any, Any, Any, Any]]:
    """Drive the graph through the whole trajectory; returns the final raw messages.

    Messages up to and including each human turn are fed as input; the graph then runs
    the recorded agent turns until the next human message.
    """
    graph, log = build_replay_graph(trajectory, node, counter, checkpointer=checkpointer)
    config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 10_000}
    pending: list[BaseMessage] = []
    for i, message in enumerate(trajectory):
        if isinstance(message, (AIMessage, ToolMessage)):
            continue
        pending.append(message)
        nxt = trajectory[i + 1] if i + 1 < len(trajectory) else None
        if isinstance(nxt, AIMessage):
            graph.invoke({"messages": pending}, config)
            pending = []
    if pending:
        graph.update_state(config, {"messages": pending}, as_node="agent")
    final = graph.get_state(config).values["messages"]
    return final, log, graph
