"""The package's exceptions: one base class, one subclass per failure a caller can act on."""

from __future__ import annotations

from typing import Any

__all__ = [
    "CompactError",
    "ConcurrentRunError",
    "ContextBudgetError",
    "CorruptionError",
    "HistoryCursorError",
    "InputFormatError",
    "MemoryNamespaceError",
    "MessageError",
    "ProtocolError",
    "RotationError",
    "SaverArgumentError",
    "SchemaVersionError",
    "SettingsError",
    "SummaryConflictError",
    "SummaryError",
    "TaskUpdateError",
    "TransactionRetryError",
    "TurnLostError",
]


class CompactError(Exception):
    """Base class for every error raised by langgraph_compact."""


class MessageError(CompactError, ValueError):
    """A message cannot be processed as given (missing id, unsupported content)."""


class SettingsError(CompactError, ValueError):
    """A setting or argument is invalid (unknown encoding, misaligned inputs, bad option)."""


class ProtocolError(CompactError):
    """A projection breaks the tool-call protocol that chat providers enforce."""


class ContextBudgetError(CompactError):
    """The projection cannot be brought under the token budget."""


class SummaryError(CompactError):
    """A summarizer failed or returned something that cannot be used."""


class InputFormatError(CompactError, ValueError):
    """A trajectory or log file cannot be read as messages (malformed line, unknown format)."""


class SchemaVersionError(CompactError):
    """A database was written by a newer, unknown schema version."""


class CorruptionError(CompactError):
    """Stored checkpoint data is damaged or missing: a row failed its check or did not decode.

    Attributes name where: ``thread_id``, ``checkpoint_id``, ``channel``, ``message_id``
    (each ``None`` when it does not apply) and ``what`` failed.
    """

    def __init__(
        self,
        message: str,
        *,
        thread_id: str | None = None,
        checkpoint_id: str | None = None,
        channel: str | None = None,
        message_id: str | None = None,
        what: str = "",
    ) -> None:
        super().__init__(message)
        self.thread_id = thread_id
        self.checkpoint_id = checkpoint_id
        self.channel = channel
        self.message_id = message_id
        self.what = what


class ConcurrentRunError(CompactError):
    """Another run wrote the thread after this run read it (``single_writer=True``).

    Nothing of this run's checkpoint was stored. Attributes: ``thread_id``,
    ``checkpoint_ns``, ``read_checkpoint_id`` (what this run continued from, ``None``
    for an empty thread), ``other_checkpoint_id`` (the thread's newest checkpoint now)
    and ``other_run_id`` (the run that wrote it, when LangGraph recorded one).
    """

    def __init__(
        self,
        message: str,
        *,
        thread_id: str,
        checkpoint_ns: str,
        read_checkpoint_id: str | None,
        other_checkpoint_id: str,
        other_run_id: str | None,
    ) -> None:
        super().__init__(message)
        self.thread_id = thread_id
        self.checkpoint_ns = checkpoint_ns
        self.read_checkpoint_id = read_checkpoint_id
        self.other_checkpoint_id = other_checkpoint_id
        self.other_run_id = other_run_id


class TurnLostError(ConcurrentRunError):
    """A run's turn lease ran out before it was renewed and another run took it.

    Raised when the turn is left (``saver.turn`` / ``aturn``): the two runs may have
    written the thread at the same time. ``other_run_id`` names the holder found.
    """


class TransactionRetryError(CompactError):
    """A Postgres transaction was rolled back (serialization failure, deadlock) on every try.

    Nothing of it was stored. The server's error is the ``__cause__``. Attributes:
    ``thread_id``, ``sqlstate`` and ``attempts``.
    """

    def __init__(self, message: str, *, thread_id: str, sqlstate: str, attempts: int) -> None:
        super().__init__(message)
        self.thread_id = thread_id
        self.sqlstate = sqlstate
        self.attempts = attempts


class SummaryConflictError(ConcurrentRunError):
    """A put would replace a newer summary with a stale one (summary compare-and-swap).

    Raised on every saver, ``single_writer`` or not, when another run committed a
    summary generation after this run read the thread (see ``checkpoint._cas``); nothing
    of this run's checkpoint was stored. Adds ``channel``, ``stored_generation`` and
    ``candidate_generation`` to the ``ConcurrentRunError`` attributes.
    """

    def __init__(
        self,
        message: str,
        *,
        channel: str,
        stored_generation: int,
        candidate_generation: int,
        **run: Any,
    ) -> None:
        super().__init__(message, **run)
        self.channel = channel
        self.stored_generation = stored_generation
        self.candidate_generation = candidate_generation


class HistoryCursorError(CompactError, ValueError):
    """A history cursor is malformed or belongs to another thread or other filters."""


class SaverArgumentError(CompactError, ValueError):
    """A saver method got an argument it cannot use (an unknown prune strategy, a bad limit)."""


class TaskUpdateError(CompactError, ValueError):
    """A task list or task update has a malformed entry or an unknown status."""


class RotationError(CompactError):
    """A thread cannot be rotated (no such thread, no messages, child already exists)."""


class MemoryNamespaceError(CompactError, ValueError):
    """A long-term memory namespace cannot be built from the run's config."""
