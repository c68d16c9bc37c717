"""Forgetting: a redaction in the saver removes the memories derived from what it redacted.

Every flushed memory records the raw message ids it came from (``MemoryFlush``); these
functions delete the memories whose sources include redacted messages, for every user
under a namespace prefix (a redaction names messages, not users).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, cast

from langgraph.store.base import BaseStore, Item

__all__ = ["aforget", "forget", "forget_on_redact", "redact_with_memory"]

_SCAN = 200
"""Items read per page of the store."""


def _derived(items: Iterable[Item], ids: Collection[str]) -> list[Item]:
    return [i for i in items if ids and set(i.value.get("sources") or ()) & set(ids)]


def forget(
    store: BaseStore,
    message_ids: Collection[str],
    *,
    namespace_prefix: tuple[str, ...] = ("memories",),
) -> int:
    """Delete every memory derived from ``message_ids`` under the prefix; the number deleted.
    Reads the prefix page by page (every user: a redaction names messages, not users).
    """
    doomed: list[Item] = []
    offset = 0
    while page := store.search(namespace_prefix, limit=_SCAN, offset=offset):
        doomed += _derived(page, message_ids)
        offset += len(page)
    for item in doomed:
        store.delete(item.namespace, item.key)
    return len(doomed)


async def aforget(
    store: BaseStore,
    message_ids: Collection[str],
    *,
    namespace_prefix: tuple[str, ...] = ("memories",),
) -> int:
    """Async ``forget``."""
    doomed: list[Item] = []
    offset = 0
    while page := await store.asearch(namespace_prefix, limit=_SCAN, offset=offset):
        doomed += _derived(page, message_ids)
        offset += len(page)
    for item in doomed:
        await store.adelete(item.namespace, item.key)
    return len(doomed)


def redact_with_memory(
    saver: Any,
    store: BaseStore,
    thread_id: str,
    message_ids: Sequence[str],
    reason: str,
    *,
    actor: str = "unknown",
    namespace_prefix: tuple[str, ...] = ("memories",),
) -> tuple[Any, int]:
    """``saver.redact`` the messages, then ``forget`` what memory derived from them.

    Returns:
        The saver's ``RedactionResult`` and the number of memories deleted.
    """
    result = saver.redact(thread_id, message_ids, reason, actor=actor)
    return result, forget(store, list(message_ids), namespace_prefix=namespace_prefix)


def forget_on_redact(
    saver: Any, store: BaseStore, *, namespace_prefix: tuple[str, ...] = ("memories",)
) -> Callable[[], None]:
    """Make every ``saver.redact``/``aredact`` also ``forget`` the memories derived from
    the redacted messages; returns a function that undoes it.

    Example::

        saver = CompactSqliteSaver("agent.sqlite")
        forget_on_redact(saver, store)
        saver.redact("t1", ["msg-9"], "leaked key")  # the store loses what msg-9 gave it
    """

    def listener(result: Any) -> int:
        return forget(store, list(result.message_ids), namespace_prefix=namespace_prefix)

    return cast(Callable[[], None], saver.on_redact(listener))
