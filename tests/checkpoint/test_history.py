"""History API: paging by index range, role, tool name and text, and summary generations."""

from __future__ import annotations

from typing import Any, TypedDict

import pytest
from agent_graph import build_graph, turn_input
from backends import Backend
from langgraph.graph import START, StateGraph

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSaverBase
from langgraph_compact.errors import HistoryCursorError, SaverArgumentError

CONFIG = {"configurable": {"thread_id": "hist"}}


@pytest.fixture
def ten_turns(backend: Backend) -> CompactSaverBase:
    graph = build_graph(backend.saver)
    for turn in range(10):
        graph.invoke(turn_input(turn), CONFIG)
    return backend.saver


def test_pages_cover_every_message_once_with_cursor(ten_turns: CompactSaverBase) -> None:
    seen: list[int] = []
    page = ten_turns.history("hist", limit=7)
    pages = 1
    while True:
        seen += [item.index for item in page.items]
        assert page.total == 30
        if not page.has_more:
            assert page.cursor is None
            break
        assert page.cursor is not None and len(page.items) == 7
        page = ten_turns.history("hist", limit=7, cursor=page.cursor)
        pages += 1
    assert seen == list(range(30))
    assert pages == 5


def test_index_range_and_role_filters(ten_turns: CompactSaverBase) -> None:
    page = ten_turns.history("hist", start=3, end=9)
    assert [i.index for i in page.items] == [3, 4, 5, 6, 7, 8]
    assert [i.message.id for i in page.items[:2]] == ["human-1", "ai-1"]
    tools = ten_turns.history("hist", role="tool")
    assert len(tools.items) == 10 and {i.message.type for i in tools.items} == {"tool"}
    assert [i.index for i in tools.items] == list(range(2, 30, 3))
    users = ten_turns.history("hist", role="user", limit=3)
    assert [i.message.id for i in users.items] == ["human-0", "human-1", "human-2"]
    assert users.has_more


def test_tool_name_matches_calls_and_results(ten_turns: CompactSaverBase) -> None:
    page = ten_turns.history("hist", tool_name="read_file", limit=100)
    assert len(page.items) == 20
    assert {i.message.type for i in page.items} == {"ai", "tool"}
    assert ten_turns.history("hist", tool_name="read").items == []


def test_text_search_uses_fts_and_keeps_indices(ten_turns: CompactSaverBase) -> None:
    page = ten_turns.history("hist", text="src/mod7.py line 39")
    assert len(page.items) == 1
    hit = page.items[0]
    assert hit.index == 23 and hit.message.type == "tool"
    assert "src/mod7.py:39" in str(hit.message.content)
    # FTS5 syntax in the query is inert: it is searched for as words.
    assert ten_turns.history("hist", text='mod7 OR "NEAR(x*' + "'").items == []
    assert len(ten_turns.history("hist", text="reading", role="ai").items) == 10


def test_cursor_is_bound_to_thread_and_filters(ten_turns: CompactSaverBase) -> None:
    page = ten_turns.history("hist", limit=5)
    assert page.cursor
    with pytest.raises(HistoryCursorError, match="cursor"):
        ten_turns.history("hist", limit=5, role="tool", cursor=page.cursor)
    with pytest.raises(HistoryCursorError, match="cursor"):
        ten_turns.history("other", limit=5, cursor=page.cursor)
    with pytest.raises(HistoryCursorError):
        ten_turns.history("hist", cursor="not-a-cursor!")
    with pytest.raises(SaverArgumentError, match="limit"):
        ten_turns.history("hist", limit=0)


def test_history_of_an_older_checkpoint(ten_turns: CompactSaverBase) -> None:
    graph = build_graph(ten_turns)
    old = next(s for s in graph.get_state_history(CONFIG) if len(s.values["messages"]) == 6)
    page = ten_turns.history("hist", checkpoint_id=old.config["configurable"]["checkpoint_id"])
    assert page.total == 6 and len(page.items) == 6
    assert ten_turns.history("missing-thread").items == []


class _SummaryState(TypedDict, total=False):
    running_summary: Any
    counter: int


def _summary(generation: int, covered: int) -> dict[str, Any]:
    return {
        "generation": generation,
        "head_end": 2,
        "covered_through": covered,
        "summarizer": "extractive",
        "token_count": 100 * generation,
        "text": f"summary {generation}",
    }


def test_summary_generations_are_listed_from_channel_blobs(backend: Backend) -> None:
    saver = backend.saver
    builder = StateGraph(_SummaryState)
    builder.add_node("bump", lambda s: {"counter": s.get("counter", 0) + 1})
    builder.add_edge(START, "bump")
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "sum"}}
    graph.invoke({"counter": 0}, config)
    graph.update_state(config, {"running_summary": _summary(1, 10)})
    graph.invoke({"counter": 5}, config)  # summary unchanged: no new generation
    graph.update_state(config, {"running_summary": _summary(2, 25)})
    gens = saver.summaries("sum")
    assert [g.generation for g in gens] == [1, 2]
    assert (gens[1].head_end, gens[1].covered_through, gens[1].token_count) == (2, 25, 200)
    assert gens[0].summarizer == "extractive"
    assert gens[0].checkpoint_id < gens[1].checkpoint_id


async def test_async_history_matches_sync(asaver: AsyncCompactSqliteSaver) -> None:
    graph = build_graph(asaver)
    for turn in range(3):
        await graph.ainvoke(turn_input(turn), CONFIG)
    page = await asaver.ahistory("hist", role="tool")
    assert [i.index for i in page.items] == [2, 5, 8]
    found = await asaver.ahistory("hist", text="mod1.py line 3")
    assert [i.index for i in found.items] == [5]
