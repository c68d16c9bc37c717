"""``RunningSummary``: the structured summary kept in graph state, with its coverage cursor.

The summary is a schema, not prose: fixed sections in a fixed order, each a list of items
that remember which raw messages they came from. It covers the raw messages
``[head_end, covered_through)`` exactly; ``span_digest`` over that span lets the node notice
an edited, redacted or branched history and rebuild instead of trusting stale text.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "FORMAT_VERSION",
    "SUMMARY_MARKER_KEY",
    "RunningSummary",
    "Section",
    "SummaryItem",
    "is_summary_message",
]

FORMAT_VERSION = 1
SUMMARY_MARKER_KEY = "langgraph_compact_summary"
"""``additional_kwargs`` key that marks the rendered summary message in a projection."""


class Section(StrEnum):
    """The anchored sections, in render order."""

    GOAL = "Goal"
    CONSTRAINTS = "Constraints & Preferences"
    DONE = "Done"
    IN_PROGRESS = "In Progress"
    BLOCKED = "Blocked"
    DECISIONS = "Key Decisions"
    CRITICAL = "Critical Context"
    FILES_READ = "Files Read"
    FILES_MODIFIED = "Files Modified"
    NEXT_STEPS = "Next Steps"


_PROGRESS = (Section.DONE, Section.IN_PROGRESS, Section.BLOCKED)
_FILES = (Section.FILES_READ, Section.FILES_MODIFIED)


class SummaryItem(BaseModel):
    """One line of a section, with the lineage needed to supersede, evict and recall it.

    ``key`` groups values of the same fact: a later item with the same key in the same
    section replaces the earlier one (corrections supersede). ``priority`` orders eviction
    (user-stated facts outlive tool chatter); ``pinned`` items are never evicted.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    key: str | None = None
    sources: tuple[str, ...] = ()
    seq: int = 0
    """Raw index of the message the item was last seen in (recency for eviction)."""
    refs: int = 1
    """How many messages mentioned it (reference count for eviction)."""
    priority: int = 0
    pinned: bool = False
    historical: bool = False
    """Belongs to an earlier task; rendered as such so it cannot hijack the current one."""


class RunningSummary(BaseModel):
    """The working-memory summary of a thread, replaced atomically by the compaction node.

    Coverage: the summary stands for raw messages ``[head_end, covered_through)``; the
    node renders it as ONE message between the protected head and the verbatim tail.
    """

    model_config = ConfigDict(frozen=True)

    sections: dict[Section, tuple[SummaryItem, ...]] = Field(default_factory=dict)
    head_end: int
    covered_through: int
    last_covered_id: str | None = None
    span_digest: str = ""
    generation: int = 1
    parent_generation: int | None = None
    summarizer: str = "extractive"
    format_version: int = FORMAT_VERSION
    token_count: int = 0
    rebuilt_reason: str | None = None
    """Why coverage was rebuilt from scratch (edited history, redaction, branch), if it was."""

    def items(self, section: Section) -> tuple[SummaryItem, ...]:
        """The items of ``section`` (empty when the section has none)."""
        return self.sections.get(section, ())

    def current(self, section: Section) -> list[str]:
        """Texts of the non-historical items of ``section``: what the model should act on."""
        return [i.text for i in self.items(section) if not i.historical]

    def source_ids(self) -> dict[str, list[str]]:
        """Item text → the raw message ids it was extracted from (lineage for recall)."""
        return {
            item.text: list(item.sources)
            for items in self.sections.values()
            for item in items
            if item.sources
        }

    def render(self) -> str:
        """The summary as the text of one clearly marked message."""
        first, last = self.head_end + 1, self.covered_through
        lines = [
            f"[Summary of messages {first}–{last} of this thread (generation "
            f"{self.generation}); they are not shown. Use the recall tool with a ref "
            "(message id) or a search query for the originals.]"
        ]
        for title, sections in (
            ("Goal", (Section.GOAL,)),
            ("Constraints & Preferences", (Section.CONSTRAINTS,)),
            ("Progress", _PROGRESS),
            ("Key Decisions", (Section.DECISIONS,)),
            ("Critical Context", (Section.CRITICAL,)),
            ("Relevant Files", _FILES),
            ("Next Steps", (Section.NEXT_STEPS,)),
        ):
            body = _render_group(self, sections)
            if body:
                lines.append(f"## {title}")
                lines.extend(body)
        return "\n".join(lines)

    def to_message(self) -> HumanMessage:
        """The rendered summary as the single summary message of a projection."""
        return HumanMessage(
            self.render(),
            id=f"summary-gen-{self.generation}",
            additional_kwargs={
                SUMMARY_MARKER_KEY: {
                    "generation": self.generation,
                    "head_end": self.head_end,
                    "covered_through": self.covered_through,
                }
            },
        )

    def without_sources(self, message_ids: set[str] | frozenset[str]) -> RunningSummary:
        """A copy without the items drawn from ``message_ids``, marked stale.

        Redaction uses it so that nothing extracted from a redacted message survives in
        stored summaries; the emptied digest makes the node rebuild coverage next call.
        Items of unknown lineage (no ``sources``, e.g. written by a chat model) could hold
        anything and are dropped too.
        """
        sections = {
            section: tuple(
                i for i in items if i.sources and not message_ids.intersection(i.sources)
            )
            for section, items in self.sections.items()
        }
        return self.model_copy(
            update={"sections": sections, "span_digest": "", "rebuilt_reason": "redacted"}
        )

    def to_json(self) -> str:
        """JSON text that ``RunningSummary.model_validate_json`` reads back unchanged."""
        return self.model_dump_json()


def _render_group(summary: RunningSummary, sections: tuple[Section, ...]) -> list[str]:
    """Bullet lines for a heading; sub-headings only when the heading groups sections."""
    out: list[str] = []
    for section in sections:
        items = summary.items(section)
        if not items:
            continue
        if len(sections) > 1:
            out.append(f"### {section.value}")
        current = [i for i in items if not i.historical]
        past = [i for i in items if i.historical]
        out.extend(f"- {i.text}" for i in current)
        out.extend(f"- (historical, earlier task) {i.text}" for i in past)
    return out


def is_summary_message(message: Any) -> bool:
    """True for the rendered summary message of a projection."""
    kwargs = getattr(message, "additional_kwargs", None) or {}
    return SUMMARY_MARKER_KEY in kwargs
