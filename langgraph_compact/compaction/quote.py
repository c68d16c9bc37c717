"""Quotes: an item's text as verbatim pieces of its sources, and where each piece came from.

A summary may shorten, select and label, but never rewrite a value: every piece of an
item's text that comes from a message is a substring of that message, byte for byte,
with its place recorded (``Span``). Nothing here re-spaces, re-cases or normalizes
inside a piece; shortening cuts at a boundary and shows ``…``. Keys used to compare
items may be normalized elsewhere; the text shown is built only from ``Quote`` values.

A source is one text of one message: its content (``part=""``), the argument text of one
of its tool calls (``part="args"``, ``id`` the tool call's id), or one argument's value
(``part="args.<name>"``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ConfigDict

from langgraph_compact.compaction.text import short_end, specificity
from langgraph_compact.messages import canonical_json, message_text

__all__ = [
    "ARROW",
    "ELLIPSIS",
    "Quote",
    "Source",
    "Span",
    "args_text",
    "call_sources",
    "message_sources",
    "naming",
    "quote_problems",
    "unquoted_values",
    "value_spans",
    "values",
]

ELLIPSIS = "…"
"""Shown where a piece was cut or something between two pieces was left out."""
ARROW = " → "
"""Between a call and what it gave: the one value it printed, the error it stopped at."""


class Span(BaseModel):
    """Where one piece of an item's text comes from: ``source[start:end]``, shown at ``at``.

    ``id`` is the message id, or for ``part`` ``args``/``args.<name>`` the tool call's id.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    start: int
    end: int
    at: int = 0
    part: str = ""


@dataclass(frozen=True)
class Quote:
    """Text built from verbatim pieces (``spans``) and labels (the rest).

    ``Quote("bash: ") + source.slice(0, 12)`` is a label followed by a quoted piece;
    ``+`` shifts the right side's spans, so the result still knows every piece's place.
    """

    text: str
    spans: tuple[Span, ...] = ()

    def __add__(self, other: Quote | str) -> Quote:
        if isinstance(other, str):
            return Quote(self.text + other, self.spans)
        shift = len(self.text)
        moved = tuple(s.model_copy(update={"at": s.at + shift}) for s in other.spans)
        return Quote(self.text + other.text, self.spans + moved)

    def __radd__(self, other: str) -> Quote:
        return Quote(other) + self

    def __bool__(self) -> bool:
        return bool(self.text)

    def cut(self, limit: int, lines: int = 1) -> Quote:
        """At most ``limit`` characters on at most ``lines`` lines (never past a blank
        line), cut at a space where one is near (``text.short``): ``…`` shows a cut; the
        spans keep what is left of them."""
        stripped = self.strip()
        text = stripped.text
        stop = len(text)
        blank = text.find("\n\n")
        if blank != -1:
            stop = blank
        at = -1
        for _ in range(lines):
            at = text.find("\n", at + 1)
            if at == -1 or at >= stop:
                break
        if lines > 1 and at != -1:
            stop = min(stop, at)
        if lines == 1 or stop == len(text):
            head = stripped._sub(0, stop)
            end, mark = short_end(head.text, limit)
            if not mark and stop == len(text):
                return head
            return head._sub(0, end) + (mark or " …")
        head = stripped._sub(0, stop).strip()
        end, mark = short_end(head.text.replace("\n", " "), limit)
        return head._sub(0, end).strip() + (mark or " …")

    def without(self, ranges: Iterable[tuple[int, int]], *, ends: bool = False) -> Quote:
        """This text with the character ``ranges`` left out: one inside it becomes `` … ``,
        one at either end is dropped, or with ``ends`` shown as ``…`` too (a struck value:
        what is left must not read as the whole statement). A separator after a cut, and
        an earlier ``…`` beside one, go with it. Spans are split around the cuts."""
        cuts = sorted((max(0, a), min(len(self.text), b)) for a, b in ranges if b > a)
        if not cuts:
            return self
        keep: list[tuple[int, int]] = []
        pos = 0
        for a, b in cuts:
            if a > pos:
                keep.append((pos, a))
            pos = max(pos, b)
        if pos < len(self.text):
            keep.append((pos, len(self.text)))
        out = Quote("")
        first = last = 0
        for n, (a, b) in enumerate(keep):
            piece = self._sub(a, b).strip()
            if a and (lead := _LEAD.match(piece.text)):  # they went with the cut
                piece = piece._sub(lead.end(), len(piece.text)).strip()
            if b < len(self.text) and (tail := _TAIL.search(piece.text)):  # the cut's mark
                piece = piece._sub(0, tail.start()).strip()
            if not piece.text or (n and not any(c.isalnum() for c in piece.text)):
                continue  # nothing left but punctuation after a cut
            if not out.text:
                first = a
            out = piece if not out.text else out + f" {ELLIPSIS} " + piece
            last = b
        if ends and out.text:
            if self.text[:first].strip():
                out = f"{ELLIPSIS} " + out
            if self.text[last:].strip():
                out = out + f" {ELLIPSIS}"
        return out

    def strip(self) -> Quote:
        """Without whitespace at either end."""
        lead = len(self.text) - len(self.text.lstrip())
        return self._sub(lead, len(self.text.rstrip()))

    def _sub(self, a: int, b: int) -> Quote:
        """Characters ``[a, b)`` of this text, with the parts of spans inside them."""
        spans = []
        for s in self.spans:
            lo, hi = max(a, s.at), min(b, s.at + s.end - s.start)
            if lo < hi:
                start = s.start + lo - s.at
                spans.append(
                    s.model_copy(update={"start": start, "end": start + hi - lo, "at": lo - a})
                )
        return Quote(self.text[a:b] if b > a else "", tuple(spans))


@dataclass(frozen=True)
class Source:
    """One text of one message, to quote from."""

    id: str
    text: str
    part: str = ""

    def slice(self, start: int, end: int) -> Quote:
        """``text[start:end]`` without whitespace at its ends, as a quote."""
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if end <= start:
            return Quote("")
        return Quote(
            self.text[start:end], (Span(id=self.id, start=start, end=end, part=self.part),)
        )

    def piece(self, start: int, end: int) -> Quote:
        """``text[start:end]`` exactly, as a quote (``slice`` trims whitespace)."""
        if end <= start:
            return Quote("")
        return Quote(
            self.text[start:end], (Span(id=self.id, start=start, end=end, part=self.part),)
        )

    def quote(self, shown: str, near: int = 0) -> Quote | None:
        """``shown`` as a quote of this text (its first place at or after ``near``, else
        its first place), or None when it is not a substring: then it is not shown."""
        shown = shown.strip()
        if not shown:
            return None
        at = self.text.find(shown, near)
        if at == -1:
            at = self.text.find(shown)
        if at == -1:
            return None
        return self.slice(at, at + len(shown))


def args_text(call: Mapping[str, Any]) -> str:
    """The text a tool call's arguments are quoted from: a single string argument as is,
    otherwise the arguments' canonical JSON."""
    args = call.get("args") or {}
    if len(args) == 1:
        value = next(iter(args.values()))
        if isinstance(value, str):
            return value
    return canonical_json(args)


def call_sources(call: Mapping[str, Any]) -> Iterator[Source]:
    """The quotable texts of one tool call: its argument text and each argument's value."""
    cid = str(call.get("id") or "")
    yield Source(cid, args_text(call), "args")
    for name, value in (call.get("args") or {}).items():
        text = value if isinstance(value, str) else canonical_json(value)
        yield Source(cid, text, f"args.{name}")


def message_sources(messages: Iterable[BaseMessage]) -> dict[tuple[str, str], str]:
    """``(id, part) -> text`` of every quotable text of ``messages`` (for checking spans)."""
    out: dict[tuple[str, str], str] = {}
    for m in messages:
        out[(m.id or "", "")] = message_text(m)
        if isinstance(m, AIMessage):
            for call in m.tool_calls:
                for source in call_sources(call):
                    out[(source.id, source.part)] = source.text
    return out


def quote_problems(
    text: str, spans: Sequence[Span], sources: Mapping[tuple[str, str], str]
) -> list[str]:
    """Why ``spans`` do not quote ``sources`` exactly within ``text`` (empty: they do)."""
    problems = []
    for s in spans:
        source = sources.get((s.id, s.part))
        shown = text[s.at : s.at + s.end - s.start]
        if source is None:
            problems.append(f"span of unknown source {s.id!r} {s.part!r}")
        elif source[s.start : s.end] != shown:
            problems.append(
                f"{shown!r} at {s.at} is not {s.id!r}[{s.start}:{s.end}] "
                f"({source[s.start : s.end]!r})"
            )
    return problems


# --- values ---------------------------------------------------------------------------

_TOKEN = re.compile(r"\S+")
_LEAD = re.compile(rf"(?:[,;:{ELLIPSIS}]+(?:\s+|$))+")
"""Separators and an earlier cut's mark opening what follows a cut (not ``:5432``'s)."""
_TAIL = re.compile(rf"(?:^|\s){ELLIPSIS}$")
_EDGE = "\"'`()[]{}<>,;!?*…。、，！？；"  # and CJK punctuation: ``AA000。`` is ``AA000``
_INNER = re.compile(r"[\w)\]][-_:/\\.@#=+~%][\w(\[]")


def _is_value(token: str, first: bool) -> bool:
    if any(c.isdigit() for c in token):
        return True
    if any(ord(c) > 127 and c.isalpha() for c in token):
        return True
    if _INNER.search(token):
        return True
    letters = [c for c in token if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return True  # an acronym or a code: UTC, EACCES
    if any(c.isupper() for c in token[1:]) and any(c.islower() for c in token):
        return True  # camelCase, a class name
    return not first and token[:1].isupper() and token[1:].islower() and len(token) > 1


def value_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each value token of ``text``: what must never be rewritten.

    A value is a whitespace-separated token (outer quotes, brackets and sentence
    punctuation aside) holding a digit, a non-ASCII letter, punctuation inside a word
    (``build-7``, ``ns:key``, ``a.b``, ``C:\\x``), an acronym, a camel-case name, or a
    capitalized word inside a sentence (a name).

    >>> [ "The staging window is 09:00 UTC."[a:b] for a, b in value_spans(
    ...     "The staging window is 09:00 UTC.")]
    ['09:00', 'UTC']
    """
    return list(_value_spans(text))


@lru_cache(maxsize=8192)
def _value_spans(text: str) -> tuple[tuple[int, int], ...]:
    # cached: a merge compares each new item with every held one on the same subject
    out: list[tuple[int, int]] = []
    first = True
    for m in _TOKEN.finditer(text):
        a, b = m.start(), m.end()
        while a < b and text[a] in _EDGE:
            a += 1
        while b > a and (text[b - 1] in _EDGE or text[b - 1] in ".:："):
            b -= 1
        token = text[a:b]
        if token and _is_value(token, first):
            out.append((a, b))
        first = bool(re.search(r"[.!?:]$", m.group(0)))
    return tuple(out)


def values(text: str) -> list[str]:
    """The value tokens of ``text`` (see ``value_spans``)."""
    return [text[a:b] for a, b in value_spans(text)]


def naming(text: str) -> float:
    """How specific the most specific value ``text`` names is (``text.specificity``, 0–1):
    what a line is worth to a summary that carries values."""
    return max((specificity(v) for v in values(text)), default=0.0)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def unquoted_values(text: str, sources: Iterable[str]) -> list[str]:
    """The values of ``text`` found in none of ``sources`` (a capitalized word compared
    without case): what a model wrote that no message said."""
    pool = list(sources)
    folded = [_fold(s) for s in pool]
    out = []
    for value in values(text):
        plain = value.isalpha() and value[:1].isupper() and value[1:].islower()
        if plain and all(ord(c) < 128 for c in value):
            if not any(_fold(value) in f for f in folded):
                out.append(value)
        elif not any(value in s for s in pool):
            out.append(value)
    return out
