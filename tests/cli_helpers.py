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


@pytest.fixture(name="demo_db")
def demo_db_fixture(demo_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the demo database (tests may redact or damage it)."""
    import sqlite3

    target = tmp_path / "demo.sqlite"
    with sqlite3.connect(demo_dir / "demo.sqlite") as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return target


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
