"""Merge new summary candidates into the previous sections: supersede, dedupe, retire.

Merging is what makes a summary a delta update rather than a rewrite: a previous item
survives unless a new one supersedes it (same key, or a correction naming its value as
stale), near-duplicates fold into one item that remembers every source, one error
template raised with other names folds into one item listing them, and a change of
goal turns the current task's items historical instead of deleting them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.combine import combine, fold_template, split_also, winner
from langgraph_compact.compaction.moves import moved_from_given_up, moved_values
from langgraph_compact.compaction.rerun import replaced_by_run
from langgraph_compact.compaction.strike import (
    elide,
    item_statement,
    own_key,
    remainder,
    restated,
    said_order,
    sole_referent,
    states,
    states_a_value,
)
from langgraph_compact.compaction.subject import (
    Statement,
    index_words,
    statement,
    superseded_values,
    value_tokens,
)
from langgraph_compact.compaction.summary import Section, SummaryItem

__all__ = ["merge_items"]

_PROGRESS = frozenset({Section.DONE, Section.IN_PROGRESS, Section.BLOCKED})
_FILES = frozenset({Section.FILES_READ, Section.FILES_MODIFIED})
_GROUPS: Mapping[Section, frozenset[Section]] = {
    **dict.fromkeys(_PROGRESS, _PROGRESS),
    **dict.fromkeys(_FILES, _FILES),
    Section.CRITICAL: frozenset({Section.CRITICAL, Section.CONSTRAINTS}),
    Section.CONSTRAINTS: frozenset({Section.CRITICAL, Section.CONSTRAINTS}),
}
"""Sections whose items share keys: a key moves between them instead of duplicating."""


def merge_items(
    sections: Mapping[Section, Sequence[SummaryItem]],
    new: Sequence[tuple[Section, SummaryItem]],
    *,
    evicted: frozenset[str] = frozenset(),
) -> dict[Section, list[SummaryItem]]:
    """Merge new items into sections, in order; later values supersede earlier ones.

    Algorithm:
        An item whose key is already held in its supersede group (the progress sections
        share keys, so do the file sections, and so do Critical Context and Constraints)
        replaces the old item and keeps its lineage, unless the two name different things
        (``qualifiers.crossed``: "Bob's flight" and "Alice's flight" share ``fact:flight``;
        Bob's is keyed apart). Without a key match, an item whose
        normalized text equals another's in the same section folds into it. An item that
        states a new value for the subject of an earlier one (``subject``), or marks one
        of its values stale, replaces it in every section and becomes a correction. A
        correction (an item with ``stale`` values) drops every other earlier item that
        still states one of those values, or shows a pinned one without them; a later
        item that is not itself a correction but states a stale value again is dropped.
        A new goal makes the previous goal and the current in-progress and next-step
        items historical. A file once modified stays under "modified" when read again.
        A call that succeeds after failing (its Blocked item becomes Done) demotes the
        errors its failed runs printed (``RESOLVED_SALIENCE``). The same call run again
        successfully drops the facts read from its earlier outputs (``rerun``).
        ``evicted`` holds the value tokens of statements an earlier summary gave up to
        fit its cap (``RunningSummary.evicted``): a correction that names no subject
        replaces nothing when one of them has its new value's shape (which one it meant
        is not known), and a statement saying something changed ("swap X for Y") moves
        away from one of them as from a value held (``moves.moved_from_given_up``).
    """
    out: dict[Section, dict[str, SummaryItem]] = {}
    where: dict[str, Section] = {}  # key -> the section holding it
    texts: dict[tuple[Section, str], str] = {}  # (section, normalized text) -> slot
    templates: dict[str, str] = {}  # error template -> its slot in Critical Context
    about: dict[str, set[tuple[Section, str]]] = {}  # subject word -> statement slots
    slots = itertools.count()
    read: dict[int, tuple[SummaryItem, Statement]] = {}  # each held item is read once

    def statement_of(item: SummaryItem) -> Statement:
        held = read.get(id(item))
        if held is None or held[0] is not item:
            held = read[id(item)] = (item, item_statement(item))
        return held[1]

    def put(section: Section, item: SummaryItem) -> None:
        slot = item.key or f"\x00{next(slots)}"
        if slot in out.get(section, {}):
            pop(section, slot)
        out.setdefault(section, {})[slot] = item
        texts[(section, tx.norm(item.text))] = slot
        if item.key:
            where[item.key] = section
        if item.kind == "error" and section is Section.CRITICAL:
            templates[tx.template(split_also(item.quote)[0].text)] = slot
        if states_a_value(item):
            for word in index_words(item_statement(item)):
                about.setdefault(word, set()).add((section, slot))

    def pop(section: Section, slot: str) -> SummaryItem:
        item = out[section].pop(slot)
        texts.pop((section, tx.norm(item.text)), None)
        if item.kind == "error":
            templates.pop(tx.template(split_also(item.quote)[0].text), None)
        if item.key and where.get(item.key) is section:
            del where[item.key]
        for word in index_words(item_statement(item)) if states_a_value(item) else ():
            about.get(word, set()).discard((section, slot))
        return item

    def said_before(token: str, seq: int) -> bool:
        """Whether an item of an earlier message states the value token."""
        return any(
            (held := out.get(section, {}).get(slot)) is not None and held.seq < seq
            for section, slot in about.get("=" + token, ())
        )

    def supersede(item: SummaryItem) -> SummaryItem | None:
        """``item`` after replacing the earlier statements it supersedes; None when a
        later statement held already supersedes it."""
        if not states_a_value(item):
            return item
        mine = item_statement(item)
        empty = replaced = False
        # by value only when it says something changed: a time's "UTC" is in every time
        words = index_words(mine) if mine.changes else mine.subject
        near = {x for w in words for x in about.get(w, ())}
        said = frozenset(t for t in value_tokens(mine.values) if said_before(t, item.seq))
        for section, slot in sorted(near, key=lambda x: (x[0].value, x[1])):
            old = out.get(section, {}).get(slot)
            if old is None or old is item:
                continue
            same = old.key == item.key  # replaced by its key below; its values still count
            implicit = restated(old, item)
            if said_order(old) > said_order(item):
                if not same and superseded_values(statement_of(old), mine, implicit=implicit):
                    return None  # said before what is held: already out of date
                continue
            was = statement_of(old)
            gone = () if same else superseded_values(mine, was, implicit=implicit)
            moved = moved_values(mine, was, said - value_tokens(was.values)) if implicit else ()
            if moved:  # "switch from X to Y": X is shown no more, here or there
                gone = tuple(dict.fromkeys((*gone, *moved)))
                shown = elide(item, moved)
                empty = shown is None  # "we no longer meet at X": nothing left to show
                item = shown or item
            replaced = replaced or bool(gone)
            if gone:
                rest = remainder(old, gone, item)
                if not same:
                    pop(section, slot)
                if rest is not None:  # the other values said with it stay, in a slot of their own
                    put(section, rest.model_copy(update={"key": None}) if same else rest)
                item = winner(item, old, gone)
                mine = item_statement(item)
        if item.amends and not item.stale and (found := referent(item, mine)) is not None:
            section, slot, gone = found
            item = winner(item, pop(section, slot), gone)
        elif (
            not (item.stale or replaced)  # what its own sentence says moved
            and (own := statement(item.text)).changes
            and (given_up := moved_from_given_up(item.text, own, evicted, said))
        ):
            shown = elide(item, given_up)  # no earlier item to replace: it was given up
            empty = shown is None
            item = winner(shown or item, item, given_up)
        return None if empty else item

    def referent(item: SummaryItem, mine: Statement) -> tuple[Section, str, tuple[str, ...]] | None:
        """The one earlier statement a correction with no subject of its own corrects."""
        came = [t for t in value_tokens(mine.values) if not said_before(t, item.seq)]
        earlier = (
            ((section, slot), old)
            for section, held in out.items()
            for slot, old in held.items()
            if old.seq < item.seq
        )
        found = sole_referent(earlier, came, evicted) if came else None
        return None if found is None else (*found[0], found[1])

    for section, items in sections.items():
        for kept in items:
            put(section, kept)
    corrected: list[str] = [v for items in sections.values() for i in items for v in i.stale]
    for section, found in new:
        if section is Section.GOAL and found.key == "goal":
            current = out.get(Section.GOAL, {}).get("goal")
            if current is None or tx.norm(current.text) != tx.norm(found.text):
                _retire_current_task(out, where)
                texts = {k: v for k, v in texts.items() if k[0] is not Section.GOAL}
        if found.key and found.key.startswith("file:"):
            found = _same_file(found, where, out, pop)
        if found.kind == "done" and found.call and found.sources:
            _looked_again(out, pop, found)
        held = where.get(found.key) if found.key else None
        if held is not None and (own := own_key(out[held].get(found.key or ""), found)):
            found = found.model_copy(update={"key": own})  # "Bob's flight" beside Alice's
            held = where.get(own)
        if held is Section.FILES_MODIFIED and section is Section.FILES_READ:
            old = out[held][found.key or ""]
            out[held][found.key or ""] = combine(old, found).model_copy(
                update={"text": old.text, "spans": old.spans, "kind": old.kind}
            )
            continue
        now_item = supersede(found)
        if now_item is None:
            continue
        item = now_item
        if item.stale:
            now = {v.casefold() for v in statement(item.text).values}
            corrected = [v for v in corrected if v.casefold() not in now]  # current again
        elif states(item, corrected):
            # a value a correction made stale, stated again (a model copying it): a rule
            # keeps its words without it, anything else goes
            rule = elide(item, corrected) if section is Section.CONSTRAINTS else None
            if rule is None:
                continue
            item = rule
        if held is not None and held in _GROUPS.get(section, frozenset({section})):
            if (found.key or "") in out.get(held, {}):
                old = pop(held, found.key or "")
                if held is Section.BLOCKED and section is Section.DONE:
                    _resolve(out, frozenset(old.sources))
                item = combine(old, item)
        elif (slot := texts.get((section, tx.norm(item.text)))) is not None:
            item = combine(pop(section, slot), item)  # the same words under another key
        elif (
            item.kind == "error"
            and section is Section.CRITICAL
            and (slot := templates.get(tx.template(item.text))) is not None
            and slot in out.get(section, {})
            and (folded := fold_template(out[section][slot], item)) is not None
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
        if match is None:
            return item
        other = out[where[match]][match]
        return item.model_copy(update={"key": match, "text": other.text, "spans": other.spans})
    bare = f"file:{path.rsplit('/', 1)[1]}"
    if bare in where:
        old = pop(where[bare], bare)
        return combine(old, item)
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


def _drop_stale(
    out: dict[Section, dict[str, SummaryItem]],
    pop: Callable[[Section, str], SummaryItem],
    item: SummaryItem,
) -> None:
    """Earlier items that still state a value ``item`` corrected: dropped, or (pinned
    ones: rules, other corrections) shown without it."""
    for section, held in out.items():
        for slot, other in list(held.items()):
            if (
                other is item
                or said_order(other) > said_order(item)
                or not states(other, item.stale)
            ):
                continue
            pinned = other.pinned or other.kept
            kept = elide(other, item.stale) if pinned else remainder(other, item.stale, item)
            if kept is None:
                pop(section, slot)
            else:
                held[slot] = kept


def _looked_again(
    out: dict[Section, dict[str, SummaryItem]],
    pop: Callable[[Section, str], SummaryItem],
    call: SummaryItem,
) -> None:
    """The same call run again, successfully (``rerun``): the facts read from its
    earlier outputs go."""
    for section, held in out.items():
        for slot, other in list(held.items()):
            if replaced_by_run(other, call.call, call.sources[-1]):
                pop(section, slot)


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
