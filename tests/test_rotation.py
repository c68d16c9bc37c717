"""Rotation: the hand-off, the policy, the parent link, and recall across the lineage."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pytest
from corpus import corpus_files
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from langgraph_compact import CompactionNode, CompactionSettings, CompactState, TokenCounter
from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSqliteSaver
from langgraph_compact.compaction import RunningSummary, Section, SummaryItem
from langgraph_compact.compaction.quote import Source
from langgraph_compact.compaction.readback import parse_rendered_summary
from langgraph_compact.errors import RotationError
from langgraph_compact.handoff import HANDOFF_KEY, build_handoff, final_summary
from langgraph_compact.lineage import ancestors, children, make_lineage_recall_tool, parent_thread
from langgraph_compact.replay import budget_of
from langgraph_compact.replay.continuity import replay_rotating
from langgraph_compact.rotation import (
    ROTATE_KEY,
    RotationPolicy,
    arotate,
    make_rotate_tool,
    rotate,
)
from langgraph_compact.tasks import Task, TaskList
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()


def _cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


def _summary(**kw: Any) -> RunningSummary:
    items = {
        Section.GOAL: (SummaryItem(text="Fix the parser", key="goal", kind="goal", pinned=True),),
        Section.CONSTRAINTS: (
            SummaryItem(text="Never push to main.", kind="safety", pinned=True, sources=("m1",)),
            SummaryItem(text="I prefer tabs over spaces.", kind="preference", pinned=True),
        ),
        Section.CRITICAL: (SummaryItem(text="The port is 8080", kind="fact", key="fact:port"),),
    }
    return RunningSummary(sections=items, head_end=2, covered_through=10, **{"generation": 3, **kw})


def test_handoff_round_trips_through_the_summary_reader_with_pins() -> None:
    tasks = TaskList(
        tasks=(
            Task(content="ship it", status="in_progress"),
            Task(content="done", status="completed"),
        )
    )
    first = HumanMessage("Please fix the parser in src/parse.py.", id="req")
    handoff = build_handoff(
        _summary(), tasks, parent_thread_id="p", rotation=1, reason="test", first_request=first
    )
    text = str(handoff.content)
    assert text.startswith("Please fix the parser")  # the goal opens the child, as anywhere
    assert "- [~] ship it" in text and "'p'" in text
    assert handoff.additional_kwargs[HANDOFF_KEY]["parent_thread_id"] == "p"
    parsed = parse_rendered_summary(Source("handoff", text), 1)
    assert parsed is not None
    items = {i.text: i for _, i in parsed[0]}
    assert items["Never push to main."].pinned and items["I prefer tabs over spaces."].pinned
    assert "The port is 8080" in items
    # a hand-off of a hand-off quotes the root's request, never the hand-off itself
    again = build_handoff(
        None, None, parent_thread_id="c", rotation=2, reason="r", first_request=handoff
    )
    assert str(again.content).count("Please fix the parser") == 1
    assert "Hand-off 1" not in str(again.content)


def test_policy_reasons() -> None:
    settings = CompactionSettings(budget_of(4_000), counter=COUNTER)
    policy = RotationPolicy(max_generations=3, max_pinned_share=None)
    assert policy.reason({}) is None
    assert policy.reason({"running_summary": _summary()}) == "summary generation 3 reached 3"
    assert policy.reason({ROTATE_KEY: "context drifted"}) == "requested: context drifted"
    assert RotationPolicy(on_request=False, max_generations=None).reason({ROTATE_KEY: "x"}) is None
    many = tuple(
        SummaryItem(text=f"Never touch file number {i} in the tree.", pinned=True, kind="safety")
        for i in range(settings.summary_cap // 10)  # about 12 tokens each: over 80% of the cap
    )
    drifted = _summary().model_copy(
        update={"sections": {Section.CONSTRAINTS: many}, "generation": 1}
    )
    drift = RotationPolicy(max_generations=None).reason({"running_summary": drifted}, settings)
    assert drift is not None and drift.startswith("drift:")
    assert (
        RotationPolicy(max_generations=None).reason(
            {"running_summary": _summary(generation=1)}, settings
        )
        is None
    )


def _constraint_trajectory() -> list[BaseMessage]:
    path = next(p for p in corpus_files() if "astroid-1333" in p.stem)
    raw = load_trajectory(path)
    first_ai = next(i for i, m in enumerate(raw) if isinstance(m, AIMessage))
    plan = AIMessage(
        "",
        id="plan-1",
        tool_calls=[
            {
                "name": "update_tasks",
                "args": {
                    "tasks": [
                        {"content": "reproduce the import error"},
                        {"content": "patch modutils"},
                    ]
                },
                "id": "call-plan-1",
            }
        ],
    )
    result = ToolMessage("ok", tool_call_id="call-plan-1", id="res-plan-1", name="update_tasks")
    return [*raw[:first_ai], plan, result, *raw[first_ai:]]


def test_replay_rotates_twice_and_the_last_child_carries_constraints_and_tasks(
    tmp_path: Path,
) -> None:
    trajectory = _constraint_trajectory()
    settings = CompactionSettings(budget_of(4_000), counter=COUNTER)
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "r.sqlite")) as saver:
        run = replay_rotating(trajectory, settings, saver, policy=RotationPolicy(max_generations=5))
        assert len(run.rotations) >= 2
        assert run.over_budget(settings.budget.usable) == 0
        assert [c.violations for c in run.calls if c.violations] == []
        first = run.rotations[0]
        assert first.summary is not None
        # the standing constraints: pinned, or kept (the first request's instructions)
        pinned = [i.text for i in first.summary.items(Section.CONSTRAINTS) if i.pinned or i.kept]
        assert len(pinned) >= 5
        last_thread = run.threads[-1]
        last = [c for c in run.calls if c.thread_id == last_thread][-1]
        seen = "\n".join(str(m.content) for m in last.messages)
        missing = [t for t in pinned if t[:60] not in seen]
        assert missing == []
        for task in ("reproduce the import error", "patch modutils"):
            assert task in seen
        # each parent intact (every recorded message of its run, as written) and linked
        replayed: list[BaseMessage] = []
        for parent, child in zip(run.threads, run.threads[1:], strict=False):
            messages = saver.history(parent, limit=10_000).items
            stored = [i.message for i in messages]
            own = [m for m in stored if HANDOFF_KEY not in m.additional_kwargs]
            replayed += [m for m in own if not isinstance(m, SystemMessage)]
            assert parent_thread(saver, child) == parent
            assert children(saver, parent) == [child]
        assert ancestors(saver, last_thread) == run.threads[-2::-1]
        ids = [m.id for m in trajectory]
        assert [m.id for m in replayed] == ids[1 : 1 + len(replayed)]
        assert replayed == trajectory[1 : 1 + len(replayed)]
        # recall from the last child reaches a message of the first thread
        recall = make_lineage_recall_tool(saver)
        target = trajectory[5]
        out = recall.invoke({"ref": target.id, "limit": 200}, config=_cfg(last_thread))
        assert f"from earlier thread {run.threads[0]!r}" in out
        assert str(target.content)[:100] in out
        hits = recall.invoke({"query": "modutils"}, config=_cfg(last_thread))
        assert "ref=" in hits


def _graph(saver: Any) -> Any:
    turns = iter(AIMessage(f"reply {i}", id=f"ai-{i}") for i in range(100))
    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget_of(8_000), counter=COUNTER))
    builder.add_node("agent", lambda s: {"messages": [next(turns)]})
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_edge("agent", END)
    return builder.compile(checkpointer=saver)


def test_recall_never_reaches_an_unrelated_thread(tmp_path: Path) -> None:
    settings = CompactionSettings(budget_of(8_000), counter=COUNTER)
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "i.sqlite")) as saver:
        graph = _graph(saver)
        graph.invoke({"messages": [HumanMessage("parent secret zebra", id="p1")]}, _cfg("P"))
        graph.invoke({"messages": [HumanMessage("other secret walrus", id="o1")]}, _cfg("O"))
        child = rotate(graph, _cfg("P"), settings).config
        graph.invoke({"messages": [HumanMessage("child turn", id="c1")]}, child)
        thread = child["configurable"]["thread_id"]
        recall = make_lineage_recall_tool(saver)
        assert "parent secret zebra" in recall.invoke({"ref": "p1"}, config=_cfg(thread))
        assert "No message" in recall.invoke({"ref": "o1"}, config=_cfg(thread))
        assert "other secret" not in recall.invoke({"query": "walrus"}, config=_cfg(thread))
        assert "zebra" in recall.invoke({"query": "zebra"}, config=_cfg(thread))
        # and the parent cannot read its child, nor the unrelated thread its neighbour
        assert "No message" in recall.invoke({"ref": "c1"}, config=_cfg("P"))
        assert "No message" in recall.invoke({"ref": "p1"}, config=_cfg("O"))
        assert "No message" in recall.invoke({"ref": "p1"}, config=_cfg(f"{thread}-x"))
        # the parent stays exactly as it was
        assert [m.id for m in graph.get_state(_cfg("P")).values["messages"]] == ["p1", "ai-0"]
        with pytest.raises(RotationError, match="already has checkpoints"):
            rotate(graph, _cfg("P"), settings)
        with pytest.raises(RotationError, match="no messages"):
            rotate(graph, _cfg("nobody"), settings)


def test_child_carries_configurable_keys_and_metadata(tmp_path: Path) -> None:
    settings = CompactionSettings(budget_of(8_000), counter=COUNTER)
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "m.sqlite")) as saver:
        graph = _graph(saver)
        config = {"configurable": {"thread_id": "P", "user_id": "u1"}}
        graph.invoke({"messages": [HumanMessage("hello", id="h")]}, config)
        result = rotate(graph, config, settings, reason="because")
        assert result.config["configurable"] == {"thread_id": "P~1", "user_id": "u1"}
        graph.invoke(None, result.config)
        meta = graph.get_state(result.config).metadata
        assert meta["parent_thread_id"] == "P" and meta["rotation"] == 1
        assert meta["root_thread_id"] == "P"
        values = graph.get_state(result.config).values
        assert values["messages"][0].id == result.handoff.id
        second = rotate(graph, result.config, settings)
        assert second.thread_id == "P~2" and second.rotation == 2
        assert [c for c in children(saver, "P")] == ["P~1"]


def test_final_summary_covers_the_whole_history() -> None:
    settings = CompactionSettings(budget_of(8_000), counter=COUNTER)
    raw: list[BaseMessage] = [HumanMessage("Fix the bug. Never push to main.", id="h")]
    raw += [AIMessage(f"step {i}: reading config.yaml", id=f"a{i}") for i in range(5)]
    summary = final_summary(raw, None, settings)
    assert summary is not None and summary.covered_through == len(raw)
    assert any(i.pinned and "Never push to main" in i.text for i in summary.all_items())
    again = final_summary(raw, summary, settings)
    assert again == summary  # nothing new: the same summary


def test_rotate_tool_sets_the_request() -> None:
    tool = make_rotate_tool()
    out = tool.invoke(
        {"type": "tool_call", "name": "rotate", "id": "c1", "args": {"reason": "drifting"}}
    )
    assert out.update[ROTATE_KEY] == "drifting"
    assert out.update["messages"][0].tool_call_id == "c1"


async def test_arotate_with_the_async_saver(tmp_path: Path) -> None:
    settings = CompactionSettings(budget_of(8_000), counter=COUNTER)
    async with AsyncCompactSqliteSaver.from_conn_string(tmp_path / "a.sqlite") as saver:
        graph = _graph(saver)
        await graph.ainvoke({"messages": [HumanMessage("async parent kiwi", id="k")]}, _cfg("A"))
        result = await arotate(graph, _cfg("A"), settings)
        await graph.ainvoke(None, result.config)
        recall = make_lineage_recall_tool(saver)
        out = await recall.ainvoke({"ref": "k"}, config=_cfg(result.thread_id))
        assert "async parent kiwi" in out


def test_redaction_reaches_the_handoffs_and_memories_derived_from_it(tmp_path: Path) -> None:
    from langgraph.store.memory import InMemoryStore

    from langgraph_compact.lineage import redact_lineage
    from langgraph_compact.memory import MemoryFlush

    settings = CompactionSettings(budget_of(8_000), counter=COUNTER)
    store = InMemoryStore()
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "x.sqlite")) as saver:
        graph = _graph(saver)
        config = {"configurable": {"thread_id": "P", "user_id": "u"}}
        graph.invoke({"messages": [HumanMessage("Fix the parser.", id="task")]}, config)
        graph.invoke(
            {"messages": [HumanMessage("Never push to branch zanzibar.", id="rule")]}, config
        )
        graph.invoke({"messages": [HumanMessage("Go on.", id="more")]}, config)
        child = rotate(graph, config, settings)
        assert "zanzibar" in str(child.handoff.content)
        grandchild = rotate(graph, child.config, settings)
        assert "zanzibar" in str(grandchild.handoff.content)
        flush = MemoryFlush(store=store)
        assert child.summary is not None and grandchild.summary is not None
        # a memory the grandchild read back from its hand-off names the root's message
        handoff = grandchild.handoff
        read_back = grandchild.summary.model_copy(
            update={
                "sections": {
                    s: tuple(i.model_copy(update={"sources": (handoff.id,)}) for i in items)
                    for s, items in grandchild.summary.sections.items()
                }
            }
        )
        flush.flush(store, read_back, None, grandchild.config, [handoff])
        assert any("zanzibar" in i.value["text"] for i in store.search(("memories", "u")))
        done = redact_lineage(saver, "P", ["rule"], "privacy", store=store)
        assert set(done.results) == {"P", child.thread_id, grandchild.thread_id}
        assert done.memories >= 1
        for thread in ("P", child.thread_id, grandchild.thread_id):
            texts = [str(i.message.content) for i in saver.history(thread, limit=100).items]
            assert not any("zanzibar" in t for t in texts), thread
        assert not any("zanzibar" in i.value["text"] for i in store.search(("memories", "u")))
        # an unrelated redaction leaves the descendants alone
        again = redact_lineage(saver, "P", ["more"], "tidy")
        assert set(again.results) == {"P"}


def test_a_todos_list_stays_a_list_in_the_child(tmp_path: Path) -> None:
    from typing import TypedDict

    class TodoState(TypedDict, total=False):
        messages: Annotated[list[AnyMessage], add_messages]
        todos: list[dict[str, str]]

    builder = StateGraph(TodoState)
    builder.add_node(
        "agent", lambda s: {"messages": [AIMessage("ok", id=f"a{len(s['messages'])}")]}
    )
    builder.add_edge(START, "agent")
    builder.add_edge("agent", END)
    settings = CompactionSettings(budget_of(8_000), counter=COUNTER)
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "t.sqlite")) as saver:
        graph = builder.compile(checkpointer=saver)
        todos = [{"content": "write docs", "status": "in_progress"}]
        graph.invoke({"messages": [HumanMessage("go", id="h")], "todos": todos}, _cfg("T"))
        result = rotate(graph, _cfg("T"), settings, tasks_key="todos")
        assert graph.get_state(result.config).values["todos"] == todos
        assert "- [~] write docs" in str(result.handoff.content)
