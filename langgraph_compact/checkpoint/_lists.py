"""Message-list channel values as programs: store a list as a ref row, load one back.

A put whose list starts with exactly the objects of a cached chain (LangGraph's
``add_messages`` appends and keeps the objects) looks only at the new tail: the cost
of a put is O(new messages) plus one C-speed prefix comparison. Anything else (an
edited, reordered or replaced history, a fork) stores the whole list's messages (each
still once) and links the new row to the closest base it shares a prefix with.
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.messages import BaseMessage

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._codec import key
from langgraph_compact.checkpoint._messages import MessageStore, Thread
from langgraph_compact.checkpoint._refs import (
    MAX_CHAIN,
    RefChain,
    RefLink,
    chain_from_links,
    chain_from_rows,
    materialize,
)

__all__ = [
    "ListWrite",
    "fetch_chain",
    "is_message_list",
    "load_list",
    "resolve_list",
    "store_list",
]


def is_message_list(value: object) -> bool:
    """Whether a channel value is stored as refs: a non-empty list of messages with ids."""
    return isinstance(value, list) and bool(value) and _all_messages(value)


def _all_messages(messages: list[object]) -> bool:
    return all(isinstance(m, BaseMessage) and m.id for m in messages)


@dataclass(frozen=True)
class ListWrite:
    """The ref row a put writes for a message list (``new`` is false: already stored)."""

    link: RefLink
    new: bool


def store_list(
    store: MessageStore,
    th: Thread,
    ns: str,
    channel: str,
    version: str,
    value: object,
    row: str | None = None,
) -> q.Program[ListWrite | None]:
    """Store a channel value as a ref list; ``None`` when it is not a message list.

    ``row``: a new link is folded into that checkpoint row (see ``_refs``).
    """
    if not isinstance(value, list) or not value or not isinstance(value[0], BaseMessage):
        return None
    messages: list[BaseMessage] = value
    chains = store.cache.chains(th.cache, ns, channel)
    for chain in chains:
        if chain.head.version == version:
            return ListWrite(chain.head, False)
    for chain in chains:
        if chain.extends(messages):
            tail = messages[len(chain.objects) :]
            if not _all_messages(tail):  # type: ignore[arg-type]
                return None
            store.cache.touch(th.tid)
            new = yield from store.store_messages(th, tail)
            link = chain.append(version, new, tail, row)
            store.cache.put_chain(th.cache, chain)
            return ListWrite(link, True)
    if not _all_messages(messages):  # type: ignore[arg-type]
        return None
    store.cache.touch(th.tid)
    seqs = yield from store.store_messages(th, messages)
    if chains:
        best = chains[0]
        fork = RefChain(ns, channel, list(best.links), best.seqs, best.objects, list(best.common))
        link = fork.advance(version, seqs, messages, _shared(best.seqs, seqs), row)
    else:
        fork, link = RefChain.start(ns, channel, version, seqs, messages, row)
    store.cache.put_chain(th.cache, fork)
    return ListWrite(link, True)


def _shared(a: list[int], b: list[int]) -> int:
    """Length of the common prefix of two lists."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    return next(i for i in range(n) if a[i] != b[i])


def fetch_chain(
    store: MessageStore,
    th: Thread,
    ns: str,
    channel: str,
    version: str,
    where: Where,
    row: str | None = None,
) -> q.Program[list[RefLink]]:
    """A stored chain, verified, root first: folded from checkpoint ``row``, or else the
    ``lgc_blobs`` rows from ``version``."""
    if row is not None:
        at_row = (th.tid, ns, row, th.tid, ns, MAX_CHAIN)
        rows = yield store.dialect.link_chain, at_row, "all"
        return chain_from_links(where.at(channel=channel), ns, channel, version, rows)
    params = (th.tid, ns, key(version), channel, th.tid, ns, channel, MAX_CHAIN)
    rows = yield q.SELECT_REF_CHAIN, params, "all"
    return chain_from_rows(where.at(channel=channel), ns, channel, rows)


def resolve_list(
    store: MessageStore,
    th: Thread,
    ns: str,
    channel: str,
    version: str,
    where: Where,
    row: str | None = None,
) -> q.Program[list[int]]:
    """The message numbers of a stored ref list (verified), without loading messages."""
    for chain in store.cache.chains(th.cache, ns, channel):
        if chain.head.version == version:
            return chain.seqs
    links = yield from fetch_chain(store, th, ns, channel, version, where, row)
    return materialize(links)


def load_list(
    store: MessageStore,
    th: Thread,
    ns: str,
    channel: str,
    version: str,
    where: Where,
    *,
    remember: bool,
    row: str | None = None,
) -> q.Program[list[BaseMessage]]:
    """A message-list channel value (a fresh list of the shared, verified messages).

    ``remember`` makes the loaded list a chain the next put can extend (``get_tuple``
    does; ``list`` does not, so paging through history does not evict the live chain).
    """
    for chain in store.cache.chains(th.cache, ns, channel):
        if chain.head.version == version:
            return list(chain.objects)
    links = yield from fetch_chain(store, th, ns, channel, version, where, row)
    at = where.at(channel=channel)
    messages = yield from store.load_messages(th, materialize(links), at)
    if remember:
        store.cache.put_chain(th.cache, RefChain.loaded(ns, channel, links, messages))
    return list(messages)
