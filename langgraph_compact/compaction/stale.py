"""Stale values: where a correction names what is no longer true.

"Y, not X", "instead of X", "from X to Y", "replaced X with Y", "X → Y", "X is
abandoned", "was X" (not "was in fact X", which says X holds), and with no cue word a
value set against one of its shape ("Y not X", "Y (was X)"): each gives the span of X (a
verbatim value of the sentence, "12.947°S / 24.304°W" whole) and the words that say it is
stale, so a correction can be shown without them and ``subject`` can replace what stated
X. A change said in the passive names the new value ("was changed to Y"), not the old one
("Y (was X)").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import NamedTuple

from langgraph_compact.compaction.cues import CHANGED, CORRECTION
from langgraph_compact.compaction.quote import value_spans
from langgraph_compact.compaction.shapes import compatible, value_groups
from langgraph_compact.compaction.text import content_words, function_words_only, specificity

__all__ = ["Stale", "opens_with_value", "stale_spans", "stale_values"]

_PHRASE = r"(?:[^,.;()\n]|(?<=\d)[,.](?=\d)|(?<=\w)\.(?=\w)){1,40}?"
_STALE = re.compile(
    r"(?P<lead>,\s*|\s*\(|\s+|^)(?P<cue>\b(?:not|instead of|rather than|no longer|previously|"
    r"used to be|formerly|was(?!\s+(?:in fact|actually|really|indeed|truly)\b)|replacing|"
    r"replaces|in place of)\s+"
    r"(?:(?:use|using|need|run|point to|deploy to|target|support|on|at|in)\s+)?"
    r"(?:the |a |an )?)"
    rf"(?P<old>{_PHRASE})(?P<close>\)?)"
    r"(?=\s*(?:,(?!\d)|\.(?!\w)|[;()\n]|$| anymore| any more|\s+(?:for|on|in|at|as)\b))"
    rf"|(?P<from_cue>\bfrom\s+)(?P<from>{_PHRASE})\s+to\b"
    rf"|\breplac\w*\s+(?:the |a |an )?(?P<replaced>{_PHRASE})\s+(?:with|by)\b"
    rf"|(?P<arrow>[^\s,;()]+)\s*(?:→|->)\s*\S",
    re.IGNORECASE,
)
_GONE = re.compile(
    r"\s+(?:is|was|are|were|has been|have been|got|gets)\s+(?:now\s+)?(?:abandoned|dropped|"
    r"deprecated|obsolete|cancell?ed|retired|scrapped|superseded|outdated|wrong|invalid|gone|"
    r"dead|replaced|no longer (?:used|valid|needed|in use|correct|true|relevant|supported))\b",
    re.IGNORECASE,
)
"""``X is abandoned``: the value before it is stale."""
_CLAUSE_END = re.compile(r"[,;:](?=\s)")
_PASSIVE = re.compile(rf"\b{CHANGED}(?P<prep>to|from|into|onto|as|by|with|for)\s+(?:be\s+)?")
"""A change said in the passive ("was changed to Y", "has been rolled back to Y"): it names
the new value, not the old one, unless the sentence goes on to another value of its shape
said to hold now (``_replaced_later``). "was moved from X to Y" is read by the "from X to"
rule."""
_CLAUSE = re.compile(r"[;()\n]|,(?!\d)|\.(?!\w)")
_NOW = re.compile(
    r"(?:(?:^|[,;:]|\bbut\b|\band\b)\s*now(?:\s+it(?:'s|\s+is))?|\b(?:it|that|this)(?:'s|\s+is|"
    r"\s+should\s+be)(?:\s+now)?|\b(?:changed|moved|set|switched)\s+it\s+to)\s+"
    r"(?:(?:at|on|in|to)\s+)?$",
    re.I,
)
"""Right before a value: what holds now, said of the same subject (", now 60s", "but now
db-7", "it is 8443", "it should be 8443", "we changed it to 8443"); not of another ("the
metrics port is now 9100")."""


def _passives(sentence: str) -> Iterator[Stale]:
    """The value after "was <verb> to", when ``_replaced_later``: "was set to 30s, now 60s"."""
    for m in _PASSIVE.finditer(sentence):
        end = _CLAUSE.search(sentence, m.end())
        a, b = _value_prefix(sentence, m.end(), end.start() if end else len(sentence))
        if m["prep"] != "from" and _replaced_later(sentence, a, b):
            yield Stale(a, b, m.start(), b)


def _replaced_later(sentence: str, a: int, b: int) -> bool:
    """Whether another value of the shape of ``sentence[a:b]`` follows it and is said to
    hold now: "was set to 30s, now 60s" and "was set to 30s; it's 60s now" name the old
    value after "was … to"; "was moved to 11:30 and takes until 12:15" does not, nor does
    the same value said again ("… and it is 2.4.1 today")."""
    old = sentence[a:b].strip()
    later = ((g[0][0], sentence[g[0][0] : g[-1][1]]) for g in value_groups(sentence))
    return bool(value_spans(old)) and any(
        at >= b
        and compatible(old, new)
        and new.casefold() != old.casefold()
        and _NOW.search(sentence, b, at)
        for at, new in later
    )


class Stale(NamedTuple):
    """A value a correction says is no longer true, ``text[start:end]``, and the words that
    say so, ``text[clause_start:clause_end]`` (left out when the correction is shown)."""

    start: int
    end: int
    clause_start: int
    clause_end: int


def _value_prefix(text: str, a: int, b: int) -> tuple[int, int]:
    """``text[a:b]`` cut to its leading run of value words ("8080" of "8080 for the API",
    "09:00 UTC" and "12.947°S / 24.304°W" whole), or whole when it opens with a plain word
    (a name in words)."""
    spans = [(x + a, y + a) for x, y in value_spans(" " + text[a:b])]
    spans = [(x - 1, y - 1) for x, y in spans]
    if not spans or spans[0][0] != a:
        return a, b
    end = spans[0][1]
    for x, y in spans[1:]:
        if text[end:x].strip() not in ("", "/"):  # "12.947°S / 24.304°W" is one value
            break
        end = y
    return a, end


def _acceptable(old: str) -> bool:
    named = re.fullmatch(r"\w+(?:[-_.:]\w+)+", old)  # "logs-old", "db-1.internal"
    if not old or function_words_only(old):  # "Nothing is wrong with it": no value
        return False
    return (specificity(old) >= 0.3 or bool(named)) and content_words(old) <= 4


def stale_spans(sentence: str) -> list[Stale]:
    """Where a correction names values that are no longer true ("Y, not X", "instead of
    X", "from X to Y", "replaced X with Y", "X → Y", "X is abandoned"), read only when the
    sentence is a correction (``CORRECTION``); and a value set against one of its shape
    with no cue word ("Y not X", ``_contrasts``)."""
    out = _contrasts(sentence)
    if not CORRECTION.search(sentence):
        return out
    out += _passives(sentence)
    at = 0
    while (m := _STALE.search(sentence, at)) is not None:
        at = m.end()
        if m["old"] is not None and _GONE.match(sentence, m.start("lead")):
            continue  # "X was wrong": X is the stale one (below), not "wrong"
        if m["old"] is not None and (verb := _PASSIVE.match(sentence, m.start("cue"))):
            at = verb.start("prep")  # read by ``_passives``; "from X to" still marks X
            continue
        if m["old"] is not None:
            a, b = _value_prefix(sentence, m.start("old"), m.end("old"))
            lead = m.start("lead") if m["lead"].strip() in (",", "(") else m.start("cue")
            end = m.end("close") if m["close"] and b == m.end("old") else b
            found = Stale(a, b, lead, end)
        elif m["from"] is not None:
            a, b = _value_prefix(sentence, m.start("from"), m.end("from"))
            found = Stale(a, b, m.start("from_cue"), b)
        elif m["replaced"] is not None:
            a, b = _value_prefix(sentence, m.start("replaced"), m.end("replaced"))
            found = Stale(a, b, a, b)
        else:
            found = Stale(m.start("arrow"), m.end("arrow"), m.start("arrow"), m.end("arrow"))
        old = sentence[found.start : found.end].strip()
        if _acceptable(old):
            out.append(found)
    for m in _GONE.finditer(sentence):
        # the clause before it: a comma, semicolon or colon ends one only before a space
        # (not the colon of "db-3:5432" or "14:05")
        clause = max([-1, *(c.start() for c in _CLAUSE_END.finditer(sentence, 0, m.start()))])
        before = sentence[clause + 1 : m.start()]
        spans = value_spans(before)
        if spans:
            a, b = spans[-1]
            if len(spans) > 1 and before[a:b].isalpha() and not before[spans[-2][1] : a].strip():
                a = spans[-2][0]  # "14:05 UTC" whole: a zone or unit goes with its value
        else:
            words = re.sub(r"^\s*(?:the|a|an|our|my|that|this)\s+", "", before, flags=re.I)
            a, b = len(before) - len(words.lstrip()), len(before.rstrip())
        a, b = a + clause + 1, b + clause + 1
        if _acceptable(sentence[a:b].strip()):
            out.append(Stale(a, b, a, b))
    return out


_CONTRAST = re.compile(r",?\s+not\s+|\s*\((?:was|not)\s+")
"""Between a value and an earlier one it replaces: "Q7XK2P not K0T9AN", "2.4.1 (was
2.3.9)". Not "(from X)": that says where something came from as often as what it was."""


def _contrasts(sentence: str) -> list[Stale]:
    """The values a sentence sets against a value of the same shape right before them:
    "Y not X", "Y (was X)". Two values of one kind side by side with "not" between them
    say which one holds, whatever words come around them ("oops, …")."""
    ends = [(group[0][0], group[-1][1]) for group in value_groups(sentence)]
    out = []
    for (a, b), (c, d) in itertools.pairwise(ends):
        joined = _CONTRAST.fullmatch(sentence, b, c)
        new, old = sentence[a:b], sentence[c:d]
        if joined is None or not compatible(new, old):
            continue
        closed = "(" in joined.group() and sentence[d : d + 1] == ")"
        out.append(Stale(c, d, b, d + 1 if closed else d))
    return out


def stale_values(sentence: str) -> list[str]:
    """Values a correction says are no longer true (``stale_spans``).

    >>> stale_values("Correction: the deadline is now March 9, not March 3.")
    ['March 3']
    >>> stale_values("Update: the port changed from 8080 to 8443.")
    ['8080']
    >>> stale_values("Use port 8443 instead of 8080 for the API.")
    ['8080']
    >>> stale_values("The redis-cache plan is abandoned; use memcached-2.")
    ['redis-cache']
    >>> stale_values("oops, Q7XK2P not K0T9AN, i mixed them up")
    ['K0T9AN']
    """
    return list(dict.fromkeys(sentence[s.start : s.end].strip() for s in stale_spans(sentence)))


def opens_with_value(text: str) -> bool:
    """Whether ``text`` starts with a value (``quote.value_spans``)."""
    found = value_spans(text)
    return bool(found) and found[0][0] == 0
