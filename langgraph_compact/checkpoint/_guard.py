"""The same-thread writer guard (``single_writer=True``): which puts must find the head unmoved.

LangGraph's own savers let two runs on one thread both write: each continues from the
checkpoint it read, the later put becomes the thread's newest, and the other run's turn
is silently gone from the thread's state. A put must therefore continue from the
thread's newest checkpoint when it continues something this process read *as the
newest*, or wrote itself: LangGraph read it without a ``checkpoint_id`` (a new turn,
``get_state`` before ``update_state``) or the run's previous step put it. A checkpoint
read *by id* (time travel, a fork, ``update_state`` on an older checkpoint) is a
deliberate branch: puts continuing it are not checked.

``LiveReads`` counts, per ``(thread, namespace, checkpoint)``, how many such
continuations this process holds: two runs of one process that read the same newest
checkpoint both hold one, so the second to write is checked (and refused) too. The
storage program (``CheckpointStore.put``) compares with the head inside the write
transaction, after the backend's lock on the thread, so check and write are atomic
across processes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._sql import Program
from langgraph_compact.errors import ConcurrentRunError

__all__ = ["NO_CHECKPOINT", "LiveReads", "check_head"]

NO_CHECKPOINT = ""
"""The checkpoint id of an empty thread's head (nothing stored yet)."""

MAX_ENTRIES = 65_536
"""Bound of the table: the oldest continuations are forgotten first (their puts then
pass unchecked, as without the guard)."""

Key = tuple[str, str, str]


class LiveReads:
    """Continuation points this process handed out or wrote, counted (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: OrderedDict[Key, int] = OrderedDict()

    def add(self, thread_id: str, ns: str, checkpoint_id: str | None) -> None:
        """A read of the newest checkpoint (``None``: the thread was empty), or a write."""
        key = (thread_id, ns, checkpoint_id or NO_CHECKPOINT)
        with self._lock:
            self._counts[key] = self._counts.get(key, 0) + 1
            self._counts.move_to_end(key)
            while len(self._counts) > MAX_ENTRIES:
                self._counts.popitem(last=False)

    def forget(self, thread_id: str, ns: str, checkpoint_id: str) -> None:
        """A read by id: continuing this checkpoint is now a deliberate branch."""
        with self._lock:
            self._counts.pop((thread_id, ns, checkpoint_id), None)

    def take(self, thread_id: str, ns: str, parent: str | None) -> bool:
        """Whether a put continuing ``parent`` must find it as the head (and use it up)."""
        key = (thread_id, ns, parent or NO_CHECKPOINT)
        with self._lock:
            count = self._counts.get(key, 0)
            if count <= 1:
                self._counts.pop(key, None)
            else:
                self._counts[key] = count - 1
            return count > 0

    def give_back(self, thread_id: str, ns: str, parent: str | None) -> None:
        """Undo a ``take`` whose put failed before it was checked (the run may retry)."""
        self.add(thread_id, ns, parent)


def check_head(
    tid: int, thread_id: str, ns: str, parent: str | None, head: str | None
) -> Program[None]:
    """Raise ``ConcurrentRunError`` unless the lane's newest checkpoint is ``parent``."""
    if (head or NO_CHECKPOINT) == (parent or NO_CHECKPOINT):
        return
    rows = yield q.SELECT_CHECKPOINT, (tid, ns, head), "all"
    run_id = str(rows[0][1]) if rows and rows[0][1] is not None else None
    other = f"run {run_id!r}" if run_id else "another run (no run_id in its config)"
    read = f"checkpoint {parent!r}" if parent else "the thread empty"
    raise ConcurrentRunError(
        f"thread {thread_id!r}, namespace {ns!r}: {other} wrote checkpoint {head!r} "
        f"after this run read {read}; this run's checkpoint was not stored (it would "
        "have hidden the other run's turn). Run it again from the thread's latest "
        "state, or give each run its own thread.",
        thread_id=thread_id,
        checkpoint_ns=ns,
        read_checkpoint_id=parent,
        other_checkpoint_id=str(head),
        other_run_id=run_id,
    )
