"""The vocabulary of summary candidates: their type, base salience and constructors.

Shared by the extraction of text (``extract``) and of tool outputs (``outputs``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.summary import Section, SummaryItem
from langgraph_compact.messages import canonical_json

__all__ = ["SALIENCE", "Candidate", "call_signature", "fact_item", "file_item", "item"]

Candidate = tuple[Section, SummaryItem]

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
    "args.value": 0.8,
    "args.identifier": 0.7,
    "args.file_modified": 0.55,
    "args.file_read": 0.35,
    "tool.error": 0.75,
    "tool.flagged": 0.65,
    "tool.fact": 0.75,
    "tool.path": 0.25,
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
    section: Section, text: str, mid: str, seq: int, *, kind: str, salience: float, **kw: Any
) -> Candidate:
    return section, SummaryItem(
        text=tx.short(text), kind=kind, sources=(mid,), seq=seq, salience=salience, **kw
    )


def call_signature(name: str, args: Mapping[str, Any]) -> str:
    """``name: args`` shortened (a script's first line), the same for identical calls."""
    rendered = next(iter(args.values())) if len(args) == 1 else canonical_json(args)
    if not isinstance(rendered, str):
        rendered = canonical_json(rendered)
    first = rendered.strip().split("\n", 1)
    shown = first[0] + (" …" if len(first) > 1 else "")
    return tx.short(f"{name}: {shown}", 100)


def fact_item(
    key: str,
    value: str,
    mid: str,
    seq: int,
    salience: float,
    *,
    pinned: bool = False,
    stale: tuple[str, ...] = (),
) -> Candidate:
    """A stated fact, keyed by its name so a later value supersedes it; pinned when it
    is a correction."""
    kind = "correction" if pinned else "fact"
    return item(
        Section.CRITICAL,
        f"{key}: {value}",
        mid,
        seq,
        key=f"fact:{key}",
        kind=kind,
        salience=salience,
        pinned=pinned,
        stale=stale,
    )


def file_item(section: Section, path: str, mid: str, seq: int, salience: float) -> Candidate:
    """A file read or modified, keyed by its path (a later mention folds into it)."""
    return item(section, path, mid, seq, key=f"file:{path}", kind="path", salience=salience)
