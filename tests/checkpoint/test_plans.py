"""The statements a put or a load runs are index lookups, never a scan of a thread's rows.

A put that scans the thread grows with the history (the 5,000-turn bench would show it
as a slope); SQLite's planner picks a primary-key scan over a non-covering index on
these WITHOUT ROWID tables, so each hot statement's plan is pinned here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.checkpoint import _sql as q

HOT = {
    "SELECT_THREAD": q.SELECT_THREAD,
    "SELECT_HEAD_ROW": q.SELECT_HEAD_ROW,
    "SELECT_CHECKPOINT": q.SELECT_CHECKPOINT,
    "SELECT_PREVIOUS_ROWS": q.SELECT_PREVIOUS_ROWS,
    "SELECT_MESSAGE_SEQ": q.SELECT_MESSAGE_SEQ,
    "SELECT_MESSAGE_SEQ_AND_MAX": q.SELECT_MESSAGE_SEQ_AND_MAX,
    "SELECT_SEQS_BY_ID": q.SELECT_SEQS_BY_ID,
    "SELECT_SEQS_BY_IDS": q.SELECT_SEQS_BY_IDS.format(marks="?,?"),
    "SELECT_MAX_SEQ": q.SELECT_MAX_SEQ,
    "SELECT_MESSAGES": q.SELECT_MESSAGES.format(marks="?,?"),
    "SELECT_BLOBS": q.SELECT_BLOBS.format(values=q.values_list(2, 2)),
    "SELECT_BLOB": q.SELECT_BLOB,
    "SELECT_REF_CHAIN": q.SELECT_REF_CHAIN,
    "SELECT_WRITES": q.SELECT_WRITES,
    "SELECT_TASK_WRITES": q.SELECT_TASK_WRITES,
    "SELECT_EXISTING_CHECKPOINTS": q.SELECT_EXISTING_CHECKPOINTS.format(marks="?"),
    "INSERT_CHECKPOINT": q.INSERT_CHECKPOINT,
}
BY_ID = {
    "SELECT_MESSAGE_SEQ",
    "SELECT_MESSAGE_SEQ_AND_MAX",
    "SELECT_SEQS_BY_ID",
    "SELECT_SEQS_BY_IDS",
}


@pytest.mark.parametrize("name", sorted(HOT))
def test_hot_statements_use_an_index(name: str, db_path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        saver.setup()
        sql = HOT[name]
        plan = [
            row[3] for row in saver.conn.execute("EXPLAIN QUERY PLAN " + sql, [1] * sql.count("?"))
        ]
    # Scanning a VALUES list or a recursive CTE's own rows is fine; a table is not.
    scans = [p for p in plan if p.startswith("SCAN") and p.split()[1] not in ("v", "chain")]
    scans = [p for p in scans if "CONSTANT ROW" not in p]
    assert scans == [], plan
    if name in BY_ID:
        assert any("lgc_messages_by_id" in p for p in plan), plan
