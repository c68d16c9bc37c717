"""Read back what this package rendered: a summary inside a message, a pasted transcript.

A rotated session's hand-off, a pasted brief or a compactor of compactors passes the
previous context as one message. Its summary part is parsed item by item (the render's
own headings and bullets) and a transcript is split into its turns, so each part is read
as what it was instead of as one long human message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.parse import BULLET, HEADING, HISTORICAL, classified, section_for
from langgraph_compact.compaction.quote import Source
from langgraph_compact.compaction.summary import SUMMARY_TITLE, Section, SummaryItem

__all__ = [
    "CARRIED_SALIENCE",
    "parse_rendered_summary",
    "rendered_summaries",
    "split_rendered_summary",
    "transcript_turns",
]


_TITLE = re.compile(re.escape(SUMMARY_TITLE) + r"[^\n\]]*\(generation \d+\)")


def split_rendered_summary(text: str, lo: int = 0, hi: int | None = None) -> tuple[int, int] | None:
    """``(start, end)`` of a summary this package rendered inside ``text[lo:hi]``.

    The summary part is its title line and the headings, bullets and continuation lines
    right after it; a rendered projection (a hand-off) continues with other messages.
    """
    hi = len(text) if hi is None else hi
    at = text.find(SUMMARY_TITLE, lo, hi)
    while at != -1 and not _TITLE.match(text, at):  # a mention of the words, not a title
        at = text.find(SUMMARY_TITLE, at + 1, hi)
    if at == -1:
        return None
    end = text.find("\n", at, hi)
    if end == -1:
        return at, hi
    pos = end + 1
    while pos < hi:
        stop = text.find("\n", pos, hi)
        line = text[pos : hi if stop == -1 else stop]
        if line.strip() and not (line.startswith(("#", "  ")) or BULLET.match(line)):
            break
        end = pos + len(line)
        if stop == -1:
            break
        pos = stop + 1
    return at, end


CARRIED_SALIENCE: Mapping[str, float] = {
    "fact": 0.8,
    "error": 0.8,
    "note": 0.7,
    "path": 0.6,
}
"""Salience of an item read back from a rendered summary, by kind: it was kept by the
summary that rendered it, so it ranks with what people and tools state, above the
incidental lines of the turns around it."""
_PROGRESS_SALIENCE = 0.45


def rendered_summaries(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every summary this package rendered inside ``text``, in order (a
    hand-off of a hand-off holds the older one inside its first request)."""
    out: list[tuple[int, int]] = []
    pos = 0
    while (where := split_rendered_summary(text, pos)) is not None:
        out.append(where)
        pos = max(where[1], where[0] + 1)
    return out


def parse_rendered_summary(
    src: Source, seq: int
) -> tuple[list[tuple[Section, SummaryItem]], list[tuple[int, int]]] | None:
    """The items of the summaries this package rendered inside ``src.text``, and where
    each one is (the rest is extracted as usual by the caller); None when it holds none.

    A rotated session's hand-off or a compactor of compactors passes the previous context
    as one message: its summary part is read back item by item, so what it carried keeps
    its section, its pin, its key, its historical or corrected state and a salience that
    outranks the lines around it, instead of being clipped away as plain text. Each item
    quotes the line it was read from: rendering then parsing gives back the same items.
    Several summaries are read in order, so a later one's values supersede an earlier's.
    """
    where = rendered_summaries(src.text)
    if not where:
        return None
    out: list[tuple[Section, SummaryItem]] = []
    for start, end in where:
        out.extend(_summary_items(src, seq, start, end))
    return out, where


def _summary_items(
    src: Source, seq: int, start: int, end: int
) -> list[tuple[Section, SummaryItem]]:
    """The items of the rendered summary at ``src.text[start:end]``."""
    out: list[tuple[Section, SummaryItem]] = []
    current: Section | None = None
    lines = _lines(src.text, start, end)
    n = 0
    while n < len(lines):
        a, b = lines[n]
        line = src.text[a:b]
        n += 1
        heading = HEADING.match(line)
        if heading:
            current = section_for(heading["h"] or heading["b"] or heading["c"] or "")
            if current is None and (heading["h"] or "").strip() in _GROUPHEADINGS:
                current = _GROUPHEADINGS[(heading["h"] or "").strip()]
            continue
        bullet = BULLET.match(line)
        if current is None or bullet is None:
            continue
        a += bullet.end()
        body = src.piece(a, b)
        while n < len(lines) and src.text[lines[n][0] : lines[n][1]].startswith("  "):
            # a continuation line: the item's text goes on (the render indents it by two)
            body = body + "\n" + src.piece(lines[n][0] + 2, lines[n][1])
            n += 1
        body = body.strip()
        found_historical = HISTORICAL.match(body.text)
        historical = found_historical is not None
        if found_historical is not None:
            body = body._sub(found_historical.end(), len(body.text))
        if not body or tx.is_junk(body.text):
            continue
        progress = current in (Section.DONE, Section.IN_PROGRESS, Section.BLOCKED)
        for section, found in classified(current, body, historical, src.id, seq, 0.6, "summary"):
            weight = _PROGRESS_SALIENCE if progress else CARRIED_SALIENCE.get(found.kind)
            if weight is not None and not found.pinned:
                found = found.model_copy(update={"salience": max(found.salience, weight)})
            out.append((section, found))
    return out


_GROUPHEADINGS: Mapping[str, Section] = {
    "Progress": Section.DONE,
    "Relevant Files": Section.FILES_READ,
}


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    pos = start
    while pos < end:
        stop = text.find("\n", pos, end)
        stop = end if stop == -1 else stop
        out.append((pos, stop))
        pos = stop + 1
    return out


_TURN = re.compile(
    r"^(?P<role>human|user|ai|assistant|tool|function|system)"
    r"(?:\s*[\[(][^\])\n]{0,40}[\])])?:[ \t]",
    re.IGNORECASE | re.MULTILINE,
)
_ROLES: Mapping[str, str] = {
    "human": "human",
    "user": "human",
    "system": "human",
    "ai": "ai",
    "assistant": "ai",
    "tool": "tool",
    "function": "tool",
}


def transcript_turns(text: str, lo: int = 0, hi: int | None = None) -> list[tuple[str, int, int]]:
    """``(role, start, end)`` of each turn of a transcript pasted into ``text[lo:hi]``
    (lines opening with ``human:``, ``ai:``, ``tool:``, ``assistant:`` ...), or none when
    it is not one (fewer than two turns): a hand-off of a whole projection is read turn by
    turn, each as its role's text, so a tool's lines are not taken for the user's words.
    """
    hi = len(text) if hi is None else hi
    found = list(_TURN.finditer(text, lo, hi))
    if len(found) < 2:
        return []
    out = []
    if text[lo : found[0].start()].strip():
        out.append(("human", lo, found[0].start()))
    for m, after in zip(found, [*found[1:], None], strict=True):
        out.append((_ROLES[m["role"].lower()], m.end(), after.start() if after else hi))
    return out
