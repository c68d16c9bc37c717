"""Storage and latency of checkpointers on a long tool-using thread.

A real compiled LangGraph graph (``agent`` -> ``tools`` via ``ToolNode``) runs N turns on
one thread; each turn adds an AIMessage with one tool call and a ToolMessage carrying a
2 KB slice of a real tool output from ``tests/data/corpus``. For each saver the bench
reports the database size and the per-turn latency at turn 10 and at the last turn
(median of the 10 turns ending there), plus two ratios:

- ``size/raw``: database bytes over raw message bytes (the UTF-8 JSON of every message's
  content and tool calls, i.e. what a model sees);
- ``lat N/10``: last-turn latency over turn-10 latency (1.0 = no growth). Turn 10 is
  the median of turns 6-15, the last turn the median of the last 10 turns, so one slow
  fsync on a shared machine does not decide the ratio.

Savers: stock ``SqliteSaver``; ``SqliteSaver`` with the messages channel as LangGraph's
beta ``DeltaChannel``; ``CompactSqliteSaver``; and ``CompactSqliteSaver`` alone at 1,000
turns. Run ``python bench/storage_bench.py`` (a few minutes on 2 cores) or ``--quick``.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import corpus_files
from _report import captured, publish

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.trajectories import load_trajectory

try:  # beta in langgraph 1.x; absent in older releases
    from langgraph.channels import DeltaChannel
except ImportError:  # pragma: no cover - depends on the installed langgraph
    DeltaChannel = None

OUTPUT_BYTES = 2048
WINDOW = 10


def _outputs() -> list[str]:
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


OUTPUTS = _outputs()


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


@dataclass
class Result:
    name: str
    turns: int
    db_bytes: int
    raw_bytes: int
    lat_10: float
    lat_last: float
    seconds: float


def _db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


def run(
    name: str,
    make_saver: Callable[[Path], AbstractContextManager[BaseCheckpointSaver[Any]]],
    turns: int,
    *,
    delta: bool = False,
) -> Result:
    """Run ``turns`` turns on one thread and measure size and latency."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        lat: list[float] = []
        start = time.perf_counter()
        config = {"configurable": {"thread_id": "bench"}}
        with make_saver(path) as saver:
            graph = build_graph(saver, delta=delta)
            for _ in range(turns):
                t0 = time.perf_counter()
                graph.invoke({"messages": []}, config)
                lat.append(time.perf_counter() - t0)
            messages = graph.get_state(config).values["messages"]
        assert len(messages) == 2 * turns, (name, len(messages))
        elapsed = time.perf_counter() - start
        return Result(
            name,
            turns,
            _db_bytes(path),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--long-turns", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="60 and 200 turns")
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    turns, long_turns = (60, 200) if args.quick else (args.turns, args.long_turns)

    with captured() as out:
        report(turns, long_turns)
    if args.write_readme:
        publish("storage", out.getvalue())


def report(turns: int, long_turns: int) -> None:
    stock, compact = stock_saver, compact_saver
    runs: list[Result] = [run("SqliteSaver (stock)", stock, turns)]
    if DeltaChannel is not None:
        runs.append(run("SqliteSaver + DeltaChannel", stock, turns, delta=True))
    else:
        print("DeltaChannel: not in the installed langgraph; row skipped")
    runs.append(run("CompactSqliteSaver", compact, turns))
    runs.append(run("CompactSqliteSaver", compact, long_turns))

    print(
        f"{len(OUTPUTS)} distinct 2 KB tool outputs from the corpus; latency = median of "
        f"turns 6-15 / of the last {WINDOW} turns\n"
    )
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


if __name__ == "__main__":
    main()
