"""Retried transactions: a program the server rolled back is run again, with bounded backoff.

Postgres ends a transaction it cannot serialize (SQLSTATE ``40001``) or that is the
victim of a deadlock (``40P01``) with an error and a full rollback: nothing of it was
stored, so running the same program again from its first statement is safe. A program
can only start over if the saver was handed how to start it (``Replayable``); the
savers wrap every write and read they run. A read whose connection broke (the pool
hands out another) is retried too; a write is not, since its ``COMMIT`` may have landed.
A pool's own errors (``PoolTimeout``: every connection is busy; ``PoolClosed``;
``TooManyRequests``) are ``OperationalError``s without a SQLSTATE too, but say nothing of
the server: they are raised at once, as they are (a retry would wait out the pool's
timeout again, up to ``attempts`` times).

Every retry is logged (``WARNING``, naming the thread, the SQLSTATE and the attempt);
after ``RetryPolicy.attempts`` the last error is raised inside a ``TransactionRetryError``.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import TypeVar

import psycopg
from psycopg import errors
from psycopg_pool import PoolClosed, PoolTimeout, TooManyRequests

from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._sql import Program, Replayable
from langgraph_compact.errors import TransactionRetryError

__all__ = ["RETRYABLE", "RetryPolicy", "lost_connection", "retry_delay"]

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRYABLE = (errors.SerializationFailure, errors.DeadlockDetected)
"""Errors after which the server has rolled the whole transaction back."""

LOST_CONNECTION = ("08", "57P01", "57P02", "57P03")
"""SQLSTATE prefixes of a connection that broke or a server that is restarting."""

POOL_ERRORS = (PoolTimeout, PoolClosed, TooManyRequests)
"""The pool's refusals: no connection was handed out, so none was lost."""


def lost_connection(error: BaseException) -> bool:
    """Whether ``error`` says the connection is gone (not what a statement did).

    >>> lost_connection(psycopg.OperationalError("server closed the connection"))
    True
    >>> lost_connection(errors.QueryCanceled("canceling statement due to statement timeout"))
    False
    >>> lost_connection(PoolTimeout("couldn't get a connection after 30.00 sec"))
    False
    """
    if not isinstance(error, psycopg.OperationalError) or isinstance(error, POOL_ERRORS):
        return False
    state = getattr(error, "sqlstate", None)
    return state is None or state.startswith(LOST_CONNECTION)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a rolled-back transaction is run again.

    Attributes:
        attempts: runs in total (``1``: never retry).
        base_delay: seconds before the first retry; doubled each time ("full
            jitter": the wait is uniform in ``[0, min(max_delay, base * 2**n)]``,
            so colliding writers spread out).
        max_delay: the cap of one wait.
    """

    attempts: int = 6
    base_delay: float = 0.01
    max_delay: float = 0.5


def retry_delay(
    policy: RetryPolicy,
    program: Program[T],
    error: BaseException,
    attempt: int,
    *,
    write: bool,
    where: Where | None,
) -> float:
    """Seconds to wait before running ``program.again()``; raise if it must not run again.

    Raises:
        error: itself, when it is not transient or the program cannot start over.
        TransactionRetryError: ``policy.attempts`` runs all failed.
    """
    rolled_back = isinstance(error, RETRYABLE)
    if not (rolled_back or (not write and lost_connection(error))):
        raise error
    if not isinstance(program, Replayable):
        raise error
    thread = where.thread_id if where is not None and where.thread_id else "(whole store)"
    state = getattr(error, "sqlstate", None) or "none, the connection was lost"
    if attempt >= policy.attempts:
        why = (
            "other transactions keep colliding with it: retry later, or raise RetryPolicy.attempts"
            if rolled_back
            else "the server cannot be reached: check it, and the connection or pool"
        )
        raise TransactionRetryError(
            f"thread {thread!r}: the transaction failed {attempt} times in a row "
            f"(SQLSTATE {state}: {str(error).strip()}); nothing of it was stored; {why}",
            thread_id=thread,
            sqlstate=state,
            attempts=attempt,
        ) from error
    delay = random.uniform(0.0, min(policy.max_delay, policy.base_delay * 2 ** (attempt - 1)))
    log.warning(
        "thread %r: transaction failed (SQLSTATE %s), attempt %d of %d; "
        "running it again in %.0f ms",
        thread,
        state,
        attempt,
        policy.attempts,
        delay * 1e3,
    )
    return delay
