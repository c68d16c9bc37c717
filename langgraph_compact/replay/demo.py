"""The command-line demo's run: a shipped real trajectory on the real checkpointer.

A compiled graph ``compact -> agent -> tools`` with ``CompactionNode`` re-enacts the
sample run (the agent replays the recorded turns) and persists every raw message in a
``CompactSqliteSaver`` file, so ``inspect``, ``history`` and ``verify`` can read it after.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.compaction import Summarizer
from langgraph_compact.node import SERDE_ALLOWLIST
from langgraph_compact.replay.harness import CallRecord, ReplayRun, replay_trajectory
from langgraph_compact.replay.strategies import budget_of, make_strategy
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.trajectories import load_trajectory, sample_path

__all__ = ["DEMO_SAMPLE", "demo_turns", "run_demo"]

DEMO_SAMPLE = "mini-swe-agent-test-django__django-11797"


def demo_turns(sample: str = DEMO_SAMPLE) -> int:
    """How many model calls the demo makes (for a progress bar)."""
    return sum(m.type == "ai" for m in load_trajectory(sample_path(sample)))


def run_demo(
    db_path: Path,
    *,
    sample: str = DEMO_SAMPLE,
    budget_tokens: int = 8_000,
    summarizer: Summarizer | None = None,
    on_call: Callable[[CallRecord], None] | None = None,
) -> ReplayRun:
    """Replay ``sample`` into a fresh ``db_path``; the thread id is the sample's name."""
    trajectory = load_trajectory(sample_path(sample))
    counter = TokenCounter()
    budget = budget_of(budget_tokens)
    strategy = make_strategy("ours", budget, counter, summarizer=summarizer)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    for leftover in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm")):
        leftover.unlink(missing_ok=True)
    serde = JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)
    with CompactSqliteSaver.from_conn_string(str(db_path), serde=serde) as saver:
        return replay_trajectory(
            sample,
            trajectory,
            strategy,
            budget,
            counter,
            checkpointer=saver,
            thread_id=sample,
            on_call=on_call,
        )
