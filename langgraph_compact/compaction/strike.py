"""What a summary item states, and striking the values later statements make stale.

An item *states a value* when a later value can replace it: facts and rules of any
origin; the notes, ids and paths of what a person (or a summary read back) said. Merge
uses this to supersede items (``merge``); before each model call the summary in view is
shown without the values a message after it replaces (``strike_corrected``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

from langchain_core.messages import AIMessage, BaseMessage, ToolCall, ToolMessage

from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import call_signature
from langgraph_compact.compaction.outputs import answer_value
from langgraph_compact.compaction.qualifiers import crossed
from langgraph_compact.compaction.quote import ARROW, value_spans
from langgraph_compact.compaction.quote import values as quote_values
from langgraph_compact.compaction.sentences import unasserted
from langgraph_compact.compaction.shapes import comparable, same_shape
from langgraph_compact.compaction.stale import stale_spans
from langgraph_compact.compaction.subject import (
    Statement,
    answer,
    statement,
    superseded_values,
    value_tokens,
)
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.compaction.turns import amended_values
from langgraph_compact.messages import message_text

__all__ = [
    "ADDITIVE",
    "MAX_EVICTED",
    "MIN_STRUCK_CHARS",
    "elide",
    "evicted_values",
    "item_statement",
    "own_key",
    "remainder",
    "restated",
    "said_order",
    "sole_referent",
    "states",
    "states_a_value",
    "strike_corrected",
]


MIN_STRUCK_CHARS = 3
"""Shortest stale value that strikes other items stating it. "9 spaces, not 8" must not
drop every line with an 8 in it (``src/x.c:675:8: error``); the corrected fact itself
is still replaced through its key."""


def _occurrences(text: str, values: Sequence[str]) -> list[tuple[int, int]]:
    """Where ``text`` states one of ``values`` (``MIN_STRUCK_CHARS`` or more) as a word."""
    lower = text.lower()
    return [
        (m.start(), m.end())
        for v in values
        if len(v.strip()) >= MIN_STRUCK_CHARS
        for m in re.finditer(rf"(?<![\w.]){re.escape(v.lower())}(?![\w])", lower)
    ]


def states(item: SummaryItem, values: Sequence[str]) -> bool:
    """Whether ``item`` states one of ``values`` (of ``MIN_STRUCK_CHARS`` or more) as a word."""
    return bool(_occurrences(item.text, values))


def elide(item: SummaryItem, values: Sequence[str]) -> SummaryItem | None:
    """``item`` without the stale ``values`` it states (``…`` where they were), or None
    when nothing worth showing is left: a rule keeps its words, not the old value."""
    found = _occurrences(item.text, values)
    if not found:
        return item
    left = item.quote.without(found, ends=True)
    if not left or (not quote_values(left.text) and tx.content_words(left.text) < 3):
        return None
    return item.with_quote(left)


def remainder(old: SummaryItem, gone: Sequence[str], new: SummaryItem) -> SummaryItem | None:
    """What a person's statement ``old`` still says once ``new`` made its ``gone`` values stale:
    ``old`` without them, and without a value ``new`` states anew under the same word, when a
    value it stated outside its key is left ("Deploy to eu-west-1 at … UTC with build v2.3.1"
    after the time's correction; not "Gate A1 boarding time is …"); else None. A
    correction of one value is not a reason to lose the others said with it."""
    if not states_a_value(old) or old.origin not in ("human", "summary"):
        return None  # what a person said; a tool's or the assistant's line goes whole
    was, now = item_statement(old), item_statement(new)
    mine = {old.text[a:b]: _named_by(old.text, a) for a, b in value_spans(old.text)}
    said = {new.text[a:b]: _named_by(new.text, a) for a, b in value_spans(new.text)}
    also = [  # "build v2.3.1" under "build v2.4.0"; not "rollback at 10:00" under "deploy at"
        v
        for v, word in mine.items()
        if v not in said
        and any(comparable(v, w) and word and word == by for w, by in said.items() if w not in mine)
    ]
    restated = value_tokens(now.values)  # "UTC" of a stale "09:00 UTC" is still said
    rest = elide(old, [v for v in (*gone, *also) if v.casefold() not in restated])
    if rest is None or rest is old:
        return None
    struck = value_tokens([*gone, *also]) | restated
    kept = value_tokens(was.values) - struck
    return rest if any(t in rest.text.casefold() for t in kept) else None


def own_key(held: SummaryItem | None, item: SummaryItem) -> str | None:
    """The key of ``item`` when it names another thing than ``held``, the item under the
    same key (their ``qualifiers`` cross): the key and what names it apart (``fact:flight
    @bob``), the same in every merge, so Bob's next flight replaces Bob's."""
    if held is None or not states_a_value(held) or not states_a_value(item):
        return None
    mine, theirs = item_statement(item).qualifiers, item_statement(held).qualifiers
    if not crossed(mine, theirs):
        return None
    return f"{item.key} {' '.join(sorted(mine - theirs))}"


def _named_by(text: str, at: int) -> str:
    """The content word nearest before ``at`` (folded; "" when none): what a value is of."""
    words = re.findall(r"[^\W\d_]{2,}", text[max(0, at - 60) : at])
    return next((w.casefold() for w in reversed(words) if not tx.function_words_only(w)), "")


_STATEMENT_KINDS = frozenset(
    {"fact", "correction", "constraint", "preference", "safety", "decision"}
)
_SAID_KINDS = frozenset({"note", "identifier", "path"})
"""Kinds that state something a later value can replace: any origin's facts and rules;
the notes, ids and paths of what a person (or a summary read back) said. A tool's or an
assistant's mention of an id is a reference, not a statement of its current value."""


def states_a_value(item: SummaryItem) -> bool:
    if item.historical or (item.key or "").startswith(("file:", "call:", "goal")):
        return False
    if item.kind in _SAID_KINDS and unasserted(item.text):
        return False  # "Is the window 15:00 UTC?" asks: it replaces nothing
    if item.spans and all(s.part.startswith("args") for s in item.spans):
        return False  # an argument a call passed: that call's, not a current value
    if item.kind in _STATEMENT_KINDS:
        return True
    return item.kind in _SAID_KINDS and item.origin in ("human", "summary")


def said_order(item: SummaryItem) -> tuple[int, int]:
    """When the item was said: its message, then its place in it."""
    return item.seq, item.spans[0].start if item.spans else 0


def item_statement(item: SummaryItem) -> Statement:
    key = item.key or ""
    if key.startswith("answer:"):  # ``call → value`` (``outputs.tool_items``)
        return answer(key.removeprefix("answer:"), item.text.rpartition(ARROW)[2])
    found = statement(item.text)
    stale = tuple(dict.fromkeys(found.stale + item.stale))
    if not item.said_with:
        return replace(found, stale=stale)
    values = tuple(dict.fromkeys(found.values + item.said_with))
    ties = {
        frozenset((x, y)) for x in value_tokens(item.said_with) for y in value_tokens(found.values)
    }  # tied by the sentence it was said in (``extract``)
    return replace(found, stale=stale, values=values, changes=True, links=found.links | ties)


ADDITIVE = frozenset({"constraint", "safety"})


def restated(a: SummaryItem, b: SummaryItem) -> bool:
    """Whether a new value for the same subject replaces the other's without a correction
    word. Not within one message (a message listing values lists them, it does not
    correct itself) and not between rules ("never touch a/" and "never touch b/" both
    hold)."""
    return a.seq != b.seq and a.kind not in ADDITIVE and b.kind not in ADDITIVE


MAX_EVICTED = 256
"""Value tokens a summary remembers of the statements it gave up (``evicted_values``)."""


def evicted_values(
    earlier: Sequence[str],
    merged: Mapping[Section, Sequence[SummaryItem]],
    chosen: Mapping[Section, Sequence[SummaryItem]],
) -> tuple[str, ...]:
    """``earlier`` and the value tokens of the statements of ``merged`` that ``chosen``
    (what fits the cap) leaves out, or shows shortened without (``focused``), oldest
    first, the newest ``MAX_EVICTED``: what was said before, for a later correction
    naming it (``RunningSummary.evicted``)."""
    kept = {(i.key or i.text, i.seq): i for items in chosen.values() for i in items}
    gone = []
    for items in merged.values():
        for i in items:
            if not states_a_value(i):
                continue
            tokens = value_tokens(item_statement(i).values)
            if (shown := kept.get((i.key or i.text, i.seq))) is not None:
                tokens -= value_tokens(item_statement(shown).values)
            gone.extend(sorted(tokens))
    newest_last = list(dict.fromkeys(reversed((*earlier, *gone))))[::-1]
    return tuple(newest_last[-MAX_EVICTED:])


K = TypeVar("K")


def sole_referent(
    held: Iterable[tuple[K, SummaryItem]], came: Iterable[str], also: Iterable[str] = ()
) -> tuple[K, tuple[str, ...]] | None:
    """What a correction with no subject of its own ("I gave you the wrong ID earlier.
    It's Y.") corrects: the one value token among the statements of ``held`` shaped like
    one of ``came``, its new value tokens (``shapes.same_shape``), where it is held, and
    the value holding it. None when no token, or more than one ("#W1 and #W2"), has that
    shape, in ``held`` or among ``also`` (other value tokens said before): which one it
    meant is not known. A token of ``also`` that ``held`` states is that same value."""
    came = list(came)
    found = [
        (where, v, token)
        for where, old in held
        if old.kind not in ADDITIVE and states_a_value(old)
        for v in item_statement(old).values
        for token in value_tokens([v])
        if _shaped(token, came)
    ]
    if any(_shaped(t, came) for t in set(also) - {token for _, _, token in found}):
        return None
    if len({token for _, _, token in found}) != 1 or len({id(w) for w, _, _ in found}) != 1:
        return None
    return found[0][0], tuple(dict.fromkeys(v for _, v, _ in found))


def _shaped(value: str, came: Iterable[str]) -> bool:
    return any(same_shape(t, w) for t in value_tokens([value]) for w in came)


def strike_corrected(
    summary: RunningSummary, later: Sequence[BaseMessage], count_text: Callable[[str], int]
) -> RunningSummary | None:
    """``summary`` without the values that a later message in view replaces ("Actually,
    the quota is Bibeff, not Uawrev"; "the window is 15:32 UTC"; a tool printing the new
    value), or None when it states none of them.

    The later statement is in view, verbatim, after the summary; the summary must not
    show the old value as current meanwhile. The next summary merges the statement
    itself. A pinned item (a rule) is shown without the old value; values under three
    characters strike nothing.
    """
    calls = {c["id"] or "": c for m in later if isinstance(m, AIMessage) for c in m.tool_calls}
    statements = [st for m in later for st in _later_statements(m, calls)]
    held = summary.all_items()
    stated = value_tokens([v for i in held for v in item_statement(i).values])
    sole: dict[int, tuple[str, ...]] = {}
    stated_in_view: set[str] = set()  # by the messages in view before a correction
    for m in later:  # each correction on its own: two in view are two corrections
        came = value_tokens(amended_values(m)) - stated
        also = (*summary.evicted, *stated_in_view)
        found = sole_referent(((id(i), i) for i in held), came, also) if came else None
        if found is not None:
            sole[found[0]] = (*sole.get(found[0], ()), *found[1])
        stated_in_view |= value_tokens(quote_values(message_text(m)))
    if not statements and not sole:
        return None
    changed = False
    sections: dict[Section, tuple[SummaryItem, ...]] = {}
    for section, items in summary.sections.items():
        kept: list[SummaryItem] = []
        for item in items:
            gone = _struck(item, statements)
            if id(item) in sole:
                gone = list(dict.fromkeys((*gone, *sole[id(item)])))
            if not gone:
                kept.append(item)
                continue
            changed = True
            shown = elide(item, gone) if item.pinned else None
            if shown is not None and shown is not item:
                kept.append(shown)
        if kept:
            sections[section] = tuple(kept)
    if not changed:
        return None
    rendered = summary.model_copy(update={"sections": sections})
    return rendered.model_copy(update={"token_count": count_text(rendered.render())})


def _struck(item: SummaryItem, later: Sequence[Statement]) -> list[str]:
    """The values of ``item`` that ``later`` statements make stale."""
    explicit = [v for st in later for v in st.stale]
    gone = [v for v in explicit if states(item, [v])]
    if states_a_value(item):
        mine = item_statement(item)
        implicit = item.kind not in ADDITIVE
        gone += [v for st in later for v in superseded_values(st, mine, implicit=implicit)]
    return list(dict.fromkeys(gone))


def _later_statements(message: BaseMessage, calls: Mapping[str, ToolCall]) -> list[Statement]:
    """The statements of a message in view after the summary: what a person or the
    assistant says sentence by sentence, the facts a tool prints, the one value it prints
    as the answer to its call."""
    kind = "tool" if isinstance(message, ToolMessage) else message.type
    text = message_text(message)
    found = list(_statements_of(kind, text))
    call = calls.get(message.tool_call_id) if isinstance(message, ToolMessage) else None
    if call is not None and (value := answer_value(text)):
        found.append(answer(call_signature(call).text, value))
    return found


@lru_cache(maxsize=1024)
def _statements_of(kind: str, text: str) -> tuple[Statement, ...]:
    if kind == "tool":
        found = [
            statement(line[f.start : f.end])
            for line in text.splitlines()[:2000]
            if line.strip() and not tx.is_code_line(line)
            for f in p.facts(line)
        ]
        return tuple(found[:_TOOL_STATEMENTS])
    return tuple(
        statement(s)
        for s in tx.sentences(text)
        if not tx.is_code_line(s) and (p.facts(s) or stale_spans(s))
    )


_TOOL_STATEMENTS = 8
"""Facts of one tool output that may strike summary values: a dump's key-values are
incidental (``outputs._TOOL_FACTS``)."""
