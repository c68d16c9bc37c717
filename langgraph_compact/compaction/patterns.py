"""Facts as stated: "X is Y", ``key: value``, ``k | v``, a version, a log line's message.

Pure functions over text. They are deliberately shape-based (what a compiler, a test
runner, an HTTP client, a logger or a person writes), not tied to one tool or phrasing,
and they refuse code: a line of a file dump is code, not a fact or an instruction. The
words that make a sentence a rule or a correction are ``cues``; errors are ``failures``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from langgraph_compact.compaction.text import AFTER_SENTENCE_STOP, is_code_line, norm, specificity

__all__ = ["Fact", "facts", "shown_from"]

_JOINED = re.compile(r"(?:and|but|while|whereas) ", re.IGNORECASE)  # what joins two facts
_KEY = r"(?:the |my |our |your |its )?[A-Za-z][\w\-]*(?: [\w\-]+){0,3}?"
_NEXT_FACT = rf" {_JOINED.pattern}{_KEY} (?:is|are|was|were) "
"""Where a second "X is Y" begins ("… is 09:00 UTC and the runner is build-7:2222"): the
first value ends there, so each value is stated under its own key."""
_PROSE_FACT = re.compile(
    rf"(?:^|[\s:;(])(?P<key>{_KEY})\s+(?:is|are|was|were|=|equals|is set to|was set to|"
    r"has been set to|changed to|should be|must be|will be|becomes)\s+"
    r"(?:now |actually |still |currently )?(?P<value>(?:[^,;\n]|(?<=\d),(?=\d)){1,80}?)"
    rf"(?=,(?!\d)|[;\n]|\.{AFTER_SENTENCE_STOP}\s|\.$|$| \(|{_NEXT_FACT})",
    re.IGNORECASE,
)
_KV_LINE = re.compile(
    r"^\s*[-*•]?\s*[\"']?(?P<key>[A-Za-z_][\w .\-/]{0,40}?)[\"']?\s*(?::(?=\s)|=|=>|->)\s*"
    r"(?P<value>[^\s{\[(].{0,100}?)\s*,?$"
)
_LABELS = frozenset(
    """correction update note notes fyi reminder important warning warn info debug error
    attention caution notice hint constraint rule tip actually ps""".split()
)
_KEY_STOP = frozenset(
    """it this that there here what which who i you he she we they one everything something
    nothing answer result output problem issue code test thing way reason point fix
    error file line function method class list case step part idea plan tool human ai
    system assistant user""".split()
)


_CODE_VALUE = re.compile(r"\w\(|[{};]|=>|\blambda\b|^\s*(?:r|f|b)?['\"].*['\"]\s*[,)]\s*$")


_STALE_TAIL = re.compile(r"\s*,?\s*\(?\b(?:instead of|rather than|not|no longer)\b.*$", re.I)


_VALUE_MAX_WORDS = 12
_VALUE_MAX_CHARS = 80
_CODE_MARKS = 3
"""A stated value is a name, a number or a short phrase; longer is prose, not a fact."""


_COMMENT = re.compile(r"\s+(?:#|//)\s+(?=[^\W\d_])")
"""A comment after a value in a config line or a script (``key: v  # note``): words after
the mark, not a number (``Suite # 12``, ``PO # 88123``), and not inside quotes."""


def _uncommented(raw: str) -> str:
    """``raw`` without a comment after it; a quoted value keeps what its quotes hold."""
    for m in _COMMENT.finditer(raw):
        head = raw[: m.start()]
        if head.count('"') % 2 == 0 and head.count("'") % 2 == 0:
            return head.rstrip(",")
    return raw


def _value(raw: str) -> str | None:
    """The value as an item shows it, or None when it is code or says nothing specific.

    A correction's own stale clause ("Y instead of X") is not part of the value, nor is
    a comment after it (``region: chr2:1-9   # was chr1:5-8``).
    """
    value = _uncommented(raw.strip())
    value = _STALE_TAIL.sub("", value).strip().rstrip(".")
    if _CODE_VALUE.search(value) or specificity(value) < 0.3:
        return None
    if value.startswith("//") or len(value.split()) > _VALUE_MAX_WORDS:
        return None  # the rest of a URL, or a sentence of prose ("WARNING: Running pip as…")
    if len(value) > _VALUE_MAX_CHARS and not value.startswith(("http://", "https://")):
        return None  # a log line's remainder ("numpy>=1.21 in /opt/…/site-packages (from …)")
    if sum(value.count(c) for c in "()[]{}*+=<>^|") >= _CODE_MARKS:
        return None  # an expression: "((n1*cos(t1) - n2) /"
    return value


def _key(raw: str, *, field: bool = False) -> str | None:
    """The name a fact states, or None for a path, a pronoun, a generic word; a ``field``
    (a tool's ``key: value`` line) may be two letters (``id:``), not prose (``NB:``)."""
    if "/" in raw or re.search(r"\.\w{1,4}$", raw.strip()):
        return None  # a path or a file name, not the name of a setting
    key = re.sub(
        r"^(?:(?:actually|so|also|now|btw|and|but|while|whereas|ok|okay|well) )*", "", norm(raw)
    )
    key = re.sub(r"^(?:the|my|our|your|its) ", "", key)
    short = field and re.fullmatch(r"[a-z]{2}", key) is not None and key not in _SHORT_WORDS
    if (len(key) < 3 and not short) or key in _KEY_STOP or key.split()[0] in _KEY_STOP:
        return None  # too short to name a setting, or a pronoun / generic word
    return key if len(key.split()) <= 5 else None


_SHORT_WORDS = frozenset(  # two-letter words of prose and mail: never the name of a field
    "am an as at be by do go he hi if in is it me my no of oh ok on or so to up us we ps re "
    "nb cc fw ex ie eg vs".split()
)
_PIPE_ROW = re.compile(r"^\s*(?P<key>[A-Za-z_][\w .\-]{0,40}?)\s+\|\s+(?P<value>[^|]{1,100}?)\s*$")
"""A two-column table row (``psql``, ``SHOW``): ``max_connections | 250``."""
_VERSION = re.compile(
    r"^(?P<key>[A-Za-z][\w+-]*(?: [A-Za-z][\w+-]*){0,2})[ /]"
    r"(?P<value>(?:v\d+\.\d+(?:\.\d+)*|\d+\.\d+\.\d+(?:\.\d+)*)(?:[-+][\w.]*\w)?)(?:\s|$|,)"
)
"""What a ``--version`` prints: ``Python 3.11.7``, ``git version 2.39.2``."""


class Fact(NamedTuple):
    """A stated fact: its normalized ``key``, its ``value`` as written, and the words that
    state it, ``text[start:end]`` (verbatim: what an item shows)."""

    key: str
    value: str
    start: int
    end: int


def _value_end(text: str, group_start: int, raw: str, value: str) -> int:
    """Where ``value`` (``_value`` of ``raw``, which starts at ``group_start``) ends."""
    return group_start + raw.find(value) + len(value)


def facts(text: str, *, fields: bool = False) -> list[Fact]:
    """The facts stated in one sentence or line ("X is Y", "key: value", ``k | v``);
    ``fields``: a line a tool printed, whose key may be two letters (``id: …``).

    >>> [f[:2] for f in facts("Correction: the release deadline is now March 9, not March 3.")]
    [('release deadline', 'March 9')]
    >>> f = facts("The staging window is 09:00 UTC.")[0]
    >>> f.key, f.value, "The staging window is 09:00 UTC."[f.start : f.end]
    ('staging window', '09:00 UTC', 'The staging window is 09:00 UTC')
    """
    return _facts(text, 0, fields)


_LOG_HEAD = re.compile(
    r"^\W{0,3}(?:\S*\d\S*\s+){0,3}?(?:\[(?i:trace|debug|info|notice|warn|warning)\]|"
    r"(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING)\b:?)\s+"
)
"""A log line's header: up to three tokens with digits (a date, a time, a pid) before its
level (``2025-10-14 21:02:12 INFO``, ``[info]``). What the line states comes after it;
"Log level: DEBUG" and "timeout: 30 WARN …" have no header."""


_BOX = "|│┃║"
"""The sides of a table or box a tool draws."""
_FRAME = re.compile(rf"^\s*[{_BOX}]\s+(?=[A-Za-z_][\w .\-/]{{0,40}}?:\s)")
"""The side of a box a tool draws around its fields ("|  imsi: …", "│ eic: …"): the field
after it, up to the next side, is the line's fact. A label before it names the group
(``Stats | n: 10``), a two-column row (``_PIPE_ROW``)."""
_BOX_SIDE = re.compile(rf"\s*[{_BOX}]")


def _facts(text: str, base: int, fields: bool = False) -> list[Fact]:
    out: list[Fact] = []
    if text.rstrip().endswith("?"):
        return out  # a question states nothing
    frame = _FRAME.match(text) if fields else None
    if frame is not None:  # "│  imsi: 262037238743921  │": the cell inside the box
        side = _BOX_SIDE.search(text, frame.end())
        return _facts(
            text[frame.end() : side.start() if side else None], base + frame.end(), fields
        )
    head = _LOG_HEAD.match(text) if fields and base == 0 else None
    if head is not None and head.end() < len(text):  # once: what follows is the message
        return _facts(text[head.end() :], base + head.end(), fields)
    kv = _KV_LINE.match(text) if len(text) <= 160 else None
    if kv is not None and not is_code_line(text):
        words = norm(kv["key"]).split()
        if len(words) >= 2 and len(kv["value"].split()) >= 5 and _COPULA.match(kv["value"]):
            # "Heads up: X is the WAL disk": the value is a sentence, the key a label
            return _facts(kv["value"], base + kv.start("value"), fields)
        if words and words[0] in _LABELS:  # "NOTE: x is y", "INFO loaded: k=v"
            inner = _facts(kv["value"], base + kv.start("value"), fields)
            if inner:
                return inner
            label = kv["key"].split()[0]
            rest_at = kv.start("key") + kv["key"].find(label) + len(label)
            rest = text[rest_at:].lstrip()
            at = len(text) - len(rest)
            return _facts(rest, base + at, fields) if norm(rest.split(":")[0]) else []
        key, value = _key(kv["key"], field=fields), _value(kv["value"])
        if key and value:
            start = kv.start("key") - (kv.start("key") > 0 and text[kv.start("key") - 1] in "\"'")
            end = _value_end(text, kv.start("value"), kv["value"], value)
            nested = _KV_LINE.match(value)
            if nested and _key(nested["key"]) and _value(nested["value"]):
                inner_key, inner_value = _key(nested["key"]) or key, _value(nested["value"])
                offset = kv.start("value") + kv["value"].find(value)
                key, value = inner_key, inner_value or value
                start = offset + nested.start("key")
                end = _value_end(text, offset + nested.start("value"), nested["value"], value)
            out.append(Fact(key, value, base + start, base + end))
    if not out and kv is None:
        lead = len(text) - len(text.lstrip())
        shape = _PIPE_ROW.match(text) or _VERSION.match(text.strip())
        shift = 0 if shape is None or shape.re is _PIPE_ROW else lead
        key, value = (_key(shape["key"]), _value(shape["value"])) if shape else (None, None)
        if shape and key and value and re.search(r"\d", value):  # not a header: "Expected | Actual"
            end = shift + _value_end(text, shape.start("value"), shape["value"], value)
            out.append(Fact(key, value, base + shift + shape.start("key"), base + end))
    if not out:
        for m in _PROSE_FACT.finditer(text):
            key, value = _key(m["key"]), _value(m["value"])
            if key and value:
                end = _value_end(text, m.start("value"), m["value"], value)
                joined = _JOINED.match(m["key"])  # "… and the runner is X" starts at "the"
                start = m.start("key") + (joined.end() if joined else 0)
                out.append(Fact(key, value, base + start, base + end))
    return [_to_word_end(text, base, f) for f in out]


_WORD_REST = re.compile(r"[\w+./:@#%-]*")
"""What may continue a value's last word: not a comma or a semicolon ("8443,so")."""


def _to_word_end(text: str, base: int, fact: Fact) -> Fact:
    """``fact`` up to the end of the word its value ends in: a value is never shown cut
    inside a word ("1.7.5-beta2" is not "1.7.5"), only its sentence's punctuation is left
    out."""
    rest = _WORD_REST.match(text, fact.end - base)
    tail = rest.group().rstrip(".:/-") if rest else ""
    return fact._replace(value=fact.value + tail, end=fact.end + len(tail)) if tail else fact


_COPULA = re.compile(r"\s*(?:\S+\s+){1,4}(?:is|are|was|were)\s")
"""A value opening as a sentence does: a subject of a few words, then "is"."""

_CLAUSE_BREAK = re.compile(rf"(?:[;:,({_BOX}]|\.{AFTER_SENTENCE_STOP}|\s[—–-])\s+|^\s*")
_LEAD_WORDS = 8
"""Words a fact's clause may hold before its key and still be shown whole."""


def shown_from(text: str, fact: Fact, *, fields: bool = False) -> tuple[int, bool]:
    """Where the words showing ``fact`` start in ``text``, and whether that is inside a
    clause (the caller shows ``…`` there).

    The key is the last few words before "is"; the clause's subject may start earlier
    ("A typical value for the effective index of an AR coating is 1.29"). Up to
    ``_LEAD_WORDS`` words, the clause is shown from its start, so the subject is whole;
    a longer lead is cut, visibly.

    >>> t = "A typical value for the effective index of an AR coating is 1.29."
    >>> f = facts(t)[0]
    >>> t[f.start : f.end], t[shown_from(t, f)[0] : f.end]
    ('of an AR coating is 1.29', 'A typical value for the effective index of an AR coating is 1.29')
    """
    lead = text[: fact.start]
    clause = max((m.end() for m in _CLAUSE_BREAK.finditer(lead)), default=0)
    head = _LOG_HEAD.match(lead) if fields else None
    if head is not None and head.end() > clause:  # a log line: shown from its message
        return head.end(), True
    words = lead[clause:].split()
    if not words:
        return fact.start, False
    if len(words) <= _LEAD_WORDS:
        return clause, False
    return fact.start, True
