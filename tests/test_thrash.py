"""Anti-thrash: a budget the summarizer cannot meet does not get a summary every turn."""

from __future__ import annotations

import random

import pytest
from factories import ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage

from langgraph_compact.compaction import CompactionSettings, ExtractiveSummarizer, compact
from langgraph_compact.replay import CountingSummarizer
from langgraph_compact.tokens import Budget, TokenCounter

COUNTER = TokenCounter()


def _run(seed: int, **options: object) -> tuple[int, int, int, list[int]]:
    """Summarizer calls, paused calls, turns, and the pause notes shown per call."""
    rng = random.Random(seed)
    budget = Budget(
        context_window=3_000,
        reserved_output=0,
        compaction_reserve=0,
        safety_margin=0,
        trigger_fraction=0.6,
        target_fraction=0.3,
    )
    counting = CountingSummarizer(ExtractiveSummarizer())
    settings = CompactionSettings(budget, counter=COUNTER, summarizer=counting, **options)  # type: ignore[arg-type]
    # Standing rules over the trigger on their own: no summary can get under it.
    rules = " ".join(f"Rule {i}: never touch module m{i} without a test." for i in range(150))
    raw: list[BaseMessage] = [system(rules), human("Keep the build green.")]
    summary, anchor = None, None
    paused, notes = 0, []
    turns = 45
    for i in range(turns):
        call = ai_tool_call("bash", {"command": f"make test-{i}"})
        out = " ".join(f"ok{rng.randrange(10**6)}" for _ in range(rng.randrange(20, 60)))
        raw = [*raw, call, tool_result(call, out)]
        result = compact(raw, summary, settings, anchor=anchor)
        assert result.stats.tokens_after <= budget.usable
        paused += result.stats.paused
        kinds = [m.additional_kwargs.get("langgraph_compact_note") for m in result.messages]
        notes.append(kinds.count("pause"))
        if result.summary_changed:
            summary = result.summary
        anchor = result.anchor
    return counting.calls, paused, turns, notes


@pytest.mark.parametrize("seed", range(3))
def test_an_unmeetable_budget_does_not_summarize_every_turn(seed: int) -> None:
    eager, _, turns, _ = _run(seed, thrash_events=0, min_compaction_gain=0.0)
    assert eager > turns * 0.4  # without the guards: a summary every turn or two
    calls, paused, _, notes = _run(seed, min_compaction_gain=0.0)  # anti-thrash alone
    assert calls < eager / 2
    assert paused > 0
    assert max(notes) == 1  # one note while paused, never stacked
    assert sum(n > 0 for n in notes) == paused
    assert _run(seed)[0] < eager / 2  # with the minimum gain as well (the defaults)
