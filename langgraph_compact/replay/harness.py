"""Replay a recorded run through a real compiled graph: ``step -> agent -> tools``.

The agent is a ``GenericFakeChatModel`` answering with the recorded assistant turns in
order; the tools node answers with the recorded tool results. The strategy's step sits in
front of the agent, and every model input is measured as it is sent: tokens, tool-protocol
violations, summary coverage, probe strings. Human turns are fed as the graph's input; the
graph then runs the recorded agent turns until the next human message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph

from langgraph_compact.compaction import RunningSummary, protocol_violations
from langgraph_compact.errors import InputFormatError
from langgraph_compact.messages import canonical_json, message_text
from langgraph_compact.node import SERDE_ALLOWLIST
from langgraph_compact.replay.doors import RecordedTurnsModel, agent_gap, recorded_tools
from langgraph_compact.replay.strategies import Strategy
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = [
    "CallRecord",
    "ReplayRun",
    "coverage_gap",
    "replay_trajectory",
    "seen_text",
    "shared_prefix_tokens",
]

logger = logging.getLogger(__name__)

_ALLOWED = (*SERDE_ALLOWLIST, ("langmem.short_term.summarization", "RunningSummary"))
"""Summary types the strategies keep in state: known to the replay's in-memory saver."""


@dataclass(frozen=True)
class CallRecord:
    """One agent-model call: what the raw history held and what the model was sent."""

    raw_tokens: int
    """Tokens of every recorded message up to this call (the ``full`` strategy's input)."""
    input_tokens: int
    violations: tuple[str, ...]
    event: bool
    """A compaction event (summarizer run, or trim) happened right before this call."""
    coverage: tuple[int, int] | None
    """``(head_end, covered_through)`` of the summary shown, for our strategies."""
    gap: str | None
    """Why head + summary + tail did not account for every raw message, if they did not."""
    probes: tuple[bool, ...] = ()
    """Per probe string: whether the model input contained it."""
    task: bool = True
    """The first human message was in the input (same id, first 100 characters unchanged)."""
    prefix_tokens: int = 0
    """Tokens of the leading messages identical to the previous call's input (what a
    provider's prompt cache can serve); 0 on the first call."""
    new_tokens: int = 0
    """Tokens of recorded messages the previous call's input did not hold (what arrived
    since: the reply, tool results, a human turn; every token on the first call). No
    strategy can serve them from a cache, so ``1 - new / input`` bounds its prefix."""


@dataclass
class ReplayRun:
    """Everything measured while replaying one trajectory through one strategy."""

    trajectory: str
    strategy: str
    budget: int
    calls: list[CallRecord] = field(default_factory=list)
    lost: int = 0
    """Recorded messages missing from the final ``messages`` state."""
    events: int = 0
    summarizer_calls: int = 0
    summarizer_input_tokens: int = 0
    summarizer_output_tokens: int = 0
    error: str | None = None
    summary: RunningSummary | None = None
    last_input: list[BaseMessage] = field(default_factory=list)
    final_messages: list[BaseMessage] = field(default_factory=list)
    compactions: list[dict[str, Any]] = field(default_factory=list)
    """The node's ``{"compaction": stats}`` stream events, one per step (ours only)."""
    usage: Any = None
    """The thread's usage ledger at the end (``langgraph_compact.usage``; ours only)."""

    @property
    def input_tokens(self) -> int:
        return sum(c.input_tokens for c in self.calls)

    @property
    def prefix_tokens(self) -> int:
        return sum(c.prefix_tokens for c in self.calls)

    @property
    def new_tokens(self) -> int:
        return sum(c.new_tokens for c in self.calls)

    @property
    def max_input(self) -> int:
        return max((c.input_tokens for c in self.calls), default=0)

    @property
    def over_budget(self) -> int:
        return sum(c.input_tokens > self.budget for c in self.calls)

    @property
    def violations(self) -> int:
        return sum(bool(c.violations) for c in self.calls)

    @property
    def gaps(self) -> int:
        return sum(c.gap is not None for c in self.calls)


def seen_text(message: BaseMessage) -> str:
    """All the model reads of a message: its text and its tool calls' arguments."""
    calls = getattr(message, "tool_calls", None) or []
    return "\n".join([message_text(message), *(canonical_json(c["args"]) for c in calls)])


def shared_prefix_tokens(
    before: Sequence[BaseMessage], after: Sequence[BaseMessage], counter: TokenCounter
) -> int:
    """Tokens of the leading messages of ``after`` identical to those of ``before``.

    Identical means the same digest of what the model sees (type, text, tool calls, tool
    call id): a provider's prompt cache serves that prefix at its cache-read price.
    """
    digest = counter.cache.digest
    n = 0
    for old, new in zip(before, after, strict=False):
        if old is not new and digest(old) != digest(new):
            break
        n += 1
    return counter.count_messages(after[:n])


def coverage_gap(
    raw: Sequence[BaseMessage], seen: Sequence[BaseMessage], summary: RunningSummary | None
) -> str | None:
    """Why ``seen`` is not exactly head + summary of ``[head_end, covered_through)`` + tail."""
    ids = [m.id for m in seen if not m.additional_kwargs.get("langgraph_compact_note")]
    if summary is None:
        expected = [m.id for m in raw]
    else:
        expected = [
            *(m.id for m in raw[: summary.head_end]),
            summary.to_message().id,
            *(m.id for m in raw[summary.covered_through :]),
        ]
    return None if ids == expected else f"projection ids {ids[:6]}... != expected {expected[:6]}..."


def replay_trajectory(
    name: str,
    trajectory: Sequence[BaseMessage],
    strategy: Strategy,
    budget: Budget,
    counter: TokenCounter,
    *,
    probes: Sequence[str] = (),
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    thread_id: str = "replay",
    on_call: Callable[[CallRecord], None] | None = None,
) -> ReplayRun:
    """Replay ``trajectory`` through ``strategy``; an exception ends the run with ``error``."""
    run = ReplayRun(name, strategy.name, budget.usable)
    try:
        _drive(
            run,
            list(trajectory),
            strategy,
            budget,
            counter,
            probes,
            checkpointer,
            thread_id,
            on_call,
        )
    except Exception as exc:
        logger.warning("replay of %s through %s failed", name, strategy.name, exc_info=True)
        run.error = f"{type(exc).__name__}: {exc}"
    run.events = strategy.events()
    if strategy.summary_model is not None:
        run.summarizer_calls = int(getattr(strategy.summary_model, "calls", 0))
        run.summarizer_input_tokens = int(getattr(strategy.summary_model, "input_tokens", 0))
        run.summarizer_output_tokens = int(getattr(strategy.summary_model, "output_tokens", 0))
    return run


def _drive(
    run: ReplayRun,
    trajectory: list[BaseMessage],
    strategy: Strategy,
    budget: Budget,
    counter: TokenCounter,
    probes: Sequence[str],
    checkpointer: BaseCheckpointSaver[Any] | None,
    thread_id: str,
    on_call: Callable[[CallRecord], None] | None,
) -> None:
    recorded = [m for m in trajectory if isinstance(m, AIMessage)]
    model = GenericFakeChatModel(messages=iter(recorded))
    results = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
    system = [m for m in trajectory[:1] if isinstance(m, SystemMessage)]
    prefix = [] if strategy.system_in_state else system
    feed = trajectory if strategy.system_in_state else trajectory[len(system) :]
    # raw tokens before the k-th model call: everything recorded before the k-th AIMessage
    running = list(accumulate(counter.count(m) for m in trajectory))
    raw_at = [
        running[i - 1] if i else 0 for i, m in enumerate(trajectory) if isinstance(m, AIMessage)
    ]
    events_seen = [strategy.events()]
    recorded_ids = {m.id for m in trajectory}
    first = next((m for m in trajectory if m.type == "human"), None)
    task_id, task = (first.id, message_text(first)[:100]) if first is not None else (None, "")

    def measure(seen: list[BaseMessage], state: Any) -> None:
        summary = state.get("running_summary") if state is not None else None
        shown_last = {m.id for m in run.last_input}
        events = strategy.events()
        text = "\n".join(seen_text(m) for m in seen) if probes else ""
        record = CallRecord(
            raw_tokens=raw_at[len(run.calls)] if len(run.calls) < len(raw_at) else running[-1],
            input_tokens=counter.count_messages(seen),
            violations=tuple(protocol_violations(seen)),
            event=events > events_seen[0],
            coverage=(summary.head_end, summary.covered_through) if summary else None,
            gap=coverage_gap(state["messages"], seen, summary)
            if state is not None
            and strategy.input_key == "llm_input_messages"
            and "running_summary" in state
            else None,
            probes=tuple(p in text for p in probes),
            task=any(m.id == task_id and message_text(m).startswith(task) for m in seen),
            prefix_tokens=shared_prefix_tokens(run.last_input, seen, counter),
            new_tokens=counter.count_messages(
                [m for m in seen if m.id in recorded_ids and m.id not in shown_last]
            ),
        )
        events_seen[0] = events
        run.calls.append(record)
        run.last_input = seen
        if on_call:
            on_call(record)

    def agent(state: dict[str, Any]) -> dict[str, Any]:
        seen = [*prefix, *state[strategy.input_key]]
        measure(seen, state)
        return {"messages": [model.invoke(seen)]}

    saver = checkpointer or InMemorySaver(
        serde=JsonPlusSerializer(allowed_msgpack_modules=_ALLOWED)
    )
    if strategy.build is not None:
        if reason := agent_gap(feed):
            raise InputFormatError(f"{strategy.name} cannot replay this recording: {reason}")
        answers = RecordedTurnsModel(turns=recorded, on_call=lambda seen: measure(seen, None))
        graph = strategy.build(
            answers, recorded_tools(trajectory), system[0] if system else None, saver
        )
    else:
        graph = _step_graph(strategy, agent, results, feed, lambda: len(run.calls) >= len(recorded))
        graph = graph.compile(checkpointer=saver)
    config: Any = {"configurable": {"thread_id": thread_id}, "recursion_limit": 10_000}

    pending: list[BaseMessage] = []
    for i, message in enumerate(feed):
        if isinstance(message, (AIMessage, ToolMessage)):
            continue
        pending.append(message)
        nxt = feed[i + 1] if i + 1 < len(feed) else None
        if isinstance(nxt, AIMessage):
            for chunk in graph.stream({"messages": pending}, config, stream_mode="custom"):
                if isinstance(chunk, dict) and "compaction" in chunk:
                    run.compactions.append(chunk["compaction"])
            pending = []
    if pending:
        as_node = None if strategy.build is not None else "agent"
        graph.update_state(config, {"messages": pending}, as_node=as_node)
    # A prebuilt agent calls its model once more after a recording that ends on a tool
    # result ("Done.", unmeasured); that call's compaction is not part of the recording.
    del run.compactions[len(run.calls) :]
    values = graph.get_state(config).values
    run.final_messages = list(values.get("messages", []))
    run.summary = values.get("running_summary")
    run.usage = values.get("usage")
    final_ids = {m.id for m in run.final_messages}
    run.lost = sum(m.id not in final_ids for m in feed)


def _step_graph(
    strategy: Strategy,
    agent: Callable[..., dict[str, Any]],
    results: dict[str, ToolMessage],
    feed: list[BaseMessage],
    done: Callable[[], bool],
) -> StateGraph[Any]:
    """``step -> agent -> tools``, the tools answering with the recorded results."""

    def tools(state: Any) -> dict[str, Any]:
        last = state["messages"][-1]
        return {"messages": [results[c["id"] or ""] for c in last.tool_calls]}

    def route(state: dict[str, Any]) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    # What the recording has after each tool result: the agent goes on only when the
    # next recorded message is its own turn; a human turn (or the end) stops the graph
    # and the driver below feeds it, in its recorded place.
    following = {
        m.tool_call_id: feed[i + 1] if i + 1 < len(feed) else None
        for i, m in enumerate(feed)
        if isinstance(m, ToolMessage)
    }

    def after_tools(state: dict[str, Any]) -> str:
        if done():
            return END
        nxt = following.get(state["messages"][-1].tool_call_id)
        return "step" if isinstance(nxt, AIMessage) else END

    builder: StateGraph[Any] = StateGraph(strategy.state_schema)
    builder.add_node("step", strategy.node)
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "step")
    builder.add_edge("step", "agent")
    builder.add_conditional_edges("agent", route, ["tools", END])
    builder.add_conditional_edges("tools", after_tools, ["step", END])
    return builder
