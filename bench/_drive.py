"""Drive a checkpointer with the calls a tool-calling graph makes, without the graph.

Each turn is what LangGraph's Pregel loop hands a saver for ``agent -> tools``: the
agent task's writes (its AIMessage with one tool call and the ``branch:to:tools``
trigger), the checkpoint after it, the tool task's writes (a ToolMessage), and the
checkpoint after that, with LangGraph's channel versions, ``versions_seen``, metadata
and the full message list in ``channel_values`` (a new list each step, sharing the
message objects, as ``add_messages`` makes it). Driving the saver directly times the
saver alone: LangGraph's own per-step work (``add_messages`` is O(history)) is not in
the numbers.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.base.id import uuid6

__all__ = ["DriveTimes", "drive"]


@dataclass
class DriveTimes:
    """Seconds per call, one entry per turn (two puts and two put_writes per turn)."""

    put: list[float] = field(default_factory=list)
    put_writes: list[float] = field(default_factory=list)
    put_cpu: list[float] = field(default_factory=list)
    """CPU seconds of this process per put (no fsync wait, no other process's load)."""
    messages: list[BaseMessage] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)


def drive(
    saver: BaseCheckpointSaver[Any],
    turns: int,
    output: Callable[[int], str],
    *,
    thread_id: str | None = None,
    on_turn: Callable[[int], None] | None = None,
) -> DriveTimes:
    """Run ``turns`` agent/tool turns through ``saver``; per-turn put and write times."""
    thread_id = thread_id or str(uuid.uuid4())
    config: dict[str, Any] = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    versions: dict[str, Any] = {}
    seen: dict[str, dict[str, Any]] = {"__input__": {}}
    messages: list[BaseMessage] = []
    times = DriveTimes()
    step = 0
    cpu = [0.0]

    def put(values: dict[str, Any], updated: list[str], source: str) -> float:
        nonlocal step, config
        new = {}
        version = saver.get_next_version(max(versions.values(), default=None), None)
        for channel in updated:
            versions[channel] = new[channel] = version
        checkpoint = {
            "v": 4,
            "id": str(uuid6(clock_seq=step)),
            "ts": datetime.now(UTC).isoformat(),
            "channel_values": values,
            "channel_versions": dict(versions),
            "versions_seen": {k: dict(v) for k, v in seen.items()},
            "updated_channels": updated,
        }
        metadata = {"source": source, "step": step, "parents": {}}
        t0, c0 = time.perf_counter(), time.process_time()
        config = saver.put(config, checkpoint, metadata, new)  # type: ignore[arg-type]
        step += 1
        cpu[0] += time.process_time() - c0
        return time.perf_counter() - t0

    put({}, [], "input")  # the thread's first checkpoint, before any task wrote
    for turn in range(turns):
        call = {"id": f"call-{turn}", "name": "read_file", "args": {"path": f"src/m{turn}.py"}}
        ai = AIMessage("", id=f"ai-{turn}", tool_calls=[call])
        task = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{thread_id}/agent/{turn}"))
        t0 = time.perf_counter()
        saver.put_writes(config, [("messages", [ai]), ("branch:to:tools", None)], task)
        w1 = time.perf_counter() - t0
        messages = [*messages, ai]
        seen["agent"] = {"branch:to:agent": versions.get("branch:to:agent")}
        p1 = put(
            {"messages": messages, "branch:to:tools": None}, ["messages", "branch:to:tools"], "loop"
        )
        tool = ToolMessage(
            output(turn), tool_call_id=call["id"], name="read_file", id=f"tool-{turn}"
        )
        task = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{thread_id}/tools/{turn}"))
        t0 = time.perf_counter()
        saver.put_writes(config, [("messages", [tool])], task)
        w2 = time.perf_counter() - t0
        messages = [*messages, tool]
        seen["tools"] = {"branch:to:tools": versions.get("branch:to:tools")}
        p2 = put(
            {"messages": messages, "branch:to:agent": None}, ["messages", "branch:to:agent"], "loop"
        )
        times.put.append((p1 + p2) / 2)
        times.put_cpu.append(cpu[0] / 2)
        cpu[0] = 0.0
        times.put_writes.append((w1 + w2) / 2)
        if on_turn is not None:
            on_turn(turn + 1)
    times.messages = messages
    times.config = config
    return times
