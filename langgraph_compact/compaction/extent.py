"""How far an item of a sentence reaches beyond the sentence's words.

A rule that names nothing and points back ("Do not format it", "use that spelling") is
about the value the sentence before it names: it is shown from that sentence. A value
followed by values of its own shape, listed by commas ("12.9158° S, 69.0134° E"), is
shown with them. Both show only verbatim text of the message.
"""

from __future__ import annotations

import re

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.quote import Source
from langgraph_compact.compaction.quote import values as quote_values
from langgraph_compact.compaction.shapes import compatible, value_groups
from langgraph_compact.compaction.summary import SummaryItem

__all__ = ["gives_a_value", "listed_on", "names_a_value", "refers_back", "with_antecedent"]


def names_a_value(sentence: str) -> bool:
    """A sentence naming something concrete: a value that names one thing (``is_name``:
    an id, a path, a host, a dotted or colon-joined name such as ``svc.pool.max_conns``)."""
    return any(tx.is_name(v) for v in quote_values(sentence))


_LITERAL = re.compile(r'"[^"\n]{1,80}"|\u201c[^\u201d\n]{1,80}\u201d|`[^`\n]{1,80}`')


def gives_a_value(sentence: str) -> bool:
    """A sentence stating something exact: a name (``names_a_value``), a number, a word
    of another script or a quoted literal ("stays under 78.7%", "add 임수아 as reviewer",
    "sign it as "Kim""): what a person says this exactly is kept with what they state,
    whatever words carry it."""
    if names_a_value(sentence) or _LITERAL.search(sentence):
        return True
    values = "".join(quote_values(sentence))
    letters = [c for c in sentence if c.isalpha()]
    other = sum(not c.isascii() for c in letters)
    # a word of another script in a sentence of this one; in its own script it is words
    return any(c.isdigit() for c in values) or (
        0 < other < len(letters) / 2 and any(c.isalpha() and not c.isascii() for c in values)
    )


_REFERRING = re.compile(r"(?i)\b(?:it|its|that|this|these|those|them|there|such|same)\b")
_RULES = frozenset({"constraint", "preference", "safety"})


def refers_back(sentence: str, earlier: str) -> bool:
    """A rule naming nothing itself that points back ("Do not format it", "use that
    spelling") after a sentence naming a value: the rule is about that value."""
    if not _REFERRING.search(sentence) or names_a_value(sentence):
        return False
    return any(tx.is_name(v) or not v.isascii() for v in quote_values(earlier))


def with_antecedent(it: SummaryItem, src: Source, start: int, end: int) -> SummaryItem:
    """A rule shown from the sentence before it (``start``) to its own end: what "it"
    names is part of the rule, whichever of the two is kept. Only within one line of a
    paragraph and within an item's length; else the rule as it was."""
    shown = src.slice(start, end)
    if it.kind not in _RULES or "\n" in shown.text or len(shown.text) > tx.ITEM_MAX_CHARS:
        return it
    return it.model_copy(update={"text": shown.text, "spans": shown.spans})


_UNIT = re.compile(r"\s[^\W\d_]{1,2}(?=\s*(?:[,;.)!?]|$))")
_ENDS = re.compile(r"\s*(?:[,;.)!?]|$)")


def listed_on(sentence: str, end: int) -> int:
    """Where a value ending at ``end`` ends with the values of its own shape listed after it
    by commas: the fact "the pin should be 12.9158° S, 69.0134° E" is not shown as its
    first half (a different value after the comma is another fact, not this one's)."""
    groups = [(g[0][0], g[-1][1]) for g in value_groups(sentence)]
    last = next((g for g in reversed(groups) if g[0] < end), None)
    for a, b in groups:
        if last is None or a < end or not re.fullmatch(r"\s*,\s*", sentence[end:a]):
            continue
        tail = _UNIT.match(sentence, b)  # the "E" of "69.0134° E"
        stop = tail.end() if tail else b
        if not _ENDS.match(sentence, stop) or not compatible(
            sentence[last[0] : end], sentence[a:stop]
        ):
            break  # "8080, 9090 was the old one": the second value starts another clause
        last, end = (a, stop), stop
    return end
