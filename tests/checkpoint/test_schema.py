"""Schema versioning: one version table, ordered forward migrations, newer files refused."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import SQLITE_BACKENDS, open_saver
from langchain_core.messages import messages_to_dict

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSqliteSaver
from langgraph_compact.checkpoint._schema import MIGRATIONS, Migration, migrate
from langgraph_compact.checkpoint._sql import SQLITE
from langgraph_compact.checkpoint.sqlite import drive
from langgraph_compact.errors import CorruptionError, SchemaVersionError

LATEST = MIGRATIONS[-1].version


def _versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT version FROM lgc_schema_version ORDER BY version")
        return [v for (v,) in rows]


def test_migrations_are_ordered_and_applied_once(db_path: Path) -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))
    for _ in range(2):
        with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
            saver.setup()
    assert _versions(db_path) == list(range(1, LATEST + 1))
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_migration_is_applied_forward(db_path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        saver.setup()
    extra = Migration(
        LATEST + 1, "test column", {"sqlite": ("ALTER TABLE lgc_redactions ADD COLUMN note TEXT",)}
    )
    conn = sqlite3.connect(db_path, isolation_level=None)
    assert drive(conn, migrate(SQLITE, [*MIGRATIONS, extra]), write=True) == LATEST + 1
    columns = [r[1] for r in conn.execute("PRAGMA table_info(lgc_redactions)")]
    conn.close()
    assert "note" in columns
    assert _versions(db_path)[-1] == LATEST + 1


def _write_future_version(db_path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        saver.setup()
    with sqlite3.connect(db_path) as conn:  # a newer package records each of its steps
        conn.executemany(
            "INSERT INTO lgc_schema_version VALUES (?, 'from the future', CURRENT_TIMESTAMP)",
            [(v,) for v in range(LATEST + 1, LATEST + 6)],
        )


def test_newer_schema_is_refused_with_instructions(db_path: Path) -> None:
    _write_future_version(db_path)
    expected = r"version \d+.*Upgrade langgraph-compact"
    with (
        CompactSqliteSaver.from_conn_string(str(db_path)) as saver,
        pytest.raises(SchemaVersionError, match=expected),
    ):
        saver.get_tuple({"configurable": {"thread_id": "x"}})


async def test_newer_schema_is_refused_by_the_async_saver(db_path: Path) -> None:
    _write_future_version(db_path)
    async with AsyncCompactSqliteSaver.from_conn_string(db_path) as saver:
        with pytest.raises(SchemaVersionError, match="new database file"):
            await saver.aget_tuple({"configurable": {"thread_id": "x"}})


LEGACY = Path(__file__).with_name("data") / "schema_v4.sqlite"


def _summary_view(summary: Any) -> dict[str, Any] | None:
    """What the summary holds, in a form that does not change with RunningSummary's fields."""
    if summary is None:
        return None
    items = [
        [str(getattr(section, "value", section)), item.text, list(item.sources)]
        for section, entries in summary.sections.items()
        for item in entries
    ]
    return {
        "head_end": summary.head_end,
        "covered_through": summary.covered_through,
        "span_digest": summary.span_digest,
        "items": items,
    }


def _snapshots(graph: Any, thread_id: str) -> list[dict[str, Any]]:
    out = []
    for snap in graph.get_state_history({"configurable": {"thread_id": thread_id}}):
        v = snap.values
        values = {
            "messages": messages_to_dict(v.get("messages", [])),
            "notes": v.get("notes"),
            "summary": _summary_view(v.get("summary")),
        }
        blob = json.dumps(values, sort_keys=True).encode()
        out.append(
            {
                "checkpoint_id": snap.config["configurable"]["checkpoint_id"],
                "parent": (snap.parent_config or {}).get("configurable", {}).get("checkpoint_id"),
                "next": list(snap.next),
                "values_sha256": hashlib.sha256(blob).hexdigest(),
            }
        )
    return out


@pytest.mark.parametrize("kind", SQLITE_BACKENDS)  # schema 4 was only ever written to SQLite
def test_a_file_written_by_schema_4_opens_and_loads_the_same(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "v4.sqlite"
    shutil.copy(LEGACY, path)
    expected = json.loads(LEGACY.with_suffix(".json").read_text())
    with open_saver(kind, path) as saver:
        graph = build_graph(saver)
        for thread_id, snaps in expected["history"].items():
            assert _snapshots(graph, thread_id) == snaps
        assert saver.verify().ok
        assert [(r.message_id, r.actor) for r in saver.redactions()] == [("leak", "fixture")]
        hits = saver.history("legacy-a", text="mod20.py line 3").items
        assert [(i.index, i.message.type) for i in hits] == [(8, "tool")]
        graph.invoke(turn_input(30), {"configurable": {"thread_id": "legacy-a"}})
        assert saver.verify().ok
    assert _versions(path) == list(range(1, LATEST + 1))
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert not any(t.startswith("lgc_v4_") for t in tables) and "lgc_thread_epochs" not in tables


def test_a_damaged_version_table_is_corruption_not_a_newer_schema(db_path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
        saver.setup()
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE lgc_schema_version SET version = 6688 WHERE version = 3")
    with (
        CompactSqliteSaver.from_conn_string(str(db_path)) as saver,
        pytest.raises(CorruptionError, match="schema version table is damaged") as raised,
    ):
        saver.get_tuple({"configurable": {"thread_id": "x"}})
    assert raised.value.thread_id == "x"
