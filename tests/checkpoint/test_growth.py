"""Regression guard for the bench: storage stays linear in the raw message bytes."""

from __future__ import annotations

import json
from pathlib import Path

from agent_graph import build_graph, file_bytes, turn_input
from langchain_core.messages import AIMessage

from langgraph_compact.checkpoint import CompactSqliteSaver


def _raw_bytes(messages: list[object]) -> int:
    total = 0
    for m in messages:
        payload = {"content": m.content}  # type: ignore[attr-defined]
        if isinstance(m, AIMessage) and m.tool_calls:
            payload["tool_calls"] = m.tool_calls
        total += len(json.dumps(payload).encode())
    return total


def test_database_grows_linearly_with_messages(db_path: Path) -> None:
    sizes = []
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        graph = build_graph(saver)
        config = {"configurable": {"thread_id": "g"}}
        for turn in range(120):
            graph.invoke(turn_input(turn), config)
            if turn + 1 in (60, 120):
                saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                raw = _raw_bytes(graph.get_state(config).values["messages"])
                sizes.append((len(file_bytes(db_path)), raw))
    (size60, _), (size120, raw120) = sizes
    # Twice the turns, about twice the bytes (quadratic storage would be ~4x).
    assert (size120 - size60) < 1.3 * size60
    # The short, compressible outputs of this graph stay well under 3x the raw bytes.
    assert size120 < 3 * raw120
