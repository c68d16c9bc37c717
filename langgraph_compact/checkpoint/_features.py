"""The savers' own methods beyond ``BaseCheckpointSaver``: history, redaction, inspection.

Each is one line of dispatch to a program, for ``_run`` (sync) and ``_arun`` (async).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from langchain_core.messages import BaseMessage

from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._runners import Runners
from langgraph_compact.checkpoint._sql import Replayable
from langgraph_compact.checkpoint.history import (
    HistoryPage,
    SummaryGeneration,
    history_program,
    message_program,
    summaries_program,
)
from langgraph_compact.checkpoint.redact import RedactionResult, redact_program
from langgraph_compact.checkpoint.threads import (
    RedactionRecord,
    ThreadInfo,
    redactions_program,
    threads_program,
)
from langgraph_compact.checkpoint.verify import VerifyReport, unreadable, verify_program
from langgraph_compact.errors import CorruptionError

__all__ = ["RedactionListener", "SaverFeatures"]


class RedactionListener(Protocol):
    """Called with the result after each redaction through a saver; may be async."""

    def __call__(self, result: RedactionResult, /) -> object: ...


class SaverFeatures(Runners):
    """History, recall support, redaction and inspection, over the saver's runners."""

    def _wal_remaining(self) -> int:
        """Checkpoint and empty the write-ahead log; the bytes it still holds."""
        raise NotImplementedError

    async def _awal_remaining(self) -> int:
        raise NotImplementedError

    # --- history -----------------------------------------------------------------------

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
            text: words that must all occur (operators and quotes are inert; see
                ``_fts`` for how hashes and base64 words are found).
            limit: page size.
            cursor: ``HistoryPage.cursor`` of the previous page (same filters).
            checkpoint_id: read that checkpoint's list instead of the latest.
            checkpoint_ns: the namespace (``""``: the root graph).
            channel: the state key holding the messages.

        Returns:
            A ``HistoryPage`` with ``items``, ``has_more``, ``cursor`` and ``total``.

        Raises:
            HistoryCursorError: a cursor from another thread or other filters.
            SaverArgumentError: a ``limit`` below 1.
            CompactError: a text filter when the saver does not index text.
            CorruptionError: a stored row is damaged or missing.
        """
        args = {k: v for k, v in locals().items() if k not in ("self", "thread_id")}
        program = history_program(self._store, str(thread_id), **args)
        return self._run(program, where=Where(str(thread_id), checkpoint_id))

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
        args = {k: v for k, v in locals().items() if k not in ("self", "thread_id")}
        program = history_program(self._store, str(thread_id), **args)
        return await self._arun(program, where=Where(str(thread_id), checkpoint_id))

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
        latest checkpoint) is returned; an id not in that list gives its newest
        version; an id the thread never stored gives ``None``.
        """
        program = message_program(
            self._store, str(thread_id), str(message_id),
            checkpoint_id=checkpoint_id, checkpoint_ns=checkpoint_ns, channel=channel,
        )  # fmt: skip
        return self._run(program, where=Where(str(thread_id), checkpoint_id))

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
        program = message_program(
            self._store, str(thread_id), str(message_id),
            checkpoint_id=checkpoint_id, checkpoint_ns=checkpoint_ns, channel=channel,
        )  # fmt: skip
        return await self._arun(program, where=Where(str(thread_id), checkpoint_id))

    def summaries(self, thread_id: str, **kwargs: Any) -> list[SummaryGeneration]:
        """The thread's summary generations (coverage, size, summarizer), oldest first."""
        program = summaries_program(self._store, str(thread_id), **kwargs)
        return self._run(program, where=Where(str(thread_id)))

    async def asummaries(self, thread_id: str, **kwargs: Any) -> list[SummaryGeneration]:
        """Async ``summaries``."""
        program = summaries_program(self._store, str(thread_id), **kwargs)
        return await self._arun(program, where=Where(str(thread_id)))

    # --- redaction ---------------------------------------------------------------------

    def redact(
        self, thread_id: str, message_ids: Sequence[str], reason: str, *, actor: str = "unknown"
    ) -> RedactionResult:
        """Tombstone messages everywhere they are stored, log it, and empty the WAL.

        Every stored version of each id in ``message_ids`` gets the content
        ``[redacted: <reason>]`` and loses its tool-call arguments, ``additional_kwargs``,
        ``response_metadata`` and artifact (ids and tool names stay, so the thread stays
        a valid tool protocol); copies inside other channel values and pending writes
        too. Stored ``RunningSummary`` values drop the items drawn from those messages
        (and items of unknown lineage), have the redacted words of 6+ characters
        replaced, and are marked stale so the compaction node rebuilds them. Other user
        values are left untouched. Other savers on the same file see the redaction on
        their next call.

        Returns:
            A ``RedactionResult``: ``message_ids`` lists the ids changed (as does the
            ``lgc_redactions`` log); ``complete`` is false, with ``remaining_bytes``
            and a logged warning, when another connection's read transaction kept old
            pages in the write-ahead log (end it, then call ``finish_redaction()``) or
            when ``also_in_threads`` names threads holding copies.
        """
        now = datetime.now(UTC).isoformat()
        program = Replayable(
            partial(redact_program, self._store, str(thread_id), message_ids, reason, actor, now)
        )
        result = self._run(program, write=True, where=Where(str(thread_id)))
        result = result.finished(self._wal_remaining())
        for listener in self._redaction_listeners():
            outcome = listener(result)
            if inspect.isawaitable(outcome):
                raise TypeError(
                    f"redaction listener {listener!r} is async; redact through aredact()"
                )
        return result

    async def aredact(
        self, thread_id: str, message_ids: Sequence[str], reason: str, *, actor: str = "unknown"
    ) -> RedactionResult:
        """Async ``redact``."""
        now = datetime.now(UTC).isoformat()
        program = Replayable(
            partial(redact_program, self._store, str(thread_id), message_ids, reason, actor, now)
        )
        result = await self._arun(program, write=True, where=Where(str(thread_id)))
        result = result.finished(await self._awal_remaining())
        for listener in self._redaction_listeners():
            outcome = listener(result)
            if inspect.isawaitable(outcome):
                await outcome
        return result

    def on_redact(self, listener: RedactionListener) -> Callable[[], None]:
        """Call ``listener(result)`` after every redaction through this saver.

        For what derives from messages outside the saver — memories flushed to a store,
        an index of your own — so that redacting a message removes it there too (see
        ``langgraph_compact.memory.forget_on_redact``). A listener runs after the
        redaction committed; an exception it raises reaches the ``redact`` caller.

        Returns:
            A function that removes the listener.
        """
        listeners = self._redaction_listeners()
        listeners.append(listener)
        return lambda: listeners.remove(listener) if listener in listeners else None

    def _redaction_listeners(self) -> list[RedactionListener]:
        listeners: list[RedactionListener] | None = self.__dict__.get("_on_redact")
        if listeners is None:
            listeners = self.__dict__["_on_redact"] = []
        return listeners

    def finish_redaction(self) -> int:
        """Retry emptying the write-ahead log; the bytes it still holds (0: done)."""
        return self._wal_remaining()

    async def afinish_redaction(self) -> int:
        """Async ``finish_redaction``."""
        return await self._awal_remaining()

    def redactions(self, thread_id: str | None = None) -> list[RedactionRecord]:
        """The redaction log of a thread (or of every thread), oldest first."""
        return self._run(redactions_program(thread_id))

    async def aredactions(self, thread_id: str | None = None) -> list[RedactionRecord]:
        """Async ``redactions``."""
        return await self._arun(redactions_program(thread_id))

    # --- inspection --------------------------------------------------------------------

    def threads(self) -> list[ThreadInfo]:
        """Every thread holding checkpoints or messages: counts, bytes, newest checkpoint."""
        return self._run(threads_program(self._store))

    async def athreads(self) -> list[ThreadInfo]:
        """Async ``threads``."""
        return await self._arun(threads_program(self._store))

    def verify(self, thread_id: str | None = None) -> VerifyReport:
        """Check a thread, or the whole database, row by row (the fsck of this store).

        Every checkpoint's parent exists, every value and ref it names resolves, every
        row matches its stored check and decodes; for the whole file also the
        backend's structural check and the full-text index. Reads in one snapshot.

        Returns:
            A ``VerifyReport``: ``ok``, the ``problems`` found (each naming thread,
            checkpoint, channel or message and what is wrong) and what was checked.
        """
        where = Where(str(thread_id) if thread_id else "")
        try:
            return self._run(verify_program(self._store, thread_id), where=where)
        except CorruptionError as e:  # the file could not even be opened or read
            return unreadable(e)

    async def averify(self, thread_id: str | None = None) -> VerifyReport:
        """Async ``verify``."""
        where = Where(str(thread_id) if thread_id else "")
        try:
            return await self._arun(verify_program(self._store, thread_id), where=where)
        except CorruptionError as e:
            return unreadable(e)
