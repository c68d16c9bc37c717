"""Replay many trajectories through many strategies at many budgets and add up the results.

This is what ``langgraph-compact replay`` and ``bench/compare_bench.py`` report: per
strategy and budget, sums over every agent-model call of every trajectory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from langgraph_compact.replay.harness import ReplayRun, replay_trajectory
from langgraph_compact.replay.strategies import budget_of, make_strategy
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.trajectories import Trajectory

__all__ = ["ReplayTotals", "replay_all"]


@dataclass
class ReplayTotals:
    """One strategy at one budget, summed over trajectories."""

    strategy: str
    budget: int
    trajectories: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    raw_tokens: int = 0
    """What the full history would have sent: the sum of every call's raw tokens."""
    max_input: int = 0
    over_budget: int = 0
    events: int = 0
    summarizer_calls: int = 0
    summarizer_input_tokens: int = 0
    lost: int = 0
    violations: int = 0
    """Model calls whose input broke the tool protocol."""
    gaps: int = 0
    """Model calls where head + summary + tail did not cover the raw history exactly."""
    task_kept: int = 0
    """Model calls whose input held the first request (same id, first 100 characters)."""
    errors: list[str] = field(default_factory=list)
    probes: dict[str, list[int]] = field(default_factory=dict)
    """Per probe: [trajectories where the model saw it, ... still saw it at the last call]."""

    def add(self, run: ReplayRun, probes: Sequence[str] = ()) -> None:
        """Add one trajectory's run."""
        self.trajectories += 1
        self.model_calls += len(run.calls)
        self.input_tokens += run.input_tokens
        self.raw_tokens += sum(c.raw_tokens for c in run.calls)
        self.max_input = max(self.max_input, run.max_input)
        self.over_budget += run.over_budget
        self.events += run.events
        self.summarizer_calls += run.summarizer_calls
        self.summarizer_input_tokens += run.summarizer_input_tokens
        self.lost += run.lost
        self.violations += run.violations
        self.gaps += run.gaps
        self.task_kept += sum(c.task for c in run.calls)
        if run.error:
            self.errors.append(f"{run.trajectory}: {run.error}")
        for k, probe in enumerate(probes):
            seen = self.probes.setdefault(probe, [0, 0])
            if any(c.probes[k] for c in run.calls):
                seen[0] += 1
                seen[1] += bool(run.calls[-1].probes[k])


def replay_all(
    trajectories: Sequence[Trajectory],
    strategy: str,
    tokens: int,
    counter: TokenCounter,
    *,
    probes: Sequence[str] = (),
    on_run: Callable[[ReplayRun], None] | None = None,
) -> ReplayTotals:
    """Totals of ``strategy`` over ``trajectories`` at a ``tokens`` budget.

    Each trajectory gets a fresh strategy (fresh summary model and counters).

    Raises:
        StrategyUnavailable: the strategy's package is not installed.
    """
    totals = ReplayTotals(strategy, tokens)
    budget = budget_of(tokens)
    for t in trajectories:
        run = replay_trajectory(
            t.name,
            t.messages,
            make_strategy(strategy, budget, counter),
            budget,
            counter,
            probes=probes,
        )
        totals.add(run, probes)
        if on_run:
            on_run(run)
    return totals
