"""Background compaction through real compiled graphs: commit, discard, failure, async, close.

The summarizer is ``ChatModelSummarizer`` over a fake chat model that sleeps 0.2 s per
call (a stand-in for a paid model's latency); tokens are counted with real tiktoken.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from factories import ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import START, StateGraph

from langgraph_compact import (
    Budget,
    ChatModelSummarizer,
    CompactionNode,
    CompactState,
    ExtractiveSummarizer,
    TokenCounter,
)
from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.compaction import Section, check_summary, compact, protocol_violations
from langgraph_compact.compaction.candidate import background_enabled
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.node import SERDE_ALLOWLIST
from langgraph_compact.replay import coverage_gap
from langgraph_compact.replay.models import TailSummaryModel

COUNTER = TokenCounter()
BUDGET = Budget(context_window=4_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
LATENCY = 0.2


class FailingModel(TailSummaryModel):
    """Raises on every call (a provider outage)."""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("provider unreachable")


def _model(**kw: Any) -> TailSummaryModel:
    return TailSummaryModel(
        counter=COUNTER, json_section=Section.CRITICAL.value, latency=LATENCY, summary_tokens=80
    ).model_copy(update=kw)


def _node(model: TailSummaryModel | None = None, **kw: Any) -> CompactionNode:
    summarizer = ChatModelSummarizer(model=model or _model())
    return CompactionNode(BUDGET, counter=COUNTER, summarizer=summarizer, **kw)


def _graph(node: CompactionNode, saver: Any = None) -> Any:
    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_edge(START, "compact")
    serde = JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)
    return builder.compile(checkpointer=saver or InMemorySaver(serde=serde))


def _turn(i: int, size: int = 40) -> list[BaseMessage]:
    call = ai_tool_call("read_file", {"path": f"src/mod{i}.py"}, id=f"a{i}")
    return [call, tool_result(call, f"def f{i}(): return {i}  # line\n" * size, id=f"t{i}")]


START_MESSAGES = [system(id="s"), human("Refactor the src/ package; keep the API.", id="h0")]


def _check(values: dict[str, Any]) -> None:
    """Every call: within budget, a valid protocol, coverage contiguous and matching."""
    projection, raw = values["llm_input_messages"], values["messages"]
    summary = values.get("running_summary")
    assert COUNTER.count_messages(projection) <= BUDGET.usable
    assert protocol_violations(projection) == []
    assert coverage_gap(raw, projection, summary) is None
    if summary is not None:
        assert check_summary(summary, raw, summary.head_end, COUNTER.cache) is None


MODES = ["custom", "values"]


def _step(graph: Any, config: Any, messages: list[BaseMessage]) -> dict[str, Any]:
    stats: dict[str, Any] = {}
    for mode, chunk in graph.stream({"messages": messages}, config, stream_mode=MODES):
        stats, values = (chunk["compaction"], {}) if mode == "custom" else (stats, chunk)
    _check(values)
    return stats


def _until(
    graph: Any, config: Any, first: int, want: str, limit: int = 60
) -> tuple[int, dict[str, Any]]:
    """Feed turns from ``first`` until the stats say ``want`` (a note prefix or a source)."""
    for i in range(first, first + limit):
        stats = _step(graph, config, _turn(i))
        if stats["summary_source"] == want or any(n.startswith(want) for n in stats["background"]):
            return i, stats
    raise AssertionError(f"no call with {want!r} in {limit} turns")


def test_auto_is_on_for_model_summarizers_only() -> None:
    assert background_enabled(CompactionSettings(BUDGET, summarizer=ChatModelSummarizer(_model())))
    assert not background_enabled(CompactionSettings(BUDGET))
    assert background_enabled(CompactionSettings(BUDGET, background=True))


def test_a_ready_candidate_is_committed_at_the_trigger_without_waiting() -> None:
    model = _model()
    node = _node(model)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    i, stats = _until(graph, config, 0, "started")
    assert stats["summary_source"] is None and not stats["waited_for_summarizer"]
    assert node.background.wait(10)
    calls = model.calls
    assert calls >= 1  # the candidate asked the model, off the critical path
    i, stats = _until(graph, config, i + 1, "background")
    assert model.calls == calls  # the event itself did not call the model
    assert not stats["waited_for_summarizer"] and stats["summarized"]
    assert any(n.startswith("committed") for n in stats["background"])
    summary = graph.get_state(config).values["running_summary"]
    assert (summary.generation, summary.parent_generation) == (1, None)
    assert summary.summarizer == "chat-model" or summary.summarizer
    assert node.background.counts.committed == 1
    node.close()


@pytest.mark.parametrize("change", ["edit", "head", "redaction", "branch"])
def test_a_candidate_invalidated_by_a_change_is_discarded(change: str, tmp_path: Path) -> None:
    node = _node()
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "t.sqlite")) as saver:
        graph, config = _graph(node, saver), {"configurable": {"thread_id": "t"}}
        _step(graph, config, START_MESSAGES)
        i, _ = _until(graph, config, 0, "started")
        assert node.background.wait(10)
        if change == "edit":  # same id, new content: add_messages replaces it
            old = next(m for m in graph.get_state(config).values["messages"] if m.id == "t0")
            graph.update_state(config, {"messages": [old.model_copy(update={"content": "x"})]})
        elif change == "head":  # the first request: outside the span digest, yet read
            graph.update_state(config, {"messages": [human("Refactor; drop the API.", id="h0")]})
        elif change == "redaction":
            saver.redact("t", ["t0"], reason="secret in output", actor="test")
        else:  # fork from before the first turn and replay another history
            first = list(graph.get_state_history(config))[-2].config
            graph.update_state(first, {"messages": _turn(1000)})  # the thread's head now
        notes: list[str] = []
        for j in range(i + 1, i + 60):
            stats = _step(graph, config, _turn(j))
            notes += stats["background"]
            if stats["summary_source"]:
                break
        # Discarded on the first call after the change, before the trigger; what is
        # committed at the trigger is made from the changed history.
        assert notes[0].startswith("discarded") and node.background.counts.discarded == 1
        assert stats["summary_source"] in ("foreground", "background")
        values = graph.get_state(config).values
        summary = values["running_summary"]
        assert check_summary(summary, values["messages"], summary.head_end, COUNTER.cache) is None
        assert (summary.generation, summary.parent_generation) == (1, None)
    node.close()


def test_a_candidate_whose_generation_moved_is_discarded() -> None:
    node = _node()
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    i, _ = _until(graph, config, 0, "started")
    assert node.background.wait(10)
    # Another worker of the same thread commits generation 1 meanwhile (a shared saver):
    # the candidate, which extends no summary, must not replace it.
    raw = graph.get_state(config).values["messages"]
    eager = BUDGET.model_copy(update={"trigger_fraction": 0.4, "target_fraction": 0.2})
    theirs = compact(raw, None, CompactionSettings(eager, counter=COUNTER))
    assert theirs.summary is not None and theirs.summary.generation == 1
    graph.update_state(config, {"running_summary": theirs.summary})
    stats = _step(graph, config, _turn(i + 1))
    assert any("generation None" in n for n in stats["background"] if n.startswith("discarded"))
    assert node.background.counts.discarded == 1 and node.background.counts.committed == 0
    assert graph.get_state(config).values["running_summary"] == theirs.summary
    node.close()


def test_the_trigger_waits_for_a_running_candidate_instead_of_calling_again() -> None:
    model = _model(latency=0.5)
    node = _node(model)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    _until(graph, config, 0, "started")
    # A burst reaches the trigger while the candidate runs: the call waits for it and
    # summarizes only what the burst added on top of it.
    burst = [human(f"Spec part {k}: " + f"endpoint /v2/items/{k}; " * 60) for k in range(6)]
    stats = _step(graph, config, burst)
    assert stats["summary_source"] in ("background", "background+foreground")
    assert stats["waited_for_summarizer"]
    assert "waited for the running candidate" in stats["background"]
    summary = graph.get_state(config).values["running_summary"]
    assert summary.parent_generation in (None, 1) and node.background.counts.committed == 1
    node.close()


def test_a_failing_background_summarizer_is_logged_and_the_trigger_waits(
    caplog: pytest.LogCaptureFixture,
) -> None:
    node = _node(FailingModel(counter=COUNTER, json_section=Section.CRITICAL.value))
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    with caplog.at_level(logging.WARNING):
        i, _ = _until(graph, config, 0, "started")
        assert node.background.wait(10)
        i, stats = _until(graph, config, i + 1, "foreground")
    assert "background summarizer" in caplog.text and "provider unreachable" in caplog.text
    assert node.background.counts.failed >= 1 and node.background.counts.committed == 0
    assert stats["waited_for_summarizer"] and stats["summarizer"] == "extractive"
    node.close()


async def test_async_graph_commits_a_candidate_made_by_a_task() -> None:
    model = _model()
    node = _node(model)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    await graph.ainvoke({"messages": START_MESSAGES}, config)
    committed: dict[str, Any] | None = None
    stats: dict[str, Any] = {}
    for i in range(60):
        async for mode, chunk in graph.astream({"messages": _turn(i)}, config, stream_mode=MODES):
            stats, values = (chunk["compaction"], {}) if mode == "custom" else (stats, chunk)
        _check(values)
        if any(n.startswith("started") for n in stats["background"]):
            await node.background.drain()
        if stats["summary_source"] == "background":
            committed = stats
            break
    assert committed is not None and not committed["waited_for_summarizer"]
    assert not any(t.name.startswith("langgraph-compact-background") for t in threading.enumerate())
    await node.aclose()
    assert not node.background._tasks


def test_one_worker_bounds_candidates_and_close_leaves_no_threads() -> None:
    node = _node(_model(latency=0.5), background_workers=1)
    graph = _graph(node)
    a, b = {"configurable": {"thread_id": "a"}}, {"configurable": {"thread_id": "b"}}
    _step(graph, a, START_MESSAGES)
    _step(graph, b, START_MESSAGES)
    for i in range(60):  # the same turns on both threads: they reach the warning together
        if any(n.startswith("started") for n in _step(graph, a, _turn(i))["background"]):
            assert _step(graph, b, _turn(i))["background"] == ("busy: not started",)
            break
        _step(graph, b, _turn(i))
    assert node.background.counts.started == 1 and node.background.counts.busy == 1
    node.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("langgraph-compact")]


def test_extractive_default_is_unchanged_by_the_background_machinery() -> None:
    raw = [*START_MESSAGES, *(m for i in range(40) for m in _turn(i))]
    settings = CompactionSettings(BUDGET, counter=COUNTER, summarizer=ExtractiveSummarizer())
    node = CompactionNode(settings, calibrate=False, anchor_key=None, tasks_key=None)
    out = node.invoke({"messages": raw}, {"configurable": {"thread_id": "x"}})
    assert [m.content for m in out["llm_input_messages"]] == [
        m.content for m in compact(raw, None, settings).messages
    ]
    assert node.background.counts.started == 0


class MeteredModel(TailSummaryModel):
    """Reports usage like a provider does, so the ledger can count the candidate's calls."""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        result = super()._generate(*args, **kwargs)
        message = result.generations[0].message
        message.usage_metadata = {"input_tokens": 500, "output_tokens": 80, "total_tokens": 580}
        message.response_metadata = {"model_name": "metered"}
        return result


def test_the_candidates_summarizer_usage_reaches_the_ledger_of_the_commit() -> None:
    model = MeteredModel(counter=COUNTER, json_section=Section.CRITICAL.value, latency=LATENCY)
    node = _node(model)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    i, _ = _until(graph, config, 0, "started")
    assert node.background.wait(10)
    before = (graph.get_state(config).values.get("usage") or {}).get("by", {})
    assert "summarizer:metered" not in before  # not counted until committed (or discarded)
    _until(graph, config, i + 1, "background")
    by = graph.get_state(config).values["usage"]["by"]["summarizer:metered"]
    assert by["calls"] == model.calls and by["input_tokens"] == 500 * model.calls
    node.close()
