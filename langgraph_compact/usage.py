"""Usage ledger: what a thread's model calls cost, apart from what its context holds.

Context occupancy (the next call's input, ``CompactionStats.tokens_after``) says nothing
about what a run has cost; providers bill every call, the summarizer's too, with cached
input at a discount. The ledger adds up ``AIMessage.usage_metadata`` as langchain-core
normalizes it (``input_tokens`` *includes* ``input_token_details.cache_read`` and
``cache_creation``; ``output_tokens`` includes ``output_token_details.reasoning``) per tag:
``agent:<model>`` for the agent's replies, read from the raw history, and
``summarizer:<model>`` for the summarizer's calls, caught by a callback while the node
runs. Each agent reply is counted once: the ledger keeps a cursor into the raw history,
not a set of ids, so it stays small. Streamed replies arrive as one message, their
chunks already merged (and their usage added) by LangChain.

The ledger is the state key ``usage`` (``CompactState``) with the reducer
:func:`add_usage`, so it is checkpointed like any other key. The node counts the agent's
replies before each model call; :func:`thread_usage` adds the replies after the last
call (the final answer) when reading a finished run.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from threading import Lock
from typing import Any, TypedDict

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.tracers.context import register_configure_hook

__all__ = [
    "ModelPrice",
    "UsageLedger",
    "UsageTotals",
    "add_usage",
    "count_replies",
    "record_usage",
    "summarizer_usage",
    "thread_usage",
    "usage_of",
]

log = logging.getLogger(__name__)


class UsageTotals(TypedDict):
    """Token totals of one tag; ``input_tokens`` includes the cache reads and writes."""

    calls: int
    input_tokens: int
    output_tokens: int
    cache_read: int
    cache_creation: int
    reasoning: int
    cost: float
    """In the currency of the prices given (0 without a price for the model)."""


class UsageLedger(TypedDict, total=False):
    """The ``usage`` state key: totals per tag and how far the raw history was read."""

    by: dict[str, UsageTotals]
    through: int
    """Raw messages read for agent replies."""
    last_id: str | None
    """Id of the last message read (the cursor is checked against it)."""


@dataclass(frozen=True)
class ModelPrice:
    """Prices per million tokens; cache reads and writes default to the input price."""

    input: float
    output: float
    cache_read: float | None = None
    cache_creation: float | None = None

    def cost(self, t: UsageTotals) -> float:
        plain = t["input_tokens"] - t["cache_read"] - t["cache_creation"]
        read = self.input if self.cache_read is None else self.cache_read
        write = self.input if self.cache_creation is None else self.cache_creation
        return (
            plain * self.input
            + t["cache_read"] * read
            + t["cache_creation"] * write
            + t["output_tokens"] * self.output
        ) / 1e6


_CACHE_WRITE_KEYS = ("cache_creation", "ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens")


def usage_of(message: AIMessage, prices: Mapping[str, ModelPrice] | None = None) -> UsageTotals:
    """One call's totals from its ``usage_metadata`` (zeros when it reported none)."""
    meta: Mapping[str, Any] = message.usage_metadata or {}
    details: Mapping[str, Any] = meta.get("input_token_details") or {}
    out_details: Mapping[str, Any] = meta.get("output_token_details") or {}
    # langchain-anthropic moves cache writes into per-TTL keys (and zeroes the generic
    # one) when the provider reports them.
    writes = sum(int(details.get(k) or 0) for k in _CACHE_WRITE_KEYS)
    totals = UsageTotals(
        calls=1,
        input_tokens=int(meta.get("input_tokens") or 0),
        output_tokens=int(meta.get("output_tokens") or 0),
        cache_read=int(details.get("cache_read") or 0),
        cache_creation=writes,
        reasoning=int(out_details.get("reasoning") or 0),
        cost=0.0,
    )
    price = (prices or {}).get(_model(message))
    if price is not None:
        totals["cost"] = price.cost(totals)
    return totals


def _model(message: AIMessage) -> str:
    meta = message.response_metadata or {}
    return str(meta.get("model_name") or meta.get("model") or "unknown")


def _sum(a: UsageTotals, b: UsageTotals) -> UsageTotals:
    return UsageTotals(
        calls=a["calls"] + b["calls"],
        input_tokens=a["input_tokens"] + b["input_tokens"],
        output_tokens=a["output_tokens"] + b["output_tokens"],
        cache_read=a["cache_read"] + b["cache_read"],
        cache_creation=a["cache_creation"] + b["cache_creation"],
        reasoning=a["reasoning"] + b["reasoning"],
        cost=a["cost"] + b["cost"],
    )


def add_usage(left: UsageLedger | None, right: UsageLedger | None) -> UsageLedger:
    """The reducer of the ``usage`` key: totals add up, the later cursor wins."""
    if not left:
        return dict(right or {})  # type: ignore[return-value]
    if not right:
        return left
    by = dict(left.get("by") or {})
    for tag, totals in (right.get("by") or {}).items():
        by[tag] = _sum(by[tag], totals) if tag in by else dict(totals)  # type: ignore[assignment]
    out = UsageLedger(by=by, through=left.get("through", 0), last_id=left.get("last_id"))
    if "through" in right:
        out["through"], out["last_id"] = right["through"], right.get("last_id")
    return out


def _cursor(ledger: UsageLedger | None, raw: Sequence[BaseMessage]) -> int:
    """Where reading resumes; a history rewritten under the cursor is found by id, or
    read from where the cursor was (logged: replies before it are not counted again)."""
    if not ledger:
        return 0
    through, last_id = int(ledger.get("through", 0)), ledger.get("last_id")
    if 0 < through <= len(raw) and raw[through - 1].id == last_id:
        return through
    found = next((i + 1 for i, m in enumerate(raw) if last_id and m.id == last_id), None)
    if found is None:
        log.warning("usage cursor %s (%r) not in the history; resuming there", through, last_id)
        return min(through, len(raw))
    return found


def count_replies(
    ledger: UsageLedger | None,
    raw: Sequence[BaseMessage],
    prices: Mapping[str, ModelPrice] | None = None,
) -> UsageLedger:
    """The ledger update for the agent replies in ``raw`` not yet counted (a delta)."""
    start = _cursor(ledger, raw)
    by: dict[str, UsageTotals] = {}
    for m in raw[start:]:
        if isinstance(m, AIMessage) and m.usage_metadata:
            tag = f"agent:{_model(m)}"
            totals = usage_of(m, prices)
            by[tag] = _sum(by[tag], totals) if tag in by else totals
    return UsageLedger(by=by, through=len(raw), last_id=raw[-1].id if raw else None)


def thread_usage(
    state: Mapping[str, Any],
    prices: Mapping[str, ModelPrice] | None = None,
    *,
    usage_key: str = "usage",
    messages_key: str = "messages",
) -> UsageLedger:
    """A thread's ledger including the replies after the last model call (a final answer)."""
    ledger: UsageLedger | None = state.get(usage_key)
    raw = list(state.get(messages_key) or [])
    return add_usage(ledger, count_replies(ledger, raw, prices))


class _Collector(BaseCallbackHandler):
    """Adds up the usage of every chat-model call made while it is installed."""

    def __init__(self, prices: Mapping[str, ModelPrice] | None) -> None:
        self.prices = prices
        self.by: dict[str, UsageTotals] = {}
        self._lock = Lock()

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for g in generations:
                if isinstance(g, ChatGeneration) and isinstance(g.message, AIMessage):
                    tag, totals = (
                        f"summarizer:{_model(g.message)}",
                        usage_of(g.message, self.prices),
                    )
                    self.add({tag: totals})

    def add(self, by: Mapping[str, UsageTotals]) -> None:
        with self._lock:
            for tag, totals in by.items():
                self.by[tag] = _sum(self.by[tag], totals) if tag in self.by else totals


_COLLECTOR: ContextVar[_Collector | None] = ContextVar("langgraph_compact_usage", default=None)
register_configure_hook(_COLLECTOR, inheritable=True)


@contextmanager
def summarizer_usage(prices: Mapping[str, ModelPrice] | None = None) -> Iterator[_Collector]:
    """Collect the usage of the chat-model calls made inside (the summarizer's).

    The collector is inherited by threads started with this context and by tasks; a
    summarizer call still running after a timeout is not counted.
    """
    collector = _Collector(prices)
    token = _COLLECTOR.set(collector)
    try:
        yield collector
    finally:
        # A coroutine abandoned on a closed event loop is finalized in another context.
        with suppress(ValueError):
            _COLLECTOR.reset(token)


def record_usage(by: Mapping[str, UsageTotals]) -> None:
    """Add ``by`` to the collector of this context (``summarizer_usage``), if there is one:
    summarizer calls made elsewhere, such as a background candidate's, reach the ledger of
    the call that commits or discards them."""
    collector = _COLLECTOR.get()
    if collector is not None and by:
        collector.add(by)
