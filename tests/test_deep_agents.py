"""``CompactionMiddleware`` inside ``deepagents.create_deep_agent``, over a real corpus run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("deepagents")

from corpus import corpus_files
from langchain.agents.middleware import TodoListMiddleware
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.prebuilt import ToolRuntime
from pydantic import ConfigDict, Field

from langgraph_compact import TokenCounter
from langgraph_compact.checkpoint import CompactSqliteSaver, make_recall_tool
from langgraph_compact.deep_agents import (
    SUMMARIZATION_NAME,
    DeepAgentsCompaction,
    create_compact_deep_agent,
)
from langgraph_compact.replay import budget_of, make_strategy, replay_trajectory
from langgraph_compact.tasks import TASK_BLOCK_ID
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()


class RecordedModel(BaseChatModel):
    """Answers with the recorded assistant turns in order; keeps what it was sent."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    turns: list[AIMessage]
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "recorded"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        self.tools = [getattr(t, "name", None) or t.get("name") for t in tools]
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        turn = self.turns[len(self.seen) - 1]
        return ChatResult(generations=[ChatGeneration(message=turn)])


def _run() -> list[BaseMessage]:
    path = next(p for p in corpus_files() if "django__django-11797" in p.stem)
    raw = load_trajectory(path)
    last_tool = max(i for i, m in enumerate(raw) if isinstance(m, ToolMessage))
    todos = {"todos": [{"content": "find the GROUP BY bug", "status": "in_progress"}]}
    todos["todos"].append({"content": "write the regression test", "status": "pending"})
    plan = AIMessage(
        "", id="plan", tool_calls=[{"name": "write_todos", "args": todos, "id": "call-plan"}]
    )
    first_ai = next(i for i, m in enumerate(raw) if isinstance(m, AIMessage))
    return [
        *raw[:first_ai],
        plan,
        *raw[first_ai : last_tool + 1],
        AIMessage("The fix is submitted.", id="final"),
    ]


def _bash(results: dict[str, ToolMessage]) -> BaseTool:
    def bash(command: str, runtime: ToolRuntime) -> ToolMessage:
        """Run a shell command."""
        return results[str(runtime.tool_call_id)]

    return StructuredTool.from_function(bash, name="bash")


def test_deep_agent_with_our_middleware_over_a_long_run(tmp_path: Path) -> None:
    trajectory = _run()
    turns = [m for m in trajectory if isinstance(m, AIMessage)]
    assert len(turns) >= 100
    results = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
    model = RecordedModel(turns=turns)
    budget = budget_of(8_000)
    config: Any = {"configurable": {"thread_id": "deep"}, "recursion_limit": 10_000}
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "deep.sqlite")) as saver:
        agent = create_compact_deep_agent(
            model,
            [_bash(results)],
            budget=budget,
            checkpointer=saver,
            system_prompt=str(trajectory[0].content),
            middleware=[TodoListMiddleware()],
        )
        agent.invoke({"messages": [trajectory[1]]}, config)
        state = agent.get_state(config).values
        stored = [i.message for i in saver.history("deep", limit=10_000).items]
        early = trajectory[4]
        read = make_recall_tool(saver).invoke({"ref": early.id, "limit": 300}, config=config)
    messages = state["messages"]
    # raw history intact: every recorded message, in order, as written; the plan's
    # answer is write_todos' own (LangChain's TodoListMiddleware)
    assert isinstance(messages[2], ToolMessage) and messages[2].tool_call_id == "call-plan"
    assert [m for i, m in enumerate(messages) if i != 2] == trajectory[1:]
    assert [m.id for m in stored] == [m.id for m in messages]
    assert len(model.seen) == len(turns) >= 100
    sizes = [COUNTER.count_messages(m) for m in model.seen]
    assert max(sizes) <= budget.usable, max(sizes)
    assert "_summarization_event" not in state and state["running_summary"].generation >= 3
    assert "recall" in model.tools and "write_todos" in model.tools
    assert str(early.content)[:80] in read
    # deepagents' to-do list shows after our summary once the plan is summarized away
    late = model.seen[-1]
    block = next(m for m in late if m.id == TASK_BLOCK_ID)
    assert "- [~] find the GROUP BY bug" in str(block.content)
    assert sum(m.id == TASK_BLOCK_ID for m in late) == 1


def test_the_middleware_takes_the_summarization_slot() -> None:
    from deepagents import create_deep_agent

    model = RecordedModel(turns=[AIMessage("hi", id="a")])
    ours = DeepAgentsCompaction(budget_of(8_000))
    assert ours.name == SUMMARIZATION_NAME
    agent = create_deep_agent(model, middleware=[ours])
    names = [n for n in agent.get_graph().nodes if "Summarization" in n or "Compaction" in n]
    assert all("DeepAgentsSummarization" not in n for n in names)
    out = agent.invoke({"messages": [HumanMessage("hello", id="h")]})
    assert out["messages"][-1].content == "hi"
    assert "_summarization_event" not in out


@pytest.mark.parametrize("tokens", [8_000, 4_000])
def test_deepagents_strategy_replays_within_its_mapping(tokens: int) -> None:
    path = next(p for p in corpus_files() if "astropy__astropy-12907" in p.stem)
    trajectory = load_trajectory(path)
    budget = budget_of(tokens)
    run = replay_trajectory(
        path.stem, trajectory, make_strategy("deepagents", budget, COUNTER), budget, COUNTER
    )
    assert run.error is None and run.calls
    assert run.lost == 0  # deepagents keeps the raw messages too
    assert run.events >= 1 and run.summarizer_calls == run.events
    summarized = [c for c in run.calls if c.input_tokens < c.raw_tokens]
    assert summarized, "its summary never replaced anything"


def test_the_comparison_bench_runs_on_one_recording() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import deepagents_bench as bench

    path = [p for p in corpus_files() if "django__django-11099" in p.stem]
    first = bench.harness(path, COUNTER)
    second, skipped = bench.real(path, COUNTER)
    assert skipped == 0
    for results in (first, second):
        for key, row in results.items():
            assert row["runs"] == 1 and row["errors"] == 0 and row["calls"] > 0, key
            assert row["lost"] == 0, key
    for budget in bench.BUDGETS:
        assert first[f"{budget}/ours"]["over"] == 0
        assert second[f"{budget}/ours in deep agent"]["over"] == 0
        assert second[f"{budget}/ours in deep agent"]["summ"] >= 1
    assert bench._row(4000, "ours", first["4000/ours"]).split()[:3] == ["4000", "ours", "1"]


def test_the_inspector_names_a_delta_channel_thread_it_cannot_read(tmp_path: Path) -> None:
    """Without ``CompactDeepAgentState`` deepagents keeps ``messages`` in a delta channel;
    the inspector says so, naming the thread and the checkpoint, instead of showing an
    empty thread or a traceback."""
    from cli_helpers import run
    from deepagents import create_deep_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    class Fake(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            return self

    db = tmp_path / "deep.sqlite"
    with CompactSqliteSaver.from_conn_string(str(db)) as saver:
        agent = create_deep_agent(
            Fake(messages=iter([AIMessage("Done.")])),
            middleware=[DeepAgentsCompaction(budget_of(6_000))],
            checkpointer=saver,
        )
        agent.invoke({"messages": [HumanMessage("go")]}, {"configurable": {"thread_id": "d"}})
    result = run("inspect", db, "--thread", "d")
    assert result.exit_code != 0
    assert "thread 'd' keeps its messages in a delta channel (checkpoint" in result.output


@pytest.mark.parametrize(
    "stem", ["tau-bench-airline-gpt-4o-task002-trial1", "django__django-11099"]
)
def test_the_deepagents_door_sends_what_the_node_sends(stem: str) -> None:
    """``ours-deep`` is a real ``create_deep_agent`` graph with ``DeepAgentsCompaction``;
    replayed through it, a recording (several user turns, or one) reaches the model as
    the same projections, call by call, as through the node."""
    path = next(p for p in corpus_files() if stem in p.stem)
    trajectory = load_trajectory(path)
    budget = budget_of(4_000)
    node, deep = (
        replay_trajectory(path.stem, trajectory, make_strategy(n, budget, COUNTER), budget, COUNTER)
        for n in ("ours", "ours-deep")
    )
    assert deep.error is None and node.error is None
    assert sum(m.type == "human" for m in trajectory) > 1 or "django" in stem
    assert [c.input_tokens for c in deep.calls] == [c.input_tokens for c in node.calls]
    assert [c.prefix_tokens for c in deep.calls] == [c.prefix_tokens for c in node.calls]
    # call by call, the same compaction events and the same stats (summary generation,
    # coverage, tokens of each part); past its last recorded turn an agent loop calls its
    # model once more ("Done.", unrecorded), and may compact for that call too
    assert [c.event for c in deep.calls] == [c.event for c in node.calls]
    assert deep.compactions == node.compactions and node.events >= 1
    assert deep.lost == 0 and deep.over_budget == 0 and deep.violations == 0
    assert deep.summary is not None and node.summary is not None
    assert deep.summary.generation >= node.summary.generation


def test_a_recording_a_prebuilt_agent_cannot_follow_is_named() -> None:
    """A prebuilt agent calls its model after every tool result: a recording where a user
    turn follows a tool result cannot be replayed in order, and the run says where."""
    from langgraph_compact.replay.doors import agent_gap

    call = AIMessage("", tool_calls=[{"name": "bash", "args": {}, "id": "c1"}], id="a1")
    result = ToolMessage("out", tool_call_id="c1", id="t1")
    feed = [HumanMessage("go", id="h1"), call, result, HumanMessage("and?", id="h2")]
    assert agent_gap(feed) == "message 2 is a tool result followed by a human message"
    assert agent_gap([*feed[:3], AIMessage("done", id="a2"), feed[3]]) is None
    budget = budget_of(4_000)
    run = replay_trajectory(
        "gap",
        [*feed, AIMessage("ok", id="a3")],
        make_strategy("ours-deep", budget, COUNTER),
        budget,
        COUNTER,
    )
    assert run.error == (
        "InputFormatError: ours-deep cannot replay this recording: "
        "message 2 is a tool result followed by a human message"
    )
    assert run.calls == []
