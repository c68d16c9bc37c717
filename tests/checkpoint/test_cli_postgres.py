"""``langgraph-compact inspect`` and ``verify`` on a Postgres DSN (the test server)."""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
from agent_graph import build_graph, turn_input
from click.testing import CliRunner
from pgserver import schema_dsn

from langgraph_compact.checkpoint import CompactPostgresSaver
from langgraph_compact.cli import main


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    return result.exit_code, result.stdout, result.stderr


def test_inspect_and_verify_read_a_postgres_database(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    with CompactPostgresSaver.from_conn_string(dsn) as saver:
        graph = build_graph(saver)
        for turn in range(3):
            graph.invoke(turn_input(turn), {"configurable": {"thread_id": "pg-thread"}})
    code, out, err = _cli("inspect", dsn)
    assert code == 0, err
    assert re.search(r"\b1 thread\b", out) and "pg-thread" in out and " 9 " in out
    code, out, err = _cli("verify", dsn)
    assert code == 0, err
    code, out, err = _cli("inspect", dsn, "--thread", "pg-thread")
    assert code == 0, err
    assert "mod2" in out


def test_a_postgres_database_without_the_saver_tables_is_refused(tmp_path: Path) -> None:
    dsn = schema_dsn(tmp_path)
    code, _, err = _cli("inspect", dsn)
    assert code == 2 and "not a langgraph-compact database" in err
    with psycopg.connect(dsn) as conn:  # nothing was created by looking
        assert conn.execute("SELECT to_regclass('lgc_schema_version')").fetchone() == (None,)
