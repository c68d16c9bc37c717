"""CompactionNode and the compact() core: idempotence, fallbacks, rebuilds, errors, wiring."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from factories import ai, ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph

from langgraph_compact.compaction.run import acompact, compact
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summarize import (
    ExtractiveSummarizer,
    SummaryDraft,
    SummaryRequest,
)
from langgraph_compact.compaction.summary import RunningSummary, is_summary_message
from langgraph_compact.errors import ContextBudgetError, MessageError
from langgraph_compact.node import CompactionNode, CompactState
from langgraph_compact.tokens import Budget, TokenCounter

COUNTER = TokenCounter()
BUDGET = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)


class CountingSummarizer:
    """Extractive summaries, counting calls."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = 0

    def summarize(self, request: SummaryRequest) -> SummaryDraft:
        self.calls += 1
        return ExtractiveSummarizer(name=self.name).summarize(request)

    async def asummarize(self, request: SummaryRequest) -> SummaryDraft:
        return self.summarize(request)


def _history(turns: int, output_chars: int = 1_500) -> list[BaseMessage]:
    msgs: list[BaseMessage] = [system(id="sys"), human("Fix the failing date parser.", id="h0")]
    for i in range(turns):
        call = ai_tool_call("bash", {"command": f"sed -n {i},+40p src/mod_{i}.py"}, id=f"a{i}")
        msgs += [call, tool_result(call, f"line {i}\n" * (output_chars // 7), id=f"t{i}")]
    return msgs


def _settings(summarizer: Any = None, **kw: Any) -> CompactionSettings:
    return CompactionSettings(
        BUDGET, counter=COUNTER, summarizer=summarizer or ExtractiveSummarizer(), **kw
    )


def test_no_new_messages_means_no_summarizer_call_and_same_projection() -> None:
    summarizer = CountingSummarizer()
    settings = _settings(summarizer)
    raw = _history(40)
    first = compact(raw, None, settings)
    assert summarizer.calls == 1 and first.summary_changed
    again = compact(raw, first.summary, settings)
    assert summarizer.calls == 1
    assert not again.summary_changed
    assert again.messages == first.messages
    assert COUNTER.count_messages(first.messages) <= BUDGET.usable


def test_one_summarizer_call_per_event_and_generations_chain() -> None:
    summarizer = CountingSummarizer()
    settings = _settings(summarizer)
    raw = _history(120)
    summary, events = None, 0
    for end in range(4, len(raw) + 1, 2):
        result = compact(raw[:end], summary, settings)
        if result.summary_changed:
            events += 1
            assert result.summary is not None
            assert result.summary.parent_generation == (summary.generation if summary else None)
            summary = result.summary
    assert summary is not None and events >= 5
    assert summarizer.calls == events == summary.generation


def test_projection_is_head_one_summary_then_tail() -> None:
    raw = _history(40)
    result = compact(raw, None, _settings())
    assert result.summary is not None
    summaries = [m for m in result.messages if is_summary_message(m)]
    assert len(summaries) == 1
    cut = result.summary.covered_through
    assert [m.id for m in result.messages] == ["sys", "h0", summaries[0].id] + [
        m.id for m in raw[cut:]
    ]


@pytest.mark.parametrize(
    "bad",
    [RuntimeError("model down"), "not a summary", {"sections": "garbage"}, None],
    ids=["raises", "a string", "malformed sections", "None"],
)
def test_failing_or_garbage_summarizer_degrades_to_extraction(
    bad: object, caplog: pytest.LogCaptureFixture
) -> None:
    class Bad:
        name = "bad"

        def summarize(self, request: SummaryRequest) -> Any:
            if isinstance(bad, Exception):
                raise bad
            if isinstance(bad, dict):
                return SummaryDraft(bad["sections"])  # type: ignore[arg-type]
            return bad

        async def asummarize(self, request: SummaryRequest) -> Any:
            return self.summarize(request)

    raw = _history(40)
    with caplog.at_level("WARNING", logger="langgraph_compact"):
        result = compact(raw, None, _settings(Bad()))
    assert result.summary is not None and result.summary.summarizer == "extractive"
    assert result.summary.path.startswith("fallback: ")
    assert result.stats.summarizer_error
    assert "falling back to extraction" in caplog.text
    assert COUNTER.count_messages(result.messages) <= BUDGET.usable


def test_summarizer_cannot_break_coverage_or_idempotence() -> None:
    """Coverage is stamped by compact(): a summarizer's wrong coverage or empty digest is
    ignored, so an unchanged history never calls it again."""

    class Careless(CountingSummarizer):
        def summarize(self, request: SummaryRequest) -> Any:
            self.calls += 1
            good = ExtractiveSummarizer().summarize(request)
            return RunningSummary(
                sections=dict(good.sections), head_end=0, covered_through=1, span_digest=""
            )

    summarizer = Careless()
    raw = _history(40)
    first = compact(raw, None, _settings(summarizer))
    assert first.summary is not None and first.summary.span_digest
    assert first.summary.head_end == 2 and first.summary.covered_through > 2
    for _ in range(3):
        again = compact(raw, first.summary, _settings(summarizer))
        assert not again.summary_changed and again.messages == first.messages
    assert summarizer.calls == 1


def test_edited_history_rebuilds_coverage() -> None:
    settings = _settings()
    raw = _history(40)
    first = compact(raw, None, settings)
    assert first.summary is not None
    edited = list(raw)
    victim = first.summary.covered_through - 1
    edited[victim] = edited[victim].model_copy(update={"content": "[redacted]"})
    rebuilt = compact(edited, first.summary, settings)
    assert rebuilt.summary_changed and rebuilt.summary is not None
    assert "changed" in (rebuilt.summary.rebuilt_reason or "")
    assert rebuilt.summary.generation == first.summary.generation + 1
    branched = compact(raw[:10], first.summary, settings)  # a fork from an earlier checkpoint
    assert branched.summary_changed and branched.summary is None
    assert "covers up to" in (branched.stats.rebuilt_reason or "")


def test_oversized_system_prompt_is_a_budget_error_naming_the_overage() -> None:
    raw = [SystemMessage("word " * 5_000, id="s"), human(id="h")]
    with pytest.raises(ContextBudgetError, match=r"system prompt alone is \d+ tokens.*by \d+"):
        compact(raw, None, _settings())


def test_huge_first_request_is_clipped_and_its_omitted_part_carried_by_the_summary() -> None:
    filler = "Background paragraph. " * 1_000
    task = (
        f"Fix the importer. {filler}Never touch the vendored code. Ticket is QX-9911. "
        f"{filler}Thanks."
    )
    raw = [system(id="s"), HumanMessage(task, id="h"), ai("Looking.", id="a")]
    result = compact(raw, None, _settings())
    head = result.messages[1]
    assert "ref=h" in head.content and head.content.startswith("Fix the importer.")
    assert "vendored" not in head.content  # it was in the omitted middle ...
    summary = result.summary
    assert summary is not None and summary.covers_head
    text = summary.render()
    assert "vendored" in text and "QX-9911" in text  # ... and the summary carries it
    assert "the part of message 2 left out above" in summary.title()
    carried = [i.text for i in summary.all_items() if i.kind != "goal"]
    assert not any("Background paragraph" in t for t in carried)  # shown text not repeated
    assert COUNTER.count_messages(result.messages) <= BUDGET.usable


def test_one_tool_output_larger_than_the_budget_is_clipped_never_dropped() -> None:
    call = ai_tool_call("bash", {"command": "strings dump.bin"}, id="a")
    raw = [system(id="s"), human(id="h"), call, tool_result(call, "x1y2z3\n" * 20_000, id="t")]
    result = compact(raw, None, _settings())
    assert [m.id for m in result.messages][-2:] == ["a", "t"]
    assert "ref=t" in result.messages[-1].content
    assert COUNTER.count_messages(result.messages) <= BUDGET.usable


def test_message_without_id_is_a_clear_error() -> None:
    with pytest.raises(MessageError, match="has no id"):
        compact([human(id="h"), HumanMessage("no id")], None, _settings())


async def test_async_matches_sync() -> None:
    raw = _history(40)
    assert (await acompact(raw, None, _settings())).messages == compact(
        raw, None, _settings()
    ).messages


def _graph(node: CompactionNode) -> Any:
    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_edge(START, "compact")
    return builder.compile(checkpointer=InMemorySaver())


def test_node_streams_stats_and_does_not_checkpoint_the_projection() -> None:
    graph = _graph(CompactionNode(BUDGET, counter=COUNTER))
    config = {"configurable": {"thread_id": "t"}}
    events = list(graph.stream({"messages": _history(40)}, config, stream_mode="custom"))
    stats = [e["compaction"] for e in events if "compaction" in e]
    assert stats and stats[-1]["tokens_after"] <= BUDGET.usable
    assert stats[-1]["summarized"] is True
    assert stats[-1]["summary_generation"] == 1
    assert stats[-1]["stages"]["clip"] >= 0 and "prune" in stats[-1]["stages"]
    state = graph.get_state(config)
    assert "llm_input_messages" not in state.values
    assert isinstance(state.values["running_summary"], RunningSummary)
    assert len(state.values["messages"]) == 82  # nothing removed
    checkpoint = graph.checkpointer.get_tuple(config).checkpoint
    assert "llm_input_messages" not in checkpoint["channel_values"]


async def test_node_async_invoke() -> None:
    graph = _graph(CompactionNode(BUDGET, counter=COUNTER))
    out = await graph.ainvoke({"messages": _history(40)}, {"configurable": {"thread_id": "a"}})
    assert COUNTER.count_messages(out["llm_input_messages"]) <= BUDGET.usable
    assert out["running_summary"].covered_through > 2


def test_loop_note_stays_while_the_loop_goes_on_even_after_its_start_is_summarized() -> None:
    raw: list[BaseMessage] = [system(id="s0"), human("Read p1 until it changes.", id="h1")]
    for i in range(6):
        call = ai_tool_call("read", {"p": 1}, id=f"a{i}")
        raw += [call, tool_result(call, "same content\n" * 150, id=f"t{i}")]
    small = Budget(context_window=700, reserved_output=0, compaction_reserve=0, safety_margin=0)
    settings = CompactionSettings(small, counter=COUNTER, keep_recent_tokens=150)
    first = compact(raw, None, settings)
    assert first.summary is not None and first.summary.covered_through > 4
    assert first.messages[-1].additional_kwargs.get("langgraph_compact_note") == "loop"
    again = compact(raw, first.summary, settings)
    assert again.messages == first.messages  # same state, same projection: note included
    assert again.stats.loop is not None and again.stats.loop["count"] == 6


class SlowSummarizer:
    """A model summarizer that takes too long: it answers only once ``release`` is set
    (``answered``), a minute at most."""

    name = "slow"

    def __init__(self) -> None:
        self.answered = False
        self.release = threading.Event()

    def summarize(self, request: SummaryRequest) -> SummaryDraft:
        self.release.wait(60)
        self.answered = True
        return ExtractiveSummarizer(name=self.name).summarize(request)

    async def asummarize(self, request: SummaryRequest) -> SummaryDraft:
        await asyncio.sleep(60)
        self.answered = True
        return ExtractiveSummarizer(name=self.name).summarize(request)


def test_slow_summarizer_times_out_to_extraction() -> None:
    slow = SlowSummarizer()
    result = compact(_history(40), None, _settings(slow, summarizer_timeout=0.2))
    assert not slow.answered  # the node went on without waiting for the answer
    slow.release.set()
    assert result.summary is not None and result.summary.summarizer == "extractive"
    assert "no answer within" in (result.stats.summarizer_error or "")


async def test_slow_async_summarizer_times_out_to_extraction() -> None:
    slow = SlowSummarizer()
    result = await acompact(_history(40), None, _settings(slow, summarizer_timeout=0.2))
    assert not slow.answered  # cancelled, not awaited
    assert result.summary is not None and result.summary.summarizer == "extractive"
    assert "no answer within" in (result.stats.summarizer_error or "")


def test_id_lost_inside_the_covered_span_is_still_an_error() -> None:
    raw = _history(40)
    first = compact(raw, None, _settings())
    assert first.summary is not None
    broken = list(raw)
    broken[5] = broken[5].model_copy(update={"id": None})
    with pytest.raises(MessageError, match="message 5 "):
        compact(broken, first.summary, _settings())
