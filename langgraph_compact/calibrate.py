"""Calibrated budgets: the local token count corrected by what the provider reported.

tiktoken counts what the messages say, not what a provider bills: chat templates, tool
schemas and another tokenizer add to it. When the agent's reply to the last projection
reports ``usage_metadata["input_tokens"]``, its ratio to the local count of that same
input (messages and tool schemas) is the drift. The next estimate is the local count
times that ratio — the reported baseline plus the new tail at the same rate, which is
the seeds' formula while the projection only grows — and the budget the fold and the
summarizer aim for shrinks (or grows) to match, trigger and target with it. The ratio
is taken again from every reply; without a report (the first call, a model that reports
no usage) the last known ratio, or 1, is used.

Tool schemas are sent with every call and count toward the budget: pass ``tools=`` to
the node (tools, their schemas, or a model bound with ``bind_tools``).
"""

from __future__ import annotations

import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.errors import ContextBudgetError
from langgraph_compact.messages import canonical_json
from langgraph_compact.tokens import TokenCounter

__all__ = [
    "MAX_DRIFT",
    "CallMemory",
    "LastCall",
    "calibrated",
    "drift",
    "next_ratio",
    "reported_input",
    "tool_schemas",
    "tool_tokens",
]

log = logging.getLogger(__name__)

MAX_DRIFT = 3.0
"""A report further than this factor from the local count is taken to be about another
input (a different model, a cached-away prompt) and ignored, logged."""
_STEP = 50
"""Ratios are rounded up to 1/50: a budget that moves on every call by a token or two
would move the fold's decisions with it."""


def tool_schemas(tools: Any) -> list[dict[str, Any]]:
    """The OpenAI-format schemas of ``tools``: a sequence of tools (or schemas), or a
    model bound with ``bind_tools`` (its ``tools`` keyword)."""
    if tools is None:
        return []
    bound = getattr(tools, "kwargs", None)
    if isinstance(bound, dict):
        tools = bound.get("tools") or []
    return [convert_to_openai_tool(t) for t in tools]


def tool_tokens(tools: Any, counter: TokenCounter) -> int:
    """Tokens the tool schemas add to every call (as canonical JSON)."""
    schemas = tool_schemas(tools)
    return counter.count_text(canonical_json(schemas)) if schemas else 0


def reported_input(raw: Sequence[BaseMessage], since: int) -> int | None:
    """``input_tokens`` of the first reply at or after raw index ``since`` (the answer to
    the projection sent when the history had ``since`` messages), if it reported any."""
    for m in raw[since:]:
        if isinstance(m, AIMessage):
            value = m.usage_metadata["input_tokens"] if m.usage_metadata else 0
            return int(value) if value else None
    return None


def drift(reported: int | None, local: int) -> float | None:
    """``reported / local`` rounded up to 1/50, or None when there is no usable report."""
    if not reported or local <= 0:
        return None
    ratio = reported / local
    if not 1 / MAX_DRIFT <= ratio <= MAX_DRIFT:
        log.warning(
            "reported input %d tokens vs %d counted locally: ignored for calibration",
            reported,
            local,
        )
        return None
    return math.ceil(ratio * _STEP) / _STEP


def calibrated(settings: CompactionSettings, ratio: float, extra: int) -> CompactionSettings:
    """``settings`` whose budget holds ``usable / ratio - extra`` locally counted tokens.

    The head and summary caps stay those of the uncalibrated budget, so a changing ratio
    does not re-clip the first request (which would rewrite the whole prompt).

    Raises:
        ContextBudgetError: the tool schemas alone take the budget.
    """
    budget = settings.budget
    usable = int(budget.usable / ratio) - extra
    if usable <= 0:
        raise ContextBudgetError(
            f"the tool schemas take {extra} tokens (x{ratio} by the provider's count), "
            f"the usable budget is {budget.usable}; pass fewer tools or raise "
            "Budget.context_window"
        )
    if ratio == 1 and extra == 0:
        return settings
    window = budget.context_window - (budget.usable - usable)
    return replace(
        settings,
        budget=budget.model_copy(update={"context_window": window}),
        head_max_tokens=settings.head_cap,
        summary_max_tokens=settings.summary_cap,
    )


@dataclass(frozen=True)
class LastCall:
    """What the node sent a thread last: for the cacheable prefix and for calibration."""

    digests: tuple[str, ...]
    """Digests of the projection's messages."""
    sent: int
    """Local tokens of the projection plus the tool schemas."""
    raw_messages: int
    """Raw messages when it was sent: the reply to it is the next AI message."""
    ratio: float
    """The drift the projection was budgeted with."""


def next_ratio(raw: Sequence[BaseMessage], last: LastCall | None) -> float:
    """The drift for this call: from the reply to the last projection, else the last one."""
    if last is None:
        return 1.0
    ratio = drift(reported_input(raw, last.raw_messages), last.sent)
    return last.ratio if ratio is None else ratio


class CallMemory:
    """The last call per thread, bounded to the ``size`` most recent threads.

    Local to the process: after a restart a thread's first call reports no cacheable
    prefix and is budgeted with the uncalibrated count (ratio 1) until the next reply.
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._last: OrderedDict[Hashable, LastCall] = OrderedDict()

    def last(self, key: Hashable) -> LastCall | None:
        with self._lock:
            return self._last.get(key)

    def record(self, key: Hashable, call: LastCall) -> None:
        with self._lock:
            self._last.pop(key, None)
            self._last[key] = call
            while len(self._last) > self.size:
                self._last.popitem(last=False)
