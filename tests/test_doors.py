"""One compaction through every door: the node in a ``StateGraph``, the prebuilt react
agent's ``pre_model_hook``, ``create_agent`` with ``CompactionMiddleware``, and
``create_deep_agent`` with ``DeepAgentsCompaction``.

A recorded corpus run (one request, then the agent's ``bash`` calls) is replayed through
each door with the same counter and a fake model that answers with the recorded turns and
reports usage as a provider does. Every door declares the tools a deep agent binds
(deepagents' filesystem tools and ``task``, then ``bash``), so every door's budget holds
the same framing. Each door must send the model the same projection, call by call, end
with the same summary and the same usage ledger, and never send an input over the budget
or one that breaks the tool protocol.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from corpus import CORPUS_DIR
from deepagents import create_deep_agent
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode, create_react_agent, tools_condition
from pydantic import Field

from langgraph_compact import Budget, CompactionNode, CompactState, TokenCounter
from langgraph_compact.calibrate import tool_schemas, tool_tokens
from langgraph_compact.compaction import protocol_violations
from langgraph_compact.deep_agents import CompactDeepAgentState, DeepAgentsCompaction
from langgraph_compact.middleware import CompactionMiddleware
from langgraph_compact.node import CompactAgentState
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()
BUDGET = Budget(context_window=6_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
RUN = load_trajectory(CORPUS_DIR / "mini-swe-agent-test-django__django-11099.jsonl")
SYSTEM = next(m for m in RUN if isinstance(m, SystemMessage))
REQUEST = next(m for m in RUN if m.type == "human")
RESULTS = {m.tool_call_id: m for m in RUN if isinstance(m, ToolMessage)}
TURNS = [*(m for m in RUN if isinstance(m, AIMessage)), AIMessage("Done.", id="final")]
"""The recorded turns, and an answer after the last tool result."""


@tool
def bash(command: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
    """Run a shell command."""
    return RESULTS[tool_call_id]


class ReportingFake(GenericFakeChatModel):
    """Answers with the recorded turns, records what it was sent and the tools it was
    bound, and reports the input it was sent (plus the tool schemas) as
    ``usage_metadata``."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)
    bound: list[Any] = Field(default_factory=list)
    schema_tokens: int = 0

    def bind_tools(self, tools: Any, **kwargs: Any) -> ReportingFake:  # type: ignore[override]
        self.bound[:] = list(tools)
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        result = super()._generate(messages, *args, **kwargs)
        sent = COUNTER.count_messages(messages) + self.schema_tokens
        usage = {"input_tokens": sent, "output_tokens": 50, "total_tokens": sent + 50}
        message = result.generations[0].message
        result.generations[0].message = message.model_copy(
            update={"usage_metadata": usage, "response_metadata": {"model_name": "fake"}}
        )
        return result


def _deep_agent(model: ReportingFake, checkpointer: Any = None) -> Any:
    return create_deep_agent(
        model,
        tools=[bash],
        system_prompt=SYSTEM,
        middleware=[DeepAgentsCompaction(BUDGET, counter=COUNTER)],
        state_schema=CompactDeepAgentState,
        checkpointer=checkpointer,
    )


def _deep_tools() -> list[Any]:
    """The tools a deep agent binds: its own, then ``bash``."""
    model = ReportingFake(messages=iter([AIMessage("ok")]))
    _deep_agent(model).invoke({"messages": [REQUEST]})
    return model.bound


TOOLS = _deep_tools()


def _model() -> ReportingFake:
    return ReportingFake(messages=iter(TURNS), schema_tokens=tool_tokens(TOOLS, COUNTER))


def _node() -> CompactionNode:
    return CompactionNode(BUDGET, counter=COUNTER, tools=TOOLS, tasks_key=None)


def _graph_door(model: ReportingFake) -> Any:
    builder = StateGraph(CompactState)
    builder.add_node("compact", _node())
    builder.add_node("agent", lambda s: {"messages": [model.invoke(s["llm_input_messages"])]})
    builder.add_node("tools", ToolNode([bash]))
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges("agent", tools_condition, ["tools", END])
    builder.add_edge("tools", "compact")
    return builder.compile(checkpointer=InMemorySaver()), {"messages": [SYSTEM, REQUEST]}


def _react_door(model: ReportingFake) -> Any:
    agent = create_react_agent(
        model,
        [bash],
        pre_model_hook=_node(),
        state_schema=CompactAgentState,
        checkpointer=InMemorySaver(),
    )
    return agent, {"messages": [SYSTEM, REQUEST]}


def _agent_door(model: ReportingFake) -> Any:
    middleware = CompactionMiddleware(BUDGET, counter=COUNTER)
    agent = create_agent(
        model,
        TOOLS,
        system_prompt=SYSTEM,
        middleware=[middleware],
        checkpointer=InMemorySaver(),
    )
    return agent, {"messages": [REQUEST]}


def _deep_door(model: ReportingFake) -> Any:
    return _deep_agent(model, InMemorySaver()), {"messages": [REQUEST]}


DOORS = {
    "graph": _graph_door,
    "react": _react_door,
    "create_agent": _agent_door,
    "deep": _deep_door,
}


def _walk(door: str, run_async: bool) -> tuple[ReportingFake, dict[str, Any]]:
    model = _model()
    graph, inputs = DOORS[door](model)
    config = {"configurable": {"thread_id": door}, "recursion_limit": 1_000}
    if run_async:
        asyncio.run(graph.ainvoke(inputs, config))
    else:
        graph.invoke(inputs, config)
    return model, graph.get_state(config).values


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
def test_every_door_sends_the_same_projections_and_keeps_the_same_ledger(
    run_async: bool,
) -> None:
    walked = {door: _walk(door, run_async) for door in DOORS}
    assert [t.name for t in TOOLS][-1] == "bash" and len(TOOLS) > 1
    bound = {d: tool_schemas(model.bound) for d, (model, _) in walked.items()}
    assert bound["deep"] == bound["create_agent"] == tool_schemas(TOOLS)  # the same framing
    sent = {
        d: [[m.content for m in seen] for seen in model.seen] for d, (model, _) in walked.items()
    }
    graph = sent["graph"]
    assert len(graph) == len(TURNS)
    assert walked["graph"][1]["running_summary"].covered_through > 2  # it did compact
    for door, inputs in sent.items():
        assert inputs == graph, door  # the same messages, call by call
        model, state = walked[door]
        for seen in model.seen:
            assert COUNTER.count_messages(seen) + model.schema_tokens <= BUDGET.usable, door
            assert protocol_violations(seen) == [], door
        assert state["running_summary"].sections == walked["graph"][1]["running_summary"].sections
        assert state["fold_anchor"]["index"] > 0, door
    ledgers = {d: state["usage"]["by"] for d, (_, state) in walked.items()}
    assert ledgers["graph"]["agent:fake"]["calls"] == len(TURNS) - 1  # but the final answer
    assert ledgers["react"] == ledgers["graph"] == ledgers["create_agent"] == ledgers["deep"]


def test_the_middleware_counts_the_tools_a_request_sends() -> None:
    from langgraph_compact.calibrate import tool_tokens

    @tool
    def grep(pattern: str) -> str:
        """Search the files."""
        return pattern

    middleware = CompactionMiddleware(BUDGET, counter=COUNTER)
    one = middleware._schema_tokens([bash])
    assert one == tool_tokens([bash], COUNTER) > 0
    assert middleware._schema_tokens([bash, grep]) == tool_tokens([bash, grep], COUNTER) > one
    assert middleware._schema_tokens([bash]) == one  # a changed list is counted again
