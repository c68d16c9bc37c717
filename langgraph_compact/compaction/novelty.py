"""What a speaker introduces: a value no earlier message holds.

A sentence of the assistant or the user, or a line of a tool's output, that names a value
nothing before it named (a cutover time, a chosen host, a symlink's new target) is news:
a plan, a choice, a schedule, what a tool found. A sentence that repeats a value a tool
printed is commentary on that output, whose own item already carries the value.
Extraction proposes both at their base salience; ``raise_novel`` lifts the first kind,
reading the span in order with the values every earlier message held. Phrasing plays no
part in the lift: only where a value first appears. It does in one more step: an
assistant's plan ("I'll set X in the client config") is shown and ranked as a decision
once it introduces its value. Extraction needs a stated reason to tell a plan from a
step ("I'll run the tests"); a value no one named before tells it as well (what the
assistant reads back or passes in its own call is not new).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from langchain_core.messages import AIMessage, BaseMessage

from langgraph_compact.compaction import cues
from langgraph_compact.compaction.candidates import SALIENCE, Candidate
from langgraph_compact.compaction.quote import values
from langgraph_compact.compaction.sentences import unasserted
from langgraph_compact.compaction.summary import Section, SummaryItem
from langgraph_compact.compaction.text import is_specific
from langgraph_compact.messages import message_text

__all__ = ["NOVEL_SALIENCE", "message_values", "raise_novel"]

NOVEL_SALIENCE: Mapping[str, float] = {"ai": 0.6, "human": 0.7, "tool": 0.4}
"""Salience of a note, fact or identifier whose speaker introduced one of its values: an
assistant's just under its decisions (0.7), a user's under the ids they name (0.8), a
line a tool printed under what the assistant says (0.4: a run prints far more names than
anyone states, and at a small cap they must not crowd out errors or what was said). Not
higher: an agent that computes (a booking's totals, a test's inputs) introduces values in
many sentences, and at a small cap those must not crowd out what tools reported."""
NOVEL_LIFT = 0.3
"""What introducing a value adds to an item's salience, up to ``NOVEL_SALIENCE``: a tool
line's weight is shared out over the names its output prints, and a name new in a dump
of hundreds stays incidental."""
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
    """``found`` with each note, fact or identifier naming a value outside ``seen``
    raised by ``NOVEL_LIFT``, up to ``NOVEL_SALIENCE`` of its speaker (a tool's too), and
    an assistant's plan naming one ranked and shown as a decision."""
    out = []
    for section, item in found:
        novel = item.kind in _RAISED and bool(_named(item.text) - seen)
        if novel and _plans(item):
            # ranked and shown as a decision, and still of its own kind: a plan is not a
            # statement of a subject's current value ("I'll try build-9 first" leaves the
            # host the user gave as it was), so it replaces nothing anyone stated
            section = Section.DECISIONS
            weight = SALIENCE["ai.decision"]
        else:
            weight = min(NOVEL_SALIENCE.get(item.origin, 0.0), item.salience + NOVEL_LIFT)
        if novel and item.salience < weight:
            item = item.model_copy(update={"salience": weight})
        out.append((section, item))
    return out


def _plans(item: SummaryItem) -> bool:
    """Whether an assistant's sentence says what it will do or chose (``DECISION``), not
    what it asks or might do (``unasserted``)."""
    said = item.text.rstrip()
    return item.origin == "ai" and not unasserted(said) and bool(cues.DECISION.search(said))
