"""Wiring into LangGraph's prebuilt agent and LangChain's ``create_agent``."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent
from pydantic import Field

from langgraph_compact.node import CompactAgentState, CompactionNode
from langgraph_compact.tokens import Budget, TokenCounter

COUNTER = TokenCounter()
BUDGET = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)


class ToolCallingFake(GenericFakeChatModel):
    """A replaying chat model that accepts ``bind_tools`` and records its inputs."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ToolCallingFake:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


@tool
def read_file(path: str) -> str:
    """Read a file."""
    return f"contents of {path}\n" + "data line\n" * 900


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_create_react_agent_pre_model_hook_keeps_history_and_budget() -> None:
    turns = [
        AIMessage(
            "", tool_calls=[{"id": f"c{i}", "name": "read_file", "args": {"path": f"m{i}.py"}}]
        )
        for i in range(10)
    ]
    model = ToolCallingFake(messages=iter([*turns, AIMessage("All read.")]), seen=[])
    agent = create_react_agent(
        model,
        [read_file],
        pre_model_hook=CompactionNode(BUDGET, counter=COUNTER, output_share=None),
        state_schema=CompactAgentState,
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "r"}}
    out = agent.invoke({"messages": [("user", "Read every module.")]}, config)
    assert len(out["messages"]) == 22  # request + 10 calls + 10 results + answer: nothing removed
    assert out["running_summary"].covered_through > 2
    assert max(COUNTER.count_messages(seen) for seen in model.seen) <= BUDGET.usable
    checkpoint = agent.checkpointer.get_tuple(config).checkpoint
    assert "llm_input_messages" not in checkpoint["channel_values"]


def test_create_agent_middleware_keeps_history_and_saves_the_summary() -> None:
    from langchain.agents import create_agent

    from langgraph_compact.middleware import CompactionMiddleware

    turns = [
        AIMessage(
            "", tool_calls=[{"id": f"c{i}", "name": "read_file", "args": {"path": f"m{i}.py"}}]
        )
        for i in range(10)
    ]
    model = ToolCallingFake(messages=iter([*turns, AIMessage("All read.")]), seen=[])
    agent = create_agent(
        model,
        [read_file],
        system_prompt="You read files.",
        middleware=[CompactionMiddleware(BUDGET, counter=COUNTER, output_share=None)],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "m"}}
    out = agent.invoke({"messages": [("user", "Read every module.")]}, config)
    assert len(out["messages"]) == 22  # nothing removed from the thread
    assert max(COUNTER.count_messages(seen) for seen in model.seen) <= BUDGET.usable
    assert model.seen[-1][0].content == "You read files."
    summary = agent.get_state(config).values["running_summary"]
    assert summary.covered_through > 1
