"""A call run again looks again: its output is the current state of what the earlier
run printed, so the facts read from the earlier output give way to the new one's.

Supersession by subject needs a later statement that names what it replaces; a command
run again names nothing, it shows the state anew (``wx latest --station primary`` at
09:00 and again at 09:40, ``./print-version.sh`` before and after ``git pull``). Each
fact read from an output keeps the call that printed it (``SummaryItem.call``); merge
drops it when a later output of that call is summarized. While the later output is
still in view, verbatim after the summary, the summary is left as it was: agents run
the same command again all the time, and striking on each run would rewrite the
prompt's cached prefix between compaction events (``anchor``).
"""

from __future__ import annotations

import re

from langgraph_compact.compaction.summary import SummaryItem

__all__ = ["OBSERVED", "looks_again", "replaced_by_run"]

OBSERVED = frozenset({"fact", "identifier"})
"""Kinds of tool items a later run replaces. Not errors (what failed is history: a fix
demotes them, ``merge._resolve``), not paths (a file read stays read)."""

_SEQUENCE = re.compile(r"\s*(?:&&|\|\||;)\s*")
_FLAG = re.compile(r"--?[A-Za-z][\w-]*")
"""A bare flag (``--short``, ``-la``): how a command prints, not what it looks at. A
flag with a value (``--station=a``) says what, and is kept."""


def _steps(signature: str) -> tuple[str, tuple[tuple[str, ...], ...]]:
    name, _, command = signature.partition(": ")
    return name, tuple(
        tuple(word for word in step.split() if not _FLAG.fullmatch(word))
        for step in _SEQUENCE.split(command)
        if step.strip()
    )


def looks_again(earlier: str, later: str) -> bool:
    """Whether the call ``later`` looks at what ``earlier`` printed (both call signatures,
    ``name: args``): the same call, or one whose steps end with the earlier one's, bare
    flags aside.

    >>> looks_again("bash: ./print-version.sh --short", "bash: git pull && ./print-version.sh")
    True
    >>> looks_again("bash: wx latest --station primary", "bash: wx latest --station primary -n")
    True
    >>> looks_again("bash: cd a && ls", "bash: cd b && ls")
    False
    >>> looks_again("bash: cat a.txt", "bash: cat b.txt")
    False
    """
    if earlier == later:
        return True
    name, before = _steps(earlier)
    again, after = _steps(later)
    return name == again and bool(before) and after[-len(before) :] == before


def replaced_by_run(item: SummaryItem, signature: str, output: str) -> bool:
    """Whether the output ``output`` (a message id) of the call ``signature`` replaces
    ``item``: a fact read from an earlier output of a call it ``looks_again`` at."""
    return (
        bool(item.call)
        and item.kind in OBSERVED
        and output not in item.sources
        and looks_again(item.call, signature)
    )
