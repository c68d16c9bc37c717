"""Stand-in summarizer models for offline replays: deterministic, fixed-size, counted.

A replay compares strategies on recorded runs without paying for (or waiting on) an LLM.
Each strategy that summarizes with a model gets a ``TailSummaryModel``; its answer costs
the same for every strategy, so input-token differences come from the strategies alone.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from itertools import cycle
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field

from langgraph_compact.compaction import Summarizer, SummaryRequest
from langgraph_compact.messages import message_text
from langgraph_compact.tokens import TokenCounter

__all__ = ["SUMMARY_TOKENS", "CountingSummarizer", "TailSummaryModel"]

SUMMARY_TOKENS = 400
"""Size of every stand-in summary, in tokens."""


class TailSummaryModel(BaseChatModel):
    """Answers with the last ``summary_tokens`` tokens of its input (cycled if shorter).

    Counts its calls, the input tokens it was sent and the output tokens it wrote, and
    reports them as a provider does (``usage_metadata``), so a usage ledger sees them.
    ``json_section`` wraps the text
    as ``{json_section: [text]}``, for summarizers that ask for a JSON answer.
    ``latency`` seconds are slept per call: a real model's answer time, for latency
    benches (the async path sleeps in LangChain's executor thread, off the loop).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    counter: TokenCounter = Field(default_factory=TokenCounter)
    summary_tokens: int = SUMMARY_TOKENS
    json_section: str | None = None
    latency: float = 0.0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def _llm_type(self) -> str:
        return "tail-summary"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency:
            time.sleep(self.latency)
        sent = self.counter.count_messages(messages)
        enc = self.counter.encoding
        if enc is None:
            raise TypeError("TailSummaryModel needs a tiktoken-backed TokenCounter")
        tokens = enc.encode_ordinary("\n".join(message_text(m) for m in messages)) or [0]
        tail = tokens[-self.summary_tokens :]
        picked = [t for t, _ in zip(cycle(tail), range(self.summary_tokens), strict=False)]
        text = enc.decode(picked)
        content = json.dumps({self.json_section: [text]}) if self.json_section else text
        wrote = self.counter.count_text(content)
        self.calls += 1
        self.input_tokens += sent
        self.output_tokens += wrote
        usage = {"input_tokens": sent, "output_tokens": wrote, "total_tokens": sent + wrote}
        meta = {"model_name": "tail-summary"}
        message = AIMessage(content, usage_metadata=usage, response_metadata=meta)
        return ChatResult(generations=[ChatGeneration(message=message)])


@dataclass
class CountingSummarizer:
    """Wraps one of our summarizers and counts its runs (compaction events)."""

    inner: Summarizer
    calls: int = 0

    @property
    def name(self) -> str:
        return self.inner.name

    # Returns exactly what the wrapped summarizer returns (the Summarizer protocol's type).
    def summarize(self, request: SummaryRequest) -> Any:
        self.calls += 1
        return self.inner.summarize(request)

    async def asummarize(self, request: SummaryRequest) -> Any:
        self.calls += 1
        return await self.inner.asummarize(request)
