"""A database thread as a ``ThreadView``: the calls it made, its summaries, its messages.

The projection is not stored (it is an ``UntrackedValue``); given the budget the thread ran
with, it is recomputed per model call by ``compact()`` from the checkpoint's messages and
the summary stored with them, which the node's idempotence makes exact (no summarizer
runs: the stored summary already covers the span).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from langgraph_compact.checkpoint import CompactSaverBase
from langgraph_compact.cli.db import all_messages, latest_summary, thread_config
from langgraph_compact.cli.errors import BadInput
from langgraph_compact.cli.views import CallPoint, ThreadView, mark_messages
from langgraph_compact.compaction import CompactionSettings, RunningSummary, compact
from langgraph_compact.replay import budget_of
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.usage import UsageTotals, thread_usage

__all__ = ["ModelInput", "model_inputs", "projection_at", "projection_of", "view_of_thread"]


@dataclass(frozen=True)
class ModelInput:
    """The state a model call started from: the last checkpoint before the model ran."""

    checkpoint_id: str
    messages: list[BaseMessage]
    summary: RunningSummary | None


def _summary(value: Any) -> RunningSummary | None:
    if value is None or isinstance(value, RunningSummary):
        return value
    return RunningSummary.model_validate(value)


def model_inputs(saver: CompactSaverBase, thread_id: str) -> list[ModelInput]:
    """One entry per model call, oldest first.

    A model call follows a checkpoint whose message list ends on a human or tool
    message and is answered by an AI message in the thread's latest list; of
    consecutive checkpoints with the same list (before and after the compaction node)
    the later one carries the summary the projection used.
    """
    points: list[ModelInput] = []
    last_key: tuple[int, str | None] | None = None
    tuples = list(saver.list(thread_config(thread_id)))
    final = list(tuples[0].checkpoint["channel_values"].get("messages") or []) if tuples else []
    for tup in reversed(tuples):
        values = tup.checkpoint["channel_values"]
        stored = values.get("messages")
        written = "messages" in tup.checkpoint.get("channel_versions", {})
        if (stored is None and written) or (stored is not None and not isinstance(stored, list)):
            shown = "no value" if stored is None else f"a {type(stored).__name__}"
            raise BadInput(
                f"thread {thread_id!r} keeps its messages in a delta channel (checkpoint "
                f"{tup.checkpoint['id']} holds {shown} for them, as deepagents' graphs "
                "write it); the inspector reads only plain message lists so far"
            )
        messages = list(stored or [])
        if not messages or isinstance(messages[-1], AIMessage):
            last_key = None
            continue
        key = (len(messages), messages[-1].id)
        point = ModelInput(tup.checkpoint["id"], messages, _summary(values.get("running_summary")))
        if key == last_key:
            points[-1] = point
        else:
            points.append(point)
        last_key = key
    return [p for p in points if isinstance(_at(final, len(p.messages)), AIMessage)]


def _at(messages: list[BaseMessage], index: int) -> BaseMessage | None:
    return messages[index] if index < len(messages) else None


def projection_at(point: ModelInput, budget: int, counter: TokenCounter) -> list[BaseMessage]:
    """What the model was sent at ``point``, recomputed with ``budget`` usable tokens."""
    settings = CompactionSettings(budget_of(budget), counter=counter)
    return compact(point.messages, point.summary, settings).messages


def projection_of(
    saver: CompactSaverBase, thread_id: str, checkpoint_id: str, budget: int | None
) -> list[BaseMessage]:
    """What the model saw at the call that started from ``checkpoint_id``."""
    if budget is None:
        raise BadInput("--checkpoint needs --budget (the usable tokens the thread ran with)")
    for point in model_inputs(saver, thread_id):
        if point.checkpoint_id == checkpoint_id:
            return projection_at(point, budget, TokenCounter())
    raise BadInput(f"thread {thread_id!r}: no model call started from checkpoint {checkpoint_id}")


def redactions(saver: CompactSaverBase, thread_id: str) -> list[dict[str, Any]]:
    """The thread's redaction log, when the saver exposes one (``saver.redactions``)."""
    native = getattr(saver, "redactions", None)
    if not callable(native):
        return []
    rows = []
    for r in native(thread_id):
        get = r.get if isinstance(r, dict) else lambda k, r=r: getattr(r, k, None)
        rows.append({k: get(k) for k in ("message_id", "reason", "actor", "redacted_at")})
    return rows


def view_of_thread(
    saver: CompactSaverBase, thread_id: str, budget: int | None, *, source: str = ""
) -> ThreadView:
    """The inspector's view of a stored thread; without ``budget`` no projection is shown."""
    counter = TokenCounter()
    points = model_inputs(saver, thread_id)
    if not points and saver.get_tuple(thread_config(thread_id)) is None:
        raise BadInput(f"thread {thread_id!r}: no checkpoints in this database")
    calls, last_projection, generation = [], None, 0
    for point in points:
        projection = projection_at(point, budget, counter) if budget else None
        now = point.summary.generation if point.summary else 0
        calls.append(
            CallPoint(
                counter.count_messages(point.messages),
                counter.count_messages(projection) if projection is not None else None,
                now > generation,
            )
        )
        generation, last_projection = now, projection
    summary = latest_summary(saver, thread_id)
    messages = all_messages(saver, thread_id)
    generations = [
        {
            "generation": g.generation,
            "head_end": g.head_end,
            "covered_through": g.covered_through,
            "summarizer": g.summarizer,
            "checkpoint_id": g.checkpoint_id,
        }
        for g in saver.summaries(thread_id)
    ]
    return ThreadView(
        title=f"thread {thread_id}",
        thread_id=thread_id,
        source=source,
        budget=budget,
        calls=calls,
        summary=summary,
        messages=mark_messages(messages, last_projection, summary),
        generations=generations,
        redactions=redactions(saver, thread_id),
        usage=_usage(saver, thread_id),
    )


def _usage(saver: CompactSaverBase, thread_id: str) -> dict[str, UsageTotals]:
    """The thread's usage ledger by tag (``agent:<model>``, ``summarizer:<model>``),
    the final answer's reply included; empty for a graph that keeps none."""
    tup = saver.get_tuple(thread_config(thread_id))
    values = tup.checkpoint["channel_values"] if tup is not None else {}
    if values.get("usage") is None:
        return {}
    return dict(thread_usage(values)["by"])
