"""The vocabulary of summary candidates: their type, base salience and constructors.

Shared by the extraction of text (``extract``) and of tool outputs (``outputs``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.quote import Quote, call_sources
from langgraph_compact.compaction.summary import Section, SummaryItem

__all__ = [
    "SALIENCE",
    "Candidate",
    "call_signature",
    "fact_item",
    "file_item",
    "item",
    "present",
]

Candidate = tuple[Section, SummaryItem]


def present(found: Iterable[Candidate | None]) -> list[Candidate]:
    """The candidates that were made (``item`` gives None for text it cannot quote)."""
    return [c for c in found if c is not None]


SALIENCE: Mapping[str, float] = {
    "human.fact": 0.9,
    "human.identifier": 0.8,
    "human.path": 0.85,
    "human.decision": 0.8,
    "human.note": 0.5,
    "human.error": 0.8,
    "ai.decision": 0.7,
    "ai.fact": 0.55,
    "ai.path": 0.65,
    "ai.identifier": 0.45,
    "ai.note": 0.4,
    "args.value": 0.8,
    "args.identifier": 0.7,
    "args.path": 0.6,
    "args.file_modified": 0.55,
    "args.file_read": 0.35,
    "tool.error": 0.75,
    "tool.flagged": 0.65,
    "tool.fact": 0.75,
    "tool.path": 0.25,
    "tool.value": 0.3,
    "tool.blocked": 0.5,
    "tool.done": 0.15,
    "progress": 0.6,
    "next": 0.45,
}
"""Base salience by where an item comes from and what it is. User statements outweigh
the assistant's, which outweigh incidental tool output; errors and flagged lines of a
tool rank with what the user said. An argument that is an identifier as a whole (a
tool's ``order_id`` field) was passed on purpose; one found inside a free-form argument (a
hash in a shell command) is incidental."""


def item(
    section: Section,
    text: Quote | None,
    mid: str,
    seq: int,
    *,
    kind: str,
    salience: float,
    **kw: Any,
) -> Candidate | None:
    """A candidate showing ``text`` cut to one line of ``ITEM_MAX_CHARS``; None without
    text (what is not a verbatim piece of a source is not shown)."""
    if text is None:
        return None
    shown = text.cut(tx.ITEM_MAX_CHARS)
    if not shown:
        return None
    return section, SummaryItem(
        text=shown.text,
        spans=shown.spans,
        kind=kind,
        sources=(mid,),
        seq=seq,
        salience=salience,
        **kw,
    )


def call_signature(call: Mapping[str, Any]) -> Quote:
    """``name: args`` (a script's first line), the same for identical calls; the
    arguments quoted from the call."""
    source = next(call_sources(call))
    return (f"{call['name']}: " + source.slice(0, len(source.text))).cut(100)


def fact_item(
    key: str,
    text: Quote | None,
    mid: str,
    seq: int,
    salience: float,
    *,
    pinned: bool = False,
    stale: tuple[str, ...] = (),
    origin: str = "",
) -> Candidate | None:
    """A stated fact, shown as the words that state it and keyed by its name so a later
    value supersedes it; pinned when it is a correction."""
    kind = "correction" if pinned else "fact"
    return item(
        Section.CRITICAL,
        text,
        mid,
        seq,
        key=f"fact:{key}",
        kind=kind,
        salience=salience,
        pinned=pinned,
        stale=stale,
        origin=origin,
    )


def file_item(
    section: Section, path: Quote | None, mid: str, seq: int, salience: float, origin: str = ""
) -> Candidate | None:
    """A file read or modified, shown as cited (``app.py:112:12``) and keyed by the file
    (a later mention folds into it)."""
    if path is None:
        return None
    key = f"file:{tx.file_key(path.text)}"
    return item(section, path, mid, seq, key=key, kind="path", salience=salience, origin=origin)
