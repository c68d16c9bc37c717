"""Replay one recorded run across rotations: parent → child → grandchild, one saver.

The graph is ``compact → agent → tools`` with ``CompactionNode`` (task list on); the agent
answers with the recorded assistant turns in order and the tools with the recorded
results, as in ``replay_trajectory``. After every tool step the ``RotationPolicy`` is
asked; when it names a reason the run stops, ``rotate`` starts the child thread from a
hand-off, and the replay goes on there with the next recorded turn. Every model input is
measured (tokens, tool protocol) with the thread it was sent in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph

from langgraph_compact.compaction import CompactionSettings, protocol_violations
from langgraph_compact.node import CompactionNode, CompactState
from langgraph_compact.rotation import RotationPolicy, RotationResult, rotate

__all__ = ["RotatingCall", "RotatingReplay", "replay_rotating"]


@dataclass(frozen=True)
class RotatingCall:
    """One agent-model call of a rotating replay."""

    thread_id: str
    input_tokens: int
    violations: tuple[str, ...]
    messages: tuple[BaseMessage, ...]
    """What the model was sent (the projection)."""


@dataclass
class RotatingReplay:
    """Every call, every rotation and the threads in the order they ran."""

    calls: list[RotatingCall] = field(default_factory=list)
    rotations: list[RotationResult] = field(default_factory=list)
    threads: list[str] = field(default_factory=list)

    def over_budget(self, usable: int) -> int:
        return sum(c.input_tokens > usable for c in self.calls)


def replay_rotating(
    trajectory: Sequence[BaseMessage],
    settings: CompactionSettings,
    saver: BaseCheckpointSaver[Any],
    *,
    policy: RotationPolicy,
    thread_id: str = "replay",
    configurable: dict[str, Any] | None = None,
    max_rotations: int = 10,
) -> RotatingReplay:
    """Replay a single-request trajectory (system, first request, agent turns) through
    rotations. Human turns after the first request are not supported (the recorded
    runs it is meant for have one)."""
    turns = iter([m for m in trajectory if isinstance(m, AIMessage)])
    results = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
    head: list[Any] = []
    for message in trajectory:
        if isinstance(message, AIMessage):
            break
        head.append(message)
    out = RotatingReplay()
    left = [sum(isinstance(m, AIMessage) for m in trajectory)]

    def agent(state: Any, config: RunnableConfig) -> dict[str, Any]:
        seen = list(state["llm_input_messages"])
        out.calls.append(
            RotatingCall(
                thread_id=str((config.get("configurable") or {})["thread_id"]),
                input_tokens=settings.counter.count_messages(seen),
                violations=tuple(protocol_violations(seen)),
                messages=tuple(seen),
            )
        )
        left[0] -= 1
        return {"messages": [next(turns)]}

    def tools(state: dict[str, Any]) -> dict[str, Any]:
        last = state["messages"][-1]
        return {"messages": [results[c["id"] or ""] for c in last.tool_calls]}

    def after_agent(state: dict[str, Any]) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    def after_tools(state: dict[str, Any]) -> str:
        if left[0] <= 0 or policy.reason(state, settings) is not None:
            return END
        return "compact"

    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(settings))
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges("agent", after_agent, ["tools", END])
    builder.add_conditional_edges("tools", after_tools, ["compact", END])
    graph = builder.compile(checkpointer=saver)
    config: Any = {
        "configurable": {**(configurable or {}), "thread_id": thread_id},
        "recursion_limit": 100_000,
    }
    out.threads.append(thread_id)
    graph.invoke(CompactState(messages=list(head)), config)
    while left[0] > 0 and len(out.rotations) < max_rotations:
        state = graph.get_state(config).values
        reason = policy.reason(state, settings)
        if reason is None:
            break
        result = rotate(graph, config, settings, reason=reason)
        out.rotations.append(result)
        config = {**result.config, "recursion_limit": 100_000}
        out.threads.append(result.thread_id)
        graph.invoke(None, config)
    return out
