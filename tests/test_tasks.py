"""Task state: reading, the tool, the block after the summary, and survival in a replay."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from corpus import corpus_files
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode

from langgraph_compact import CompactionNode, CompactionSettings, CompactState, TokenCounter
from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.compaction import compact
from langgraph_compact.errors import TaskUpdateError
from langgraph_compact.replay import budget_of
from langgraph_compact.tasks import (
    TASK_BLOCK_ID,
    Task,
    TaskList,
    coerce_tasks,
    make_task_tool,
    refresh_tasks,
    task_block,
)
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()


def _call(tasks: list[dict[str, str]], mid: str, name: str = "update_tasks") -> AIMessage:
    return AIMessage(
        "", id=mid, tool_calls=[{"name": name, "args": {"tasks": tasks}, "id": f"call-{mid}"}]
    )


def _result(mid: str) -> ToolMessage:
    return ToolMessage("ok", tool_call_id=f"call-{mid}", id=f"res-{mid}", name="update_tasks")


def test_reading_checklists_tool_calls_and_todo_lines_in_order() -> None:
    raw: list[BaseMessage] = [
        HumanMessage("Fix it.\nTODO: add a changelog entry\n```\n- [ ] not a task\n```", id="h"),
        _call([{"content": "reproduce", "status": "in_progress"}, {"content": "fix"}], "a1"),
        _result("a1"),
        AIMessage("Progress:\n- [x] Reproduce\n- [~] fix", id="a2"),
        _call(
            [{"content": "fix", "status": "completed"}, {"content": "test", "status": "blocked"}],
            "a3",
            name="write_todos",
        ),
        _result("a3"),
        AIMessage("# TODO: in assistant text is not a user's task", id="a4"),
    ]
    tasks, changed = refresh_tasks(None, raw)
    assert changed
    assert [(t.content, t.status) for t in tasks.tasks] == [
        ("fix", "completed"),
        ("test", "blocked"),
    ]
    assert tasks.tasks[0].sources == ("a3",)
    # up to the first tool call the list was the user's TODO line, then replaced
    early, _ = refresh_tasks(None, raw[:1])
    assert [(t.content, t.status) for t in early.tasks] == [("add a changelog entry", "pending")]
    mid, _ = refresh_tasks(None, raw[:4])
    assert [(t.content, t.status) for t in mid.tasks] == [
        ("reproduce", "completed"),
        ("fix", "in_progress"),
    ]


def test_refresh_is_incremental_and_rereads_an_edited_history() -> None:
    raw: list[BaseMessage] = [HumanMessage("- [ ] one", id="h")]
    first, changed = refresh_tasks(None, raw)
    assert changed and first.scanned_through == 1
    same, changed = refresh_tasks(first, raw)
    assert not changed and same.tasks == first.tasks
    more = [*raw, AIMessage("- [x] one\n- [ ] two", id="a")]
    second, changed = refresh_tasks(first, more)
    assert changed and [t.status for t in second.tasks] == ["completed", "pending"]
    # a cursor that no longer matches the history (edited, branched) reads it again
    edited = [HumanMessage("- [ ] other", id="h2")]
    third, _ = refresh_tasks(second, edited)
    assert "other" in [t.content for t in third.tasks]


@pytest.mark.parametrize("seed", range(20))
def test_refresh_equals_one_read_whatever_the_chunking(seed: int) -> None:
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "eps"]
    marks = [" ", "x", "~", "!"]
    raw: list[BaseMessage] = []
    for i in range(rng.randint(5, 40)):
        if rng.random() < 0.2:
            listed = [{"content": w, "status": "pending"} for w in rng.sample(words, 2)]
            raw += [_call(listed, f"m{i}"), _result(f"m{i}")]
        else:
            lines = [f"- [{rng.choice(marks)}] {rng.choice(words)}" for _ in range(2)]
            raw.append(AIMessage("\n".join(lines), id=f"m{i}"))
    whole, _ = refresh_tasks(None, raw)
    state: TaskList | None = None
    at = 0
    while at < len(raw):
        at = min(len(raw), at + rng.randint(1, 5))
        state, _ = refresh_tasks(state, raw[:at])
    assert state is not None and state.tasks == whole.tasks


def test_coerce_accepts_deepagents_todos_and_rejects_bad_entries() -> None:
    todos = [{"content": "a", "status": "in_progress"}, {"content": "b", "status": "completed"}]
    assert [t.status for t in coerce_tasks(todos).tasks] == ["in_progress", "completed"]
    assert coerce_tasks(TaskList(tasks=(Task(content="x"),)).model_dump()).tasks[0].content == "x"
    with pytest.raises(TaskUpdateError, match="status 'someday'"):
        coerce_tasks([{"content": "a", "status": "someday"}])
    with pytest.raises(TaskUpdateError, match="non-empty"):
        coerce_tasks([{"content": "  "}])
    with pytest.raises(TaskUpdateError, match="not <class 'int'>"):
        coerce_tasks(5)


def test_block_shows_every_open_task_and_the_latest_done() -> None:
    tasks = TaskList(
        tasks=(
            *(Task(content=f"done {i}", status="completed") for i in range(9)),
            Task(content="open one"),
            Task(content="open two", status="blocked"),
        )
    )
    [block] = task_block(tasks)
    text = str(block.content)
    assert block.id == TASK_BLOCK_ID
    assert "- [ ] open one" in text and "- [!] open two" in text
    assert "done 8" in text and "done 0" not in text and "4 earlier task(s) finished" in text
    assert task_block(None) == [] and task_block(TaskList()) == []


def _long_history(n: int) -> list[BaseMessage]:
    raw: list[BaseMessage] = [HumanMessage("Fix the parser.", id="h0")]
    for i in range(n):
        raw.append(
            AIMessage(
                "", id=f"a{i}", tool_calls=[{"name": "bash", "args": {"c": i}, "id": f"c{i}"}]
            )
        )
        raw.append(ToolMessage(f"output {i} " + "x " * 400, tool_call_id=f"c{i}", id=f"t{i}"))
    return raw


def test_block_enters_after_the_summary_only_and_counts_in_the_budget() -> None:
    settings = CompactionSettings(budget_of(3_000), counter=COUNTER)
    tasks = TaskList(tasks=(Task(content="write the fix " + "y" * 200),))
    short = [HumanMessage("hi", id="h")]
    plain = compact(short, None, settings, blocks=task_block(tasks))
    assert [m.id for m in plain.messages] == ["h"]  # no summary: the conversation shows them
    result = compact(_long_history(150), None, settings, blocks=task_block(tasks))
    ids = [m.id for m in result.messages]
    assert result.summary is not None
    at = ids.index(result.summary.to_message().id)
    assert ids[at + 1] == TASK_BLOCK_ID and ids.count(TASK_BLOCK_ID) == 1
    assert result.stats.block_tokens == COUNTER.count(task_block(tasks)[0]) > 50
    assert result.stats.tokens_after == COUNTER.count_messages(result.messages)
    assert result.stats.tokens_after <= settings.budget.usable


def test_tool_updates_state_visible_in_get_state(tmp_path: Path) -> None:
    tool = make_task_tool()
    turns = iter(
        [
            _call([{"content": "reproduce", "status": "in_progress"}, {"content": "fix"}], "a1"),
            AIMessage("done", id="a2"),
        ]
    )
    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget_of(8_000)))
    builder.add_node("agent", lambda state: {"messages": [next(turns)]})
    builder.add_node("tools", ToolNode([tool]))
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges(
        "agent", lambda s: "tools" if s["messages"][-1].tool_calls else END, ["tools", END]
    )
    builder.add_edge("tools", "compact")
    config: Any = {"configurable": {"thread_id": "t"}}
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "t.sqlite")) as saver:
        graph = builder.compile(checkpointer=saver)
        graph.invoke({"messages": [HumanMessage("go", id="h")]}, config)
        stored = graph.get_state(config).values["tasks"]
    assert isinstance(stored, TaskList)
    assert [(t.content, t.status, t.sources) for t in stored.tasks] == [
        ("reproduce", "in_progress", ("a1",)),
        ("fix", "pending", ("a1",)),
    ]


def test_task_list_survives_five_compactions_in_a_replay(tmp_path: Path) -> None:
    """A real corpus run with task updates: the list is in every projection after each
    compaction, current, once, and every call stays within the budget."""
    path = next(p for p in corpus_files() if "astroid-1333" in p.stem)
    raw = load_trajectory(path)
    plan = [{"content": "reproduce the import error"}, {"content": "patch modutils"}]
    plan += [{"content": "run the unit tests"}]
    first_ai = next(i for i, m in enumerate(raw) if isinstance(m, AIMessage))
    later = [{"content": "reproduce the import error", "status": "completed"}, *plan[1:]]
    trajectory = [
        *raw[:first_ai],
        _call(plan, "plan-1"),
        _result("plan-1"),
        *raw[first_ai:60],
        _call(later, "plan-2"),
        _result("plan-2"),
        *raw[60:],
    ]
    budget = budget_of(4_000)
    seen: list[list[BaseMessage]] = []
    turns = iter([m for m in trajectory if isinstance(m, AIMessage)])
    results = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
    left = [sum(isinstance(m, AIMessage) for m in trajectory)]

    def agent(state: Any) -> dict[str, Any]:
        seen.append(list(state["llm_input_messages"]))
        left[0] -= 1
        return {"messages": [next(turns)]}

    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget, counter=COUNTER))
    builder.add_node("agent", agent)
    builder.add_node(
        "tools",
        lambda s: {"messages": [results[c["id"]] for c in s["messages"][-1].tool_calls]},
    )
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges(
        "agent", lambda s: "tools" if s["messages"][-1].tool_calls else END, ["tools", END]
    )
    builder.add_conditional_edges(
        "tools", lambda s: "compact" if left[0] > 0 else END, ["compact", END]
    )
    config: Any = {"configurable": {"thread_id": "t"}, "recursion_limit": 10_000}
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "t.sqlite")) as saver:
        graph = builder.compile(checkpointer=saver)
        graph.invoke({"messages": trajectory[:first_ai]}, config)
        state = graph.get_state(config).values
    assert state["messages"] == trajectory  # raw history untouched
    assert state["running_summary"].generation >= 5
    assert [(t.content, t.status) for t in state["tasks"].tasks] == [
        (t["content"], t.get("status", "pending")) for t in later
    ]
    usable = budget.usable
    assert max(COUNTER.count_messages(m) for m in seen) <= usable
    # from the call after the first update_tasks call on, the list exists
    summarized = [m for m in seen[1:] if any((x.id or "").startswith("summary-gen-") for x in m)]
    shown = {next(x.id for x in m if (x.id or "").startswith("summary-gen-")) for m in summarized}
    assert len(shown) >= 5
    for projection in summarized:
        ids = [m.id for m in projection]
        assert ids.count(TASK_BLOCK_ID) == 1
        block = str(projection[ids.index(TASK_BLOCK_ID)].content)
        assert "patch modutils" in block and "run the unit tests" in block
    final_block = str(next(m for m in seen[-1] if m.id == TASK_BLOCK_ID).content)
    assert "- [x] reproduce the import error" in final_block
