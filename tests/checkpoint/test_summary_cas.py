"""Summary commits are compare-and-swap on every backend (``checkpoint._cas``).

Two runs race on one thread, without ``single_writer``: the first run's node lets a
second run (another saver on the same database, as another process) take a whole turn
that commits a summary generation, then returns its own candidate. The newer summary
survives; the stale one gets ``SummaryConflictError``, never a silent overwrite. A
candidate built on the summary that is still current goes in; branches (time travel,
``update_state`` on an older checkpoint) may write any older generation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypedDict

import pytest
from backends import Backend
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages

from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.errors import ConcurrentRunError, SummaryConflictError

CONFIG: dict[str, Any] = {"configurable": {"thread_id": "shared"}}


class State(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    running_summary: RunningSummary | None


def _summary(generation: int, parent: int | None, covered: int) -> RunningSummary:
    return RunningSummary(
        head_end=0, covered_through=covered, generation=generation, parent_generation=parent
    )


def _successor(state: State, covered: int) -> RunningSummary:
    """What a compaction of ``state`` commits: the next generation of its summary."""
    current = state.get("running_summary")
    gen = current.generation if current is not None else 0
    return _summary(gen + 1, gen if current is not None else None, covered)


def _graph(saver: Any, node: Callable[[State], dict[str, Any]]) -> Any:
    builder = StateGraph(State)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    return builder.compile(checkpointer=saver)


def _compacting(saver: Any, covered: int, tag: str) -> Any:
    """A turn that answers and commits the next summary generation."""
    return _graph(
        saver,
        lambda s: {
            "messages": [AIMessage(f"{tag} answer", id=f"{tag}-ai")],
            "running_summary": _successor(s, covered),
        },
    )


def _chatting(saver: Any, tag: str) -> Any:
    """A turn that answers and leaves the summary as it is."""
    return _graph(saver, lambda s: {"messages": [AIMessage(f"{tag} answer", id=f"{tag}-ai")]})


def _racing(saver: Any, other: Any, result: Callable[[State], dict[str, Any]]) -> Any:
    """A node that lets ``other`` take a whole turn on the thread before it returns."""

    def node(state: State) -> dict[str, Any]:
        other.invoke({"messages": [HumanMessage("other", id="other-human")]}, CONFIG)
        return result(state)

    return _graph(saver, node)


def _seed(saver: Any) -> None:  # generation 1 is the thread's summary
    _compacting(saver, 2, "seed").invoke({"messages": [HumanMessage("hi", id="h0")]}, CONFIG)


def _summary_now(saver: Any) -> RunningSummary:
    value = _chatting(saver, "read").get_state(CONFIG).values["running_summary"]
    assert isinstance(value, RunningSummary)
    return value


GO = {"messages": [HumanMessage("go", id="first-human")]}


def test_a_stale_candidate_is_refused_and_the_newer_summary_survives(backend: Backend) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        _seed(mine)
        other = _compacting(theirs, 5, "other")  # commits generation 2 (from 1) mid-race
        first = _racing(mine, other, lambda s: {"running_summary": _successor(s, 4)})
        with pytest.raises(SummaryConflictError) as caught:
            first.invoke(GO, CONFIG, durability="sync")  # its generation 2 is also from 1
        err = caught.value
        assert isinstance(err, ConcurrentRunError) and err.channel == "running_summary"
        assert (err.stored_generation, err.candidate_generation) == (2, 2)
        assert "'shared'" in str(err) and "generation 2" in str(err)
        assert err.other_checkpoint_id in str(err)
        now = _summary_now(theirs)
    assert (now.generation, now.covered_through) == (2, 5)  # the other run's, not ours


def test_an_older_generation_carried_along_is_refused(backend: Backend) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        _seed(mine)
        other = _compacting(theirs, 5, "other")
        first = _racing(mine, other, lambda s: {"messages": [AIMessage("late", id="late")]})
        with pytest.raises(SummaryConflictError, match="generation 2"):
            first.invoke(GO, CONFIG, durability="sync")  # it still holds generation 1
        now = _summary_now(theirs)
    assert now.generation == 2


def test_a_run_that_read_the_thread_before_its_first_summary_cannot_drop_it(
    backend: Backend,
) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        _chatting(mine, "seed").invoke({"messages": [HumanMessage("hi", id="h0")]}, CONFIG)
        other = _compacting(theirs, 3, "other")  # the thread's first summary, mid-race
        first = _racing(mine, other, lambda s: {"messages": [AIMessage("late", id="late")]})
        with pytest.raises(SummaryConflictError, match="no summary yet") as caught:
            first.invoke(GO, CONFIG, durability="sync")
        assert (caught.value.stored_generation, caught.value.candidate_generation) == (1, 0)
        now = _summary_now(theirs)
    assert now.generation == 1


def test_runs_without_summaries_keep_langgraphs_last_writer_wins(backend: Backend) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        other = _chatting(theirs, "other")
        first = _racing(mine, other, lambda s: {"messages": [AIMessage("late", id="late")]})
        first.invoke(GO, CONFIG, durability="sync")  # no summary anywhere: nothing to swap
        ids = [m.id for m in _chatting(theirs, "x").get_state(CONFIG).values["messages"]]
    assert "late" in ids and "other-ai" not in ids


def test_a_candidate_built_on_the_current_summary_is_stored(backend: Backend) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        _seed(mine)
        other = _chatting(theirs, "other")  # takes a turn, the summary stays generation 1
        first = _racing(mine, other, lambda s: {"running_summary": _successor(s, 4)})
        first.invoke(GO, CONFIG, durability="sync")
        now = _summary_now(theirs)
    assert (now.generation, now.parent_generation, now.covered_through) == (2, 1, 4)


def test_the_same_summary_carried_by_both_runs_is_no_conflict(backend: Backend) -> None:
    with backend.reopen() as mine, backend.reopen() as theirs:
        _seed(mine)
        other = _chatting(theirs, "other")  # both runs keep generation 1 as it is
        first = _racing(mine, other, lambda s: {"messages": [AIMessage("late", id="late")]})
        first.invoke(GO, CONFIG, durability="sync")
        now = _summary_now(theirs)
    assert (now.generation, now.covered_through) == (1, 2)


def test_branches_may_write_older_generations(backend: Backend) -> None:
    with backend.reopen() as saver:
        _seed(saver)
        graph = _compacting(saver, 6, "next")
        graph.invoke({"messages": [HumanMessage("more", id="h1")]}, CONFIG)  # generation 2
        old = next(
            s
            for s in graph.get_state_history(CONFIG)
            if s.values.get("running_summary") is not None
            and s.values["running_summary"].generation == 1
        )
        forked = _compacting(saver, 3, "fork").invoke(
            {"messages": [HumanMessage("back", id="h2")]}, old.config
        )
        assert forked["running_summary"].generation == 2  # a second generation 2, from 1
        graph.update_state(old.config, {"running_summary": _summary(1, None, 1)})
        assert _summary_now(saver).covered_through == 1  # the branch is the newest now
        assert saver.verify().ok
