"""``inspect``, ``verify``, ``history``, ``redact``, ``export`` on a real demo database."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import SAMPLE, THREAD, assert_bad_input, demo_db_fixture, demo_dir_fixture, run  # noqa: F401  (fixtures)

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.cli.db import all_messages
from langgraph_compact.cli.thread import model_inputs, projection_at, projection_of
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.trajectories import load_trajectory, sample_path


def test_inspect_lists_threads(demo_db: Path) -> None:
    result = run("inspect", demo_db)
    assert result.exit_code == 0, result.output
    recorded = len(load_trajectory(sample_path(SAMPLE)))
    assert re.search(r"\b1 thread\b", result.stdout), result.stdout
    assert THREAD in result.stdout and re.search(rf"\b{recorded}\b", result.stdout)


def test_inspect_thread_shows_summaries_events_and_grouped_messages(demo_db: Path) -> None:
    result = run("inspect", demo_db, "--thread", THREAD, "--budget", "4000", "--page-size", "6")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "summary generations" in out and "compaction events" in out
    assert "raw messages, page 1 of" in out
    assert "└ tool" in out  # a tool result is shown under the call that asked for it
    assert "head" in out


def test_inspect_recomputes_what_the_model_saw(demo_dir: Path, demo_db: Path) -> None:
    """The recomputed projections are the ones the demo run measured, call by call."""
    run_report = (demo_dir / "demo.html").read_text(encoding="utf-8")
    with CompactSqliteSaver.from_conn_string(str(demo_db)) as saver:
        points = model_inputs(saver, THREAD)
        counter = TokenCounter()
        sent = [counter.count_messages(projection_at(p, 4000, counter)) for p in points]
    recorded = load_trajectory(sample_path(SAMPLE))
    assert len(points) == sum(m.type == "ai" for m in recorded)
    assert max(sent) <= 4000 < counter.count_messages(recorded)
    assert f"<b>{len(points)}</b> model calls" in run_report


def test_inspect_checkpoint_projection_and_html(demo_db: Path, tmp_path: Path) -> None:
    with CompactSqliteSaver.from_conn_string(str(demo_db)) as saver:
        last = model_inputs(saver, THREAD)[-1]
    html = tmp_path / "thread.html"
    result = run(
        "inspect",
        demo_db,
        "--thread",
        THREAD,
        "--budget",
        "4000",
        "--checkpoint",
        last.checkpoint_id,
        "--html",
        html,
    )
    assert result.exit_code == 0, result.output
    assert f"what the model saw after checkpoint {last.checkpoint_id}" in result.stdout
    with CompactSqliteSaver.from_conn_string(str(demo_db)) as saver:
        seen = projection_of(saver, THREAD, last.checkpoint_id, 4000)
    assert last.summary is not None and last.summary.to_message().id in [m.id for m in seen]
    assert len(seen) < len(last.messages)  # the summary stands in for what it covers
    text = html.read_text(encoding="utf-8")
    assert 'id="chart"' in text and 'class="bar"' in text and 'id="search"' in text


def test_inspect_without_budget_shows_no_projection(demo_db: Path, tmp_path: Path) -> None:
    html = tmp_path / "t.html"
    assert run("inspect", demo_db, "--thread", THREAD, "--html", html).exit_code == 0
    assert 'class="sent"' not in html.read_text(encoding="utf-8")


def test_history_searches_the_raw_messages(demo_db: Path) -> None:
    recorded = load_trajectory(sample_path(SAMPLE))
    word = re.findall(r"[A-Za-z]{7,}", recorded[3].text)[0]
    result = run("history", demo_db, THREAD, "--text", word, "--limit", "50")
    assert result.exit_code == 0, result.output
    assert " 4 " in result.stdout or "│ 4 │" in result.stdout  # message #4 (index 3) matches
    tools = run("history", demo_db, THREAD, "--role", "tool", "--limit", "3")
    assert tools.exit_code == 0 and "3 of" in tools.stdout and "└ tool" in tools.stdout


def test_export_round_trips_through_replay(demo_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "thread.jsonl"
    result = run("export", demo_db, THREAD, "-o", out)
    assert result.exit_code == 0, result.output
    exported = load_trajectory(out)
    recorded = load_trajectory(sample_path(SAMPLE))
    assert [m.id for m in exported] == [m.id for m in recorded]
    assert [m.content for m in exported] == [m.content for m in recorded]
    assert [getattr(m, "tool_calls", None) for m in exported] == [
        getattr(m, "tool_calls", None) for m in recorded
    ]
    stdout = run("export", demo_db, THREAD)
    assert stdout.exit_code == 0
    assert [json.loads(line)["id"] for line in stdout.stdout.splitlines()] == [
        m.id for m in recorded
    ]


def test_redact_then_verify(demo_db: Path) -> None:
    recorded = load_trajectory(sample_path(SAMPLE))
    target = recorded[4]
    secret = target.text[:40]
    refused = run("redact", demo_db, THREAD, str(target.id), "--reason", "test", input="n\n")
    assert refused.exit_code == 1 and "Aborted" in refused.stderr
    result = run("redact", demo_db, THREAD, str(target.id), "nope-id", "--reason", "leak", "--yes")
    assert result.exit_code == 0, result.output
    assert "redacted 1 message(s)" in result.stdout and "nope-id" in result.stderr
    with CompactSqliteSaver.from_conn_string(str(demo_db)) as saver:
        messages = all_messages(saver, THREAD)
    assert messages[4].content == "[redacted: leak]"
    assert all(secret not in str(m.content) for m in messages)
    check = run("verify", demo_db)
    assert check.exit_code == 0, check.output
    assert "ok" in check.stdout


def test_verify_reports_damage_with_exit_1(demo_db: Path) -> None:
    with sqlite3.connect(demo_db) as conn:  # the checkpoint's value column, whatever its name
        column = next(
            name
            for _, name, kind, *_ in conn.execute("PRAGMA table_info(lgc_checkpoints)")
            if kind.upper() == "BLOB" and name not in ("chk", "digest")
        )
        (damaged,) = conn.execute("SELECT MAX(checkpoint_id) FROM lgc_checkpoints").fetchone()
        conn.execute(
            f"UPDATE lgc_checkpoints SET {column} = X'C1C1C1' WHERE checkpoint_id = ?", (damaged,)
        )
    for args in ([], ["--thread", THREAD]):
        result = run("verify", demo_db, *args)
        assert result.exit_code == 1, result.output
        assert damaged[:8] in result.stdout and " ok " not in result.stdout
    # reading commands name the damage in one line instead of a traceback
    assert_bad_input(run("inspect", demo_db), str(demo_db), damaged)


def _plain_sqlite(path: Path) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE checkpoints (id TEXT)")
    return path


@pytest.mark.parametrize("command", ["inspect", "verify", "history", "export", "redact"])
def test_db_bad_inputs_are_one_line(command: str, demo_db: Path, tmp_path: Path) -> None:
    extra = {
        "history": [THREAD],
        "export": [THREAD],
        "redact": [THREAD, "x", "--reason", "r", "--yes"],
    }
    args = extra.get(command, [])
    missing = tmp_path / "missing.sqlite"
    assert_bad_input(run(command, missing, *args), str(missing), "no such database file")
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert_bad_input(run(command, text, *args), "not a SQLite database")
    plain = _plain_sqlite(tmp_path / "plain.sqlite")
    assert_bad_input(run(command, plain, *args), "not a langgraph-compact database")
    dsn = "postgresql://postgres@127.0.0.1:1/db"  # nothing listens on port 1
    assert_bad_input(run(command, dsn, *args), dsn, "connection")
    if command == "inspect":
        assert_bad_input(run(command, demo_db, "--thread", "ghost"), "thread 'ghost'")
        assert_bad_input(run(command, demo_db, "--thread", THREAD, "--checkpoint", "x"), "--budget")


def test_newer_schema_is_one_line(demo_db: Path) -> None:
    with sqlite3.connect(demo_db) as conn:
        conn.execute(
            "INSERT INTO lgc_schema_version (version, description, applied_at) "
            "VALUES (999, 'from the future', CURRENT_TIMESTAMP)"
        )
    line = assert_bad_input(run("inspect", demo_db), str(demo_db))
    assert "999" in line or "newer" in line


def test_locked_database_is_one_line(demo_db: Path) -> None:
    holder = sqlite3.connect(demo_db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        assert_bad_input(
            run("redact", demo_db, THREAD, "x", "--reason", "r", "--yes"), str(demo_db), "locked"
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_every_command_help_has_an_example() -> None:
    from langgraph_compact.cli import main

    for name in [None, *main.commands]:
        args = [name, "--help"] if name else ["--help"]
        result = run(*args)
        assert result.exit_code == 0, name
        assert "Example:" in result.stdout and "langgraph-compact" in result.stdout, name


def test_native_saver_reports_are_used_when_the_saver_has_them(demo_db: Path) -> None:
    """``threads()``, ``verify()`` and ``redactions()`` of the saver win over the walks."""
    from dataclasses import dataclass

    from langgraph_compact.cli.db import threads, verify
    from langgraph_compact.cli.thread import redactions

    @dataclass(frozen=True)
    class Info:
        thread_id: str = THREAD
        checkpoints: int = 7
        messages: int = 30
        stored_bytes: int = 12_345
        last_checkpoint_id: str = "c-7"
        last_checkpoint_ts: str = "2026-01-01T00:00:00+00:00"

    @dataclass(frozen=True)
    class Report:
        ok: bool = False
        problems: tuple[str, ...] = ("damaged: thread 't' checkpoint 'c-3': digest mismatch",)
        checkpoints: int = 7
        messages: int = 30

    @dataclass(frozen=True)
    class Record:
        message_id: str = "m-1"
        reason: str = "leak"
        actor: str = "alice"
        redacted_at: str = "2026-01-02T00:00:00+00:00"

    class Saver(CompactSqliteSaver):
        def threads(self) -> list[Info]:
            return [Info()]

        def verify(self, thread_id: str | None = None) -> Report:
            return Report()

        def redactions(self, thread_id: str | None = None) -> list[Record]:
            return [Record()]

    with Saver.from_conn_string(str(demo_db)) as saver:
        (row,) = threads(saver)
        (finding,) = verify(saver)
        (record,) = redactions(saver, THREAD)
    assert (row.checkpoints, row.messages, row.stored_bytes, row.last_checkpoint) == (
        7,
        30,
        12_345,
        "c-7",
    )
    assert finding.problems == ["damaged: thread 't' checkpoint 'c-3': digest mismatch"]
    assert (finding.checkpoints, finding.messages) == (7, 30)
    assert record == {
        "message_id": "m-1",
        "reason": "leak",
        "actor": "alice",
        "redacted_at": "2026-01-02T00:00:00+00:00",
    }


def test_inspect_html_without_thread_writes_the_only_one_or_asks(
    demo_db: Path, tmp_path: Path
) -> None:
    page = tmp_path / "page.html"
    result = run("inspect", demo_db, "--html", page)
    assert result.exit_code == 0, result.output
    assert page.exists() and THREAD in page.read_text(encoding="utf-8")
    empty = tmp_path / "empty.sqlite"
    with CompactSqliteSaver.from_conn_string(str(empty)) as saver:
        saver.setup()
    refused = run("inspect", empty, "--html", tmp_path / "none.html")
    assert refused.exit_code == 2
    assert "--html needs --thread" in refused.output and "0 threads" in refused.output
    assert not (tmp_path / "none.html").exists()
