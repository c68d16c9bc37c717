"""The async saver on a real graph, and its sync bridge (from other threads only)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from agent_graph import build_graph, state_json, turn_input

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSqliteSaver

CONFIG = {"configurable": {"thread_id": "a"}}


async def test_async_graph_round_trips_through_the_sync_saver(
    asaver: AsyncCompactSqliteSaver, db_path: Path
) -> None:
    graph = build_graph(asaver)
    for turn in range(6):
        await graph.ainvoke(turn_input(turn), CONFIG)
    state = await graph.aget_state(CONFIG)
    assert len(state.values["messages"]) == 18
    history = [s async for s in graph.aget_state_history(CONFIG)]
    assert len(history) == 24
    # The same file read by the sync saver gives the same state.
    with CompactSqliteSaver.from_conn_string(str(db_path)) as sync_saver:
        sync_state = build_graph(sync_saver).get_state(CONFIG)
    assert sync_state.values["messages"] == state.values["messages"]


async def test_sync_methods_bridge_from_other_threads_only(
    asaver: AsyncCompactSqliteSaver,
) -> None:
    graph = build_graph(asaver)
    await graph.ainvoke(turn_input(0), CONFIG)
    with pytest.raises(asyncio.InvalidStateError, match="different thread"):
        asaver.get_tuple(CONFIG)
    tup = await asyncio.to_thread(asaver.get_tuple, CONFIG)
    assert tup is not None and len(tup.checkpoint["channel_values"]["messages"]) == 3
    page = await asyncio.to_thread(asaver.history, "a")
    assert [i.message.id for i in page.items][:2] == ["human-0", "ai-0"]


async def test_async_thread_operations(asaver: AsyncCompactSqliteSaver) -> None:
    graph = build_graph(asaver)
    for turn in range(3):
        await graph.ainvoke(turn_input(turn), CONFIG)
    await asaver.acopy_thread("a", "b")
    b = {"configurable": {"thread_id": "b"}}
    assert (await graph.aget_state(b)).values == (await graph.aget_state(CONFIG)).values
    await asaver.aprune(["a"], strategy="keep_latest")
    assert len([t async for t in asaver.alist(CONFIG)]) == 1
    assert len((await graph.aget_state(CONFIG)).values["messages"]) == 9
    await asaver.adelete_thread("a")
    assert await asaver.aget_tuple(CONFIG) is None
    assert len((await graph.aget_state(b)).values["messages"]) == 9


def test_sync_saver_async_methods_run_in_a_worker(saver: CompactSqliteSaver) -> None:
    graph = build_graph(saver)

    async def main() -> str:
        for turn in range(2):
            await graph.ainvoke(turn_input(turn), CONFIG)
        return state_json(graph, CONFIG)

    assert '"human-1"' in asyncio.run(main())
