"""The lines of a document a tool shows (a policy, a README, a rules file).

A document states its rules and limits in sentences and bullets, not ``key: value``
fields, so a line of one that says something with a specific value is a fact of its own
("- Any car slower than 1:46.561 in Q1 starts from the pit lane."). A log line is no
sentence, and a line of code none either.
"""

from __future__ import annotations

import re

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.quote import Quote, Source
from langgraph_compact.compaction.quote import values as quote_values
from langgraph_compact.compaction.sentences import says_something

__all__ = ["document_fact", "documented"]

_DOCUMENT_WORDS = 5
"""Content words a document's line needs to be a statement, not a heading or a caption."""
_SPECIFIC = 0.6
"""How specific its value must be: a number, an id, a time (not a word in capitals)."""

_BLOCK_INDENT = 4
_WORD = re.compile(r"[A-Za-z][a-z'’-]*[,.;:!?]?")
_WORDS_SHARE = 0.7
"""Of a document's line, the share of its tokens that are plain words."""

_BULLET = re.compile(r"^(?:[-*•]|\d+[.)])\s+(?=\S)")
_DOCUMENT_LINE = re.compile(rf"{_BULLET.pattern}|^[A-Z][^:=]*[.!;]$")
"""A bullet, or a sentence written whole: the line of a document (a policy, a README)."""


def documented(line: str) -> str | None:
    """The most specific value of a document's line that says something with it, or None.

    The line is as written, indentation included: text indented as a block is code or a
    docstring in a source file, and a line of code, a diff's or a citation's, is mostly
    not words."""
    if len(line) - len(line.lstrip()) >= _BLOCK_INDENT:
        return None
    line = line.strip()
    sentence = _BULLET.sub("", line)
    if not _DOCUMENT_LINE.match(line) or tx.content_words(sentence) < _DOCUMENT_WORDS:
        return None
    tokens = sentence.split()
    words = sum(bool(_WORD.fullmatch(t)) for t in tokens)
    if tx.is_code_line(sentence) or words < _WORDS_SHARE * len(tokens):
        return None
    named = [v for v in quote_values(line) if tx.specificity(v) >= _SPECIFIC]
    return max(named, key=tx.specificity) if named and says_something(line) else None


def document_fact(src: Source, a: int, b: int, value: str) -> tuple[str, str, Quote | None]:
    """A document's line as a fact: keyed by its words, shown without its bullet."""
    bullet = _BULLET.match(src.text[a:b])
    start = a + bullet.end() if bullet else a
    return tx.norm(src.text[start:b])[:60], value, src.slice(start, b).cut(160)
