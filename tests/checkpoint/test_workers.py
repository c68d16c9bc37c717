"""Many worker processes, one database: no turn lost or duplicated, no error surfacing.

Eight processes (``turn_worker.py``) each run turns on a thread of their own and take
turns, under a file lock, on one shared thread; then two processes race on one thread
with ``single_writer=True`` and no lock. Every final state is compared with the history
the workers' results imply.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from backends import open_saver
from pgserver import schema_dsn
from turn_worker import build

WORKER = Path(__file__).with_name("turn_worker.py")
WORKERS, OWN, SHARED = 8, 400, 100  # 8 x (400 + 100) = 4,000 turns


def _run_workers(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(WORKER.parent)}
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), json.dumps(s)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for s in specs
    ]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-3000:]
        results.append(json.loads(out))
    return results


def _ids(graph: Any, thread: str) -> list[str]:
    state = graph.get_state({"configurable": {"thread_id": thread}})
    return [str(m.id) for m in state.values.get("messages", [])]


def _expected(humans: list[str]) -> list[str]:
    return [x for h in humans for x in (h, f"{h}-ai")]


def _coverage_is_contiguous(saver: Any, thread: str, messages: int) -> None:
    gens = saver.summaries(thread)
    assert [g.generation for g in gens] == list(range(1, len(gens) + 1))
    assert [g.covered_through for g in gens] == [10 * (i + 1) for i in range(len(gens))]
    assert len(gens) == messages // 10


@pytest.mark.parametrize("kind", ["postgres"])
def test_eight_workers_4000_turns_lose_and_duplicate_nothing(kind: str, tmp_path: Path) -> None:
    target = schema_dsn(tmp_path)
    with open_saver(kind, tmp_path) as saver:
        saver.setup()
    specs = [
        {"kind": kind, "target": target, "worker": w, "own": OWN, "shared": SHARED,
         "lock": str(tmp_path / "shared.lock")}
        for w in range(WORKERS)
    ]  # fmt: skip
    results = _run_workers(specs)
    with open_saver(kind, tmp_path) as saver:
        graph = build(saver)
        for w in range(WORKERS):
            assert _ids(graph, f"w{w}") == _expected([f"w{w}-{i}" for i in range(OWN)])
            _coverage_is_contiguous(saver, f"w{w}", 2 * OWN)
        landed = {h: i for r in results for h, i in r["landed"].items()}
        assert len(landed) == WORKERS * SHARED
        order = sorted(landed, key=lambda h: landed[h])
        assert [landed[h] for h in order] == list(range(0, 2 * len(order), 2))
        assert _ids(graph, "shared") == _expected(order)
        _coverage_is_contiguous(saver, "shared", 2 * len(order))
        assert saver.verify().ok


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_two_racing_single_writers_lose_nothing_silently(kind: str, tmp_path: Path) -> None:
    target = schema_dsn(tmp_path) if kind == "postgres" else str(tmp_path / "race.sqlite")
    with open_saver(kind, tmp_path if kind == "postgres" else Path(target)) as saver:
        saver.setup()
    spec = {"kind": kind, "target": target, "own": 0, "shared": 0, "race": 60, "lock": ""}
    results = _run_workers([{**spec, "worker": w} for w in range(2)])
    with open_saver(kind, tmp_path if kind == "postgres" else Path(target)) as saver:
        final = _ids(build(saver), "race")
        assert saver.verify().ok
    landed = {h: i for r in results for h, i in r["landed"].items()}
    returned = [h for h, i in landed.items() if i != "conflict"]
    assert len(landed) == 120 and returned
    for human in returned:  # every turn that returned is in the final state, whole
        assert final[landed[human] : landed[human] + 2] == [human, f"{human}-ai"]
    assert len(final) == len(set(final))  # nothing stored twice
