"""Smoke test of ``bench/compare_bench.py``: its core functions on one small trajectory.

Keeps the comparison bench from rotting: every contender replays one real trajectory
at a budget that forces compaction, and the steady-state timer runs a few calls.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from corpus import CORPUS_DIR, corpus_files

from langgraph_compact.compaction.verify import protocol_violations
from langgraph_compact.replay import ReplayTotals, TailSummaryModel
from langgraph_compact.trajectories import load_trajectory

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import compare_bench as bench

TRAJECTORY = CORPUS_DIR / "swe-agent-demo-ctf-crypto-eps.jsonl"
BUDGET = 4_000


@pytest.fixture(scope="module")
def stats() -> dict[str, ReplayTotals]:
    return {name: bench.replay_corpus(name, BUDGET, [TRAJECTORY]) for name in bench.CONTENDERS}


def test_every_contender_replays_the_whole_trajectory(stats: dict[str, ReplayTotals]) -> None:
    recorded = sum(type(m).__name__ == "AIMessage" for m in load_trajectory(TRAJECTORY))
    for name, s in stats.items():
        assert s.errors == [], name
        assert s.model_calls == recorded, name
        assert s.input_tokens > 0, name


def test_ours_stays_in_budget_and_loses_nothing(stats: dict[str, ReplayTotals]) -> None:
    for name in ("ours", "ours+llm"):
        s = stats[name]
        assert s.over_budget == 0, name
        assert s.max_input <= BUDGET, name
        assert s.lost == 0, name
        assert s.events >= 1, name  # 7.5k tokens through a 4k budget must compact
    assert stats["ours"].summarizer_calls == 0  # extractive: no model call
    assert stats["ours+llm"].summarizer_calls >= stats["ours+llm"].events
    assert stats["ours+llm"].summarizer_input_tokens > 0


def test_competitors_are_measured(stats: dict[str, ReplayTotals]) -> None:
    assert stats["langmem"].summarizer_calls >= 1
    assert stats["langmem"].lost == 0  # its default output key leaves raw messages alone
    assert stats["middleware"].summarizer_calls >= 1
    assert stats["middleware"].lost > 0  # REMOVE_ALL_MESSAGES replaces the history


def test_tail_summary_model_is_deterministic_and_fixed_size() -> None:
    from langchain_core.messages import HumanMessage

    model = TailSummaryModel(counter=bench.COUNTER, summary_tokens=50)
    a = model.invoke([HumanMessage("alpha beta gamma " * 100)]).content
    b = model.invoke([HumanMessage("alpha beta gamma " * 100)]).content
    assert a == b
    assert isinstance(a, str)
    assert abs(bench.COUNTER.count_text(a) - 50) <= 5
    assert model.calls == 2


def test_steady_state_and_history() -> None:
    paths = corpus_files()
    history = bench.build_history(120, paths)
    assert len(history) >= 120
    assert protocol_violations(history) == []
    assert len({m.id for m in history}) == len(history)
    turns = bench.tool_turns(paths)
    for name in bench.CONTENDERS:
        s = bench.steady_state(name, history, turns, calls=3, tokens=4_000, warmup=1)
        assert len(s.times) == 3, name
        assert s.median_ms > 0, name


def test_a_contender_can_summarize_with_another_model() -> None:
    """Benches built on this one swap the summarizer model; its calls are counted."""
    model = TailSummaryModel(counter=bench.COUNTER, summary_tokens=80)
    budget = bench.budget_of(BUDGET)
    for name in ("ours+llm", "langmem", "middleware"):
        contender = bench.make_contender(name, budget, model=model)
        assert contender.summary_model is model, name
    assert bench.make_contender("ours", budget, model=model).summary_model is None
    assert 0 < bench.summary_cap(budget) <= budget.target_tokens
