"""Every corpus trajectory replayed through a real graph with the node before the model."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from replay import replay

from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.node import CompactionNode
from langgraph_compact.tokens import Budget, TokenCounter
from langgraph_compact.trajectories import corpus_files, load_trajectory

COUNTER = TokenCounter()


def _budget(tokens: int) -> Budget:
    return Budget(context_window=tokens, reserved_output=0, compaction_reserve=0, safety_margin=0)


@pytest.mark.parametrize("tokens", [8_000, 4_000])
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: Path(p).stem)
def test_replay_stays_in_budget_valid_and_lossless(path: Path, tokens: int) -> None:
    trajectory = load_trajectory(path)
    budget = _budget(tokens)
    node = CompactionNode(CompactionSettings(budget, counter=COUNTER))
    final, log, _ = replay(trajectory, node, COUNTER)

    assert [m.id for m in final] == [m.id for m in trajectory]
    assert final == trajectory  # raw history untouched by compaction
    assert log.input_tokens, "the model was never called"
    assert max(log.input_tokens) <= budget.usable
    assert [v for v in log.violations if v] == []
    assert log.gaps == []
    cursors = [c for c in log.coverage if c is not None]
    assert all(a[0] == b[0] and a[1] <= b[1] for a, b in pairwise(cursors))
