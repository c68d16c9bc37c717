"""Lines a summary shows once: of a line another line of its kind already says, the
better one; of a line In Progress and a lasting section both hold, the lasting copy; of
the values one argument of one tool was passed in turn, the latest first."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.calls import ID_ARG
from langgraph_compact.compaction.summary import Section, SummaryItem

__all__ = ["MIN_CONTAINED_CHARS", "lasting_copies", "newer_values", "without_repeats"]

MIN_CONTAINED_CHARS = 12
"""An unpinned line this long or longer that a kept line already contains is not repeated."""


def without_repeats(
    sections: dict[Section, list[SummaryItem]],
) -> dict[Section, list[SummaryItem]]:
    """Sections without unpinned lines another line of their kind already says: of a line
    and a longer one containing its words (one error printed by two layers), the less
    salient goes. Kinds stay apart (a path item outlives the sentence that named it), names
    are never repeats of longer names (``package.json`` is not ``web/package.json``), and
    a blocked step stays whatever it quotes: it is state that a later success clears."""
    items = [
        (f" {_core(i)} ", i)
        for s, found in sections.items()
        if s not in _STATES
        for i in found
        if i.kind not in _NAMES
    ]
    rank = {id(i): (i.salience, i.seq, n) for n, (_, i) in enumerate(items)}
    drop: set[int] = set()
    for short_text, a in items:
        if len(short_text) < MIN_CONTAINED_CHARS + 2:
            continue
        for long_text, b in items:
            if a is b or a.kind != b.kind or id(a) in drop or id(b) in drop:
                continue
            if len(long_text) < len(short_text) or short_text not in long_text:
                continue  # whole words only: " timeout 30 " is not in " timeout 300 "
            loser = b if rank[id(a)] > rank[id(b)] else a
            if not loser.pinned and not loser.kept:
                drop.add(id(loser))
    return {s: [i for i in found if id(i) not in drop] for s, found in sections.items()}


def lasting_copies(
    sections: Mapping[Section, Sequence[SummaryItem]],
) -> dict[str, tuple[Section, SummaryItem]]:
    """Each line's copy in a section the next assistant turn leaves as it is, by normalized
    text: not In Progress or Next Steps, which the turn replaces, nor an earlier task's.
    ``select`` takes such a copy where it would have taken the line's In Progress copy: a
    line is shown once, and had the copy there been taken ("Plan fixed: the cutover is at
    21:11", the turn's first sentence and a note), the lasting one would not be stored, and
    the line would be gone a compaction later."""
    out: dict[str, tuple[Section, SummaryItem]] = {}
    for s, found in sections.items():
        if s not in _REPLACED:
            for i in found:
                if not i.historical:
                    out.setdefault(tx.norm(i.text), (s, i))
    return out


_REPLACED = frozenset({Section.IN_PROGRESS, Section.NEXT_STEPS})


_NAMES = frozenset({"path", "identifier", "file"})
_STATES = frozenset({Section.BLOCKED, Section.IN_PROGRESS})
_ERROR_LABEL = re.compile(r"^[^:\n]{1,60}?:\s+")


def _core(item: SummaryItem) -> str:
    """What a line says, for spotting repeats; an error without its label, since one
    failure is often printed by several layers ("OperationalError: X", "ERROR running
    SQL: X")."""
    if item.kind == "error":
        core = tx.norm(_ERROR_LABEL.sub("", item.text, count=1))
        if len(core) >= 2 * MIN_CONTAINED_CHARS:
            return core
    return tx.norm(item.text)


def newer_values(
    sections: Mapping[Section, Sequence[SummaryItem]],
) -> dict[tuple[Section, int], int]:
    """By place in ``sections``: how many later messages passed the same argument of the
    same tool another value. A search run for one date after another leaves a log, whose
    latest value is the state; values passed in one message (parallel calls) are of one
    moment and do not count against each other."""
    seqs: dict[tuple[str, str], set[int]] = {}
    found: list[tuple[tuple[Section, int], tuple[str, str], int]] = []
    for s, items in sections.items():
        for n, i in enumerate(items):
            if (arg := _setting(i)) is not None:
                seqs.setdefault(arg, set()).add(i.seq)
                found.append(((s, n), arg, i.seq))
    ordered = {arg: sorted(found_at) for arg, found_at in seqs.items()}
    return {at: len(ordered[arg]) - bisect_right(ordered[arg], seq) for at, arg, seq in found}


def _setting(item: SummaryItem) -> tuple[str, str] | None:
    """The tool and argument a value was passed whole in (``search_flight date: …``), when
    the argument is a setting the calls vary. A name mined from a command line is one word
    of a command, not a value of a log, and ids looked up in turn (``reservation_id``) are
    each a thing of their own."""
    if item.kind != "identifier" or not item.spans:
        return None
    span = item.spans[0]
    arg = span.part.removeprefix("args.")
    if arg == span.part or span.start != 0 or ID_ARG.search(arg):
        return None
    return item.text[: span.at], span.part
