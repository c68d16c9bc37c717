"""What a speaker introduces: a value no earlier message holds.

A sentence of the assistant or the user that names a value nothing before it named (a
cutover time, a chosen host, the name of a function to write) is their own contribution:
a plan, a choice, a schedule. One that repeats a value a tool printed is commentary on
that output, whose own item already carries the value. Extraction proposes both at their
base salience; ``raise_novel`` lifts the first kind, reading the span in order with the
values every earlier message held. Phrasing plays no part: only where a value first
appears.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from langchain_core.messages import AIMessage, BaseMessage

from langgraph_compact.compaction.candidates import Candidate
from langgraph_compact.compaction.quote import values
from langgraph_compact.compaction.text import is_specific
from langgraph_compact.messages import message_text

__all__ = ["NOVEL_SALIENCE", "message_values", "raise_novel"]

NOVEL_SALIENCE: Mapping[str, float] = {"ai": 0.6, "human": 0.7}
"""Salience of a note, fact or identifier whose speaker introduced one of its values: an
assistant's just under its decisions (0.7), a user's under the ids they name (0.8). Not
higher: an agent that computes (a booking's totals, a test's inputs) introduces values in
many sentences, and at a small cap those must not crowd out what tools reported."""
_RAISED = frozenset({"note", "fact", "identifier"})


def _named(text: str) -> set[str]:
    """The values of ``text`` specific enough to count: an id, a host, a time, a name."""
    return {v for v in values(text) if is_specific(v)}


def message_values(message: BaseMessage, *, calls_only: bool = False) -> set[str]:
    """The specific values ``message`` names: in its text and its calls' arguments (only
    in the arguments with ``calls_only``)."""
    found = set() if calls_only else _named(message_text(message))
    if isinstance(message, AIMessage):
        for call in message.tool_calls:
            for arg in (call.get("args") or {}).values():
                if isinstance(arg, str):
                    found |= _named(arg)
    return found


def raise_novel(found: Iterable[Candidate], seen: set[str]) -> list[Candidate]:
    """``found`` with each human or assistant note, fact or identifier naming a value
    outside ``seen`` raised to ``NOVEL_SALIENCE`` of its speaker."""
    out = []
    for section, item in found:
        weight = NOVEL_SALIENCE.get(item.origin, 0.0)
        if item.kind in _RAISED and item.salience < weight and _named(item.text) - seen:
            item = item.model_copy(update={"salience": weight})
        out.append((section, item))
    return out
