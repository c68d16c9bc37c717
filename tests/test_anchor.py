"""Cache-stable projections: between compaction events the projection only grows at its end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from corpus import corpus_files
from factories import ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph

from langgraph_compact import Budget, CompactionNode, CompactionSettings, CompactState
from langgraph_compact.compaction import compact
from langgraph_compact.compaction.anchor import anchor_at, anchored_window
from langgraph_compact.errors import SettingsError
from langgraph_compact.replay import make_strategy, replay_trajectory
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()


def _budget(tokens: int) -> Budget:
    return Budget(context_window=tokens, reserved_output=0, compaction_reserve=0, safety_margin=0)


def _turns(rng: random.Random, n: int) -> list[list[BaseMessage]]:
    """Random tool turns: repeated reads (dedupe), long outputs (clip), short ones."""
    turns = []
    for i in range(n):
        path = f"src/m{rng.randrange(6)}.py"
        name = rng.choice(["read_file", "bash", "grep"])
        call = ai_tool_call(name, {"path": path}, text=f"step {i} " * rng.randrange(1, 30))
        size = rng.choice([40, 400, 1_200, 3_000])
        body = "\n".join(f"{path}:{j} value={rng.randrange(10**6)}" for j in range(size // 24))
        turns.append([call, tool_result(call, body)])
        if rng.random() < 0.1:
            turns[-1].append(human(f"now also check item {i}"))
    return turns


def _replay(settings: CompactionSettings, turns: list[list[BaseMessage]], anchored: bool) -> int:
    """Calls whose projection rewrote something the previous one showed; checks that
    only compaction events do."""
    raw: list[BaseMessage] = [system(), human("Fix the failing build " * 20)]
    summary, anchor, previous = None, None, None
    rewrites = 0
    for turn in turns:
        raw = [*raw, *turn]
        result = compact(raw, summary, settings, anchor=anchor if anchored else None)
        stats = result.stats
        assert stats.tokens_after <= settings.budget.usable
        digests = [COUNTER.cache.digest(m) for m in result.messages if not _note(m)]
        if previous is not None and digests[: len(previous)] != previous:
            rewrites += 1
            if anchored:
                assert stats.summarized or stats.refolded or stats.shrunk, stats
        if result.summary_changed:
            summary = result.summary
        anchor, previous = result.anchor, digests
    return rewrites


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("tokens", [8_000, 4_000])
def test_projection_is_append_only_between_events(seed: int, tokens: int) -> None:
    settings = CompactionSettings(_budget(tokens), counter=COUNTER)
    turns = _turns(random.Random(seed), 60)
    anchored = _replay(settings, turns, anchored=True)
    sliding = _replay(settings, turns, anchored=False)
    assert 0 < anchored <= 0.7 * sliding, (anchored, sliding)


def _note(message: BaseMessage) -> bool:
    return bool(message.additional_kwargs.get("langgraph_compact_note"))


def test_a_small_gain_is_declined_while_the_projection_fits() -> None:
    budget = _budget(8_000)
    eager = CompactionSettings(budget, counter=COUNTER, min_compaction_gain=0.0)
    strict = CompactionSettings(budget, counter=COUNTER, min_compaction_gain=0.9)
    raw: list[BaseMessage] = [system(), human("go")]
    anchor = None
    declined = 0
    for turn in _turns(random.Random(7), 60):
        raw = [*raw, *turn]
        result = compact(raw, None, strict, anchor=anchor)
        assert result.stats.tokens_after <= budget.usable
        declined += result.stats.declined
        assert not (result.stats.declined and result.stats.summarized)
        if result.stats.summarized:
            break
        anchor = result.anchor
    assert declined > 0
    # With no minimum gain the same history is compacted as soon as it crosses the trigger.
    assert compact(raw, None, eager, anchor=anchor).stats.tokens_after <= budget.trigger_tokens


def test_an_anchor_of_another_history_is_dropped() -> None:
    raw: list[BaseMessage] = [system(), human("go"), *_turns(random.Random(1), 3)[0]]
    anchor = anchor_at(raw, 3, 4)
    assert anchored_window(anchor, raw, 2) == (3, 4)
    assert anchored_window(anchor, raw, 4) == (4, 4)  # a summary covers past it
    edited = [*raw[:2], raw[2].model_copy(update={"id": "other"}), *raw[3:]]
    assert anchored_window(anchor, edited, 2) is None
    assert anchored_window({"index": 99, "last_id": None, "seen": 99}, raw, 2) is None


def test_min_compaction_gain_is_checked() -> None:
    with pytest.raises(SettingsError, match="min_compaction_gain"):
        CompactionSettings(_budget(8_000), min_compaction_gain=1.5)


@pytest.mark.parametrize("path", corpus_files()[:2], ids=lambda p: Path(p).stem)
def test_node_reports_the_cacheable_prefix_the_model_saw(path: Path) -> None:
    budget = _budget(4_000)
    trajectory = load_trajectory(path)
    run = replay_trajectory(
        path.stem, trajectory, make_strategy("ours", budget, COUNTER), budget, COUNTER
    )
    assert run.error is None
    reported = [c["cacheable_prefix"] for c in run.compactions]
    measured = [round(c.prefix_tokens / c.input_tokens, 4) for c in run.calls]
    assert reported == measured
    assert run.prefix_tokens > 0.6 * run.input_tokens


def test_the_anchor_is_state_and_survives_the_saver() -> None:
    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(_budget(4_000), counter=COUNTER))
    builder.add_edge(START, "compact")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t-anchor"}}
    history: list[BaseMessage] = [system(), human("go " * 50)]
    graph.invoke({"messages": history}, config)
    for turn in _turns(random.Random(3), 30):
        graph.invoke({"messages": turn}, config)
    state = graph.get_state(config).values
    anchor = state["fold_anchor"]
    messages = state["messages"]
    assert 0 < anchor["index"] <= len(messages)
    assert messages[anchor["index"] - 1].id == anchor["last_id"]


@pytest.mark.parametrize("name", ["ours", "full"])
def test_what_arrived_since_the_last_call_is_never_in_the_cacheable_prefix(name: str) -> None:
    budget = _budget(4_000)
    path = corpus_files()[0]
    trajectory = load_trajectory(path)
    run = replay_trajectory(
        path.stem, trajectory, make_strategy(name, budget, COUNTER), budget, COUNTER
    )
    assert run.error is None and len(run.calls) > 5
    first = run.calls[0]
    assert first.prefix_tokens == 0 and 0 < first.new_tokens <= first.input_tokens
    for call in run.calls[1:]:
        assert 0 < call.new_tokens < call.input_tokens
        assert call.prefix_tokens + call.new_tokens <= call.input_tokens
    if name == "full":  # never rewrites what it showed: its prefix is all that did not arrive
        assert all(c.prefix_tokens + c.new_tokens == c.input_tokens for c in run.calls)
