"""Merge new summary candidates into the previous sections: supersede, dedupe, retire.

Merging is what makes a summary a delta update rather than a rewrite: a previous item
survives unless a new one supersedes it (same key, or a correction naming its value as
stale), near-duplicates fold into one item that remembers every source, one error
template raised with other names folds into one item listing them, and a change of
goal turns the current task's items historical instead of deleting them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence

from langchain_core.messages import BaseMessage, HumanMessage

from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.messages import message_text

__all__ = ["MIN_STRUCK_CHARS", "merge_items", "states", "strike_corrected"]

_PROGRESS = frozenset({Section.DONE, Section.IN_PROGRESS, Section.BLOCKED})
_FILES = frozenset({Section.FILES_READ, Section.FILES_MODIFIED})
_GROUPS: Mapping[Section, frozenset[Section]] = {
    **dict.fromkeys(_PROGRESS, _PROGRESS),
    **dict.fromkeys(_FILES, _FILES),
    Section.CRITICAL: frozenset({Section.CRITICAL, Section.CONSTRAINTS}),
    Section.CONSTRAINTS: frozenset({Section.CRITICAL, Section.CONSTRAINTS}),
}
"""Sections whose items share keys: a key moves between them instead of duplicating."""
_MAX_SOURCES = 8
_ALSO = re.compile(r" \(also: (?P<values>[^()]*)\)$")
_MAX_ALSO_CHARS = 80
"""Most characters of other values an error template folds into one item."""


def _combine(old: SummaryItem, new: SummaryItem) -> SummaryItem:
    """``new`` carrying ``old``'s lineage: sources, mention count, the higher salience, pin.

    A notice that tools print again word for word (pip's "Running pip as the 'root'
    user…") is standing boilerplate, not news: each repeat halves its salience.
    """
    boilerplate = (new.key or "").startswith("note:")
    salience = (
        min(old.salience, new.salience) / 2 if boilerplate else max(old.salience, new.salience)
    )
    return new.model_copy(
        update={
            "sources": tuple(dict.fromkeys(old.sources + new.sources))[-_MAX_SOURCES:],
            "refs": old.refs + new.refs,
            "salience": salience,
            "pinned": old.pinned or new.pinned,
            "stale": tuple(dict.fromkeys(old.stale + new.stale)),
        }
    )


def _fold_template(old: SummaryItem, new: SummaryItem) -> SummaryItem | None:
    """One error template raised with other names ("No module named 'numpy'", then
    'scipy'): the latest text, the earlier names listed after it. None when the names
    differ too much to list (then they are two items)."""
    base, also = _split_also(old.text)
    words = set(re.findall(r"[^\s]+", new.text))
    values = [" ".join(w for w in base.split() if w not in words), *also]
    values = [v for v in dict.fromkeys(values) if v and v not in new.text]
    listed = "; ".join(values)
    if not values or len(listed) > _MAX_ALSO_CHARS:
        return None
    return _combine(old, new).model_copy(update={"text": f"{new.text} (also: {listed})"})


def _split_also(text: str) -> tuple[str, list[str]]:
    found = _ALSO.search(text)
    if found is None:
        return text, []
    return text[: found.start()], found["values"].split("; ")


MIN_STRUCK_CHARS = 3
"""Shortest stale value that strikes other items stating it. "9 spaces, not 8" must not
drop every line with an 8 in it (``src/x.c:675:8: error``); the corrected fact itself
is still replaced through its key."""


def states(item: SummaryItem, values: Sequence[str]) -> bool:
    """Whether ``item`` states one of ``values`` (of ``MIN_STRUCK_CHARS`` or more) as a word."""
    text = item.text.lower()
    return any(
        re.search(rf"(?<![\w.]){re.escape(v.lower())}(?![\w])", text)
        for v in values
        if len(v.strip()) >= MIN_STRUCK_CHARS
    )


def merge_items(
    sections: Mapping[Section, Sequence[SummaryItem]],
    new: Sequence[tuple[Section, SummaryItem]],
) -> dict[Section, list[SummaryItem]]:
    """Merge new items into sections, in order; later values supersede earlier ones.

    Algorithm:
        An item whose key is already held in its supersede group (the progress sections
        share keys, so do the file sections, and so do Critical Context and Constraints)
        replaces the old item and keeps its lineage. Without a key match, an item whose
        normalized text equals another's in the same section folds into it. A correction
        (an item with ``stale`` values) drops every other unpinned-or-fact item that still
        states one of those values, and a later item that is not itself a correction but
        states a stale value again is dropped. A new goal makes the previous goal and the current
        in-progress and next-step items historical. A file once modified stays under
        "modified" when read again. A call that succeeds after failing (its Blocked item
        becomes Done) demotes the errors its failed runs printed (``RESOLVED_SALIENCE``).
    """
    out: dict[Section, dict[str, SummaryItem]] = {}
    where: dict[str, Section] = {}  # key -> the section holding it
    texts: dict[tuple[Section, str], str] = {}  # (section, normalized text) -> slot
    templates: dict[str, str] = {}  # error template -> its slot in Critical Context
    slots = itertools.count()

    def put(section: Section, item: SummaryItem) -> None:
        slot = item.key or f"\x00{next(slots)}"
        out.setdefault(section, {})[slot] = item
        texts[(section, tx.norm(item.text))] = slot
        if item.key:
            where[item.key] = section
        if item.kind == "error" and section is Section.CRITICAL:
            templates[tx.template(_split_also(item.text)[0])] = slot

    def pop(section: Section, slot: str) -> SummaryItem:
        item = out[section].pop(slot)
        texts.pop((section, tx.norm(item.text)), None)
        if item.kind == "error":
            templates.pop(tx.template(_split_also(item.text)[0]), None)
        if item.key and where.get(item.key) is section:
            del where[item.key]
        return item

    for section, items in sections.items():
        for item in items:
            put(section, item)
    corrected: list[str] = [v for items in sections.values() for i in items for v in i.stale]
    for section, item in new:
        if section is Section.GOAL and item.key == "goal":
            current = out.get(Section.GOAL, {}).get("goal")
            if current is None or tx.norm(current.text) != tx.norm(item.text):
                _retire_current_task(out, where)
                texts = {k: v for k, v in texts.items() if k[0] is not Section.GOAL}
        if item.key and item.key.startswith("file:"):
            item = _same_file(item, where, out, pop)
        held = where.get(item.key) if item.key else None
        if held is Section.FILES_MODIFIED and section is Section.FILES_READ:
            old = out[held][item.key or ""]
            out[held][item.key or ""] = _combine(old, item).model_copy(
                update={"text": old.text, "kind": old.kind}
            )
            continue
        if not item.stale and section is not Section.CONSTRAINTS and states(item, corrected):
            continue  # a value a correction made stale, stated again (a model copying it)
        if held is not None and held in _GROUPS.get(section, frozenset({section})):
            old = pop(held, item.key or "")
            if held is Section.BLOCKED and section is Section.DONE:
                _resolve(out, frozenset(old.sources))
            item = _combine(old, item)
        elif (slot := texts.get((section, tx.norm(item.text)))) is not None:
            item = _combine(pop(section, slot), item)  # the same words under another key
        elif (
            item.kind == "error"
            and section is Section.CRITICAL
            and (slot := templates.get(tx.template(item.text))) is not None
            and slot in out.get(section, {})
            and (folded := _fold_template(out[section][slot], item)) is not None
        ):
            pop(section, slot)
            item = folded
        if item.stale:
            _drop_stale(out, pop, item)
            corrected.extend(item.stale)
        put(section, item)
    return {section: list(items.values()) for section, items in out.items() if items}


def _same_file(
    item: SummaryItem,
    where: dict[str, Section],
    out: dict[Section, dict[str, SummaryItem]],
    pop: Callable[[Section, str], SummaryItem],
) -> SummaryItem:
    """A bare file name and a path ending in it are one file: keep the path's key.

    ``validators.py`` named in prose after ``django/core/validators.py`` was read folds
    into the path; a path seen after its bare name takes the bare item over.
    """
    path = (item.key or "")[len("file:") :]
    if "/" not in path:
        match = next((k for k in where if k.startswith("file:") and k.endswith("/" + path)), None)
        return item.model_copy(update={"key": match, "text": match[5:]}) if match else item
    bare = f"file:{path.rsplit('/', 1)[1]}"
    if bare in where:
        old = pop(where[bare], bare)
        return _combine(old, item)
    return item


RESOLVED_SALIENCE = 0.45
"""The most salience an error keeps once the call that printed it succeeds (a tool error
starts at 0.75-0.8): a fixed failure is history, an open one is state. A cap, not a
factor, so fail-and-pass cycles of other errors do not sink it further; printed again,
it regains its weight."""


def _resolve(out: dict[Section, dict[str, SummaryItem]], sources: frozenset[str]) -> None:
    """Demote the errors printed by a call that has since succeeded (``sources``: the
    failed runs' tool messages)."""
    held = out.get(Section.CRITICAL, {})
    for slot, other in held.items():
        if other.kind == "error" and other.sources and other.sources[-1] in sources:
            salience = min(other.salience, RESOLVED_SALIENCE)
            held[slot] = other.model_copy(update={"salience": salience})


def _drop_stale(out: dict[Section, dict[str, SummaryItem]], pop: object, item: SummaryItem) -> None:
    """Remove items that still state a value ``item`` corrected (constraints stay)."""
    for section, held in out.items():
        if section is Section.CONSTRAINTS:
            continue
        for slot, other in list(held.items()):
            if other is not item and states(other, item.stale):
                pop(section, slot)  # type: ignore[operator]


def _retire_current_task(
    out: dict[Section, dict[str, SummaryItem]], where: dict[str, Section]
) -> None:
    for section in (Section.GOAL, Section.IN_PROGRESS, Section.NEXT_STEPS):
        retired: dict[str, SummaryItem] = {}
        for slot, item in out.get(section, {}).items():
            if item.key and not item.historical:
                where.pop(item.key, None)
                slot = f"old:{item.seq}:{item.key}"
                item = item.model_copy(
                    update={"historical": True, "key": slot, "pinned": False, "salience": 0.2}
                )
            retired[slot] = item
        out[section] = retired


def strike_corrected(
    summary: RunningSummary, later: Sequence[BaseMessage], count_text: Callable[[str], int]
) -> RunningSummary | None:
    """``summary`` without the items that state a value a later human message corrects
    ("Actually, the quota is Bibeff, not Uawrev"), or None when it states none.

    The correction is in view, verbatim, after the summary; the summary must not show the
    old value as current meanwhile. The next summary merges the correction itself.
    Constraints stay (as in ``merge_items``); values under three characters strike nothing.
    """
    stale = [
        v
        for m in later
        if isinstance(m, HumanMessage)
        for sentence in tx.sentences(message_text(m))
        for v in p.stale_values(sentence)
    ]
    if not stale:
        return None
    kept = {
        s: tuple(i for i in items if s is Section.CONSTRAINTS or not states(i, stale))
        for s, items in summary.sections.items()
    }
    if all(len(kept[s]) == len(items) for s, items in summary.sections.items()):
        return None
    sections = {s: items for s, items in kept.items() if items}
    rendered = summary.model_copy(update={"sections": sections})
    return rendered.model_copy(update={"token_count": count_text(rendered.render())})
