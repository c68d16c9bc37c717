"""The public saver methods, written once over two runners: ``_run`` and ``_arun``.

``CompactSqliteSaver`` runs programs on ``sqlite3`` (and its async methods in a worker
thread); ``AsyncCompactSqliteSaver`` runs them on ``aiosqlite`` (and its sync methods by
handing the coroutine to its event loop). Every method here is one line of dispatch.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Collection, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, Self, TypeVar

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from langgraph_compact.checkpoint import _admin
from langgraph_compact.checkpoint._core import Program, next_version
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.checkpoint.history import (
    HistoryPage,
    SummaryGeneration,
    history_program,
    message_program,
    summaries_program,
)
from langgraph_compact.checkpoint.redact import RedactionResult, redact_program

__all__ = ["CompactSaverBase"]

T = TypeVar("T")


def _history_args(args: dict[str, Any]) -> dict[str, Any]:
    """The ``history`` keyword arguments out of a ``locals()`` snapshot."""
    return {k: v for k, v in args.items() if k not in ("self", "thread_id")}


class CompactSaverBase(BaseCheckpointSaver[str]):
    """Shared surface of the compact savers; subclasses supply ``_run`` and ``_arun``.

    Args:
        serde: serializer for channel values, writes and message skeletons
            (``JsonPlusSerializer`` by default; ``EncryptedSerializer`` works).
        index_text: keep message text in clear for FTS5 search and the history
            filters. Defaults to ``True`` with a plain ``JsonPlusSerializer`` and to
            ``False`` with any other serializer, so an encrypting one stays encrypting.
    """

    def __init__(
        self, *, serde: SerializerProtocol | None = None, index_text: bool | None = None
    ) -> None:
        super().__init__(serde=serde)
        if index_text is None:
            index_text = serde is None or type(serde) is JsonPlusSerializer
        self._store = CheckpointStore(self.serde, index_text=index_text)

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

    def _run(self, program: Program[T], *, write: bool = False) -> T:
        raise NotImplementedError

    async def _arun(self, program: Program[T], *, write: bool = False) -> T:
        raise NotImplementedError

    def _after_redaction(self) -> None:
        raise NotImplementedError

    async def _aafter_redaction(self) -> None:
        raise NotImplementedError

    def get_next_version(self, current: str | None, channel: None) -> str:
        """A short, fork-safe, string-ordered version (see ``_core.next_version``)."""
        return next_version(current)

    # --- BaseCheckpointSaver ---------------------------------------------------------

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint in ``config`` (or the thread's latest), with pending writes."""
        return self._run(self._store.get_tuple(config))

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """Async ``get_tuple``."""
        return await self._arun(self._store.get_tuple(config))

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first, filtered by thread, namespace, metadata and ``before``."""
        program = self._store.list(config, filter=filter, before=before, limit=limit)
        yield from self._run(program)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        """Async ``list``."""
        program = self._store.list(config, filter=filter, before=before, limit=limit)
        for item in await self._arun(program):
            yield item

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store a checkpoint; only ``new_versions`` get blobs, messages are stored once."""
        program = self._store.put(config, checkpoint, metadata, new_versions)
        return self._run(program, write=True)

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Async ``put``."""
        program = self._store.put(config, checkpoint, metadata, new_versions)
        return await self._arun(program, write=True)

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Store a task's pending writes for the checkpoint in ``config``."""
        self._run(self._store.put_writes(config, writes, task_id, task_path), write=True)

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Async ``put_writes``."""
        program = self._store.put_writes(config, writes, task_id, task_path)
        await self._arun(program, write=True)

    def delete_thread(self, thread_id: str) -> None:
        """Delete a thread: checkpoints, blobs, writes, messages and their index."""
        self._run(_admin.delete_thread(self._store, str(thread_id)), write=True)

    async def adelete_thread(self, thread_id: str) -> None:
        """Async ``delete_thread``."""
        await self._arun(_admin.delete_thread(self._store, str(thread_id)), write=True)

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Delete the checkpoints and writes created by ``run_ids``; messages stay."""
        self._run(_admin.delete_for_runs(self._store, list(run_ids)), write=True)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Async ``delete_for_runs``."""
        await self._arun(_admin.delete_for_runs(self._store, list(run_ids)), write=True)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy every checkpoint, write and message of a thread to a new thread id."""
        program = _admin.copy_thread(self._store, str(source_thread_id), str(target_thread_id))
        self._run(program, write=True)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Async ``copy_thread``."""
        program = _admin.copy_thread(self._store, str(source_thread_id), str(target_thread_id))
        await self._arun(program, write=True)

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """``keep_latest`` keeps each namespace's newest checkpoint (messages stay);
        ``delete`` removes the threads."""
        self._run(_admin.prune(self._store, list(thread_ids), strategy), write=True)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """Async ``prune``."""
        await self._arun(_admin.prune(self._store, list(thread_ids), strategy), write=True)

    # --- history, recall, redaction --------------------------------------------------

    def history(
        self,
        thread_id: str,
        *,
        start: int = 0,
        end: int | None = None,
        role: str | None = None,
        tool_name: str | None = None,
        text: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        checkpoint_id: str | None = None,
        checkpoint_ns: str = "",
        channel: str = "messages",
    ) -> HistoryPage:
        """Page a thread's raw messages; filters narrow a page but never renumber it.

        Args:
            thread_id: the thread to read; nothing else is ever visible.
            start: first index of the message list to consider.
            end: index after the last one to consider (``None``: the end).
            role: ``human``/``ai``/``tool``/``system`` (``user``/``assistant`` accepted).
            tool_name: tool messages of that tool and AI messages that call it.
            text: words that must all occur (FTS5; operators and quotes are inert).
            limit: page size.
            cursor: ``HistoryPage.cursor`` of the previous page (same filters).
            checkpoint_id: read that checkpoint's list instead of the latest.
            checkpoint_ns: the namespace (``""``: the root graph).
            channel: the state key holding the messages.

        Returns:
            A ``HistoryPage`` with ``items``, ``has_more``, ``cursor`` and ``total``.

        Raises:
            ValueError: a cursor from another thread or other filters.
            CompactError: a text filter when the saver does not index text.
        """
        return self._run(history_program(self._store, str(thread_id), **_history_args(locals())))

    async def ahistory(
        self,
        thread_id: str,
        *,
        start: int = 0,
        end: int | None = None,
        role: str | None = None,
        tool_name: str | None = None,
        text: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        checkpoint_id: str | None = None,
        checkpoint_ns: str = "",
        channel: str = "messages",
    ) -> HistoryPage:
        """Async ``history``."""
        args = _history_args(locals())
        return await self._arun(history_program(self._store, str(thread_id), **args))

    def get_message(
        self,
        thread_id: str,
        message_id: str,
        *,
        checkpoint_id: str | None = None,
        checkpoint_ns: str = "",
        channel: str = "messages",
    ) -> BaseMessage | None:
        """One message of one thread by id (what a ``ref=`` marker points to).

        The version in the message list of ``checkpoint_id`` (default: the thread's
        latest checkpoint) is returned; an id not in that list gives its newest version.
        """
        args: dict[str, Any] = {
            "checkpoint_id": checkpoint_id,
            "checkpoint_ns": checkpoint_ns,
            "channel": channel,
        }
        return self._run(message_program(self._store, str(thread_id), str(message_id), **args))

    async def aget_message(
        self,
        thread_id: str,
        message_id: str,
        *,
        checkpoint_id: str | None = None,
        checkpoint_ns: str = "",
        channel: str = "messages",
    ) -> BaseMessage | None:
        """Async ``get_message``."""
        args: dict[str, Any] = {
            "checkpoint_id": checkpoint_id,
            "checkpoint_ns": checkpoint_ns,
            "channel": channel,
        }
        program = message_program(self._store, str(thread_id), str(message_id), **args)
        return await self._arun(program)

    def summaries(self, thread_id: str, **kwargs: Any) -> builtins.list[SummaryGeneration]:
        """The thread's summary generations (coverage, size, summarizer), oldest first."""
        return self._run(summaries_program(self._store, str(thread_id), **kwargs))

    async def asummaries(self, thread_id: str, **kwargs: Any) -> builtins.list[SummaryGeneration]:
        """Async ``summaries``."""
        return await self._arun(summaries_program(self._store, str(thread_id), **kwargs))

    def redact(
        self, thread_id: str, message_ids: Sequence[str], reason: str, *, actor: str = "unknown"
    ) -> RedactionResult:
        """Tombstone messages everywhere they are stored, log it, and vacuum the file.

        Every stored version of each id in ``message_ids`` gets the content
        ``[redacted: <reason>]`` (messages with the same text but another id keep it),
        including copies inside other channel values and pending writes. Stored
        ``RunningSummary`` values drop the items drawn from those messages (and items of
        unknown lineage), have the redacted words of 6+ characters replaced in what
        remains, and are marked stale so the compaction node rebuilds them. Other user
        values (notes, strings, your own models) are left untouched: if they may quote
        the message, rewrite them yourself with ``update_state``. Other savers on the
        same file see the redaction on their next call.

        Returns:
            A ``RedactionResult``; ``message_ids`` lists the ids actually changed, as
            does the ``lgc_redactions`` log.
        """
        now = datetime.now(UTC).isoformat()
        program = redact_program(self._store, str(thread_id), message_ids, reason, actor, now)
        result = self._run(program, write=True)
        self._after_redaction()
        return result

    async def aredact(
        self, thread_id: str, message_ids: Sequence[str], reason: str, *, actor: str = "unknown"
    ) -> RedactionResult:
        """Async ``redact``."""
        now = datetime.now(UTC).isoformat()
        program = redact_program(self._store, str(thread_id), message_ids, reason, actor, now)
        result = await self._arun(program, write=True)
        await self._aafter_redaction()
        return result
