"""Every corpus trajectory replayed through a real graph with the node before the model."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from corpus import corpus_files

from langgraph_compact.replay import make_strategy, replay_trajectory
from langgraph_compact.tokens import Budget, TokenCounter
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()


def _budget(tokens: int) -> Budget:
    return Budget(context_window=tokens, reserved_output=0, compaction_reserve=0, safety_margin=0)


@pytest.mark.parametrize("tokens", [8_000, 4_000])
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: Path(p).stem)
def test_replay_stays_in_budget_valid_and_lossless(path: Path, tokens: int) -> None:
    trajectory = load_trajectory(path)
    budget = _budget(tokens)
    run = replay_trajectory(
        path.stem, trajectory, make_strategy("ours", budget, COUNTER), budget, COUNTER
    )

    assert run.error is None
    final = run.final_messages
    assert [m.id for m in final] == [m.id for m in trajectory]
    assert final == trajectory  # raw history untouched by compaction
    assert run.calls, "the model was never called"
    assert run.max_input <= budget.usable
    assert [c.violations for c in run.calls if c.violations] == []
    assert [c.gap for c in run.calls if c.gap] == []
    cursors = [c.coverage for c in run.calls if c.coverage is not None]
    assert all(a[0] == b[0] and a[1] <= b[1] for a, b in pairwise(cursors))
