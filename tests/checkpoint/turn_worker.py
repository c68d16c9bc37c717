"""A worker process of the concurrency tests: real graph turns against a shared database.

``python turn_worker.py SPEC_JSON`` runs, with one saver of its own:

- ``own`` turns on the worker's own thread ``w<N>``;
- ``shared`` turns on thread ``shared``, each under an exclusive ``flock`` of ``lock``
  (the workers take turns), interleaved with the own turns;
- ``race`` turns on thread ``race`` with ``single_writer=True`` and no lock at all.

Own turns are one ``put`` each of the checkpoint the node would produce; shared turns
a read and a put through the graph's channels (``update_state``); race turns are full
``invoke`` runs. Each turn adds a human and an
AI message with ids naming worker and turn; every 10th message the turn also commits a
new summary generation covering the messages so far. It prints one JSON object: for
each shared or race turn, where its human message landed (its index in the state) or
that it got ``ConcurrentRunError``.
"""

from __future__ import annotations

import fcntl
import json
import sys
from contextlib import contextmanager
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.checkpoint.base import create_checkpoint, empty_checkpoint
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages

from langgraph_compact.errors import ConcurrentRunError


class TurnState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    running_summary: dict[str, Any]


def summary_update(messages: int, previous: dict[str, Any] | None) -> dict[str, Any]:
    """A new summary generation when the thread reaches a multiple of 10 messages."""
    if messages % 10:
        return {}
    gen = int((previous or {}).get("generation", 0)) + 1
    summary = {"generation": gen, "head_end": 0, "covered_through": messages}
    return {"running_summary": {**summary, "summarizer": "test", "token_count": messages}}


def answer(state: TurnState) -> dict[str, Any]:
    human = state["messages"][-1]
    out = {"messages": [AIMessage(f"done {human.id}", id=f"{human.id}-ai")]}
    return {**out, **summary_update(len(state["messages"]) + 1, state.get("running_summary"))}


def build(saver: Any) -> Any:
    builder = StateGraph(TurnState)
    builder.add_node("answer", answer)
    builder.add_edge(START, "answer")
    return builder.compile(checkpointer=saver)


@contextmanager
def open_saver(kind: str, target: str, single_writer: bool) -> Any:
    if kind == "postgres":
        from langgraph_compact.checkpoint import CompactPostgresSaver

        with CompactPostgresSaver.from_conn_string(target, single_writer=single_writer) as pg:
            yield pg
    else:
        from langgraph_compact.checkpoint import CompactSqliteSaver

        with CompactSqliteSaver.from_conn_string(target, single_writer=single_writer) as lite:
            yield lite


def turn(graph: Any, thread: str, human_id: str) -> int | str:
    """A real graph turn (``invoke``): where the human message landed, or ``conflict``."""
    config = {"configurable": {"thread_id": thread}}
    try:
        state = graph.invoke({"messages": [HumanMessage(human_id, id=human_id)]}, config)
    except ConcurrentRunError:
        return "conflict"
    return [m.id for m in state["messages"]].index(human_id)


def cheap_turn(graph: Any, thread: str, human_id: str, before: int | None = None) -> int:
    """A turn as one put through the graph's channels (``update_state``), after a read
    unless the caller knows the thread's length (``before``): where the human landed."""
    config = {"configurable": {"thread_id": thread}}
    if before is None:
        before = len(graph.get_state(config).values.get("messages", []))
    gen = {"generation": (before + 2) // 10 - 1} if before >= 10 else None
    messages = [HumanMessage(human_id, id=human_id), AIMessage("ok", id=f"{human_id}-ai")]
    update = {"messages": messages, **summary_update(before + 2, gen)}
    graph.update_state(config, update, as_node="answer")
    return before


class DirectThread:
    """Turns as one ``put`` each, of the checkpoint the graph's node would produce (the
    checkpoint stays in memory: nothing is read back)."""

    def __init__(self, saver: Any, thread: str) -> None:
        self.saver = saver
        self.config: Any = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
        self.checkpoint = empty_checkpoint()
        self.messages: list[AnyMessage] = []
        self.summary: dict[str, Any] | None = None
        self.step = 0

    def turn(self, human_id: str) -> None:
        human = HumanMessage(human_id, id=human_id)
        self.messages = [*self.messages, human, AIMessage("ok", id=f"{human_id}-ai")]
        changed = {"messages": self.messages, **summary_update(len(self.messages), self.summary)}
        self.summary = changed.get("running_summary", self.summary)
        checkpoint = create_checkpoint(self.checkpoint, None, self.step)
        checkpoint["channel_values"] = {**checkpoint["channel_values"], **changed}
        versions = checkpoint["channel_versions"]
        new = {c: self.saver.get_next_version(versions.get(c), None) for c in changed}
        checkpoint["channel_versions"] = {**versions, **new}
        metadata: Any = {"source": "loop", "step": self.step, "parents": {}}
        self.config = self.saver.put(self.config, checkpoint, metadata, new)
        self.checkpoint, self.step = checkpoint, self.step + 1


def main(spec: dict[str, Any]) -> dict[str, Any]:
    worker = int(spec["worker"])
    landed: dict[str, int | str] = {}
    with open_saver(spec["kind"], spec["target"], spec.get("race", 0) > 0) as saver:
        graph = build(saver)
        own = DirectThread(saver, f"w{worker}")
        shared_every = max(1, spec["own"] // max(1, spec["shared"]))
        shared = 0
        for i in range(spec["own"]):
            own.turn(f"w{worker}-{i}")
            if i % shared_every == 0 and shared < spec["shared"]:
                human = f"s{worker}-{shared}"
                with open(spec["lock"], "a") as handle:
                    fcntl.flock(handle, fcntl.LOCK_EX)
                    landed[human] = cheap_turn(graph, "shared", human)
                shared += 1
        for i in range(spec.get("race", 0)):
            human = f"r{worker}-{i}"
            landed[human] = turn(graph, "race", human)
    return {"worker": worker, "landed": landed}


if __name__ == "__main__":
    print(json.dumps(main(json.loads(sys.argv[1]))))
