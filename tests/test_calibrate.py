"""Calibrated budgets: a provider that counts more than tiktoken does never gets an
over-budget request, and tool schemas count toward the budget."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from factories import human, system
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from pydantic import Field

from langgraph_compact import Budget, CompactionNode, CompactionSettings, CompactState
from langgraph_compact.calibrate import calibrated, drift, reported_input, tool_tokens
from langgraph_compact.errors import ContextBudgetError
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()


@tool
def read_file(path: str, start: int = 0, end: int = -1) -> str:
    """Read a file of the repository, optionally a line range of it."""
    return path


@tool
def run_tests(selector: str) -> str:
    """Run the test suite (or the tests matching a pytest selector) and return the log."""
    return selector


class OvercountingModel(BaseChatModel):
    """Reports ``factor`` x the local count of what it is sent (messages + tool schemas),
    the way a provider with a heavier chat template would; answers with a tool call."""

    factor: float = 1.2
    reported: list[int] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "overcounting"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(self, messages: list[BaseMessage], stop: Any = None, **kwargs: Any) -> ChatResult:
        local = COUNTER.count_messages(messages) + tool_tokens(kwargs.get("tools"), COUNTER)
        n = math.ceil(local * self.factor)
        self.reported.append(n)
        call = {"name": "read_file", "args": {"path": f"f{len(self.reported)}.py"}}
        reply = AIMessage(
            "",
            tool_calls=[{**call, "id": f"c{len(self.reported)}"}],
            usage_metadata={"input_tokens": n, "output_tokens": 12, "total_tokens": n + 12},
        )
        return ChatResult(generations=[ChatGeneration(message=reply)])


def _run(calibrate: bool, seed: int, factor: float) -> tuple[list[int], int]:
    # A late trigger: the local count alone would let projections reach 95% of the window.
    budget = Budget(
        context_window=6_000,
        reserved_output=0,
        compaction_reserve=0,
        safety_margin=0,
        trigger_fraction=0.95,
    )
    model = OvercountingModel(factor=factor, reported=[])
    bound = model.bind_tools([read_file, run_tests])
    node = CompactionNode(budget, counter=COUNTER, tools=bound, calibrate=calibrate)
    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_node("agent", lambda s: {"messages": [bound.invoke(s["llm_input_messages"])]})
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_edge("agent", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": f"cal-{seed}-{calibrate}"}}
    out = graph.invoke({"messages": [system(), human("Fix the failing import.")]}, config)
    rng = random.Random(seed)
    for _ in range(40):
        call = out["messages"][-1].tool_calls[0]
        lines = rng.choice([3, 30, 120, 300])
        text = "\n".join(f"line {i}: value {rng.randrange(10**9)}" for i in range(lines))
        result = ToolMessage(text, tool_call_id=call["id"], name="read_file", id=f"t-{call['id']}")
        out = graph.invoke({"messages": [result]}, config)
    return model.reported, budget.usable


@pytest.mark.parametrize("seed", range(3))
def test_every_call_fits_by_the_providers_count(seed: int) -> None:
    reported, usable = _run(calibrate=True, seed=seed, factor=1.2)
    assert max(reported) <= usable, reported
    assert max(reported) > 0.6 * usable  # the budget is used, not avoided
    uncalibrated, _ = _run(calibrate=False, seed=seed, factor=1.2)
    assert max(uncalibrated) > usable  # the same run without calibration goes over


def test_tool_schemas_count_toward_the_budget() -> None:
    settings = CompactionSettings(Budget(context_window=32_000), counter=COUNTER)
    extra = tool_tokens([read_file, run_tests], COUNTER)
    assert extra > 40
    smaller = calibrated(settings, 1.0, extra)
    assert smaller.budget.usable == settings.budget.usable - extra
    assert smaller.head_cap == settings.head_cap  # the head is not re-clipped
    assert calibrated(settings, 1.25, 0).budget.usable == int(settings.budget.usable / 1.25)
    with pytest.raises(ContextBudgetError, match="tool schemas"):
        calibrated(settings, 1.0, settings.budget.usable)


def test_drift_ignores_missing_and_implausible_reports() -> None:
    assert drift(None, 100) is None
    assert drift(1_000, 100) is None  # 10x: about another input
    assert drift(121, 100) == 1.22  # rounded up to 1/50
    raw = [human(), AIMessage("a", usage_metadata=_usage(70)), AIMessage("b")]
    assert reported_input(raw, 0) == 70
    assert reported_input(raw, 2) is None


def _usage(n: int) -> Any:
    return {"input_tokens": n, "output_tokens": 1, "total_tokens": n + 1}


def test_stateless_conversations_keep_their_own_last_call() -> None:
    """Without a thread id (a server resending whole histories), each conversation's
    cacheable prefix is measured against its own previous call, not another's."""
    node = CompactionNode(Budget(context_window=8_000, reserved_output=0), counter=COUNTER)
    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_edge(START, "compact")
    graph = builder.compile()  # no checkpointer: every call sends the whole history

    def call(messages: list[BaseMessage]) -> float:
        chunks = graph.stream({"messages": messages}, stream_mode="custom")
        return next(c["compaction"] for c in chunks if "compaction" in c)["cacheable_prefix"]

    rng = random.Random(3)
    conversations = {
        name: [
            system("You are terse.", id=f"{name}-s"),
            human(f"Task {name}: " * 30, id=f"{name}-h"),
        ]
        for name in ("a", "b", "c")
    }
    for turn in range(3):
        for name in rng.sample(sorted(conversations), 3):  # interleaved
            history = conversations[name]
            history.append(AIMessage(f"Step {turn} of {name}.", id=f"{name}-ai{turn}"))
            history.append(human(f"Go on with {name}, turn {turn}.", id=f"{name}-h{turn}"))
            prefix = call(list(history))
            # After its first call a conversation shares all but its two new messages.
            assert (prefix > 0.5) is (turn > 0), (name, turn, prefix)
