"""Smoke test of ``bench/tradeoff_bench.py``: its core on one small trajectory at 4,000.

Keeps the trade-off bench from rotting: two settings of ours and LangMem replay one real
trajectory for cost and for fidelity, and the figures hold what the table claims.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from corpus import CORPUS_DIR

from langgraph_compact.trajectories import load_trajectory

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import tradeoff_bench as bench
from canaries import KINDS

TRAJECTORY = CORPUS_DIR / "swe-agent-demo-ctf-crypto-eps.jsonl"
BUDGET = 4_000
NAMES = ("default", "tgt0.2+cap800", bench.LANGMEM)


@pytest.fixture(scope="module")
def rows() -> dict[str, bench.Row]:
    trajectories = [(TRAJECTORY.stem, load_trajectory(TRAJECTORY))]
    planted = bench.plant([TRAJECTORY])
    return {name: bench.measure(name, BUDGET, trajectories, planted) for name in NAMES}


def test_every_replay_completes(rows: dict[str, bench.Row]) -> None:
    recorded = sum(type(m).__name__ == "AIMessage" for m in load_trajectory(TRAJECTORY))
    for name, r in rows.items():
        assert r.cost.errors == 0, name
        assert r.cost.calls == recorded, name
        assert all(o.errors == [] for o in r.fidelity.values()), name


def test_ours_stays_in_budget_and_a_lower_target_sends_no_more(
    rows: dict[str, bench.Row],
) -> None:
    default, lower = rows["default"], rows["tgt0.2+cap800"]
    for r in (default, lower):
        assert r.cost.over == 0, r.setting
        assert all(o.over == 0 for o in r.fidelity.values()), r.setting
        assert r.cost.events >= 1, r.setting  # 7.5k tokens through a 4k budget must compact
    assert lower.cost.input_tokens <= default.cost.input_tokens
    assert lower.summary <= default.summary  # an 800-token cap under the default 1,000


def test_split_accounts_for_every_input_token(rows: dict[str, bench.Row]) -> None:
    for name in ("default", "tgt0.2+cap800"):
        r = rows[name]
        assert r.split_calls == r.cost.calls, name
        assert r.head + r.summary + r.tail == r.cost.input_tokens, name
        assert r.head > 0 and r.summary > 0 and r.tail > 0, name
    assert rows[bench.LANGMEM].split() is None  # no stream events: shown as "-"


def test_fidelity_counts_each_planted_item_once(rows: dict[str, bench.Row]) -> None:
    for name, r in rows.items():
        assert set(r.fidelity) == set(bench.FIDELITY_GENERATORS), name
        for generator, o in r.fidelity.items():
            assert dict(o.planted) == dict.fromkeys(KINDS, 1), (name, generator)
            assert all(o.survived[k] <= o.planted[k] for k in o.planted), (name, generator)
            assert 0 <= r.kept(generator) <= 100, (name, generator)
            assert o.stale <= sum(o.planted.values()), (name, generator)


def test_table_sets_each_row_against_langmem(rows: dict[str, bench.Row]) -> None:
    lines: list[str] = []
    bench.table(list(rows.values()), lines.append)
    assert len(lines) == 1 + len(NAMES)
    langmem = lines[-1].split()
    assert langmem[1] == bench.LANGMEM
    assert langmem[3] == "1.00" and langmem[5] == "1.00"  # input and cost@0.1 vs itself
    assert langmem[9:12] == ["-", "-", "-"]
