"""Killed mid-turn (SIGKILL at random moments), the saver loses no committed turn.

A worker process runs turns of a real graph and reports each one after ``invoke``
returned; the test kills it at a random moment, opens the file in a fresh saver, checks
that every reported turn is in the state, in order and once (a turn killed after its
commit but before its report is there too), and that ``verify()`` finds nothing wrong,
then starts a worker that continues the same thread.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from agent_graph import build_graph

from langgraph_compact.checkpoint import CompactSqliteSaver

WORKER = Path(__file__).with_name("crash_worker.py")
REPO = Path(__file__).resolve().parents[2]
KILLS = 20


def _run_until_killed(db: Path, first: int, rng: random.Random) -> list[int]:
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{WORKER.parent}"}
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), str(db), "crash", str(first)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    done: list[int] = []
    reader = threading.Thread(target=lambda: done.extend(int(line) for line in proc.stdout or ()))
    reader.start()
    deadline = time.monotonic() + 30
    while not done and time.monotonic() < deadline:  # let it start and commit a turn
        time.sleep(0.01)
    time.sleep(rng.uniform(0.0, 0.25))  # then kill it anywhere, a transaction open or not
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    reader.join()
    return done


def test_sigkill_mid_turn_loses_no_reported_turn(db_path: Path) -> None:
    rng = random.Random(2024)
    reported: list[int] = []
    next_turn = 0
    for _ in range(KILLS):
        reported += _run_until_killed(db_path, next_turn, rng)
        with CompactSqliteSaver.from_conn_string(str(db_path)) as saver:
            state = build_graph(saver).get_state({"configurable": {"thread_id": "crash"}})
            humans = [
                int(str(m.id).split("-")[1]) for m in state.values["messages"] if m.type == "human"
            ]
            assert humans == sorted(set(humans))  # in order, none twice
            assert set(reported) <= set(humans)  # every reported turn (and maybe one more)
            assert saver.verify().ok
        next_turn = humans[-1] + 1  # a turn cut short may have committed its input
    assert len(reported) >= KILLS
