"""``python crash_worker.py DB THREAD FIRST_TURN``: run turns until killed, reporting each.

After each turn's ``invoke`` returns (its checkpoints committed), the turn number is
printed and flushed: the parent kills this process at random moments and checks that
every reported turn survived.
"""

from __future__ import annotations

import sys

from agent_graph import build_graph, turn_input

from langgraph_compact.checkpoint import CompactSqliteSaver


def main() -> None:
    path, thread, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
    config = {"configurable": {"thread_id": thread}}
    with CompactSqliteSaver.from_conn_string(path) as saver:
        graph = build_graph(saver)
        turn = first
        while True:
            graph.invoke(turn_input(turn), config)
            print(turn, flush=True)
            turn += 1


if __name__ == "__main__":
    main()
