"""A process of the turn-lease tests that holds a thread's turn until told to leave.

``python turn_holder.py KIND TARGET LEASE`` (``KIND``: ``sqlite`` or ``postgres``,
``TARGET``: the file or the DSN) enters ``saver.turn("shared", lease=LEASE,
holder="holder")``, prints ``in``, waits for a line on stdin, leaves the turn and
prints ``kept``, or ``lost <error class>: <message>`` if leaving raised. The tests stop
it (``SIGSTOP``) or kill it mid-turn.
"""

from __future__ import annotations

import sys
from typing import Any

from langgraph_compact.checkpoint import CompactPostgresSaver, CompactSqliteSaver
from langgraph_compact.errors import ConcurrentRunError


def main(kind: str, target: str, lease: float) -> str:
    cls: Any = CompactPostgresSaver if kind == "postgres" else CompactSqliteSaver
    with cls.from_conn_string(target) as saver:
        try:
            with saver.turn("shared", lease=lease, holder="holder"):
                print("in", flush=True)
                sys.stdin.readline()  # until told (or killed)
        except ConcurrentRunError as e:
            return f"lost {type(e).__name__}: {e}"
    return "kept"


if __name__ == "__main__":
    print(main(sys.argv[1], sys.argv[2], float(sys.argv[3])), flush=True)
