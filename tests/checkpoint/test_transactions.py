"""Failed and cancelled operations leave neither the caches nor the connection behind."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSqliteSaver

CONFIG: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}


def _checkpoint(cid: str, values: dict[str, Any], version: str) -> Any:
    cp = empty_checkpoint()
    cp["id"] = cid
    cp["channel_values"] = values
    cp["channel_versions"] = dict.fromkeys(values, version)
    return cp


def test_a_rolled_back_put_leaves_no_cached_message_rows(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    msgs = [HumanMessage("hello", id="h1"), AIMessage("hi", id="a1")]
    # The messages are stored, then serializing the other channel fails: ROLLBACK.
    bad = _checkpoint("1", {"messages": msgs, "bad": lambda: 1}, "1")
    with pytest.raises(TypeError):
        saver.put(CONFIG, bad, {}, {"messages": "1", "bad": "1"})
    assert saver.conn.execute("SELECT COUNT(*) FROM lgc_messages").fetchone() == (0,)
    saver.put(CONFIG, _checkpoint("2", {"messages": msgs}, "2"), {}, {"messages": "2"})
    assert saver.conn.execute("SELECT COUNT(*) FROM lgc_messages").fetchone() == (2,)
    with CompactSqliteSaver.from_conn_string(str(db_path)) as fresh:
        tup = fresh.get_tuple(CONFIG)
    assert tup is not None and tup.checkpoint["channel_values"]["messages"] == msgs


async def _reply(state: MessagesState) -> dict[str, Any]:
    return {"messages": [AIMessage("reply")]}


async def test_cancelled_async_calls_never_leave_a_transaction_open(
    asaver: AsyncCompactSqliteSaver,
) -> None:
    builder = StateGraph(MessagesState)
    builder.add_node("bot", _reply)
    builder.add_edge(START, "bot")
    graph = builder.compile(checkpointer=asaver)
    config: Any = {"configurable": {"thread_id": "c"}}
    await graph.ainvoke({"messages": [HumanMessage("warm")]}, config)
    for i in range(60):
        task = asyncio.create_task(graph.ainvoke({"messages": [HumanMessage(f"c {i}")]}, config))
        for _ in range(i % 6):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert not asaver.conn.in_transaction, f"transaction left open at iteration {i}"
    await graph.ainvoke({"messages": [HumanMessage("after")]}, config)
    state = await graph.aget_state(config)
    assert [m.content for m in state.values["messages"]][-2:] == ["after", "reply"]
