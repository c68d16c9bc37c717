"""Supersession by subject: a later statement of a new value replaces the earlier one.

A statement is read as a *subject* (its content words, values and correction words left
out) and its *values* (verbatim tokens: numbers, times, hosts, ids, names; the value of
"X is Y"). A later statement supersedes an earlier one when it marks one of the earlier
one's values stale ("not X", "instead of X", "X is abandoned", "from X to Y"), or when
both have the same subject and the later one states a different value of the same shape
where the earlier one stated its value ("the window is 15:32 UTC" after "the window is
09:00 UTC"); a key that is a name by itself (``BROKER=``, ``queue_host:``) is a whole
subject, and keys that cross (``qualifiers``: "db host", "cache host") are two. Values
both share are qualifiers (``db-1`` in "db-1's port is 5432"); a value only mentioned
again supersedes nothing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction.cues import CHANGED
from langgraph_compact.compaction.qualifiers import crossed, key_words
from langgraph_compact.compaction.quote import value_spans
from langgraph_compact.compaction.shapes import comparable, compatible, value_groups, value_tokens
from langgraph_compact.compaction.stale import stale_spans

__all__ = [
    "CHANGE_WORDS",
    "Statement",
    "answer",
    "compatible",
    "index_words",
    "same_subject",
    "statement",
    "superseded_values",
    "value_tokens",
]

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


_CHANGE_VERB = re.compile(rf"\b{CHANGED}(?=(?:to|into|onto|as|from)\b)")
"""The verb of a change said in the passive ("was pushed back to", "got bumped to"): it says
that something changed, not what, so its words are no subject words. It does not make a
statement one that ``changes``: "was copied to" or "got billed to" moves no value."""


CHANGE_WORDS = frozenset(
    """instead rather longer anymore move moves moved switch switches switched change
    changes changed replace replaces replaced swap swapped drop dropped forget scratch formerly
    previously ignore disregard supersede supersedes superseded deprecated retired abandoned
    outdated obsolete wrong mistake typo correction corrected rename renamed update updated
    migrate migrated""".split()
)
"""Words saying that a value changed, in any phrasing: with one, a value the statement
shares with an earlier one, beside a new value of the same shape, is the old one."""


@dataclass(frozen=True)
class Statement:
    """What a statement is about (``subject``), the values it states and those it says are
    no longer true (verbatim, folded for comparison in ``folded``/``folded_stale``)."""

    subject: frozenset[str]
    values: tuple[str, ...]
    stale: tuple[str, ...]
    main: tuple[str, ...]
    """The values of its "X is Y" facts (what it asserts, multi-word values whole)."""
    changes: bool = False
    """It says something changed (``CHANGE_WORDS``): a value it shares with an earlier
    statement may be the one it replaces."""
    links: frozenset[frozenset[str]] = frozenset()
    """Pairs of value tokens (folded) the sentence ties together: words other than "and",
    "or" or an article between them, and no ";" ("from X to Y", "swap X for Y"; not "X and
    Y", not "Y; the other stays X")."""
    names: frozenset[str] = frozenset()
    """The keys its facts are stated under that are names by themselves (``BROKER=``,
    ``queue_host:``, ``db.port =``): one such name is a whole subject."""
    qualifiers: frozenset[str] = frozenset()
    """The words of the keys its facts are stated under, stemmed, short words, numbers and
    a possessive's owner (``@alice``) included, stop and cue words not: what tells "the
    db host" from "the cache host" when the content words agree (``qualifiers``)."""

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
    facts = [
        _assigned(text, f) for f in p.facts(text) if not _inside(text.find(f.value, f.start), gone)
    ]
    facts += [f for f in _assignments(text) if not _inside(f.start, gone) and f not in facts]
    main = tuple(dict.fromkeys(f.value for f in facts))
    # where each fact states its value: "release/1.1" is not inside an earlier "release/1.10"
    taken = [(at, at + len(f.value)) for f in facts if (at := text.find(f.value, f.start)) != -1]
    keys = [(f.start, text.find(f.value, f.start)) for f in facts]  # ``staging_window:``
    tokens = [
        (a, b)
        for a, b in value_spans(text)
        if not _inside(a, gone) and not _inside(a, taken) and not _inside(a, keys)
    ]
    found = [*main, *(text[a:b] for a, b in tokens)]
    verbs = [m.span() for m in _CHANGE_VERB.finditer(text)]  # "was pushed to": no subject
    masked = list(text)
    for a, b in [*gone, *taken, *tokens, *verbs]:
        masked[a:b] = " " * (b - a)
    words = re.findall(r"[^\W\d_]{3,}", "".join(masked))
    subject = frozenset(
        _stem(w) for w in words if w.lower() not in _STOP and w.lower() not in _CUE_WORDS
    )
    names = frozenset(n for f in facts if (n := _name(text, f)))
    qualifiers = frozenset(
        _stem(w)
        for f, (_, at) in zip(facts, keys, strict=True)
        for w in key_words(text, f.start, at if at != -1 else f.start)
        if w not in _STOP and w not in _CUE_WORDS
    )
    changes = any(w.lower() in CHANGE_WORDS for w in re.findall(r"[^\W\d_]{3,}", text))
    found_values = tuple(dict.fromkeys(found))
    return Statement(subject, found_values, stale, main, changes, _links(text), names, qualifiers)


def answer(signature: str, value: str) -> Statement:
    """What a tool output that is one value states: the current value of what its command
    names (``bash: cat PINNED`` printing ``4add32f67eec``). ``signature`` is the call's
    (``candidates.call_signature``: ``name: args``). The subject is the words of the
    command line after the program, a path by its file name, options left out; an output
    is the present state, so it replaces an earlier statement whose subject holds all of
    those words and whose value has the same shape. A call with structured arguments has
    no command line to read, and a bare number or version is too weak to say what it is
    the value of: those state nothing (their answer is still replaced by the same call).

    >>> sorted(answer("bash: cat config/.python-env", "py3-slim").subject)
    ['env', 'python']
    >>> answer("bash: cat VERSION", "2.4.1").subject
    frozenset()
    """
    command = signature.partition(": ")[2]
    if command.lstrip().startswith("{") or re.fullmatch(r"v?[\d.,]+", value):
        return Statement(frozenset(), (value,), (), (value,))
    words: list[str] = []
    for token in command.split()[1:]:
        if token.startswith("-"):
            continue
        name = re.split(r"[/\\]", token.strip("'\"`"))[-1]
        words += re.findall(r"[^\W\d_]{3,}", name.rsplit(".", 1)[0] if "." in name[1:] else name)
    subject = frozenset(
        _stem(w) for w in words if w.lower() not in _STOP and w.lower() not in _CUE_WORDS
    )
    return Statement(subject, (value,), (), (value,), changes=True)


def _assigned(text: str, fact: p.Fact) -> p.Fact:
    """``fact`` with its value ended at the first space when it is written ``KEY=value``
    (no space at the ``=``): an assignment delimits itself, so "reads REDIS_HOST=db-4
    from its env" states ``db-4``, not "db-4 from its env"."""
    at = text.find(fact.value, fact.start)
    if at <= 0 or text[at - 1] != "=" or not text[at - 2 : at - 1].strip():
        return fact
    written = re.match(r"[^\s,;]+", text[at:])
    value = written.group(0).rstrip(".:!?)]") if written else ""
    if not value or value == fact.value:
        return fact
    return fact._replace(value=value, end=at + len(value))


_ASSIGNMENT = re.compile(
    r"(?<![\w.$-])(?P<key>[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+|[A-Z][A-Z0-9]{3,})="
    r"(?P<value>[^\s,;=]+)"
)
"""``KEY=value`` written as one word: a compound or capitalized key, no spaces."""


def _assignments(text: str) -> list[p.Fact]:
    """The ``KEY=value`` words of ``text`` as facts, wherever they stand in it."""
    out = []
    for m in _ASSIGNMENT.finditer(text):
        value = m["value"].rstrip(".:!?)]")
        if value:
            out.append(p.Fact(m["key"].casefold(), value, m.start(), m.start("value") + len(value)))
    return out


def _links(text: str) -> frozenset[frozenset[str]]:
    """The value tokens ``text`` ties: those of two neighbouring values ("14:05 UTC" is one,
    its tokens only a space apart) with a ``_TIE`` word between them and no ";"."""
    return frozenset(
        frozenset((text[a:b].casefold(), text[x:y].casefold()))
        for left, right in itertools.pairwise(value_groups(text))
        if _TIE.search(between := text[left[-1][1] : right[0][0]]) and ";" not in between
        for a, b in left
        for x, y in right
    )


_TIE = re.compile(r"(?i)\b(?!(?:and|or|the|a|an|both|nor)\b)[^\W\d_]+")
"""A word between two values that ties them (not a conjunction or an article)."""


_COMPOUND_KEY = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+")
_CAPS_KEY = re.compile(r"[A-Z][A-Z0-9]{3,}")


def _name(text: str, fact: p.Fact) -> str:
    """The fact's key when it names a setting by itself (folded; else ""): the whole key
    (but for stop words), a compound (``queue_host``, ``db.port``) or a capitalized word
    of four letters or more written with ``=`` (``BROKER=x``). Not ``URL:`` or ``employee
    ID:``, which say what kind of value, not which one."""
    at = text.find(fact.value, fact.start)
    if at == -1:
        return ""
    words = [w for w in re.findall(r"[\w.]+", text[fact.start : at]) if w.lower() not in _STOP]
    assigned = text[fact.start : at].rstrip().endswith("=")
    if assigned and text[at - 1] == "=" and words and text[:at].endswith(words[-1] + "="):
        words = words[-1:]  # ``reads REDIS_HOST=x``: the assignment names itself
    if len(words) != 1:
        return ""
    key: str = words[0]
    if _COMPOUND_KEY.fullmatch(key) or (assigned and _CAPS_KEY.fullmatch(key)):
        return key.casefold()
    return ""


def index_words(found: Statement) -> Iterator[str]:
    """What a statement is found by: its subject words, and its value tokens (``=value``),
    so a later statement naming the same value finds it whatever its words."""
    yield from found.subject
    for token in value_tokens(found.values):
        yield "=" + token


def _inside(at: int, ranges: list[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in ranges)


def same_subject(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two statements are about the same thing: at least two words in common, and one's
    words within the other's or most of them shared."""
    common = len(a & b)
    if common < 2:
        return False
    return common == min(len(a), len(b)) or common >= 0.6 * len(a | b)


def superseded_values(new: Statement, old: Statement, *, implicit: bool = True) -> tuple[str, ...]:
    """The values of ``old`` that the later statement ``new`` makes stale (empty: it
    supersedes nothing of it); only those it marks stale unless ``implicit``, and none
    when their keys name two things (``qualifiers.crossed``)."""
    said = value_tokens(new.values)  # "UTC" restated in "11:00 UTC" is not stale
    marked = new.folded_stale & old.folded
    if not marked and new.stale:  # "12.947°S / 24.304°W" marked, its two tokens stated
        named = value_tokens(new.stale)
        marked = frozenset(v.casefold() for v in old.values if value_tokens([v]) <= named - said)
    if marked:
        return tuple(v for v in old.values if v.casefold() in marked)
    if (
        not implicit
        or not new.values
        or not old.values
        or not (same_subject(new.subject, old.subject) or new.names & old.names or _tied(new, old))
        or crossed(new.qualifiers, old.qualifiers)
    ):
        return ()
    shared = new.folded & old.folded
    gone = [v for v in old.values if v.casefold() not in shared]
    came = [v for v in new.values if v.casefold() not in shared]
    if old.main and new.main:  # both assert a value: compare what they assert
        gone = [v for v in old.main if v.casefold() not in shared] or gone
        came = [v for v in new.main if v.casefold() not in shared] or came
    return tuple(
        v for v in gone if not value_tokens([v]) <= said and any(comparable(v, w) for w in came)
    )


def _tied(new: Statement, old: Statement) -> bool:
    """One subject in other ways: the same words and no names (``memory: 5568MiB`` then
    ``memory: 7168MiB``; named settings, ``setting_3 = 1003`` and ``setting_4 = 1004``, are
    one subject only by name), or a statement saying its subject changed in words all of
    which the old one used ("Update: staging moved, it's Y now" after "Staging data is on
    X")."""
    keyed = new.subject == old.subject and not (new.names or old.names)
    return bool(new.subject) and (keyed or (new.changes and new.subject <= old.subject))
