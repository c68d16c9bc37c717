"""Turn leases: a second run on a thread waits for the first one's turn to end (bounded).

``single_writer=True`` refuses a run whose put would hide another run's turn; waiting
instead needs to know when a turn *ends*, and LangGraph never tells a checkpointer
(a run's last put looks like any other). So the turn is named by the caller::

    with saver.turn(thread_id, wait=30):
        graph.invoke(inputs, {"configurable": {"thread_id": thread_id}})

``turn`` takes the thread's lease (a holder and an expiry on its ``lgc_threads`` row,
written in the thread's write transaction, so every process sees it), waiting with
backoff while another holder's lease is live, up to ``wait`` seconds; then raises
``ConcurrentRunError`` naming the holder. The lease is released on exit; one whose
holder died expires after ``lease`` seconds (clocks of the hosts should agree to
within a fraction of that). Runs that take the lease never interleave, on any backend.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, TypeVar, cast

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._messages import MessageStore, Thread
from langgraph_compact.checkpoint._sql import Program, Replayable
from langgraph_compact.errors import ConcurrentRunError

if TYPE_CHECKING:
    from langgraph_compact.checkpoint._store import CheckpointStore

__all__ = ["TurnLeases", "acquire_turn", "release_turn"]

T = TypeVar("T")

Holder = tuple[str, float]
"""Who holds a thread's lease, and until when (``time.time()`` seconds)."""

FIRST_POLL = 0.01
MAX_POLL = 0.25


def acquire_turn(
    store: MessageStore, thread_id: str, holder: str, now: float, lease: float
) -> Program[Holder | None]:
    """Take the thread's lease for ``holder`` until ``now + lease``; or the live holder
    and its expiry (nothing changed)."""
    th = cast(Thread, (yield from store.thread(thread_id, create=True)))
    rows = yield q.SELECT_TURN, (th.tid,), "all"
    current, until = rows[0] if rows else (None, None)
    if current is not None and current != holder and until is not None and until > now:
        return str(current), float(until)
    yield q.SET_TURN, (holder, now + lease, th.tid), "none"
    return None


def release_turn(store: MessageStore, thread_id: str, holder: str) -> Program[None]:
    """Give the lease back, if ``holder`` still has it."""
    th = yield from store.thread(thread_id)
    if th is not None:
        yield q.CLEAR_TURN, (th.tid, holder), "none"


def _holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def _timeout(thread_id: str, other: str, waited: float) -> ConcurrentRunError:
    return ConcurrentRunError(
        f"thread {thread_id!r}: run {other!r} still holds the thread's turn after "
        f"{waited:.1f} s of waiting; nothing of this run was started. Wait longer "
        "(turn(..., wait=...)), or give each run its own thread.",
        thread_id=thread_id,
        checkpoint_ns="",
        read_checkpoint_id=None,
        other_checkpoint_id="",
        other_run_id=other,
    )


class TurnLeases:
    """``turn`` / ``aturn``: hold a thread's lease for the span of one run."""

    _store: CheckpointStore

    def _run(self, program: Program[T], *, write: bool = False, where: Where | None = None) -> T:
        raise NotImplementedError

    async def _arun(
        self, program: Program[T], *, write: bool = False, where: Where | None = None
    ) -> T:
        raise NotImplementedError

    def _lease(self, thread_id: str, holder: str, lease: float) -> Program[Holder | None]:
        return Replayable(lambda: acquire_turn(self._store, thread_id, holder, time.time(), lease))

    def _release(self, thread_id: str, holder: str) -> Program[None]:
        return Replayable(lambda: release_turn(self._store, thread_id, holder))

    @contextmanager
    def turn(
        self, thread_id: str, *, wait: float = 30.0, lease: float = 300.0, holder: str | None = None
    ) -> Iterator[str]:
        """Hold ``thread_id``'s turn for the body (yields the holder name).

        Args:
            wait: seconds to wait for another holder's turn to end.
            lease: seconds after which a lease whose holder died is void.
            holder: the name other runs see in their error (default: host, pid, random).

        Raises:
            ConcurrentRunError: another holder kept the turn for ``wait`` seconds.
        """
        me, where = holder or _holder(), Where(str(thread_id))
        start, poll = time.monotonic(), FIRST_POLL
        while other := self._run(self._lease(thread_id, me, lease), write=True, where=where):
            waited = time.monotonic() - start
            if waited >= wait:
                raise _timeout(thread_id, other[0], waited)
            time.sleep(min(poll, wait - waited))
            poll = min(poll * 2, MAX_POLL)
        try:
            yield me
        finally:
            self._run(self._release(thread_id, me), write=True, where=where)

    @asynccontextmanager
    async def aturn(
        self, thread_id: str, *, wait: float = 30.0, lease: float = 300.0, holder: str | None = None
    ) -> AsyncIterator[str]:
        """Async ``turn``."""
        me, where = holder or _holder(), Where(str(thread_id))
        start, poll = time.monotonic(), FIRST_POLL
        while other := await self._arun(self._lease(thread_id, me, lease), write=True, where=where):
            waited = time.monotonic() - start
            if waited >= wait:
                raise _timeout(thread_id, other[0], waited)
            await asyncio.sleep(min(poll, wait - waited))
            poll = min(poll * 2, MAX_POLL)
        try:
            yield me
        finally:
            await self._arun(self._release(thread_id, me), write=True, where=where)
