"""``verify``: the fsck of a compact saver's database, as one read-only program.

Per thread: every row against its stored check, decoded; every checkpoint's parent and
every value it names exist; every ref-list chain (folded or not) resolves link by link
(its Merkle checks) to message rows that exist; every pending write's messages exist,
and each checkpoint has as many writes rows as tasks that wrote; each head record names
its namespace's newest checkpoint and counts them; every text row has a message and
(Postgres) its text's word filter. Per file: the backend's structural check and FTS5's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.checkpoint._check import (
    Where,
    blob_check,
    corrupt,
    decoding,
    head_check,
    verify_check,
    writes_check,
)
from langgraph_compact.checkpoint._codec import (
    REFS_TYPE,
    WRITE_REFS_TYPE,
    decode_message_write,
    decode_writes,
    unkey,
)
from langgraph_compact.checkpoint._fold import check_folded
from langgraph_compact.checkpoint._lane import load_record
from langgraph_compact.checkpoint._messages import Thread
from langgraph_compact.checkpoint._refs import MAX_CHAIN, decode_link, link_check
from langgraph_compact.checkpoint._store import CheckpointStore
from langgraph_compact.checkpoint._writes import thread_writes
from langgraph_compact.errors import CorruptionError

__all__ = ["Problem", "VerifyReport", "unreadable", "verify_program"]


@dataclass(frozen=True)
class Problem:
    """One thing ``verify`` found wrong: what kind, where, and the detail."""

    kind: str
    """``damaged`` (check or decode failed), ``missing`` (a row something points at),
    ``parent`` (a checkpoint's parent), ``head`` (head record), ``orphan`` (a text row
    no message uses) or ``file`` (the backend's structural or index check)."""
    detail: str
    thread_id: str | None = None
    checkpoint_id: str | None = None
    channel: str | None = None
    message_id: str | None = None

    def __str__(self) -> str:
        where = ", ".join(
            f"{label} {value!r}"
            for label, value in (
                ("thread", self.thread_id),
                ("checkpoint", self.checkpoint_id),
                ("channel", self.channel),
                ("message", self.message_id),
            )
            if value is not None
        )
        return f"{self.kind}: {where + ': ' if where else ''}{self.detail}"


@dataclass(frozen=True)
class VerifyReport:
    """The result of ``saver.verify()``: ``ok`` when no problem was found."""

    ok: bool
    problems: list[Problem]
    threads: int = 0
    checkpoints: int = 0
    values: int = 0
    writes: int = 0
    messages: int = 0
    texts: int = 0


_COUNTED = ("threads", "checkpoints", "values", "writes", "messages", "texts")


@dataclass
class _Tally:
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

    def add(self, kind: str, where: Where, detail: str) -> None:
        at = (where.thread_id, where.checkpoint_id, where.channel, where.message_id)
        self.problems.append(Problem(kind, detail, *at))

    @contextmanager
    def catching(self, kind: str = "damaged") -> Iterator[None]:
        try:
            yield
        except CorruptionError as e:
            where = Where(e.thread_id or "", e.checkpoint_id, e.channel, e.message_id)
            if "SQLite reports" in e.what:
                kind = "file"
            elif "missing" in e.what:
                kind = "missing"
            self.add(kind, where, e.what)


def unreadable(error: CorruptionError) -> VerifyReport:
    """The report for a database that could not be opened or read at all."""
    problem = Problem("file", error.what, error.thread_id or None, error.checkpoint_id)
    return VerifyReport(False, [problem])


def verify_program(store: CheckpointStore, thread_id: str | None = None) -> q.Program[VerifyReport]:
    """Check one thread (or every thread and the whole file) and report every problem.

    Damage found stops only the check it was found in: the rest still runs.
    """
    tally = _Tally()
    ids = [thread_id] if thread_id is not None else []
    if thread_id is None:
        with tally.catching():
            ids = [str(r[1]) for r in (yield q.SELECT_THREADS, (), "all")]
    for name in ids:
        with tally.catching():
            yield from _thread(store, name, tally)
    if thread_id is None:
        with tally.catching():
            for (line,) in (yield store.dialect.integrity_check, (), "all"):
                if str(line) != "ok":
                    tally.add("file", Where(""), str(line))
        with tally.catching():
            yield store.dialect.fts_check, (), "none"
    counts = {name: tally.counts.get(name, 0) for name in _COUNTED}
    return VerifyReport(not tally.problems, tally.problems, **counts)


def _thread(store: CheckpointStore, name: str, tally: _Tally) -> q.Program[None]:
    th = yield from store.thread(name)
    if th is None:
        return
    tally.count("threads")
    seqs: set[int] = set()
    with tally.catching():
        yield from _messages(store, th, seqs, tally)
    for (ns,) in (yield q.SELECT_NAMESPACES, (th.tid,), "all"):
        with tally.catching():
            yield from _lane(store, th, str(ns), seqs, tally)
    with tally.catching():
        yield from _heads(th, tally)
    with tally.catching():
        for (text_id,) in (yield q.SELECT_UNUSED_TEXTS, (th.tid,), "all"):
            tally.add("orphan", Where(th.thread_id), f"text row {text_id} is used by no message")
    for what in (yield from store.stale_word_filters(th)):
        tally.add("damaged", Where(th.thread_id), what)


def _messages(store: CheckpointStore, th: Thread, seqs: set[int], tally: _Tally) -> q.Program[None]:
    """Decode and check every message row; collect the numbers of all rows (damaged too)."""
    last = 0
    while True:
        rows = yield q.SELECT_MESSAGE_PAGE, (th.tid, last, 500), "all"
        if not rows:
            return
        for row in rows:
            last = int(row[0])
            seqs.add(last)
            tally.count("messages")
            tally.count("texts", row[9] is not None)
            with tally.catching():
                store.decode_row(row, Where(th.thread_id))


def _lane(
    store: CheckpointStore, th: Thread, ns: str, seqs: set[int], tally: _Tally
) -> q.Program[None]:
    rows = yield q.SELECT_LANE_CHECKPOINTS, (th.tid, ns), "all"
    ids = {str(r[0]) for r in rows}
    named: dict[tuple[str, str], str] = {}
    tasks: dict[str, int] = {}
    seen: set[tuple[str, str | None]] = set()  # (channel, row) of the folded links checked
    for row in rows:
        cid = str(row[0])
        where = Where(th.thread_id, cid)
        tally.count("checkpoints")
        tasks[cid] = int(row[3])
        with tally.catching():
            stored = yield from load_record(store, th, ns, row)
            if stored.parent is not None and stored.parent not in ids:
                tally.add("parent", where, f"its parent checkpoint {stored.parent} is missing")
            skip = set(stored.inline) | set(stored.empty)
            for channel, version in stored.skeleton.get("channel_versions", {}).items():
                if channel not in skip:
                    named.setdefault((channel, str(version)), cid)
            new_links = yield from check_folded(store, th, ns, cid, stored, seqs, seen)
            tally.count("values", new_links)
    by_key: dict[tuple[str, str], tuple[Any, ...]] = {}
    for channel, raw, t, blob, base, chk in (yield q.SELECT_LANE_BLOBS, (th.tid, ns), "all"):
        with tally.catching():
            with decoding(Where(th.thread_id, channel=channel), "a value row's version"):
                row = (channel, unkey(raw), t, blob, None if base is None else unkey(base), chk)
            by_key[(str(channel), row[1])] = row
    for (channel, version), cid in named.items():
        if (channel, version) not in by_key:
            what = f"its value row (version {version}) is missing"
            tally.add("missing", Where(th.thread_id, cid, channel), what)
    verified: dict[tuple[str, str], tuple[bytes, int] | None] = {}
    for key, row in by_key.items():
        tally.count("values")
        with tally.catching():
            _value(store, th, ns, row, by_key, verified, seqs, named.get(key))
    yield from _writes(store, th, ns, tasks, seqs, tally)


def _value(
    store: CheckpointStore,
    th: Thread,
    ns: str,
    row: Any,
    by_key: dict[tuple[str, str], Any],
    verified: dict[tuple[str, str], tuple[bytes, int] | None],
    seqs: set[int],
    cid: str | None,
) -> None:
    channel, version, t, blob, _base, stored = row
    where = Where(th.thread_id, cid, channel)
    if t != REFS_TYPE:
        verify_check(where, stored, blob_check(ns, channel, version, t, blob), f"value {version}")
        with decoding(where, f"value {version}"):
            store.serde.loads_typed((t, blob))
        return
    _link(ns, (str(channel), str(version)), by_key, verified, seqs, where)


def _link(
    ns: str,
    key: tuple[str, str],
    by_key: dict[tuple[str, str], Any],
    verified: dict[tuple[str, str], tuple[bytes, int] | None],
    seqs: set[int],
    where: Where,
) -> tuple[bytes, int]:
    """Verify a ref row and the chain below it; ``(check, list length)``, memoized.

    ``verified`` maps each row seen to its result, ``None`` for a damaged one.
    """
    path: list[tuple[str, str]] = []
    k = key
    while k not in verified and len(path) <= MAX_CHAIN:
        path.append(k)
        row = by_key.get(k)
        if row is None or row[4] is None:
            break
        k = (k[0], str(row[4]))
    below = verified.get(k) if k not in path else None
    try:
        if not path:
            if below is None:
                raise corrupt(where, f"ref list {key[1]} is damaged")
            return below
        if k not in path and below is None:
            raise corrupt(where, f"ref list {key[1]} is based on a damaged or looping chain")
        for k in reversed(path):
            row = by_key.get(k)
            if row is None:
                raise corrupt(where, f"ref list {k[1]} is missing (a base of {key[1]})")
            base_check, base_len = (None, 0) if row[4] is None else (below or (None, -1))
            if base_len < 0:
                raise corrupt(where, f"ref list {k[1]} has no verified base")
            expected = link_check(ns, k[0], k[1], row[4], base_check, bytes(row[3]))
            verify_check(where, row[5], expected, f"ref list {k[1]}")
            with decoding(where, f"ref list {k[1]}"):
                _pos, keep, tail = decode_link(bytes(row[3]))
            if keep > base_len:
                raise corrupt(where, f"ref list {k[1]} keeps {keep} refs of a list of {base_len}")
            if absent := [s for s in tail if s not in seqs]:
                raise corrupt(where, f"ref list {k[1]} names missing message rows {absent[:5]}")
            below = verified[k] = (expected, keep + len(tail))
    except CorruptionError:
        for k in path:
            verified[k] = None
        raise
    if below is None:
        raise corrupt(where, f"ref list {key[1]} is damaged")
    return below


def _writes(
    store: CheckpointStore,
    th: Thread,
    ns: str,
    tasks: dict[str, int],
    seqs: set[int],
    tally: _Tally,
) -> q.Program[None]:
    found: dict[str, int] = {}
    for row_ns, raw_cid, raw_task, blob, stored in (yield from thread_writes(th)):
        if row_ns != ns:
            continue
        tally.count("writes")
        with tally.catching():
            with decoding(Where(th.thread_id), "a writes row's key"):
                cid, task_id = unkey(raw_cid), unkey(raw_task)
            found[cid] = found.get(cid, 0) + 1
            where = Where(th.thread_id, cid)
            verify_check(where, stored, writes_check(ns, cid, task_id, blob), "a writes row")
            with decoding(where, "a writes row"):
                for _idx, channel, t, value in decode_writes(blob)[1]:
                    if t != WRITE_REFS_TYPE:
                        store.serde.loads_typed((t, value))
                    elif absent := [s for s in decode_message_write(value)[1] if s not in seqs]:
                        what = f"a pending write names missing message rows {absent[:5]}"
                        raise corrupt(where.at(channel=channel), what)
    for cid, n in tasks.items():
        if found.get(cid, 0) != n:
            what = f"{n} tasks wrote pending writes, {found.get(cid, 0)} rows are left"
            tally.add("missing", Where(th.thread_id, cid), what)
    # Writes of a checkpoint that is not there are left by a run killed between a task's
    # writes and its checkpoint (LangGraph stores them in either order): not damage.


def _heads(th: Thread, tally: _Tally) -> q.Program[None]:
    heads = {str(r[0]): r for r in (yield q.SELECT_HEADS, (th.tid,), "all")}
    lanes = {str(r[0]) for r in (yield q.SELECT_NAMESPACES, (th.tid,), "all")}
    for ns in lanes | set(heads):
        summary = yield q.SELECT_LANE_SUMMARY, (th.tid, ns), "all"
        newest, count = summary[0][0], int(summary[0][1])
        where = Where(th.thread_id, str(newest) if newest else None)
        head = heads.get(ns)
        if head is None:
            tally.add("head", where, f"namespace {ns!r} has checkpoints but no head record")
            continue
        _, cid, n, stored = head
        if stored != head_check(ns, str(cid), int(n)):
            tally.add("damaged", where, f"the head record of namespace {ns!r} fails its check")
        elif (str(cid), int(n)) != (str(newest), count):
            what = f"head record says {cid} of {n}, the rows say {newest} of {count}"
            tally.add("head", where, what)
