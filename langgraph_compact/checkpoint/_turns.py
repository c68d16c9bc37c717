"""Turn leases: a second run on a thread waits for the first one's turn to end (bounded).

``single_writer=True`` refuses a run whose put would hide another run's turn; waiting
instead needs to know when a turn *ends*, and LangGraph never tells a checkpointer
(a run's last put looks like any other). So the turn is named by the caller::

    with saver.turn(thread_id, wait=30):
        graph.invoke(inputs, {"configurable": {"thread_id": thread_id}})

``turn`` takes the thread's lease (a holder and an expiry on its ``lgc_threads`` row,
written in the thread's write transaction, so every process sees it), waiting with
backoff while another holder's lease is live, up to ``wait`` seconds; then raises
``ConcurrentRunError`` naming the holder. While the body runs, the lease is renewed
every ``lease / 3`` seconds (a daemon thread for ``turn``, a task for ``aturn``), so a
run may take longer than its lease; one whose holder died expires after ``lease``
seconds (clocks of the hosts should agree to within a fraction of that). Runs that
hold the lease never interleave, on any backend.

A holder that could not renew in time (its process stalled, or the database was out
of reach, for longer than ``lease``) may find the lease taken by another run: that is
logged (``ERROR``) when it is found, renewal stops, and leaving the turn raises
``TurnLostError`` naming the other holder (or, if the body raised, logs it and lets the
body's error through). A failed renewal is logged (``WARNING``) and tried again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import cast

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._messages import MessageStore, Thread
from langgraph_compact.checkpoint._runners import Runners
from langgraph_compact.checkpoint._sql import Program, Replayable
from langgraph_compact.errors import ConcurrentRunError, SaverArgumentError, TurnLostError

__all__ = ["TurnLeases", "acquire_turn", "release_turn", "renew_turn"]

log = logging.getLogger(__name__)

Holder = tuple[str, float]
"""Who holds a thread's lease, and until when (``time.time()`` seconds)."""

FIRST_POLL = 0.01
MAX_POLL = 0.25
RENEWALS_PER_LEASE = 3


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


def _taken(store: MessageStore, thread_id: str, holder: str) -> Program[tuple[int, Holder | None]]:
    """The thread's tid (``-1``: no such thread) and, if ``holder`` no longer has its
    lease, who has it now (``""``: nobody)."""
    th = yield from store.thread(thread_id)
    if th is None:
        return -1, None  # deleted inside the turn: no lease left to defend
    rows = yield q.SELECT_TURN, (th.tid,), "all"
    current, until = rows[0] if rows else (None, None)
    if current == holder:
        return th.tid, None
    return th.tid, (str(current or ""), float(until or 0.0))


def renew_turn(
    store: MessageStore, thread_id: str, holder: str, now: float, lease: float
) -> Program[Holder | None]:
    """Extend ``holder``'s lease to ``now + lease`` if it still has it (even past its
    expiry: nobody took it meanwhile); or who has it now (nothing changed)."""
    tid, other = yield from _taken(store, thread_id, holder)
    if tid >= 0 and other is None:
        yield q.SET_TURN, (holder, now + lease, tid), "none"
    return other


def release_turn(store: MessageStore, thread_id: str, holder: str) -> Program[Holder | None]:
    """Give the lease back if ``holder`` still has it; or who has it now."""
    tid, other = yield from _taken(store, thread_id, holder)
    if tid >= 0 and other is None:
        yield q.CLEAR_TURN, (tid, holder), "none"
    return other


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


def _lost(thread_id: str, me: str, other: str, lease: float) -> TurnLostError:
    who = f"run {other!r} holds it now" if other else "nobody holds it now"
    return TurnLostError(
        f"thread {thread_id!r}: run {me!r} lost the thread's turn while inside it ({who}): "
        f"its {lease:g} s lease ran out before it could be renewed (the process stalled, or "
        "the database was out of reach); writes of both runs may have interleaved: check "
        "the thread's history, and give turns a longer lease.",
        thread_id=thread_id,
        checkpoint_ns="",
        read_checkpoint_id=None,
        other_checkpoint_id="",
        other_run_id=other or None,
    )


class _Renewal:
    """What the renewer found: who took the lease (``None``: nobody yet)."""

    def __init__(self, thread_id: str, me: str, lease: float) -> None:
        if not lease > 0:  # also NaN
            raise SaverArgumentError(
                f"thread {thread_id!r}: turn(..., lease={lease!r}): the lease must be a "
                "positive number of seconds (it is renewed every lease / 3 seconds)"
            )
        self.thread_id, self.me, self.lease = thread_id, me, lease
        self.every = lease / RENEWALS_PER_LEASE
        self.lost: Holder | None = None

    def failed(self, error: Exception) -> None:
        log.warning(
            "thread %r: renewing the turn of %r failed (%s); trying again in %.1f s",
            self.thread_id,
            self.me,
            error,
            self.every,
        )

    def found(self, other: Holder | None) -> bool:
        """Record a renewal's answer; whether renewing must stop."""
        if other is None or self.lost is not None:
            return self.lost is not None
        self.lost = other
        log.error("%s", _lost(self.thread_id, self.me, other[0], self.lease))
        return True

    def leave(self, released: Holder | None, failed: bool) -> None:
        """At the turn's end: raise (or log, when the body ``failed``) a lost lease."""
        self.found(released)
        if self.lost is not None and not failed:
            raise _lost(self.thread_id, self.me, self.lost[0], self.lease)


def _keep(renewal: _Renewal, renew: Callable[[], Holder | None], stop: threading.Event) -> None:
    while not stop.wait(renewal.every):
        try:
            if renewal.found(renew()):
                return
        except Exception as e:  # the lease may still be ours: try again
            renewal.failed(e)


async def _akeep(
    renewal: _Renewal, renew: Callable[[], Awaitable[Holder | None]], stop: asyncio.Event
) -> None:
    while True:
        try:
            await asyncio.wait_for(stop.wait(), renewal.every)
            return
        except TimeoutError:
            pass
        try:
            if renewal.found(await renew()):
                return
        except Exception as e:
            renewal.failed(e)


class TurnLeases(Runners):
    """``turn`` / ``aturn``: hold a thread's lease for the span of one run."""

    def _lease(self, thread_id: str, holder: str, lease: float) -> Program[Holder | None]:
        return Replayable(lambda: acquire_turn(self._store, thread_id, holder, time.time(), lease))

    def _renew(self, thread_id: str, holder: str, lease: float) -> Program[Holder | None]:
        return Replayable(lambda: renew_turn(self._store, thread_id, holder, time.time(), lease))

    def _release(self, thread_id: str, holder: str) -> Program[Holder | None]:
        return Replayable(lambda: release_turn(self._store, thread_id, holder))

    @contextmanager
    def turn(
        self, thread_id: str, *, wait: float = 30.0, lease: float = 300.0, holder: str | None = None
    ) -> Iterator[str]:
        """Hold ``thread_id``'s turn for the body (yields the holder name).

        Args:
            wait: seconds to wait for another holder's turn to end.
            lease: seconds after which a lease whose holder died is void (renewed
                every ``lease / 3`` seconds while the body runs).
            holder: the name other runs see in their error (default: host, pid, random).

        Raises:
            ConcurrentRunError: another holder kept the turn for ``wait`` seconds.
            TurnLostError: on exit, another run took the lease while the body ran.
            SaverArgumentError: ``lease`` is not a positive number of seconds.
        """
        me, where = holder or _holder(), Where(str(thread_id))
        renewal, failed = _Renewal(thread_id, me, lease), True
        start, poll = time.monotonic(), FIRST_POLL
        while other := self._run(self._lease(thread_id, me, lease), write=True, where=where):
            waited = time.monotonic() - start
            if waited >= wait:
                raise _timeout(thread_id, other[0], waited)
            time.sleep(min(poll, wait - waited))
            poll = min(poll * 2, MAX_POLL)
        stop = threading.Event()

        def renew() -> Holder | None:
            return self._run(self._renew(thread_id, me, lease), write=True, where=where)

        keeper = threading.Thread(
            target=_keep, args=(renewal, renew, stop), name=f"turn lease {me}", daemon=True
        )
        keeper.start()
        try:
            yield me
            failed = False
        finally:
            stop.set()
            keeper.join()
            released = self._run(self._release(thread_id, me), write=True, where=where)
            renewal.leave(released, failed)

    @asynccontextmanager
    async def aturn(
        self, thread_id: str, *, wait: float = 30.0, lease: float = 300.0, holder: str | None = None
    ) -> AsyncIterator[str]:
        """Async ``turn``."""
        me, where = holder or _holder(), Where(str(thread_id))
        renewal, failed = _Renewal(thread_id, me, lease), True
        start, poll = time.monotonic(), FIRST_POLL
        while other := await self._arun(self._lease(thread_id, me, lease), write=True, where=where):
            waited = time.monotonic() - start
            if waited >= wait:
                raise _timeout(thread_id, other[0], waited)
            await asyncio.sleep(min(poll, wait - waited))
            poll = min(poll * 2, MAX_POLL)
        stop = asyncio.Event()

        async def renew() -> Holder | None:
            return await self._arun(self._renew(thread_id, me, lease), write=True, where=where)

        keeper = asyncio.create_task(_akeep(renewal, renew, stop))
        try:
            yield me
            failed = False
        finally:
            stop.set()
            await keeper
            released = await self._arun(self._release(thread_id, me), write=True, where=where)
            renewal.leave(released, failed)
