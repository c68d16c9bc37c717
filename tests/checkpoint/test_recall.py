"""The recall tool: bounded pages by ref or query, scoped to the calling thread."""

from __future__ import annotations

from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import Backend
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from langgraph_compact.checkpoint import (
    AsyncCompactSqliteSaver,
    CompactSaverBase,
    make_recall_tool,
)


def _cfg(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


@pytest.fixture
def two_threads(backend: Backend) -> tuple[CompactSaverBase, str]:
    saver = backend.saver
    graph = build_graph(saver)
    for turn in range(3):
        graph.invoke(turn_input(turn), _cfg("A"))
    graph.invoke(turn_input(50), _cfg("B"))
    tool_id = graph.get_state(_cfg("A")).values["messages"][5].id
    return saver, tool_id


def test_ref_returns_original_content_in_bounded_pages(two_threads: Any) -> None:
    saver, ref = two_threads
    recall = make_recall_tool(saver, page_chars=500)
    full = saver.get_message("A", ref)
    assert full is not None and len(str(full.content)) > 1200
    first = recall.invoke({"ref": ref, "limit": 10_000}, config=_cfg("A"))
    assert "chars 0-500 of" in first and "next offset=500" in first
    pieces, offset = [], 0
    while True:
        out = recall.invoke({"ref": ref, "offset": offset}, config=_cfg("A"))
        header, _, body = out.partition("\n")
        pieces.append(body)
        if header.endswith("end]"):
            break
        offset = int(header.rsplit("next offset=", 1)[1].rstrip("]"))
    assert "".join(pieces) == full.content


def test_query_searches_only_the_calling_thread(two_threads: Any) -> None:
    saver, _ = two_threads
    recall = make_recall_tool(saver)
    hits = recall.invoke({"query": "src/mod1.py line 7"}, config=_cfg("A"))
    assert "ref=" in hits and "#5 tool" in hits
    assert "No messages" in recall.invoke({"query": "mod50"}, config=_cfg("A"))
    assert "#2 tool" in recall.invoke({"query": "mod50"}, config=_cfg("B"))


@pytest.mark.parametrize(
    "ref",
    [
        "' OR '1'='1",
        "%",
        "*",
        'x"; DROP TABLE lgc_messages; --',
        "ai-0' UNION SELECT seq FROM lgc_messages --",
        "NEAR(ai* OR human*)",
    ],
)
def test_crafted_refs_are_inert(two_threads: Any, ref: str) -> None:
    saver, _ = two_threads
    recall = make_recall_tool(saver)
    assert recall.invoke({"ref": ref}, config=_cfg("A")).startswith("No message with ref=")
    assert recall.invoke({"query": ref}, config=_cfg("A")).startswith(("No messages", "Messages"))
    assert saver.history("A").total == 9  # nothing was dropped or altered


def test_another_threads_ref_is_not_found(two_threads: Any) -> None:
    saver, ref_in_a = two_threads
    recall = make_recall_tool(saver)
    assert recall.invoke({"ref": ref_in_a}, config=_cfg("B")).startswith("No message")
    assert recall.invoke({"ref": "ai-0"}, config=_cfg("B")).startswith("No message")
    assert "reading mod0" in recall.invoke({"ref": "ai-0"}, config=_cfg("A"))


def test_thread_comes_from_config_not_from_model_arguments(two_threads: Any) -> None:
    saver, ref_in_a = two_threads
    recall = make_recall_tool(saver)
    assert set(recall.args) == {"ref", "query", "offset", "limit"}
    out = recall.invoke({"ref": ref_in_a, "thread_id": "A"}, config=_cfg("B"))
    assert out.startswith("No message")


def test_recall_inside_a_graph_tool_node(two_threads: Any) -> None:
    saver, ref = two_threads
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([make_recall_tool(saver, page_chars=300)]))
    builder.add_edge(START, "tools")
    graph = builder.compile()
    call = {"id": "r1", "name": "recall", "args": {"ref": ref}}
    out = graph.invoke({"messages": [AIMessage("", tool_calls=[call])]}, _cfg("A"))
    result = out["messages"][-1]
    assert isinstance(result, ToolMessage)
    assert "contents of src/mod1.py" in result.content and "chars 0-300" in result.content
    other = graph.invoke({"messages": [AIMessage("", tool_calls=[call])]}, _cfg("B"))
    assert other["messages"][-1].content.startswith("No message")


async def test_async_recall(asaver: AsyncCompactSqliteSaver) -> None:
    graph = build_graph(asaver)
    await graph.ainvoke(turn_input(0), _cfg("A"))
    recall = make_recall_tool(asaver)
    out = await recall.ainvoke({"ref": "ai-0"}, config=_cfg("A"))
    assert "reading mod0" in out
    assert (await recall.ainvoke({"ref": "ai-0"}, config=_cfg("Z"))).startswith("No message")


def test_ref_resolves_the_version_in_the_current_checkpoint(backend: Backend) -> None:
    saver = backend.saver
    graph = build_graph(saver)
    config = _cfg("e")
    graph.invoke({"messages": [HumanMessage("original A", id="x")]}, config)
    before_edit = graph.get_state(config).config
    graph.update_state(config, {"messages": [HumanMessage("edited B", id="x")]})
    graph.update_state(config, {"messages": [HumanMessage("original A", id="x")]})  # revert
    recall = make_recall_tool(saver)
    assert recall.invoke({"ref": "x"}, config=config).endswith("\noriginal A")
    assert saver.get_message("e", "x").content == "original A"  # type: ignore[union-attr]
    graph.update_state(config, {"messages": [HumanMessage("edited B", id="x")]})
    # A tool running in an older checkpoint (time travel) sees that checkpoint's version.
    old = recall.invoke({"ref": "x"}, config=before_edit)
    assert old.endswith("\noriginal A")
    assert recall.invoke({"ref": "x"}, config=config).endswith("\nedited B")
