"""The lines of a document a tool shows (a policy, a README, a rules file).

A document states its rules and limits in sentences and bullets, not ``key: value``
fields, so a line of one that says something with a specific value is a fact of its own
("- Any car slower than 1:46.561 in Q1 starts from the pit lane."). Only a document's: a
diff's removed line reads as a bullet and is gone, and a comment in source is code's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.quote import Quote, Source, value_spans
from langgraph_compact.compaction.quote import values as quote_values
from langgraph_compact.compaction.sentences import says_something

__all__ = ["DOCUMENT_FACTS", "document_facts"]

DOCUMENT_FACTS = 2
"""At most this many facts from one document: its ``key: value`` facts come first."""
_WORDS = 5
"""Content words a document's line needs to be a statement, not a heading or a caption."""
_SPECIFIC = 0.6
"""How specific its value must be: a number, an id, a time (not a word in capitals)."""
_WORDS_SHARE = 0.7
"""Of a document's line, the share of its tokens that are plain words."""
_CODE_SHARE = 0.3
"""An output this much of whose lines are code is source, not a document."""

_WORD = re.compile(r"[A-Za-z][a-z'’-]*[,.;:!?]?")
_BULLET = re.compile(r"^(?:[-•]|\d+[.)]) (?=\S)|^\* (?=\S)")
"""A bullet at the start of its line: one space after it (``-    x`` is a diff's line; a
``*`` indented is a block comment's)."""
_MARKUP = re.compile(rf"{_BULLET.pattern}|^#{{1,6}} \S")
_SENTENCE = re.compile(r"^[A-Z][^=]*[.!;]$")
_CODE_MARKS = re.compile(r"[{}=]|//|/\*|\*/|\)\s*;")
_DIFF = re.compile(r"^(?:@@ -\d|diff --git |--- \S|\+\+\+ \S)", re.MULTILINE)


def _value(line: str) -> str | None:
    """The most specific value of a document's line that says something with it, or None."""
    if line[:1].isspace():  # indented: a block of code or a docstring, a nested item
        return None
    sentence = _BULLET.sub("", line).strip()
    if sentence == line.strip() and not _SENTENCE.match(sentence):
        return None
    if tx.content_words(sentence) < _WORDS or _CODE_MARKS.search(sentence):
        return None
    tokens = sentence.split()
    words = sum(bool(_WORD.fullmatch(t)) for t in tokens)
    if tx.is_code_line(sentence) or words < _WORDS_SHARE * len(tokens):
        return None
    named = [v for v in quote_values(sentence) if tx.specificity(v) >= _SPECIFIC]
    return max(named, key=tx.specificity) if named and says_something(sentence) else None


def document_facts(
    src: Source, plain: Sequence[tuple[int, int, bool]], lines: int
) -> list[tuple[str, str, Quote | None]]:
    """``(key, value, shown)`` for the lines of a document in ``src`` that state a value in
    a sentence: ``plain`` are the ``(start, end, code)`` of its ``lines`` lines that state
    no ``key: value`` fact. Shown without its bullet, keyed by its words with its values
    left out: the same rule with a new value is its update, two rules sharing their
    opening words are two. None for source (``_CODE_SHARE`` of its lines code) or a diff."""
    heads = [src.text[src.text.rfind("\n", 0, a) + 1 : b] for a, b, _ in plain]
    # a bullet reads as a diff's line to ``is_code_line``, a heading as a comment
    code = sum(c and not _MARKUP.match(h) for (_, _, c), h in zip(plain, heads, strict=True))
    if code >= _CODE_SHARE * max(1, lines) or _DIFF.search(src.text):
        return []
    out: list[tuple[str, str, Quote | None]] = []
    for (a, b, coded), line in zip(plain, heads, strict=True):
        bullet = _BULLET.match(line)
        value = _value(line) if not coded or bullet else None
        if value is None:
            continue
        start = a + bullet.end() if bullet else a
        words = src.text[start:b]
        for x, y in reversed(value_spans(words)):
            words = words[:x] + "#" + words[y:]
        out.append((f"line:{tx.norm(words)[:120]}", value, src.slice(start, b).cut(160)))
    return out
