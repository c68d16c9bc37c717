"""Daemon worker threads for background candidates: an exiting process never waits on them.

``ThreadPoolExecutor`` joins its (non-daemon) workers at interpreter exit, so a script
that ends right after a turn that started a candidate would wait for the summarizer's
answer, which nothing reads any more. These workers are daemon threads: at exit a
running candidate is dropped with the process (candidates live in memory; raw history
is never at stake). ``shutdown(wait=True)`` still joins them, for an orderly close.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

__all__ = ["Workers"]

log = logging.getLogger(__name__)

Job = tuple[Callable[[], None], Callable[[], None]]
"""The work, and what to call once it is over (run, raised, or cancelled)."""


class Workers:
    """At most ``size`` daemon threads running submitted jobs in order.

    The queue never holds more than the caller lets run (``background_workers``).
    """

    def __init__(self, size: int, name: str) -> None:
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._loop, name=f"{name}_{i}", daemon=True)
            for i in range(max(1, size))
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, work: Callable[[], None], ended: Callable[[], None]) -> None:
        self._jobs.put((work, ended))

    def shutdown(self, wait: bool = True) -> None:
        """Cancel the queued jobs (their ``ended`` runs now), stop the threads after the
        running jobs; ``wait``: join them."""
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                job[1]()
        for _ in self._threads:
            self._jobs.put(None)
        if wait:
            self.join()

    def join(self) -> None:
        """Wait for the threads to end (after ``shutdown``; from a worker: the others)."""
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join()

    def _loop(self) -> None:
        while (job := self._jobs.get()) is not None:
            work, ended = job
            try:
                work()
            except Exception:  # work never raises; a bug must not kill the thread
                log.exception("background job raised")
            finally:
                ended()
