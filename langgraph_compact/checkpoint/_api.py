"""The ``BaseCheckpointSaver`` methods, written once over two runners: ``_run`` and ``_arun``.

``CompactSqliteSaver`` runs programs on ``sqlite3`` (and its async methods in a worker
thread); ``AsyncCompactSqliteSaver`` runs them on ``aiosqlite`` (and its sync methods by
handing the coroutine to its event loop). Every method here is one line of dispatch;
the history, redaction and inspection methods are in ``_features``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from functools import partial
from typing import Any, NoReturn, Self, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
)
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from langgraph_compact.checkpoint import _admin
from langgraph_compact.checkpoint._check import Where, head_behind
from langgraph_compact.checkpoint._codec import next_version
from langgraph_compact.checkpoint._features import SaverFeatures
from langgraph_compact.checkpoint._guard import LiveReads
from langgraph_compact.checkpoint._sql import SQLITE, Dialect, Program, Replayable
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.checkpoint._turns import TurnLeases
from langgraph_compact.errors import ConcurrentRunError

__all__ = ["CompactSaverBase", "LoopSaver", "ThreadedSaver"]

T = TypeVar("T")


def _lane(config: RunnableConfig) -> tuple[str, str]:
    conf = config["configurable"]
    return str(conf["thread_id"]), str(conf.get("checkpoint_ns", "") or "")


def _where(config: RunnableConfig | None) -> Where:
    conf = (config or {}).get("configurable") or {}
    return Where(str(conf.get("thread_id", "")), get_checkpoint_id(config) if config else None)


def _put_where(config: RunnableConfig, checkpoint: Checkpoint) -> Where:
    """A put's errors name the checkpoint it stores (``config`` names its parent)."""
    return Where(_lane(config)[0], str(checkpoint["id"]))


class CompactSaverBase(SaverFeatures, TurnLeases, BaseCheckpointSaver[str]):
    """Shared surface of the compact savers; subclasses supply the runners.

    Args:
        serde: serializer for channel values, writes and message skeletons
            (``JsonPlusSerializer`` by default; ``EncryptedSerializer`` works).
        index_text: keep message text in clear for FTS5 search and the history
            filters. Defaults to ``True`` with a plain ``JsonPlusSerializer`` and to
            ``False`` with any other serializer, so an encrypting one stays encrypting.
        max_cached_messages: bound of the per-process caches (see ``_cache``).
        single_writer: refuse a put that would hide another run's turn on the same
            thread with ``ConcurrentRunError`` (see ``_guard``); off by default, as
            LangGraph's savers let the last writer win.
        dialect: the SQL backend (``SQLITE``, ``POSTGRES``).
    """

    # The driver's key conflict on a checkpoint row (each saver class sets it): a put
    # appends past the head record without asking first (``_check.head_behind``).
    _stored_twice: Callable[[BaseException], bool] = staticmethod(lambda error: False)

    def __init__(
        self,
        *,
        serde: SerializerProtocol | None = None,
        index_text: bool | None = None,
        max_cached_messages: int | None = None,
        single_writer: bool = False,
        dialect: Dialect = SQLITE,
    ) -> None:
        super().__init__(serde=serde)
        self.single_writer = single_writer
        self._live = LiveReads()
        if index_text is None:
            index_text = serde is None or type(serde) is JsonPlusSerializer
        self._store = CheckpointStore(
            dialect, self.serde, index_text=index_text, max_messages=max_cached_messages
        )

    def with_allowlist(self, extra_allowlist: Collection[tuple[str, ...]]) -> Self:
        """Merge LangGraph's msgpack allowlist into this saver and return it.

        ``compile()`` calls this in strict msgpack mode with the types of the state
        schema (``RunningSummary`` included). The base class returns a shallow clone, but
        the clone would keep the old serializer inside the message store and a cache of
        its own, so a redaction through the original saver could go unseen by the graph.
        Extending this saver in place keeps one serializer and one cache.
        """
        clone = super().with_allowlist(extra_allowlist)
        if clone is not self:
            self.serde = clone.serde
            self._store.serde = clone.serde
        return self

    def get_next_version(self, current: str | None, channel: None) -> str:
        """A short, fork-safe, string-ordered version (see ``_codec.next_version``)."""
        return next_version(current)

    # --- BaseCheckpointSaver ---------------------------------------------------------

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint in ``config`` (or the thread's latest), with pending writes.

        Raises:
            CorruptionError: a stored row is damaged or missing (names where).
        """
        tup = self._run(Replayable(partial(self._store.get_tuple, config)), where=_where(config))
        return self._read(config, tup)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """Async ``get_tuple``."""
        program = Replayable(partial(self._store.get_tuple, config))
        tup = await self._arun(program, where=_where(config))
        return self._read(config, tup)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first, filtered by thread, namespace, metadata and ``before``."""
        program = Replayable(
            partial(self._store.list, config, filter=filter, before=before, limit=limit)
        )
        yield from self._run(program, where=_where(config))

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        """Async ``list``."""
        program = Replayable(
            partial(self._store.list, config, filter=filter, before=before, limit=limit)
        )
        for item in await self._arun(program, where=_where(config)):
            yield item

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store a checkpoint; only ``new_versions`` get values, messages are stored once.

        Raises:
            ConcurrentRunError: with ``single_writer``, another run wrote the thread
                since this run read it (nothing was stored).
        """
        expect, program = self._put_program(config, checkpoint, metadata, new_versions)
        try:
            out = self._run(program, write=True, where=_put_where(config, checkpoint))
        except BaseException as e:
            self._failed(config, checkpoint, expect, e)
        return self._wrote(out)

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Async ``put``."""
        expect, program = self._put_program(config, checkpoint, metadata, new_versions)
        try:
            out = await self._arun(program, write=True, where=_put_where(config, checkpoint))
        except BaseException as e:
            self._failed(config, checkpoint, expect, e)
        return self._wrote(out)

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Store a task's pending writes for the checkpoint in ``config``."""
        program = Replayable(partial(self._store.put_writes, config, writes, task_id, task_path))
        self._run(program, write=True, where=_where(config))

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Async ``put_writes``."""
        program = Replayable(partial(self._store.put_writes, config, writes, task_id, task_path))
        await self._arun(program, write=True, where=_where(config))

    def delete_thread(self, thread_id: str) -> None:
        """Delete a thread: checkpoints, values, writes, messages and their index."""
        program = Replayable(partial(_admin.delete_thread, self._store, str(thread_id)))
        self._run(program, write=True, where=Where(str(thread_id)))

    async def adelete_thread(self, thread_id: str) -> None:
        """Async ``delete_thread``."""
        program = Replayable(partial(_admin.delete_thread, self._store, str(thread_id)))
        await self._arun(program, write=True, where=Where(str(thread_id)))

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Delete the checkpoints and writes created by ``run_ids``; messages stay."""
        program = Replayable(partial(_admin.delete_for_runs, self._store, list(run_ids)))
        self._run(program, write=True)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Async ``delete_for_runs``."""
        program = Replayable(partial(_admin.delete_for_runs, self._store, list(run_ids)))
        await self._arun(program, write=True)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy every checkpoint, write and message of a thread to a new thread id."""
        program = Replayable(
            partial(_admin.copy_thread, self._store, str(source_thread_id), str(target_thread_id))
        )
        self._run(program, write=True, where=Where(str(source_thread_id)))

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Async ``copy_thread``."""
        program = Replayable(
            partial(_admin.copy_thread, self._store, str(source_thread_id), str(target_thread_id))
        )
        await self._arun(program, write=True, where=Where(str(source_thread_id)))

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """``keep_latest`` keeps each namespace's newest checkpoint (messages stay);
        ``delete`` removes the threads."""
        program = Replayable(partial(_admin.prune, self._store, list(thread_ids), strategy))
        self._run(program, write=True)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """Async ``prune``."""
        program = Replayable(partial(_admin.prune, self._store, list(thread_ids), strategy))
        await self._arun(program, write=True)

    # --- the writer guard (``_guard``) ----------------------------------------------

    # Continuations are tracked on every saver: the summary compare-and-swap (``_cas``)
    # needs them too; ``single_writer`` makes a moved head refuse every continuation.

    def _read(self, config: RunnableConfig, tup: CheckpointTuple | None) -> CheckpointTuple | None:
        thread, ns = _lane(config)
        if (asked := get_checkpoint_id(config)) is not None:
            self._live.forget(thread, ns, asked)
        else:
            self._live.add(thread, ns, tup.config["configurable"]["checkpoint_id"] if tup else None)
        return tup

    def _put_program(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> tuple[bool, Program[RunnableConfig]]:
        """Whether the put continues a live read (taken), and its program."""
        continues = self._take(config)
        put = partial(self._store.put, config, checkpoint, metadata, new_versions)
        expect = continues and self.single_writer
        return continues, Replayable(partial(put, expect_head=expect, continues=continues))

    def _take(self, config: RunnableConfig) -> bool:
        thread, ns = _lane(config)
        return self._live.take(thread, ns, get_checkpoint_id(config))

    def _wrote(self, out: RunnableConfig) -> RunnableConfig:
        thread, ns = _lane(out)
        self._live.add(thread, ns, get_checkpoint_id(out))
        return out

    def _failed(
        self, config: RunnableConfig, checkpoint: Checkpoint, expect: bool, error: BaseException
    ) -> NoReturn:  # re-raises a put's error: a checkpoint stored twice as ``head_behind``
        if expect and not isinstance(error, ConcurrentRunError):  # not checked: may retry
            thread, ns = _lane(config)
            self._live.give_back(thread, ns, get_checkpoint_id(config))
        if self._stored_twice(error):
            raise head_behind(_put_where(config, checkpoint)) from error
        raise error


class ThreadedSaver(CompactSaverBase):
    """A saver whose driver blocks (``sqlite3``, sync ``psycopg``): ``_run`` runs a program
    under the saver's lock, and the async API runs ``_run`` in the default executor."""

    async def _arun(
        self, program: Program[T], *, write: bool = False, where: Where | None = None
    ) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, partial(self._run, program, write=write, where=where)
        )


class LoopSaver(CompactSaverBase):
    """A saver whose driver is async (``aiosqlite``, async ``psycopg``), bound to the event
    loop it was made on (``self.loop``): the sync API hands ``_arun`` to that loop, which
    only works from another thread, as with LangGraph's async savers."""

    loop: asyncio.AbstractEventLoop

    def _run(self, program: Program[T], *, write: bool = False, where: Where | None = None) -> T:
        try:
            if asyncio.get_running_loop() is self.loop:
                raise asyncio.InvalidStateError(
                    f"Synchronous calls to {type(self).__name__} are only allowed from a "
                    "different thread. From the main thread, use the async interface: "
                    "`await graph.ainvoke(...)` or `await saver.aget_tuple(...)`."
                )
        except RuntimeError:
            pass
        coro = self._arun(program, write=write, where=where)
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()
