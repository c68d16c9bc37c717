"""In progress and next: what the latest assistant message says it is doing and will do."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from langgraph_compact.compaction import cues
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import (
    SALIENCE,
    Candidate,
    call_signature,
    item,
    present,
)
from langgraph_compact.compaction.quote import Quote, Source
from langgraph_compact.compaction.sentences import prose_sentences
from langgraph_compact.compaction.summary import Section
from langgraph_compact.messages import message_text

__all__ = ["next_steps"]


def next_steps(
    message: AIMessage, seq: int, answered: frozenset[str] = frozenset()
) -> list[Candidate]:
    """In-progress and next-step items from the latest assistant message.

    What it says it is doing is in progress; a call of it is "running" only while its
    result is not in ``answered`` (a call that returned is done, not in progress).
    """
    mid = message.id or ""
    src = Source(mid, message_text(message))
    found = [  # "Now let me test again:" only leads in to a command: it says nothing
        (a, b)
        for a, b, _ in prose_sentences(src.text, 0, len(src.text))
        if not tx.is_junk(s := src.text[a:b]) and not s.rstrip().endswith(":")
    ]
    out: list[Candidate | None] = []

    def add(section: Section, text: Quote, key: str, kind: str) -> None:
        out.append(
            item(section, text, mid, seq, key=key, kind=kind, salience=SALIENCE[kind], origin="ai")
        )

    for call in message.tool_calls:
        if (call.get("id") or "") not in answered:
            add(
                Section.IN_PROGRESS,
                "running " + call_signature(call),
                f"progress:{call.get('id')}",
                "progress",
            )
    if found:
        add(Section.IN_PROGRESS, src.slice(*found[0]), "progress:text", "progress")
    for a, b in found[1:]:
        if cues.NEXT.search(src.text[a:b]):
            add(Section.NEXT_STEPS, src.slice(a, b), f"next:{tx.norm(src.text[a:b])[:60]}", "next")
    return present(out)
