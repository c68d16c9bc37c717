"""The per-process caches of one saver: what makes a put cost O(new messages).

Everything cached belongs to a thread (``tid``) and is dropped with it: when another
saver changed the thread (its ``epoch`` moved), after a failed transaction, or when
the thread is the least recently used one and the cache is over its bound.

Bound (all O(messages), never O(messages × versions)):

- decoded messages and message-object lookups: ``max_messages`` entries in total
  (100,000 by default), least recently used threads dropped first;
- per thread, one ``RefChain`` for each of the last ``CHAINS_PER_CHANNEL`` lists of a
  channel (the numbers and objects of that list, O(its length)) and the last
  ``RECORDS_PER_THREAD`` decoded checkpoint rows (a few hundred bytes each);
- at most ``MAX_THREADS`` threads.

Messages returned by the saver are shared objects: treat them as immutable, as
LangGraph's ``add_messages`` does.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage

from langgraph_compact.checkpoint._payload import StoredCheckpoint
from langgraph_compact.checkpoint._refs import RefChain

__all__ = ["DEFAULT_MAX_MESSAGES", "StoreCache", "ThreadCache"]

DEFAULT_MAX_MESSAGES = 100_000
MAX_THREADS = 1024
CHAINS_PER_CHANNEL = 4
RECORDS_PER_THREAD = 64

LaneKey = tuple[str, str]
"""``(checkpoint_ns, channel)``."""


@dataclass
class ThreadCache:
    """The cached state of one thread, valid while its epoch is ``epoch``."""

    epoch: int
    messages: OrderedDict[int, BaseMessage] = field(default_factory=OrderedDict)
    by_object: OrderedDict[int, tuple[BaseMessage, object, str | None, int]] = field(
        default_factory=OrderedDict
    )
    by_key: OrderedDict[tuple[str, bytes], int] = field(default_factory=OrderedDict)
    chains: dict[LaneKey, list[RefChain]] = field(default_factory=dict)
    records: OrderedDict[bytes, tuple[str, StoredCheckpoint, int]] = field(
        default_factory=OrderedDict
    )
    """Decoded checkpoint rows by their check: ``(checkpoint id, record, depth)``."""

    def size(self) -> int:
        return len(self.messages) + len(self.by_object)


MAX_EARLY = 1024
"""Checkpoints with writes stored before them that a store remembers (``early``)."""


class StoreCache:
    """The caches of one store, with the operations the storage programs need."""

    def __init__(self, max_messages: int = DEFAULT_MAX_MESSAGES) -> None:
        self.max_messages = max_messages
        self._threads: OrderedDict[int, ThreadCache] = OrderedDict()
        self._size = 0
        self._touched: set[int] = set()
        self._early: OrderedDict[tuple[int, str, str], None] = OrderedDict()

    # --- threads -------------------------------------------------------------------------

    def thread(self, tid: int, epoch: int) -> ThreadCache:
        """The thread's cache, emptied first if the thread changed since (other epoch)."""
        tc = self._threads.get(tid)
        if tc is None or tc.epoch != epoch:
            self.forget(tid)
            tc = self._threads[tid] = ThreadCache(epoch)
            while len(self._threads) > MAX_THREADS:
                self.forget(next(iter(self._threads)))
        self._threads.move_to_end(tid)
        return tc

    def forget(self, tid: int) -> None:
        """Drop everything cached for a thread."""
        tc = self._threads.pop(tid, None)
        if tc is not None:
            self._size -= tc.size()

    def early(self, tid: int, ns: str, cid: str) -> None:
        """Note writes stored (as rows) before their checkpoint: its put moves them in."""
        self._early[(tid, ns, cid)] = None
        while len(self._early) > MAX_EARLY:
            self._early.popitem(last=False)

    def take_early(self, tid: int, ns: str, cid: str) -> bool:
        """Whether this store wrote writes of checkpoint ``cid`` before it (asked once;
        rows another process wrote first stay rows, read as such)."""
        return self._early.pop((tid, ns, cid), 0) is None

    def touch(self, tid: int) -> None:
        """Record that the running transaction writes to ``tid`` (see ``transaction``)."""
        self._touched.add(tid)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Wrap one program run: if it fails (the runner rolled back), forget what it cached.

        Programs fill the caches before ``COMMIT``; a cached number or chain from a
        rolled-back transaction would point at rows that were never stored. The savers
        run one program at a time per store (under their lock).
        """
        self._touched.clear()
        try:
            yield
        except BaseException:
            for tid in list(self._touched):
                self.forget(tid)
            raise
        finally:
            self._touched.clear()

    # --- messages ------------------------------------------------------------------------

    def message(self, tc: ThreadCache, seq: int) -> BaseMessage | None:
        return tc.messages.get(seq)

    def put_message(self, tc: ThreadCache, seq: int, message: BaseMessage) -> None:
        if seq not in tc.messages:
            self._size += 1
        tc.messages[seq] = message
        self._trim(tc)

    def seq_of(self, tc: ThreadCache, message: BaseMessage, message_id: str | None) -> int | None:
        """The number of this very object, if it was stored or loaded with this content."""
        hit = tc.by_object.get(id(message))
        if hit is not None and hit[0] is message and hit[1] is message.content:
            return hit[3] if hit[2] == message_id else None
        return None

    def seq_for_key(self, tc: ThreadCache, key: tuple[str, bytes]) -> int | None:
        return tc.by_key.get(key)

    def put_seq(
        self,
        tc: ThreadCache,
        key: tuple[str, bytes],
        seq: int,
        message: BaseMessage,
        message_id: str | None,
    ) -> None:
        """Remember a message's number by its key and by its object (kept alive)."""
        tc.by_key[key] = seq
        if id(message) not in tc.by_object:
            self._size += 1
        tc.by_object[id(message)] = (message, message.content, message_id, seq)
        if len(tc.by_key) > 2 * self.max_messages:
            tc.by_key.popitem(last=False)
        self._trim(tc)

    def _trim(self, tc: ThreadCache) -> None:
        """Drop least recently used threads, then ``tc``'s oldest entries, to the bound."""
        while self._size > self.max_messages:
            oldest_tid, oldest = next(iter(self._threads.items()))
            if oldest is not tc:
                self.forget(oldest_tid)
                continue
            for od in (tc.by_object, tc.messages):
                if od:
                    od.popitem(last=False)
                    self._size -= 1
                    break
            else:
                return

    # --- ref lists -----------------------------------------------------------------------

    def chains(self, tc: ThreadCache, ns: str, channel: str) -> list[RefChain]:
        """The channel's recent chains, most recent first."""
        return tc.chains.get((ns, channel), [])

    def put_chain(self, tc: ThreadCache, chain: RefChain) -> None:
        """Make ``chain`` the channel's most recent one (others with its head dropped)."""
        key = (chain.ns, chain.channel)
        head = chain.head.version
        rest = [c for c in tc.chains.get(key, []) if c is not chain and c.head.version != head]
        tc.chains[key] = [chain, *rest][:CHAINS_PER_CHANNEL]

    # --- checkpoint rows -----------------------------------------------------------------

    def record(self, tc: ThreadCache, check: bytes) -> tuple[str, StoredCheckpoint, int] | None:
        """A decoded checkpoint row by its check (verified when it was decoded)."""
        return tc.records.get(check)

    def put_record(
        self, tc: ThreadCache, check: bytes, cid: str, record: StoredCheckpoint, depth: int
    ) -> None:
        tc.records[check] = (cid, record, depth)
        tc.records.move_to_end(check)
        while len(tc.records) > RECORDS_PER_THREAD:
            tc.records.popitem(last=False)
