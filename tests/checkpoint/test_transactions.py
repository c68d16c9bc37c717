"""Failed and cancelled operations leave neither the caches nor the connection behind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.base import empty_checkpoint

from langgraph_compact.checkpoint import CompactSqliteSaver

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
