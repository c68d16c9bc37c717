"""Message ref lists: a message channel's value as message numbers, delta-linked.

A channel version's list is stored as one row: ``keep`` numbers of a *base* version's
list followed by a ``tail`` of new numbers (a snapshot has no base). Bases are chosen
like the parents in a Fenwick tree: the link at position ``p`` is based on position
``p & (p - 1)`` of the same chain, so

- a chain from any version down to its snapshot has at most ``log2(p) + 1`` links
  (a cold load reads at most ~20 rows even after a million versions);
- each number is stored in O(log n) rows, so a thread's ref lists cost O(n log n)
  small integers in total (a few hundred KB at 15,000 messages), never the
  O(n²) of a snapshot every k versions;
- a new version costs O(new numbers) amortized: the tail reaches back to the base.

When less than half of a new list is shared with its base (a rewritten history), a
snapshot starts a new chain. Each row's check covers its base's check (``_check``), so
a verified chain proves every link is the one written.

A link lives in one of two places. Usually in the ``link`` column of the checkpoint row
whose put wrote it (*folded*: no row of its own, its base named by that row's id in
``link_base``); else (a row that already holds one, a row written in the middle of its
lane, a list moved out by ``prune``) as an ``lgc_blobs`` row keyed by version, its base
named by version. A chain stays in one place: a link whose base lives in the other
starts a new chain with a snapshot.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

from langgraph_compact.checkpoint._check import Where, check, corrupt, decoding, verify_check
from langgraph_compact.checkpoint._codec import REFS_TYPE, decode_varints, encode_varints, unkey

__all__ = [
    "MAX_CHAIN",
    "RefChain",
    "RefLink",
    "chain_from_links",
    "chain_from_rows",
    "decode_link",
    "encode_link",
    "folded_check",
    "folded_value",
    "link_check",
]

MAX_CHAIN = 64
"""Links a chain may have (a damaged base pointer could form a loop)."""

_FORMAT = 1


@dataclass(frozen=True)
class RefLink:
    """One stored link: ``keep`` numbers of ``base``'s list, then ``tail``.

    ``row``: the checkpoint row holding a folded link (``base`` is then the base's row,
    and ``version`` empty for a base read back); ``None`` for an ``lgc_blobs`` row
    (``base`` is the base's version).
    """

    version: str
    base: str | None
    keep: int
    tail: tuple[int, ...]
    pos: int
    check: bytes
    row: str | None = None

    @property
    def length(self) -> int:
        return self.keep + len(self.tail)


def _zigzag(deltas: Sequence[int]) -> list[int]:
    return [(d << 1) ^ (d >> 63) for d in deltas]


def encode_link(pos: int, keep: int, tail: Sequence[int]) -> bytes:
    """The row value: format, position, keep, tail length, zigzag deltas of the tail.

    >>> decode_link(encode_link(5, 3, [9, 10, 4]))
    (5, 3, (9, 10, 4))
    """
    deltas = [b - a for a, b in zip([0, *tail], tail, strict=False)]
    return bytes([_FORMAT]) + encode_varints([pos, keep, len(tail), *_zigzag(deltas)])


def decode_link(blob: bytes) -> tuple[int, int, tuple[int, ...]]:
    """Inverse of ``encode_link``: ``(pos, keep, tail)``."""
    if blob[:1] != bytes([_FORMAT]):
        raise ValueError(f"unknown ref list format {blob[:1]!r}")
    pos, keep, n, *zz = decode_varints(blob[1:])
    if len(zz) != n:
        raise ValueError(f"ref list says {n} numbers but holds {len(zz)}")
    out: list[int] = []
    cur = 0
    for z in zz:
        cur += (z >> 1) ^ -(z & 1)
        out.append(cur)
    return pos, keep, tuple(out)


def link_check(
    ns: str, channel: str, version: str, base: str | None, base_check: bytes | None, blob: bytes
) -> bytes:
    """A ref row's check: its key, its value and its base's check."""
    return check(b"refs", ns, channel, version, base, base_check, blob)


def _check_root(where: Where, rows: Sequence[Any], base: object, missing: str) -> None:
    """Raise unless a fetched chain (head first) ends at a snapshot (no base)."""
    if base is not None:
        loop = f"ref list chain is longer than {MAX_CHAIN} links (a loop?)"
        raise corrupt(where, loop if len(rows) >= MAX_CHAIN else missing)


def folded_check(
    ns: str, channel: str, row: str, base: str | None, base_check: bytes | None, blob: bytes
) -> bytes:
    """A folded link's check: the row holding it, its value and its base's row and check."""
    return check(b"link", ns, channel, row, base, base_check, blob)


def folded_value(link: RefLink) -> bytes:
    """The ``link`` column of a folded link: its value, then its 8-byte check."""
    return row_blob(link) + link.check


def chain_from_links(
    where: Where, ns: str, channel: str, version: str, rows: Sequence[Sequence[Any]]
) -> list[RefLink]:
    """Verify a folded chain (``SELECT_LINK_CHAIN`` rows ``cid, link, link_base``, head
    first), root first; the head's ``version`` is the one asked for.

    Raises:
        CorruptionError: as ``chain_from_rows``; also a row that holds no link.
    """
    if not rows:
        raise corrupt(where, "the checkpoint row holding its message ref list is missing")
    what = f"ref list of checkpoint {rows[-1][0]} is based on a row that is missing"
    _check_root(where, rows, rows[-1][2], what)
    links: list[RefLink] = []
    base_check: bytes | None = None
    for n, (row, value, base) in enumerate(reversed(rows)):
        at, name = where.at(channel=channel), f"the ref list of checkpoint {row}"
        if value is None or len(value) < 9:
            raise corrupt(at, f"checkpoint {row} holds no ref list")
        raw = bytes(value)
        with decoding(at, f"the base pointer of {name}"):
            base_id = None if base is None else str(uuid.UUID(bytes=bytes(base)))
        expected = folded_check(ns, channel, str(row), base_id, base_check, raw[:-8])
        verify_check(at, raw[-8:], expected, name)
        with decoding(at, name):
            pos, keep, tail = decode_link(raw[:-8])
        if links and keep > links[-1].length:
            raise corrupt(at, f"{name} keeps {keep} refs of a list of {links[-1].length}")
        head = n == len(rows) - 1
        links.append(RefLink(version if head else "", base_id, keep, tail, pos, expected, str(row)))
        base_check = expected
    return links


def chain_from_rows(
    where: Where, ns: str, channel: str, rows: Sequence[Sequence[Any]]
) -> list[RefLink]:
    """Verify a fetched chain (head first, as ``SELECT_REF_CHAIN`` returns it), root first.

    Raises:
        CorruptionError: a row fails its check or does not decode, the chain ends at a
            missing base, is longer than ``MAX_CHAIN``, or keeps more than its base holds.
    """
    if not rows:
        raise corrupt(where, "the message ref list row is missing")
    with decoding(where.at(channel=channel), "a ref list key"):
        rows = [(unkey(v), t, b, None if p is None else unkey(p), c) for v, t, b, p, c in rows]
    what = f"ref list {rows[-1][0]} points at base {rows[-1][3]}, which is missing"
    _check_root(where, rows, rows[-1][3], what)
    links: list[RefLink] = []
    base_check: bytes | None = None
    for version, type_, blob, base, stored in reversed(rows):
        at = where.at(channel=channel)
        if type_ != REFS_TYPE:
            raise corrupt(at, f"ref list {version} has type {type_!r}")
        raw = bytes(blob)
        expected = link_check(ns, channel, str(version), base, base_check, raw)
        verify_check(at, stored, expected, f"ref list {version}")
        with decoding(at, f"ref list {version}"):
            pos, keep, tail = decode_link(raw)
        if links and keep > links[-1].length:
            raise corrupt(
                at, f"ref list {version} keeps {keep} refs of a list of {links[-1].length}"
            )
        links.append(RefLink(str(version), base, keep, tail, pos, expected))
        base_check = expected
    return links


def materialize(links: Sequence[RefLink]) -> list[int]:
    """The full list of the last link of a verified chain (root first)."""
    seqs: list[int] = []
    for link in links:
        del seqs[link.keep :]
        seqs.extend(link.tail)
    return seqs


@dataclass
class RefChain:
    """The newest list of a channel as this process last stored or loaded it.

    ``links`` run from a snapshot to the head; ``common[i]`` is how many leading numbers
    link ``i``'s list shares with the head's (``seqs``); ``objects`` are the head's
    message objects (a private copy, so a caller mutating its list cannot fool the
    prefix test).
    """

    ns: str
    channel: str
    links: list[RefLink]
    seqs: list[int]
    objects: list[BaseMessage]
    common: list[int] = field(default_factory=list)

    @classmethod
    def loaded(
        cls, ns: str, channel: str, links: list[RefLink], objects: Sequence[BaseMessage]
    ) -> RefChain:
        """A chain rebuilt from verified rows and the messages they name."""
        seqs = materialize(links)
        common = [len(seqs)]
        for nxt in reversed(links[1:]):
            common.append(min(nxt.keep, common[-1]))
        return cls(ns, channel, links, seqs, list(objects), common[::-1])

    @property
    def head(self) -> RefLink:
        return self.links[-1]

    def extends(self, messages: list[BaseMessage]) -> bool:
        """Whether ``messages`` starts with exactly this chain's objects.

        A slice and a list comparison run in C and compare by identity first: about
        60 µs for 15,000 messages, the only per-put cost that grows with the history.
        """
        k = len(self.objects)
        if len(messages) < k or (k and messages[k - 1] is not self.objects[-1]):
            return False
        return messages[:k] == self.objects

    def append(
        self, version: str, seqs: Sequence[int], objects: Sequence[BaseMessage], row: str | None
    ) -> RefLink:
        """A link for ``version``: the head's list plus ``seqs`` (in place, O(new)).

        ``row``: fold the link into that checkpoint row (``None``: an ``lgc_blobs`` row).
        """
        shared = len(self.seqs)
        self.seqs.extend(seqs)
        self.objects.extend(objects)
        return self._link(version, shared, row)

    def advance(
        self,
        version: str,
        seqs: list[int],
        objects: Sequence[BaseMessage],
        shared: int,
        row: str | None,
    ) -> RefLink:
        """A link for ``version`` (list ``seqs``, sharing ``shared`` numbers with the head)."""
        self.seqs, self.objects = seqs, list(objects)
        return self._link(version, shared, row)

    def _link(self, version: str, shared: int, row: str | None) -> RefLink:
        """Link the current ``seqs`` to the Fenwick base of the next position."""
        self.common = [min(c, shared) for c in self.common]
        seqs = self.seqs
        p = self.head.pos
        target = (p + 1) & p
        i = max(j for j, link in enumerate(self.links) if link.pos <= target or j == 0)
        keep = self.common[i]
        base = self.links[i]
        if keep * 2 < len(seqs) or keep == 0 or len(self.links) >= MAX_CHAIN:
            return self._restart(version, row)
        # A chain stays where it is: one in lgc_blobs until it restarts (moving it would
        # cost a snapshot, and moving back and forth one each time), a folded one unless
        # no row can take the link.
        if base.row is None:
            row = None
        elif row is None:
            return self._restart(version, None)
        tail = tuple(seqs[keep:])
        blob = encode_link(p + 1, keep, tail)
        if row is None:
            chk = link_check(self.ns, self.channel, version, base.version, base.check, blob)
            link = RefLink(version, base.version, keep, tail, p + 1, chk)
        else:
            chk = folded_check(self.ns, self.channel, row, base.row, base.check, blob)
            link = RefLink(version, base.row, keep, tail, p + 1, chk, row)
        self.links = [*self.links[: i + 1], link]
        self.common = [*self.common[: i + 1], len(seqs)]
        return link

    def _restart(self, version: str, row: str | None) -> RefLink:
        blob = encode_link(0, 0, self.seqs)
        if row is None:
            chk = link_check(self.ns, self.channel, version, None, None, blob)
        else:
            chk = folded_check(self.ns, self.channel, row, None, None, blob)
        link = RefLink(version, None, 0, tuple(self.seqs), 0, chk, row)
        self.links, self.common = [link], [len(self.seqs)]
        return link

    @classmethod
    def start(
        cls,
        ns: str,
        channel: str,
        version: str,
        seqs: list[int],
        objects: Sequence[BaseMessage],
        row: str | None,
    ) -> tuple[RefChain, RefLink]:
        """A new chain whose head is a snapshot of ``seqs``."""
        chain = cls(ns, channel, [], seqs, list(objects))
        return chain, chain._restart(version, row)


def row_blob(link: RefLink) -> bytes:
    """The stored value of a link (``encode_link`` of its fields)."""
    return encode_link(link.pos, link.keep, link.tail)
