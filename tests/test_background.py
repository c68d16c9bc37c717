"""Background compaction through real compiled graphs: commit, discard, failure, async, close.

The summarizer is ``ChatModelSummarizer`` over a fake chat model that sleeps 0.2 s per
call (a stand-in for a paid model's latency); tokens are counted with real tiktoken.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from factories import ai_tool_call, human, system, tool_result
from langchain_core.messages import AIMessage, BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import START, StateGraph
from pydantic import Field

from langgraph_compact import (
    Budget,
    ChatModelSummarizer,
    CompactionNode,
    CompactState,
    ExtractiveSummarizer,
    TokenCounter,
)
from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.compaction import (
    Section,
    check_summary,
    compact,
    plan_compaction,
    protocol_violations,
)
from langgraph_compact.compaction.candidate import Pace, background_enabled, candidate_plan
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
    graph: Any, config: Any, first: int, want: str, limit: int = 60, size: int = 40
) -> tuple[int, dict[str, Any]]:
    """Feed turns from ``first`` until the stats say ``want`` (a note prefix or a source)."""
    for i in range(first, first + limit):
        stats = _step(graph, config, _turn(i, size))
        if stats["summary_source"] == want or any(n.startswith(want) for n in stats["background"]):
            return i, stats
    raise AssertionError(f"no call with {want!r} in {limit} turns")


def test_auto_is_on_for_model_summarizers_only() -> None:
    assert background_enabled(CompactionSettings(BUDGET, summarizer=ChatModelSummarizer(_model())))
    assert not background_enabled(CompactionSettings(BUDGET))
    assert background_enabled(CompactionSettings(BUDGET, background=True))


class ThreadRecordingModel(TailSummaryModel):
    """Records the thread each call runs in (foreground calls run in the graph's own)."""

    threads: list[str] = Field(default_factory=list)

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        return super()._generate(*args, **kwargs)


def test_a_ready_candidate_is_committed_at_the_trigger_without_waiting() -> None:
    model = ThreadRecordingModel(
        counter=COUNTER, json_section=Section.CRITICAL.value, latency=LATENCY, threads=[]
    )
    # No timeout: a foreground call would run in the graph's thread, not a summarizer's.
    node = _node(model, summarizer_timeout=None, background_threshold=0.9)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    i, stats = _until(graph, config, 0, "started", size=6)  # small outputs: steady growth
    assert stats["summary_source"] is None and not stats["waited_for_summarizer"]
    for j in range(i + 1, i + 80):
        assert node.background.wait(10)  # the agent's turn gives the candidate its time
        stats = _step(graph, config, _turn(j, size=6))
        if stats["summary_source"]:
            break
    assert stats["summary_source"] == "background" and stats["summarized"]
    assert not stats["waited_for_summarizer"]
    assert any(n.startswith("committed") for n in stats["background"])
    assert model.threads and all(
        t.startswith("langgraph-compact-background") for t in model.threads
    )
    summary = graph.get_state(config).values["running_summary"]
    assert (summary.generation, summary.parent_generation) == (1, None)
    assert node.background.counts.committed == 1
    node.close()


REASONS = {
    "edit": "covered messages changed",
    "head": "the head",
    "redaction": "covered messages changed",
    "branch": "summary covers up to",
}


@pytest.mark.parametrize("change", sorted(REASONS))
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
        assert notes[0].startswith("discarded: " + REASONS[change]), notes
        assert node.background.counts.discarded >= 1
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
    eager = BUDGET.model_copy(update={"trigger_fraction": 0.1, "target_fraction": 0.05})
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
    assert stats["summary_source"] in ("background", "background+stand-in")
    assert stats["waited_for_summarizer"]
    assert "waited for the running candidate" in stats["background"]
    summary = graph.get_state(config).values["running_summary"]
    assert summary.parent_generation in (None, 1) and node.background.counts.committed == 1
    node.close()


@pytest.mark.parametrize("stand_in", [True, False])
def test_a_failing_background_summarizer_is_logged_and_the_trigger_does_not_stall(
    caplog: pytest.LogCaptureFixture, stand_in: bool
) -> None:
    failing = FailingModel(counter=COUNTER, json_section=Section.CRITICAL.value)
    node = _node(failing, background_stand_in=stand_in)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    with caplog.at_level(logging.WARNING):
        started, _ = _until(graph, config, 0, "started")
        want = "stand-in" if stand_in else "foreground"
        for i in range(started + 1, started + 61):
            # each failed candidate is done before the next call: a call that finds one
            # still running waits for it, which is not what this test is about
            assert node.background.wait(10)
            stats = _step(graph, config, _turn(i))
            if stats["summary_source"] == want:
                break
        assert stats["summary_source"] == want
    assert "background summarizer" in caplog.text and "provider unreachable" in caplog.text
    assert node.background.counts.failed >= 1 and node.background.counts.committed == 0
    # The stand-in writes the summary locally; without it the model is called (and fails
    # over to the same extractive summary): either way the summary is there.
    assert stats["waited_for_summarizer"] is not stand_in and stats["summarizer"] == "extractive"
    assert graph.get_state(config).values["running_summary"].summarizer == "extractive"
    node.close()


def test_the_stand_in_writes_a_threads_first_summary_and_the_model_the_next() -> None:
    """A first request over the budget needs a summary before the first model call, with
    nothing earlier to prepare it in: the local summarizer writes it at once, and the
    model's candidates extend it from then on."""
    model = _model()
    node = _node(model)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    brief = " ".join(
        f"Requirement {k}: endpoint /v1/r{k} returns code {k * 7}." for k in range(400)
    )
    stats = _step(graph, config, [system(id="s"), human(brief, id="h0")])
    assert stats["summary_source"] == "stand-in" and not stats["waited_for_summarizer"]
    assert stats["summarizer"] == "extractive" and model.calls == 0
    first = graph.get_state(config).values["running_summary"]
    assert first.generation == 1 and first.summarizer == "extractive"
    _, stats = _until(graph, config, 0, "background")
    summary = graph.get_state(config).values["running_summary"]
    assert summary.parent_generation is not None and summary.summarizer == "chat-model"
    assert model.calls >= 1
    node.close()


async def test_async_graph_commits_a_candidate_made_in_a_worker_thread() -> None:
    model = ThreadRecordingModel(
        counter=COUNTER, json_section=Section.CRITICAL.value, latency=LATENCY, threads=[]
    )
    node = _node(model, summarizer_timeout=None)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    await graph.ainvoke({"messages": START_MESSAGES}, config)
    committed: dict[str, Any] | None = None
    before = set(threading.enumerate())
    stats: dict[str, Any] = {}
    for i in range(60):
        async for mode, chunk in graph.astream({"messages": _turn(i)}, config, stream_mode=MODES):
            stats, values = (chunk["compaction"], {}) if mode == "custom" else (stats, chunk)
        _check(values)
        if any(n.startswith("started") for n in stats["background"]):
            assert await node.background.drain(10)
        if stats["summary_source"] == "background":
            committed = stats
            break
    assert committed is not None and not committed["waited_for_summarizer"]
    # The sync call in the compactor's worker, not the async one on this loop.
    assert model.threads and all(
        t.startswith("langgraph-compact-background") for t in model.threads
    )
    assert [t for t in set(threading.enumerate()) - before if "compact-background" in t.name]
    await node.aclose()
    assert not [t for t in set(threading.enumerate()) - before if "compact" in t.name]


def test_one_worker_bounds_candidates_and_close_leaves_no_threads() -> None:
    before = set(threading.enumerate())
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
    assert [t for t in set(threading.enumerate()) - before if "compact-background" in t.name]
    node.close()
    assert not [t for t in set(threading.enumerate()) - before if "compact" in t.name]


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
    node = _node(model, background_threshold=0.9)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    i, _ = _until(graph, config, 0, "started", size=6)
    assert node.background.wait(10)
    before = (graph.get_state(config).values.get("usage") or {}).get("by", {})
    assert "summarizer:metered" not in before  # not counted until committed (or discarded)
    _until(graph, config, i + 1, "background", size=6)
    by = graph.get_state(config).values["usage"]["by"]["summarizer:metered"]
    assert by["calls"] == model.calls and by["input_tokens"] == 500 * model.calls
    node.close()


def test_pace_delays_a_candidate_until_the_trigger_is_near() -> None:
    pace = Pace()
    for k, total in enumerate((1_000, 1_200, 1_400)):
        pace.observe(total, now=float(k))
    assert pace.seconds_to(2_400) == pytest.approx(5.0)  # 200 tokens a call, a call a second
    settings = CompactionSettings(BUDGET, counter=COUNTER, summarizer=ChatModelSummarizer(_model()))
    history = [*START_MESSAGES, *(m for i in range(40) for m in _turn(i, size=6))]
    plans = (plan_compaction(history[: 2 + 2 * n], None, settings) for n in range(40))
    plan = next(p for p in plans if p.request is None and candidate_plan(p, settings))
    assert plan.tokens_before_summary > BUDGET.target_tokens  # in the warning zone
    assert candidate_plan(plan, settings, eta=60.0, run_time=2.0) is None  # plenty of time
    ahead = candidate_plan(plan, settings, eta=5.0, run_time=2.0)  # within LEAD runs
    assert ahead is not None and ahead.request is not None
    assert ahead.request.span_start == plan.body_start and ahead.cut > plan.body_start


def test_create_agent_middleware_prepares_summaries_in_the_background() -> None:
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.tools import tool

    from langgraph_compact.middleware import CompactionMiddleware

    class SlowAgent(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> SlowAgent:  # type: ignore[override]
            return self

        def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
            time.sleep(0.3)  # the agent's own model call: the candidate's time
            return super()._generate(messages, *args, **kwargs)

    @tool
    def read_file(path: str) -> str:
        """Read a file."""
        return f"contents of {path}\n" + "data line\n" * 120

    calls = [{"id": f"c{i}", "name": "read_file", "args": {"path": f"m{i}.py"}} for i in range(30)]
    note = "Next module; so far the modules define helpers and constants only. " * 8
    turns = [AIMessage(note, tool_calls=[c]) for c in calls]
    mw = CompactionMiddleware(BUDGET, counter=COUNTER, summarizer=ChatModelSummarizer(_model()))
    agent = create_agent(
        SlowAgent(messages=iter([*turns, AIMessage("All read.")])),
        [read_file],
        system_prompt="You read files.",
        middleware=[mw],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "m"}}
    request = {"messages": [("user", "Read every module.")]}
    out = agent.invoke(request, {**config, "recursion_limit": 200})
    assert len(out["messages"]) == 62  # nothing removed from the thread
    assert mw.background.counts.started >= 1 and mw.background.counts.committed >= 1
    summary = agent.get_state(config).values["running_summary"]
    assert summary.covered_through > 2 and summary.generation >= 2
    mw.close()


def _conversation(tag: str) -> list[BaseMessage]:
    return [system(id="s"), human(f"Conversation {tag}: refactor src/{tag}/.", id=f"h-{tag}")]


def test_conversations_without_a_thread_id_do_not_share_a_candidate() -> None:
    # A stateless server: no checkpointer, no thread id, the history resent every call.
    node = _node()
    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_edge(START, "compact")
    graph = builder.compile()
    states: dict[str, dict[str, Any]] = {t: {"messages": _conversation(t)} for t in "ab"}
    for i in range(50):
        for state in states.values():
            state["messages"] = [*state["messages"], *_turn(i)]
            out = graph.invoke(state)
            _check(out)
            state.update(
                {k: out[k] for k in ("running_summary", "fold_anchor") if out.get(k) is not None}
            )
            assert node.background.wait(10)
    counts = node.background.counts
    assert counts.committed >= 2 and counts.discarded == 0, counts
    assert all(s["running_summary"].summarizer != "extractive" for s in states.values())
    node.close()


def test_a_candidate_outlives_an_event_loop_closed_without_cancelling_it() -> None:
    import asyncio

    node = _node(_model(latency=1.0))
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    loop = asyncio.new_event_loop()
    loop.run_until_complete(graph.ainvoke({"messages": START_MESSAGES}, config))
    i = 0
    while node.background.counts.started == 0:
        assert i < 60, "no candidate started"
        loop.run_until_complete(graph.ainvoke({"messages": _turn(i)}, config))
        i += 1
    loop.close()  # the candidate is still running: it was never on this loop
    assert node.background.wait(10)
    _, stats = _until(graph, config, i, "background")  # a sync caller commits it
    assert node.background.counts.failed == 0 and node.background.counts.committed == 1
    assert not stats["waited_for_summarizer"]
    node.close()
    assert not node.background._slots


EXITING = """
import sys, time
sys.path.insert(0, {tests!r})
from test_background import START_MESSAGES, _graph, _model, _node, _turn
node = _node(_model(latency={latency}))
graph, config = _graph(node), {{"configurable": {{"thread_id": "t"}}}}
graph.invoke({{"messages": START_MESSAGES}}, config)
for i in range(60):
    graph.invoke({{"messages": _turn(i)}}, config)
    if node.background.counts.started:
        break
assert node.background.counts.started == 1
print("started", flush=True)
"""


def test_a_process_exits_without_waiting_for_a_running_candidate(tmp_path: Path) -> None:
    import subprocess
    import sys

    latency = 60.0
    script = tmp_path / "turns.py"
    script.write_text(EXITING.format(tests=str(Path(__file__).parent), latency=latency))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "started"
        started = time.monotonic()
        assert proc.wait(timeout=2 * latency) == 0
        assert time.monotonic() - started < latency / 4  # generous: a loaded machine
    finally:
        proc.kill()
        proc.wait()


def test_anti_thrash_state_is_carried_across_a_background_commit() -> None:
    node = _node(summarizer_timeout=None, background_threshold=0.9)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    i, _ = _until(graph, config, 0, "started", size=6)
    anchor = graph.get_state(config).values["fold_anchor"]
    assert anchor is not None and not anchor.get("weak")
    # Two weak summaries so far (as after two events that freed little).
    graph.update_state(config, {"fold_anchor": {**anchor, "weak": 2}})
    for j in range(i + 1, i + 80):
        assert node.background.wait(10)
        stats = _step(graph, config, _turn(j, size=6))
        if stats["summary_source"]:
            break
    assert stats["summary_source"] == "background"
    assert graph.get_state(config).values["fold_anchor"]["weak"] == 2
    node.close()


def test_a_topped_up_candidate_is_one_generation_step_and_passes_the_savers_cas(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "t.sqlite")
    node, racing = _node(_model(latency=0.5)), threading.Event()
    with (
        CompactSqliteSaver.from_conn_string(path) as mine,
        CompactSqliteSaver.from_conn_string(path) as theirs,
    ):
        other = StateGraph(CompactState)  # another run: a turn that keeps the summary
        other.add_node("chat", lambda s: {"messages": [AIMessage("ok", id="other-ai")]})
        other.add_edge(START, "chat")
        chat = other.compile(checkpointer=theirs)

        def race(state: Any) -> dict[str, Any]:
            if racing.is_set():
                chat.invoke({"messages": [human("meanwhile", id="other-h")]}, config)
            return {}

        builder = StateGraph(CompactState)
        builder.add_node("compact", node)
        builder.add_node("race", race)
        builder.add_edge(START, "compact")
        builder.add_edge(START, "race")
        graph, config = builder.compile(checkpointer=mine), {"configurable": {"thread_id": "t"}}
        _step(graph, config, START_MESSAGES)
        i, _ = _until(graph, config, 0, "committed")  # generation 1 is stored
        assert graph.get_state(config).values["running_summary"].generation == 1
        i, _ = _until(graph, config, i + 1, "started")
        assert node.background.wait(10)
        racing.set()  # the burst's run races another run that keeps generation 1
        burst = [human(f"Spec part {k}: " + f"endpoint /v2/items/{k}; " * 60) for k in range(8)]
        stats = _step(graph, config, burst)
        assert stats["summary_source"] == "background+stand-in"
        summary = graph.get_state(config).values["running_summary"]
        assert (summary.generation, summary.parent_generation) == (2, 1)
    node.close()


def test_paces_forget_the_least_recently_seen_thread_first() -> None:
    from langgraph_compact.compaction.background import BackgroundCompactor
    from langgraph_compact.compaction.candidate import MAX_CANDIDATES

    compactor = BackgroundCompactor()
    settings = CompactionSettings(BUDGET, counter=COUNTER, background=True)
    compact_with = compactor.compact
    compact_with(START_MESSAGES, None, settings, key="kept")
    for k in range(MAX_CANDIDATES + 5):
        compact_with(START_MESSAGES, None, settings, key=k)
        if k % 100 == 0:
            compact_with(START_MESSAGES, None, settings, key="kept")  # still active
    assert "kept" in compactor._paces and 0 not in compactor._paces
    assert len(compactor._paces) == MAX_CANDIDATES


async def test_drain_and_the_trigger_wait_without_blocking_the_loop() -> None:
    import asyncio

    node = _node(_model(latency=1.0))
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    await graph.ainvoke({"messages": START_MESSAGES}, config)
    ticks = 0

    async def tick() -> None:  # another coroutine of the app's loop
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(tick())
    try:
        for i in range(60):
            await graph.ainvoke({"messages": _turn(i)}, config)
            if node.background.counts.started:
                break
        # A burst at the trigger while the candidate runs: the call awaits it.
        burst = [human(f"Spec part {k}: " + f"endpoint /v2/items/{k}; " * 60) for k in range(6)]
        before, started = ticks, time.monotonic()
        chunks = await graph.ainvoke({"messages": burst}, config, stream_mode=MODES)
        waited = time.monotonic() - started
        stats = next(c["compaction"] for mode, c in chunks if mode == "custom")
        assert "waited for the running candidate" in stats["background"]
        assert stats["summary_source"] in ("background", "background+stand-in")
        assert waited > 0.3 and ticks - before >= waited / 0.01 / 4  # the loop kept running
        for j in range(i + 1, i + 60):
            await graph.ainvoke({"messages": _turn(j)}, config)
            if node.background._running():
                break
        before = ticks
        assert node.background._running() and await node.background.drain(10)
        assert ticks - before >= 10 and not node.background._running()
    finally:
        ticker.cancel()
    assert node.background.counts.committed >= 1 and node.background.counts.failed == 0
    await node.aclose()


def test_close_drops_a_running_candidate_and_keeps_its_usage() -> None:
    metered = MeteredModel(counter=COUNTER, json_section=Section.CRITICAL.value, latency=1.0)
    node = _node(metered)
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    _until(graph, config, 0, "started")
    node.close()  # waits for the running candidate; nobody will commit it
    assert node.background.counts.failed == 1 and not node.background._slots
    by = node.background.unclaimed["by"]["summarizer:metered"]
    assert by["calls"] == metered.calls >= 1 and by["input_tokens"] == 500 * metered.calls


class AsyncNativeModel(TailSummaryModel):
    """Sleeps ``latency`` on either path: ``time.sleep`` when sync, ``asyncio.sleep`` on the
    caller's loop when async (a provider's async HTTP client), and records the path."""

    paths: list[str] = Field(default_factory=list)

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        self.paths.append(f"sync:{threading.current_thread().name}")
        return super()._generate(*args, **kwargs)

    async def _agenerate(self, *args: Any, **kwargs: Any) -> Any:
        import asyncio

        self.paths.append("async")
        await asyncio.sleep(self.latency)
        return super(AsyncNativeModel, self.model_copy(update={"latency": 0.0}))._generate(
            *args, **kwargs
        )


def _notes_turn(i: int) -> list[BaseMessage]:
    """A turn of prose the fold cannot clip: only summaries keep the thread in budget."""
    facts = " ".join(f"item{i}_{k} is a fact about module {k}." for k in range(25))
    return [human(f"Note {i}: {facts}", id=f"n{i}"), AIMessage(f"Noted {i}.", id=f"r{i}")]


def test_candidates_outlive_one_asyncio_run_per_turn() -> None:
    # A script driving an async graph: asyncio.run(graph.ainvoke(...)) per turn, so each
    # turn's event loop closes right after it. Candidates must survive that.
    import asyncio

    model = AsyncNativeModel(counter=COUNTER, json_section=Section.CRITICAL.value, latency=LATENCY)
    node = _node(model)

    async def agent(state: Any) -> dict[str, Any]:
        await asyncio.sleep(0.05)  # the agent's own model call: shorter than the summarizer
        return {}

    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_node("agent", agent)
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    serde = JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)
    graph = builder.compile(checkpointer=InMemorySaver(serde=serde))
    config = {"configurable": {"thread_id": "t"}}

    def turn(messages: list[BaseMessage]) -> dict[str, Any]:
        chunks = asyncio.run(graph.ainvoke({"messages": messages}, config, stream_mode=MODES))
        _check(next(c for mode, c in reversed(chunks) if mode == "values"))
        return next(c["compaction"] for mode, c in chunks if mode == "custom")

    turn(START_MESSAGES)
    events = waits = 0
    notes: list[str] = []
    for i in range(30):
        time.sleep(LATENCY)  # the user's time between turns, outside any event loop
        stats = turn(_notes_turn(i))
        notes += stats["background"]
        events += stats["summary_source"] is not None
        waits += stats["waited_for_summarizer"]
    counts = node.background.counts
    assert events >= 3, (events, notes)
    assert counts.committed >= 2 and counts.failed == 0, (counts, notes)
    assert not [n for n in notes if "cancelled" in n or "loop" in n], notes
    assert waits < events, (waits, events, notes)
    # Candidates made the sync calls, off the loop (in the summarizer timeout's thread);
    # the graph's own foreground calls are the async ones.
    synced = [p for p in model.paths if p != "async"]
    assert len(synced) >= counts.started and all(
        p.startswith("sync:langgraph-compact-") for p in synced
    )
    node.close()
    assert not node.background._slots


class SlowFailingModel(TailSummaryModel):
    """Fails after a second (a provider that times out on its side)."""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)
        raise ConnectionError("provider unreachable")


def test_a_call_that_waited_for_a_candidate_that_failed_says_it_waited() -> None:
    node = _node(SlowFailingModel(counter=COUNTER, json_section=Section.CRITICAL.value))
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    _until(graph, config, 0, "started")
    burst = [human(f"Spec part {k}: " + f"endpoint /v2/items/{k}; " * 60) for k in range(6)]
    stats = _step(graph, config, burst)
    assert "waited for the running candidate" in stats["background"]
    assert stats["waited_for_summarizer"]  # the stand-in wrote it, after the wait
    assert stats["summary_source"] == "stand-in" and node.background.counts.stand_in >= 1
    node.close()


def test_a_topped_up_candidate_names_both_summarizers() -> None:
    node = _node(_model(latency=0.5))
    graph, config = _graph(node), {"configurable": {"thread_id": "t"}}
    _step(graph, config, START_MESSAGES)
    _until(graph, config, 0, "started")
    assert node.background.wait(10)
    burst = [human(f"Spec part {k}: " + f"endpoint /v2/items/{k}; " * 60) for k in range(8)]
    stats = _step(graph, config, burst)
    assert stats["summary_source"] == "background+stand-in"
    summary = graph.get_state(config).values["running_summary"]
    assert summary.summarizer == stats["summarizer"] == "chat-model+extractive"
    node.close()
