"""How two items become one: the later text with both lineages, one error template with
the names it was raised with, a correction replacing what it corrected."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langgraph_compact.compaction.quote import Quote
from langgraph_compact.compaction.summary import SummaryItem

__all__ = ["combine", "fold_template", "split_also", "winner"]

_MAX_SOURCES = 8
_ALSO = re.compile(r" \(also: (?P<values>[^()]*)\)$")
_MAX_ALSO_CHARS = 80
"""Most characters of other values an error template folds into one item."""


def combine(old: SummaryItem, new: SummaryItem) -> SummaryItem:
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
            # said by another call (or a person) too: no one call's run replaces it
            "call": new.call if old.call in ("", new.call) and old.origin == "tool" else "",
        }
    )


def fold_template(old: SummaryItem, new: SummaryItem) -> SummaryItem | None:
    """One error template raised with other names ("No module named 'numpy'", then
    'scipy'): the latest text, the earlier names listed after it (quoted from the earlier
    item). None when the names differ too much to list (then they are two items)."""
    base, also = split_also(old.quote)
    words = set(new.text.split())
    own = [base._sub(m.start(), m.end()) for m in re.finditer(r"\S+", base.text)
           if m.group() not in words]  # fmt: skip
    kept: list[Quote] = []
    for q in (_joined(own, " "), *also):
        if q is not None and q.text not in new.text and all(q.text != k.text for k in kept):
            kept.append(q)
    listed = _joined(kept, "; ")
    if listed is None or len(listed.text) > _MAX_ALSO_CHARS:
        return None
    return combine(old, new).with_quote(new.quote + " (also: " + listed + ")")


def _joined(pieces: Sequence[Quote], glue: str) -> Quote | None:
    """``pieces`` joined by ``glue`` (None for none)."""
    if not pieces:
        return None
    out = pieces[0]
    for piece in pieces[1:]:
        out = out + glue + piece
    return out


def split_also(text: Quote) -> tuple[Quote, list[Quote]]:
    found = _ALSO.search(text.text)
    if found is None:
        return text, []
    at = found.start("values")
    listed, pieces = found["values"], []
    for part in re.finditer(r"[^;]+", listed):
        piece = text._sub(at + part.start(), at + part.end()).strip()
        if piece:
            pieces.append(piece)
    return text._sub(0, found.start()), pieces


_CORRECTABLE = frozenset({"fact", "note", "identifier", "path", "correction"})


def winner(new: SummaryItem, old: SummaryItem, gone: Sequence[str]) -> SummaryItem:
    """``new`` as the current value replacing ``old``: a correction (pinned when a person
    said it or the old value was pinned) that remembers the values it made stale."""
    kind = "correction" if new.kind in _CORRECTABLE else new.kind
    pinned = new.pinned or old.pinned or new.origin in ("human", "summary")
    return new.model_copy(
        update={
            "kind": kind,
            "pinned": pinned,
            "salience": max(new.salience, old.salience),
            "stale": tuple(dict.fromkeys((*new.stale, *gone))),
            "sources": tuple(dict.fromkeys(old.sources + new.sources))[-_MAX_SOURCES:],
        }
    )
