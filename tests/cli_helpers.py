"""Helpers for the command-line tests: a click runner, the bad-input check, a demo database.

Test modules import the fixtures they use from here (``demo_dir_fixture`` is the fixture
``demo_dir``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from langchain_core.messages import BaseMessage

from langgraph_compact.cli import main

SAMPLE = "swe-agent-demo-ctf-crypto-eps"
"""A short shipped run (14 model calls) that a 4,000-token budget must compact."""
THREAD = SAMPLE


def run(*args: str | Path, input: str | None = None) -> Result:
    """Invoke ``langgraph-compact`` in-process, as a user would from a shell."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=True)


def assert_bad_input(result: Result, *needles: str) -> str:
    """Exit code 2, exactly one ``Error:`` line on stderr naming ``needles``, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), lines
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


@pytest.fixture(scope="session", name="demo_dir")
def demo_dir_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``langgraph-compact demo`` run once: its folder holds demo.sqlite/png/html."""
    out = tmp_path_factory.mktemp("demo")
    result = run("demo", "--out", out, "--sample", SAMPLE, "--budget", "4000")
    assert result.exit_code == 0, (result.output, result.exception)
    return out


def copy_database(source: Path, target: Path) -> Path:
    """A consistent copy of a SQLite file (its write-ahead log included) at ``target``."""
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
    return target


@pytest.fixture(name="demo_db")
def demo_db_fixture(demo_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the demo database (tests may redact or damage it)."""
    return copy_database(demo_dir / "demo.sqlite", tmp_path / "demo.sqlite")


def openai_messages(messages: list[BaseMessage]) -> list[dict]:
    """``messages`` as OpenAI chat-completions messages (arguments as JSON strings)."""
    rows: list[dict] = []
    for m in messages:
        role = {"human": "user", "ai": "assistant"}.get(m.type, m.type)
        row: dict = {"role": role, "content": m.content}
        if m.type == "ai" and m.tool_calls:
            row["tool_calls"] = [
                {
                    "id": c["id"],
                    "type": "function",
                    "function": {"name": c["name"], "arguments": json.dumps(c["args"])},
                }
                for c in m.tool_calls
            ]
        if m.type == "tool":
            row["tool_call_id"] = m.tool_call_id  # name comes from the call, as OpenAI logs it
        rows.append(row)
    return rows


LONG_THREADS = (
    "0b9f6a4e-5d1c-4f7e-9a3b-2c8d7e6f5a41",
    "tenant-42/support/escalations/2026-01-04/ticket-88231-reopened",
)
"""Thread ids as applications choose them: a UUID, and a path-like name of 62 characters."""


@pytest.fixture(scope="session", name="threads_db")
def threads_db_fixture(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo database plus the start of the same run under each of ``LONG_THREADS``,
    replayed by the package through the real node and saver (each compacts at least once)."""
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    from langgraph_compact.checkpoint import CompactSqliteSaver
    from langgraph_compact.node import SERDE_ALLOWLIST
    from langgraph_compact.replay import replay_trajectory
    from langgraph_compact.replay.strategies import budget_of, make_strategy
    from langgraph_compact.tokens import TokenCounter
    from langgraph_compact.trajectories import load_trajectory, sample_path

    folder = tmp_path_factory.mktemp("threads")
    db = copy_database(demo_dir / "demo.sqlite", folder / "threads.sqlite")
    trajectory = load_trajectory(sample_path(SAMPLE))[:16]
    counter, budget = TokenCounter(), budget_of(3_000)
    serde = JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)
    with CompactSqliteSaver.from_conn_string(str(db), serde=serde) as saver:
        for thread in LONG_THREADS:
            strategy = make_strategy("ours", budget, counter)
            replayed = replay_trajectory(
                thread, trajectory, strategy, budget, counter, checkpointer=saver, thread_id=thread
            )
            assert replayed.error is None and replayed.events, (thread, replayed.error)
    return db
