"""Supersession by subject: a later statement of a new value replaces the earlier one.

A statement is read as a *subject* (its content words, values and correction words left
out) and its *values* (verbatim tokens: numbers, times, hosts, ids, names; the value of
"X is Y"). A later statement supersedes an earlier one when it marks one of the earlier
one's values stale ("not X", "instead of X", "X is abandoned", "from X to Y"), or when
both have the same subject and the later one states a different value of the same shape
where the earlier one stated its value ("the window is 15:32 UTC" after "the window is
09:00 UTC"). Values both share are qualifiers (``db-1`` in "db-1's port is 5432"); a
value only mentioned again supersedes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction.quote import value_spans
from langgraph_compact.compaction.stale import stale_spans

__all__ = ["Statement", "compatible", "same_subject", "statement", "superseded_values"]

_CUE_WORDS = frozenset(
    """correction correct corrected actually update updated now not instead rather than no
    longer anymore sorry wrong typo scratch meant mistake changed change changes moved move
    moves from previously used formerly abandoned abandon dropped deprecated obsolete
    scrapped superseded replaced replace replacing outdated retired new old current
    currently still really please remember note fyi got that this these those""".split()
)
"""Words that say a value changed, not what the value is about."""
_STOP = frozenset(
    """the a an and or but of to in on at for with by as is are was were be been being has
    have had do does did will would should shall can could may might must it its this that
    there here they them their we our you your i my me he she his her so if then than also
    just only very too all any some each every such what which who whom whose when where
    why how into onto over under about after before again set equals becomes become""".split()
)


@dataclass(frozen=True)
class Statement:
    """What a statement is about (``subject``), the values it states and those it says are
    no longer true (verbatim, folded for comparison in ``folded``/``folded_stale``)."""

    subject: frozenset[str]
    values: tuple[str, ...]
    stale: tuple[str, ...]
    main: tuple[str, ...]
    """The values of its "X is Y" facts (what it asserts, multi-word values whole)."""

    @property
    def folded(self) -> frozenset[str]:
        return frozenset(v.casefold() for v in self.values)

    @property
    def folded_stale(self) -> frozenset[str]:
        return frozenset(v.casefold() for v in self.stale)


def _stem(word: str) -> str:
    w = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


@lru_cache(maxsize=4096)
def statement(text: str) -> Statement:
    """The subject and values of ``text`` (one sentence or line).

    >>> s = statement("Correction: the staging window is now 15:32 UTC, not 09:00 UTC.")
    >>> sorted(s.subject), s.values, s.stale
    (['stag', 'window'], ('15:32 UTC',), ('09:00 UTC',))
    """
    marks = stale_spans(text)
    stale = tuple(dict.fromkeys(text[s.start : s.end].strip() for s in marks))
    gone = [(s.clause_start, s.clause_end) for s in marks] + [(s.start, s.end) for s in marks]
    facts = [f for f in p.facts(text) if not _inside(text.find(f.value, f.start), gone)]
    main = tuple(dict.fromkeys(f.value for f in facts))
    taken = [(at, at + len(v)) for v in main if (at := text.find(v)) != -1]
    keys = [(f.start, text.find(f.value, f.start)) for f in facts]  # ``staging_window:``
    tokens = [
        (a, b)
        for a, b in value_spans(text)
        if not _inside(a, gone) and not _inside(a, taken) and not _inside(a, keys)
    ]
    found = [*main, *(text[a:b] for a, b in tokens)]
    masked = list(text)
    for a, b in [*gone, *taken, *tokens]:
        masked[a:b] = " " * (b - a)
    words = re.findall(r"[^\W\d_]{3,}", "".join(masked))
    subject = frozenset(
        _stem(w) for w in words if w.lower() not in _STOP and w.lower() not in _CUE_WORDS
    )
    return Statement(subject, tuple(dict.fromkeys(found)), stale, main)


def _inside(at: int, ranges: list[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in ranges)


def same_subject(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two statements are about the same thing: at least two words in common, and one's
    words within the other's or most of them shared."""
    common = len(a & b)
    if common < 2:
        return False
    return common == min(len(a), len(b)) or common >= 0.6 * len(a | b)


def _shape(value: str) -> str:
    shape = re.sub(r"\d+", "9", value)
    shape = re.sub(r"(?<=9)[.,](?=9)", "", shape)
    shape = re.sub(r"[^\W\d_]+", lambda m: "A" if m.group()[:1].isupper() else "a", shape)
    return re.sub(r"(.)\1+", r"\1", shape)


def compatible(a: str, b: str) -> bool:
    """Values of the same shape: two times, two host:port pairs, two numbers, two names.

    >>> compatible("09:00 UTC", "15:32 UTC"), compatible("build-7:2222", "9000")
    (True, False)
    """
    if _shape(a) == _shape(b):
        return True
    words = re.compile(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*")
    return bool(words.fullmatch(a) and words.fullmatch(b))


def superseded_values(new: Statement, old: Statement, *, implicit: bool = True) -> tuple[str, ...]:
    """The values of ``old`` that the later statement ``new`` makes stale (empty: it
    supersedes nothing of it); only those it marks stale unless ``implicit``."""
    marked = new.folded_stale & old.folded
    if marked:
        return tuple(v for v in old.values if v.casefold() in marked)
    if (
        not implicit
        or not new.values
        or not old.values
        or not same_subject(new.subject, old.subject)
    ):
        return ()
    shared = new.folded & old.folded
    gone = [v for v in old.values if v.casefold() not in shared]
    came = [v for v in new.values if v.casefold() not in shared]
    if old.main and new.main:  # both assert a value: compare what they assert
        gone = [v for v in old.main if v.casefold() not in shared] or gone
        came = [v for v in new.main if v.casefold() not in shared] or came
    return tuple(v for v in gone if any(compatible(v, w) for w in came))
