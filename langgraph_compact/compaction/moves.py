"""Moved values: "switch from X to Y" names the old value again beside the new one.

A statement saying something changed (``Statement.changes``) may name both values in any
words ("go with Y over X", "X was a mistake, it's Y"); which one is old is read from
what was said before, and the sentence must tie the two (``Statement.links``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from langgraph_compact.compaction.shapes import comparable, value_tokens
from langgraph_compact.compaction.subject import Statement

__all__ = ["moved_from_given_up", "moved_values", "tied"]


def moved_values(
    new: Statement, old: Statement, said: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The values of ``old`` that ``new``, a later statement saying something changed,
    names again beside a new value of the same shape: "switch from X to Y", "go with Y
    over X", "X was a mistake, it's Y", whatever the words. Which of the two is old is
    read from what was said before, not from the phrasing: the old value was said in
    ``old``, the new one in nothing earlier (``said``: value tokens stated before), and
    the sentence ties the two ("X and Y" does not).

    >>> from langgraph_compact.compaction.subject import statement
    >>> old = statement("The billing owner is Harlow.")
    >>> moved_values(statement("Switch from Harlow to Brennan."), old)
    ('Harlow',)
    >>> moved_values(statement("Harlow and Brennan both review it."), old)
    ()
    """
    if not new.changes:
        return ()
    now, before = value_tokens(new.values), value_tokens(old.values)
    came = [v for v in new.values if not value_tokens([v]) <= before | said]

    return tuple(
        v
        for v in old.values
        if value_tokens([v]) <= now
        and v.casefold() not in new.folded_stale
        and any(comparable(v, w) and tied(new, [v], [w]) for w in came)
    )


def moved_from_given_up(
    text: str, new: Statement, given_up: frozenset[str], said: frozenset[str]
) -> tuple[str, ...]:
    """``moved_values`` when what first stated the old value is no longer held: an
    earlier summary gave it up, and only its value tokens are known (``given_up``,
    ``RunningSummary.evicted``). ``said`` holds the value tokens stated by what is held.
    A value after "to" names where something moves, said before or not ("from 08:00 to
    09:00")."""
    before = tuple(
        v
        for v in new.values
        if (tokens := value_tokens([v])) <= given_up
        and not tokens & said
        and not _DESTINATION.search(text[: _at(text, v)])
    )
    return moved_values(new, Statement(frozenset(), before, (), ()), said) if before else ()


_DESTINATION = re.compile(r"(?i)(?:\bto|\binto|→|->)\s*$")


def _at(text: str, value: str) -> int:
    found = re.search(rf"(?<![\w.]){re.escape(value)}(?!\w)", text)
    return found.start() if found else 0


def tied(found: Statement, these: Iterable[str], those: Iterable[str]) -> bool:
    """Whether the sentence of ``found`` ties a value token of ``these`` to one of ``those``."""
    mine, theirs = value_tokens(these), value_tokens(those)
    return any(frozenset((x, y)) in found.links for x in mine for y in theirs)
