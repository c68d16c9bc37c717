"""``RunningSummary``: the structured summary kept in graph state, with its coverage cursor.

The summary is a schema, not prose: fixed sections in a fixed order, each a list of items
that remember which raw messages they came from, how salient they are and whether they
may ever be evicted. It covers the raw messages ``[head_end, covered_through)`` exactly
(plus, when ``covers_head`` is set, the part of the first request its clip omitted);
``span_digest`` over that span lets the node notice an edited, redacted or branched
history and rebuild instead of trusting stale text.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, ConfigDict, Field

from langgraph_compact.compaction.quote import Quote, Span

__all__ = [
    "CORRECTED",
    "FORMAT_VERSION",
    "SUMMARY_MARKER_KEY",
    "RunningSummary",
    "Section",
    "SummaryItem",
    "is_summary_message",
    "render_sections",
]

FORMAT_VERSION = 3
SUMMARY_MARKER_KEY = "langgraph_compact_summary"
"""``additional_kwargs`` key that marks the rendered summary message in a projection."""
SUMMARY_TITLE = "[Summary of "
"""How every rendered summary begins; extraction recognizes a summary fed back as text."""


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


GROUPS: tuple[tuple[str, tuple[Section, ...]], ...] = (
    ("Goal", (Section.GOAL,)),
    ("Constraints & Preferences", (Section.CONSTRAINTS,)),
    ("Progress", (Section.DONE, Section.IN_PROGRESS, Section.BLOCKED)),
    ("Key Decisions", (Section.DECISIONS,)),
    ("Critical Context", (Section.CRITICAL,)),
    ("Relevant Files", (Section.FILES_READ, Section.FILES_MODIFIED)),
    ("Next Steps", (Section.NEXT_STEPS,)),
)
"""Render headings and the sections under each (sub-headings where a heading groups two)."""


class SummaryItem(BaseModel):
    """One line of a section, with the lineage needed to supersede, evict and recall it.

    ``key`` groups values of the same thing: a later item with the same key replaces the
    earlier one (corrections supersede). ``salience`` (0–1) orders eviction together with
    recency; ``pinned`` items (constraints, safety rules, preferences, the latest value of
    a corrected fact, the current goal) are never evicted. ``stale`` lists values this
    item made obsolete: any other item still stating one of them is dropped.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    """What the summary shows: verbatim pieces of its sources (``spans``) and labels."""
    spans: tuple[Span, ...] = ()
    """Where each verbatim piece of ``text`` comes from (message id, offsets)."""
    key: str | None = None
    kind: str = "note"
    """What the item is: constraint, preference, safety, goal, correction, fact, error,
    identifier, path, decision, done, blocked, progress, next or note."""
    sources: tuple[str, ...] = ()
    seq: int = 0
    """Raw index of the message the item was last seen in (recency for eviction)."""
    refs: int = 1
    """How many messages mentioned it."""
    salience: float = 0.5
    pinned: bool = False
    historical: bool = False
    """Belongs to an earlier task; rendered as such so it cannot hijack the current one."""
    kept: bool = False
    """Kept over the cap like a pinned item, but given up when the budget needs the room
    (the instructions of a first request the projection clips)."""
    stale: tuple[str, ...] = ()
    said_with: tuple[str, ...] = ()
    """Values its sentence names beside it, with a word saying something changed ("switch
    from X to Y"): which of them it replaced is read from what was said before."""
    amends: bool = False
    """Its sentence, or one beside it, says an earlier statement was wrong ("that ID is
    stale. It's Y now"): with no subject of its own, it corrects the one earlier value of
    its value's shape (``merge``)."""
    call: str = ""
    """The call whose output alone it was read from (``rerun.call_key``; a fact or id a
    tool printed): a later successful run of the same call replaces it (``rerun``)."""
    origin: str = ""
    """Who said it: ``human``, ``ai``, ``tool``, ``summary`` (read back from a rendered
    summary) or ``model`` (a model summarizer's own wording, its values checked)."""

    @property
    def quote(self) -> Quote:
        """The text with its spans, to cut or elide without losing where pieces came from."""
        return Quote(self.text, self.spans)

    def with_quote(self, quote: Quote) -> SummaryItem:
        """A copy showing ``quote``."""
        return self.model_copy(update={"text": quote.text, "spans": quote.spans})


class RunningSummary(BaseModel):
    """The working-memory summary of a thread, replaced atomically by the compaction node.

    Coverage: the summary stands for raw messages ``[head_end, covered_through)`` and,
    when ``covers_head``, for the part of the first request its clip left out; the node
    renders it as ONE message between the protected head and the verbatim tail. The
    coverage and lineage fields are written by the orchestrator (``compact``), never by
    a summarizer.
    """

    model_config = ConfigDict(frozen=True)

    sections: dict[Section, tuple[SummaryItem, ...]] = Field(default_factory=dict)
    head_end: int
    covered_through: int
    covers_head: bool = False
    last_covered_id: str | None = None
    span_digest: str = ""
    generation: int = 1
    parent_generation: int | None = None
    summarizer: str = "extractive"
    path: str = "extractive"
    """How the summarizer produced it (``extractive``, ``structured``, ``json``,
    ``markdown``, ``prose``, ``fallback: <reason>``, ...)."""
    format_version: int = FORMAT_VERSION
    token_count: int = 0
    rebuilt_reason: str | None = None
    """Why coverage was rebuilt from scratch (edited history, redaction, branch), if it was."""
    flagged: tuple[str, ...] = ()
    """What a model summarizer wrote with a value no source holds: never shown as fact,
    kept here (with the values) for the inspector and the logs."""
    evicted: tuple[str, ...] = ()
    """Value tokens (folded) of the statements summaries of this thread gave up to fit
    their cap, oldest first, at most ``strike.MAX_EVICTED``: a correction that names no
    subject finds what it corrects by its new value's shape, and one of these with that
    shape makes the choice unknown (``merge_items``, ``strike_corrected``). Never shown."""

    def items(self, section: Section) -> tuple[SummaryItem, ...]:
        """The items of ``section`` (empty when the section has none)."""
        return self.sections.get(section, ())

    def current(self, section: Section) -> list[str]:
        """Texts of the non-historical items of ``section``: what the model should act on."""
        return [i.text for i in self.items(section) if not i.historical]

    def all_items(self) -> list[SummaryItem]:
        """Every item, in render order."""
        return [i for _, group in GROUPS for s in group for i in self.items(s)]

    def source_ids(self) -> dict[str, list[str]]:
        """Item text → the raw message ids it was extracted from (lineage for recall)."""
        return {i.text: list(i.sources) for i in self.all_items() if i.sources}

    def title(self) -> str:
        """The first line: what the summary stands for, truthfully labelled."""
        first, last = self.head_end + 1, self.covered_through
        parts = []
        if last > self.head_end:
            parts.append(f"messages {first}–{last}")
        if self.covers_head:
            parts.append(f"the part of message {self.head_end} left out above")
        what = " and ".join(parts) or "nothing yet"
        return (
            f"{SUMMARY_TITLE}{what} (generation {self.generation}); recall(ref or query) "
            "shows the originals.]"
        )

    def render(self) -> str:
        """The summary as the text of one clearly marked message."""
        return render_sections(self.title(), self.sections)

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
        Items of unknown lineage (no ``sources``) could hold anything and are dropped too.
        """
        sections = {
            section: tuple(
                i for i in items if i.sources and not message_ids.intersection(i.sources)
            )
            for section, items in self.sections.items()
        }
        update = {"sections": sections, "span_digest": "", "rebuilt_reason": "redacted"}
        return self.model_copy(update={**update, "evicted": ()})  # a ledger has no lineage

    def to_json(self) -> str:
        """JSON text that ``RunningSummary.model_validate_json`` reads back unchanged."""
        return self.model_dump_json()


def render_sections(title: str, sections: dict[Section, tuple[SummaryItem, ...]]) -> str:
    """``title`` then one heading per non-empty group, one bullet per item."""
    lines = [title]
    for heading, group in GROUPS:
        body: list[str] = []
        for section in group:
            items = sections.get(section, ())
            if not items:
                continue
            if len(group) > 1:
                body.append(f"### {section.value}")
            body.extend(_bullet(f"{i.text}{_suffix(i)}") for i in items if not i.historical)
            body.extend(_bullet(f"{HISTORICAL}{i.text}") for i in items if i.historical)
        if body:
            lines.append(f"## {heading}")
            lines.extend(body)
    return "\n".join(lines)


HISTORICAL = "(historical, earlier task) "
"""Rendered before an item of an earlier task."""


def _bullet(text: str) -> str:
    """One item as a bullet; a text of several lines goes on indented by two spaces."""
    return "- " + text.replace("\n", "\n  ")


CORRECTED = " (corrected)"
"""Rendered after the latest value of a corrected fact: it overrides earlier values, and
a summary fed back as text keeps it pinned."""


def _suffix(item: SummaryItem) -> str:
    return CORRECTED if item.kind == "correction" and item.pinned else ""


def is_summary_message(message: Any) -> bool:
    """True for the rendered summary message of a projection."""
    kwargs = getattr(message, "additional_kwargs", None) or {}
    return SUMMARY_MARKER_KEY in kwargs
