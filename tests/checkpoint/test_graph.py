"""A compiled LangGraph graph on the compact saver: restart, time travel, update, fork."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from agent_graph import build_graph, state_json, turn_input
from backends import Backend
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.checkpoint._codec import key

WORKER = Path(__file__).with_name("agent_graph.py")
REPO = Path(__file__).resolve().parents[2]


def _worker(db: Path, thread: str, first: int, n: int) -> str:
    out = subprocess.run(
        [sys.executable, str(WORKER), str(db), thread, str(first), str(n)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO)},
    )
    return out.stdout.strip()


def test_resume_after_process_restart_has_identical_state(db_path: Path) -> None:
    first = _worker(db_path, "t1", 0, 5)
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        graph = build_graph(saver)
        config = {"configurable": {"thread_id": "t1"}}
        assert state_json(graph, config) == first
        assert len(json.loads(first)["messages"]) == 15
    # A second process continues the same thread from the file alone.
    second = json.loads(_worker(db_path, "t1", 5, 3))
    assert second["messages"][:15] == json.loads(first)["messages"]
    assert [m["data"]["id"] for m in second["messages"][15:17]] == ["human-5", "ai-5"]
    assert len(second["messages"]) == 24


def test_time_travel_replays_from_an_old_checkpoint(backend: Backend) -> None:
    graph = build_graph(backend.saver)
    config = {"configurable": {"thread_id": "tt"}}
    for turn in range(4):
        graph.invoke(turn_input(turn), config)
    history = list(graph.get_state_history(config))
    # The checkpoint right after turn 1's tools node: 6 messages.
    old = next(s for s in history if len(s.values["messages"]) == 6 and not s.next)
    assert [m.id for m in old.values["messages"]][:2] == ["human-0", "ai-0"]
    replay = graph.invoke(turn_input(9), old.config)
    assert len(replay["messages"]) == 9
    assert replay["messages"][6].id == "human-9"
    # The original branch is intact.
    latest = [s for s in graph.get_state_history(config) if len(s.values["messages"]) == 12]
    assert latest and latest[0].values["messages"][-1].type == "tool"


def test_update_state_replaces_a_message_and_persists(backend: Backend) -> None:
    graph = build_graph(backend.saver)
    config = {"configurable": {"thread_id": "up"}}
    for turn in range(3):
        graph.invoke(turn_input(turn), config)
    edited = HumanMessage("edited request", id="human-1")
    graph.update_state(config, {"messages": [edited], "notes": "edited"})
    state = graph.get_state(config)
    ids = [m.id for m in state.values["messages"]]
    assert ids.count("human-1") == 1
    assert state.values["messages"][ids.index("human-1")].content == "edited request"
    assert state.values["notes"] == "edited"
    # A fresh saver on the same file (no caches) sees the same state.
    with backend.reopen() as fresh:
        assert state_json(build_graph(fresh), config) == state_json(graph, config)
    # Both versions of the edited message are kept in the audit table.
    sql = "SELECT COUNT(*) FROM lgc_messages WHERE tid = ? AND message_id = ?"
    assert backend.scalar(sql, backend.tid("up"), key("human-1")) == 2


def test_fork_from_an_earlier_checkpoint_keeps_both_branches(backend: Backend) -> None:
    graph = build_graph(backend.saver)
    config = {"configurable": {"thread_id": "fork"}}
    for turn in range(3):
        graph.invoke(turn_input(turn), config)
    base = next(s for s in graph.get_state_history(config) if len(s.values["messages"]) == 3)
    fork_config = graph.update_state(base.config, {"notes": "forked"})
    graph.invoke(turn_input(7), fork_config)
    fork_state = graph.get_state(fork_config | {"configurable": {"thread_id": "fork"}})
    msgs = fork_state.values["messages"]
    assert [m.id for m in msgs[:4]] == ["human-0", "ai-0", msgs[2].id, "human-7"]
    assert isinstance(msgs[-1], ToolMessage) and isinstance(msgs[-2], AIMessage)
    assert fork_state.values["notes"] == "forked"
    main = [s for s in graph.get_state_history(config) if len(s.values["messages"]) == 9]
    assert main, "the original branch's 9-message checkpoint survives the fork"
