"""The same-thread writer guard (``single_writer=True``) on every backend.

A run is made to interleave with another deterministically: its node runs a whole turn
of a second run (through another saver on the same database, as another process
would) before it returns, so the first run's next put finds the thread moved on.
"""

from __future__ import annotations

from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import Backend
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_compact.errors import ConcurrentRunError

CONFIG: dict[str, Any] = {"configurable": {"thread_id": "shared"}}
GO = {"messages": [HumanMessage("go", id="first-human")]}
# The interleaving run stores each checkpoint before its node runs ("sync"), so the
# other run starts from the first run's latest checkpoint, as a later process would.


def _interleaving_graph(saver: Any, other: Any) -> Any:
    """A one-node graph whose node runs a full turn of ``other`` on the same thread."""

    def node(state: MessagesState) -> dict[str, Any]:
        other.invoke(turn_input(100), CONFIG)
        return {"messages": [AIMessage("first run's answer", id="first-ai")]}

    builder = StateGraph(MessagesState)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    return builder.compile(checkpointer=saver)


def _ids(graph: Any) -> list[str]:
    return [str(m.id) for m in graph.get_state(CONFIG).values["messages"]]


def test_without_the_guard_the_other_runs_turn_is_silently_lost(backend: Backend) -> None:
    with backend.reopen() as other_saver:
        other = build_graph(other_saver)
        first = _interleaving_graph(backend.saver, other)
        first.invoke(GO, CONFIG, durability="sync")
        ids = _ids(other)
    assert "first-ai" in ids and "human-100" not in ids  # LangGraph's last writer wins


@pytest.mark.parametrize("same_saver", [False, True])
def test_a_run_interleaved_by_another_gets_concurrent_run_error(
    backend: Backend, same_saver: bool
) -> None:
    with backend.reopen(single_writer=True) as mine, backend.reopen(single_writer=True) as theirs:
        other = build_graph(mine if same_saver else theirs)
        first = _interleaving_graph(mine, other)
        with pytest.raises(ConcurrentRunError) as caught:
            first.invoke(GO, CONFIG, durability="sync")
        err = caught.value
        assert (err.thread_id, err.checkpoint_ns) == ("shared", "")
        assert (
            err.other_checkpoint_id
            == other.get_state(CONFIG).config["configurable"]["checkpoint_id"]
        )
        assert "'shared'" in str(err) and err.other_checkpoint_id in str(err)
        ids = _ids(build_graph(theirs))
    # The first run's input was stored before its node ran; the other turn follows it
    # whole; the first run's answer, refused, is not there.
    assert ids[:3] == ["first-human", "human-100", "ai-100"] and len(ids) == 4
    assert "first-ai" not in ids


def test_the_other_run_is_named_by_its_run_id(backend: Backend) -> None:
    with backend.reopen(single_writer=True) as mine, backend.reopen(single_writer=True) as theirs:
        other = build_graph(theirs)

        def node(state: MessagesState) -> dict[str, Any]:
            other.invoke(turn_input(7), {**CONFIG, "metadata": {"run_id": "run-B"}})
            return {"messages": [AIMessage("late", id="late")]}

        builder = StateGraph(MessagesState)
        builder.add_node("node", node)
        builder.add_edge(START, "node")
        with pytest.raises(ConcurrentRunError, match="run 'run-B'") as caught:
            builder.compile(checkpointer=mine).invoke(GO, CONFIG, durability="sync")
    assert caught.value.other_run_id == "run-B"


def test_sequential_runs_time_travel_forks_and_update_state_keep_working(
    backend: Backend,
) -> None:
    with backend.reopen(single_writer=True) as saver, backend.reopen(single_writer=True) as peer:
        graph, graph2 = build_graph(saver), build_graph(peer)
        for turn in range(3):  # two savers taking turns, as two workers would
            (graph if turn % 2 else graph2).invoke(turn_input(turn), CONFIG)
        assert len(_ids(graph)) == 9 and len(_ids(graph2)) == 9
        history = list(graph.get_state_history(CONFIG))
        old = next(s for s in history if len(s.values.get("messages", [])) == 3 and not s.next)
        forked = graph.invoke(turn_input(50), old.config)  # time travel: a branch from turn 0
        assert [m.id for m in forked["messages"]][-3:-1] == ["human-50", "ai-50"]
        assert len(forked["messages"]) == 6
        graph.update_state(old.config, {"messages": [AIMessage("edit", id="edit")]})
        graph2.update_state(CONFIG, {"messages": [AIMessage("note", id="note")]})
        assert _ids(graph)[-1] == "note"
        graph.invoke(turn_input(9), CONFIG)
        assert _ids(graph2)[-3:-1] == ["human-9", "ai-9"]
        assert saver.verify().ok


def test_update_state_on_a_stale_read_is_refused(backend: Backend) -> None:
    with backend.reopen(single_writer=True) as saver, backend.reopen(single_writer=True) as peer:
        graph, graph2 = build_graph(saver), build_graph(peer)
        graph.invoke(turn_input(0), CONFIG)
        stale = saver.get_tuple(CONFIG)  # read as the newest...
        assert stale is not None
        graph2.invoke(turn_input(1), CONFIG)  # ...then another worker takes a turn
        cfg = stale.config
        cp, md = stale.checkpoint, {"source": "update", "step": 99, "parents": {}}
        new = {**cp, "id": "ffffffff-0000-6000-8000-000000000000"}
        with pytest.raises(ConcurrentRunError):
            saver.put(cfg, new, md, {})  # type: ignore[arg-type]
        assert _ids(graph)[-3] == "human-1"
