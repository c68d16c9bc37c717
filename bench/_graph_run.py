"""The storage bench's graph workload: one thread of tool-using turns, size and latency.

``build_graph`` is ``agent`` -> ``tools`` (``ToolNode``): each turn an AIMessage with one
tool call and a ToolMessage whose content is the next of ``OUTPUTS`` (set it to
``corpus_outputs()`` or ``random_outputs()``). ``run_graph`` runs N turns on a fresh file
with a saver and measures the file after a WAL checkpoint against the raw message bytes,
and the per-turn latency at turn 10 and over the last turns.
"""

from __future__ import annotations

import base64
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypedDict

from _ablate import prepare
from _corpus import corpus_files
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.trajectories import load_trajectory

try:  # beta in langgraph 1.x; absent in older releases
    from langgraph.channels import DeltaChannel
except ImportError:  # pragma: no cover - depends on the installed langgraph
    DeltaChannel = None


OUTPUT_BYTES = 2048
WINDOW = 10
THREAD = "3f6c2a9e-8d41-4b7a-9c15-2e0f7d6b4a83"  # LangGraph deployments use UUID thread ids


def corpus_outputs() -> list[str]:
    """2 KB slices of real tool outputs, in corpus order."""
    out: list[str] = []
    for f in corpus_files():
        for m in load_trajectory(f):
            if isinstance(m, ToolMessage) and isinstance(m.content, str):
                text = m.content
                while len(text) >= OUTPUT_BYTES:
                    out.append(text[:OUTPUT_BYTES])
                    text = text[OUTPUT_BYTES:]
    return out


def random_outputs(n: int = 400, seed: int = 7) -> list[str]:
    """2 KB of random base64 each: what a binary file or an image looks like in a log."""
    rng = random.Random(seed)
    return [base64.b64encode(rng.randbytes(OUTPUT_BYTES * 3 // 4)).decode() for _ in range(n)]


OUTPUTS: list[str] = []


@tool
def read_file(path: str, turn: int) -> str:
    """Read a file of the repository under test."""
    return OUTPUTS[turn % len(OUTPUTS)]


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


def _delta_reducer(state: list[AnyMessage], writes: list[Any]) -> list[AnyMessage]:
    for w in writes:
        state = add_messages(state, w)
    return state


if DeltaChannel is not None:

    class DeltaState(TypedDict):
        messages: Annotated[list[AnyMessage], DeltaChannel(_delta_reducer)]


def _agent(state: dict[str, Any]) -> dict[str, Any]:
    turn = len(state["messages"]) // 2
    call = {
        "id": f"call-{turn}",
        "name": "read_file",
        "args": {"path": f"src/m{turn}.py", "turn": turn},
    }
    return {"messages": [AIMessage("", id=f"ai-{turn}", tool_calls=[call])]}


def timed_turns(
    graph: Any, thread_id: str, turns: int, name: str
) -> tuple[list[float], list[BaseMessage]]:
    """Seconds of each of ``turns`` turns on one thread, and the thread's final messages
    (two per turn, or a ``RuntimeError`` naming ``name``)."""
    config = {"configurable": {"thread_id": thread_id}}
    lat: list[float] = []
    for _ in range(turns):
        t0 = time.perf_counter()
        graph.invoke({"messages": []}, config)
        lat.append(time.perf_counter() - t0)
    messages = graph.get_state(config).values["messages"]
    if len(messages) != 2 * turns:
        raise RuntimeError(f"{name}: {len(messages)} messages after {turns} turns")
    return lat, messages


def build_graph(saver: BaseCheckpointSaver[Any], *, delta: bool = False) -> Any:
    """The bench graph: START -> agent -> tools -> END, compiled with ``saver``."""
    builder = StateGraph(DeltaState if delta else State)
    builder.add_node("agent", _agent)
    builder.add_node("tools", ToolNode([read_file]))
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "tools")
    builder.add_edge("tools", END)
    return builder.compile(checkpointer=saver)


def raw_message_bytes(messages: list[BaseMessage]) -> int:
    """Bytes of what a model sees of each message: content and tool calls, as JSON."""
    total = 0
    for m in messages:
        payload: dict[str, Any] = {"content": m.content}
        if isinstance(m, AIMessage) and m.tool_calls:
            payload["tool_calls"] = m.tool_calls
        total += len(json.dumps(payload, ensure_ascii=False).encode())
    return total


def db_bytes(path: Path) -> int:
    """The database file, its WAL and shared memory (after a checkpoint: the file)."""
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


def checkpoint_wal(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


@dataclass
class GraphRun:
    name: str
    turns: int
    db_bytes: int
    raw_bytes: int
    lat_10: float
    lat_last: float
    seconds: float


def run_graph(
    name: str,
    make_saver: Callable[[Path], AbstractContextManager[BaseCheckpointSaver[Any]]],
    turns: int,
    *,
    delta: bool = False,
) -> GraphRun:
    """Run ``turns`` turns of the bench graph on one thread; size and latency."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        prepare(path)
        start = time.perf_counter()
        with make_saver(path) as saver:
            lat, messages = timed_turns(build_graph(saver, delta=delta), THREAD, turns, name)
        elapsed = time.perf_counter() - start
        checkpoint_wal(path)
        return GraphRun(
            name,
            turns,
            db_bytes(path),
            raw_message_bytes(messages),
            statistics.median(lat[10 - WINDOW // 2 : 10 + WINDOW // 2]),
            statistics.median(lat[-WINDOW:]),
            elapsed,
        )


@contextmanager
def stock_saver(path: Path) -> Iterator[BaseCheckpointSaver[Any]]:
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        yield SqliteSaver(conn)
    finally:
        conn.close()


@contextmanager
def compact_saver(path: Path) -> Iterator[BaseCheckpointSaver[Any]]:
    with CompactSqliteSaver.from_conn_string(os.fspath(path)) as saver:
        yield saver


def print_graph_runs(runs: list[GraphRun]) -> None:
    head = (
        f"{'saver':28} {'turns':>5} {'db MB':>8} {'raw MB':>7} {'size/raw':>8} "
        f"{'ms@10':>7} {'ms@last':>8} {'lat last/10':>11} {'total s':>7}"
    )
    print(head)
    print("-" * len(head))
    for r in runs:
        print(
            f"{r.name:28} {r.turns:5d} {r.db_bytes / 1e6:8.2f} {r.raw_bytes / 1e6:7.2f} "
            f"{r.db_bytes / r.raw_bytes:8.2f} {r.lat_10 * 1e3:7.2f} {r.lat_last * 1e3:8.2f} "
            f"{r.lat_last / r.lat_10:11.2f} {r.seconds:7.1f}"
        )
