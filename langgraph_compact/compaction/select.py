"""Fill the summary's token cap with the most salient items; pinned items always stay.

Selection is global, not per section: the cap is one budget, filled in order of
``salience × recency`` (historical items last), so room one section does not need goes
to another. Pinned items (constraints, safety rules, preferences, the latest value of a
corrected fact, the current goal) are never evicted: when they alone exceed the cap
they are shortened first, and only then does the cap grow. Junk never enters.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.quote import naming
from langgraph_compact.compaction.repeats import lasting_copies, newer_values, without_repeats
from langgraph_compact.compaction.shorten import (
    FOCUS_MIN_CHARS,
    PINNED_COMPRESSED_CHARS,
    PINNED_SHORTEST_CHARS,
    STATED,
    compressed,
    focused,
)
from langgraph_compact.compaction.strike import evicted_values
from langgraph_compact.compaction.summary import (
    GROUPS,
    RunningSummary,
    Section,
    SummaryItem,
    render_sections,
)

__all__ = [
    "RECENCY_HORIZON",
    "SECTION_LIMITS",
    "Selection",
    "recency",
    "refit_summary",
    "score",
    "select_items",
]

RECENCY_HORIZON = 500.0
"""Messages over which the most salient items fade; less salient ones fade sooner."""
SECTION_LIMITS: dict[Section, int] = {
    Section.DONE: 8,
    Section.IN_PROGRESS: 3,
    Section.BLOCKED: 6,
    Section.FILES_READ: 12,
    Section.FILES_MODIFIED: 12,
    Section.NEXT_STEPS: 5,
}
"""Most unpinned items a section keeps: a hand-off lists the latest steps, not a log.
Below a cap of ``FULL_LIMITS_CAP`` tokens the limits shrink in proportion (two at least)."""
FULL_LIMITS_CAP = 1_200
KEPT_SHARE = 0.3
"""Most of the cap ``kept`` items (a clipped first request's instructions) are sure of;
beyond it they compete with everything else on salience."""
TYPICAL_ITEM_TOKENS = 16
DENSITY = 0.5
"""How much an item's length counts against it when the cap is filled: its score is
divided by ``(tokens / TYPICAL_ITEM_TOKENS) ** DENSITY``."""
VALUE_WEIGHT = 0.25
"""How much what an item names counts when the cap is filled: its score is multiplied by
``1 - VALUE_WEIGHT + 2 * VALUE_WEIGHT * specificity`` of its most specific value: 0.75
for a line naming nothing, about 1.15 for an id or a host:port, 1.25 at most. A summary
carries values; of two lines as salient, the one naming something concrete is worth more
of the cap. Errors and decisions are exempt: what failed and what was chosen are state,
whatever words they use."""
FIRST_SALIENCE = 0.5
"""Salience an item needs to be its section's guaranteed first line."""
HISTORICAL_LIMIT = 2
"""Most items of earlier tasks a section keeps."""
REPEAT_DECAY = 0.5
"""Worth an earlier value of a tool's setting keeps for each later message that passed
another (``repeats.newer_values``): the searches of eight dates are a log, the latest is
state. The raw calls stay recallable."""
KIND_SHARES: dict[str, float] = {"error": 0.3}
"""Most of the cap unpinned items of a kind may take: a long debugging session must not
fill the summary with its error log (the recall tool still finds every error)."""


def recency(item: SummaryItem, now: int) -> float:
    """How much of its salience an item keeps at age ``now - item.seq`` (messages).

    Salient items are durable: what the user stated fades slowly and never below ~0.8
    of its weight, while tool chatter fades within a few dozen messages to ~0.4. So an
    old salient item outranks new noise, and recent items win among equals.
    """
    floor = 0.3 + 0.6 * item.salience
    horizon = 50.0 + RECENCY_HORIZON * item.salience
    return floor + (1.0 - floor) * math.exp(-max(0, now - item.seq) / horizon)


def score(item: SummaryItem, now: int) -> float:
    """Eviction order: the lowest ``salience × recency`` goes first; mentions add a little."""
    value = item.salience * recency(item, now) * (1.0 + 0.15 * math.log(max(1, item.refs)))
    return value * (0.3 if item.historical else 1.0)


def _again(item: SummaryItem, shown: set[str]) -> bool:
    """Whether ``item`` says a line already taken (recording it when not)."""
    n = tx.norm(item.text)
    if n in shown:
        return True
    shown.add(n)
    return False


@dataclass(frozen=True)
class Selection:
    """The kept sections, their rendered size, and what did not fit."""

    sections: dict[Section, tuple[SummaryItem, ...]]
    tokens: int
    evicted: int
    over_cap: bool
    """The pinned items alone needed more than the cap (which then grew to fit them)."""


def _group_of(section: Section) -> str:
    return next(h for h, group in GROUPS if section in group)


def select_items(
    sections: Mapping[Section, Sequence[SummaryItem]],
    cap: int,
    count_text: Callable[[str], int],
    *,
    title: str,
    now: int,
    evict_kept: bool = False,
) -> Selection:
    """Keep the items that fit ``cap`` tokens of rendered summary, best first.

    Algorithm:
        Drop junk and repeated lines. Take every pinned item, and the best ``kept`` ones up to
        ``KEPT_SHARE`` of the cap unless ``evict_kept`` (shortened to
        ``PINNED_COMPRESSED_CHARS`` when they alone exceed the cap, which then grows;
        to ``PINNED_SHORTEST_CHARS`` when the budget forces the refit). Below
        ``FULL_LIMITS_CAP`` every other line is shown around its value (``focused``).
        Then add the best item of each section, then the others in order of worth
        (``score`` per token, times what the item names, halved for each later value of
        the same setting of the same tool: ``REPEAT_DECAY``), each at the cost of its
        bullet plus any heading it opens, skipping what does not fit, what a section
        already holds ``SECTION_LIMITS`` of, and what would take a kind past its
        ``KIND_SHARES``. Render the result and count it exactly; while it is over the
        cap, drop the least worth unpinned item.
        Items keep their order inside a section.
    """
    # Junk never enters. A line is shown once (``shown``): where two sections hold the
    # same words (a path under Files Read, a model's note repeating it), the copy taken
    # first in the order below stays, the best one that still fits its section's limits;
    # In Progress gives way to a lasting copy (``lasting_copies``).
    clean: dict[Section, list[SummaryItem]] = {}
    for s, items in sections.items():
        seen: set[str] = set()
        for i in items:
            if not tx.is_junk(i.text) and (n := tx.norm(i.text)) not in seen:
                seen.add(n)
                clean.setdefault(s, []).append(i)
    clean = without_repeats(clean)
    newer = newer_values(clean)  # before ``focused`` cuts the label naming the tool
    if cap < FULL_LIMITS_CAP:  # a small cap shows each line as its value's sentence
        limit = max(FOCUS_MIN_CHARS, tx.ITEM_MAX_CHARS * cap // FULL_LIMITS_CAP)
        clean = {s: [focused(i, limit) for i in items] for s, items in clean.items()}
    kept = sorted(
        ((s, i) for s, items in clean.items() for i in items if i.kept and not i.pinned),
        key=lambda si: -score(si[1], now),
    )
    sure: set[int] = set()
    room = 0 if evict_kept else int(KEPT_SHARE * cap)
    for _, i in kept:
        room -= count_text(f"- {i.text}") + 1
        if room < 0:
            break
        sure.add(id(i))

    def must(item: SummaryItem) -> bool:
        return item.pinned or id(item) in sure

    pinned = sorted(
        ((s, i) for s, items in clean.items() for i in items if must(i)),
        key=lambda si: (not si[1].pinned, -score(si[1], now)),
    )
    shown: set[str] = set()
    pinned = [(s, i) for s, i in pinned if not _again(i, shown)]
    cost = {id(i): count_text(f"- {i.text}") + 1 for items in clean.values() for i in items}
    heading_cost = {h: count_text(f"## {h}") + 1 for h, _ in GROUPS}
    sub_cost = {s: count_text(f"### {s.value}") + 1 for s in Section}
    used: set[object] = set()
    budget = cap - count_text(title) - 1

    def opens(section: Section) -> int:
        extra = 0
        group = _group_of(section)
        if group not in used:
            extra += heading_cost[group]
        if len(next(g for h, g in GROUPS if h == group)) > 1 and section not in used:
            extra += sub_cost[section]
        return extra

    named = {id(i): naming(i.text) for items in clean.values() for i in items}
    later = {id(i): newer.get((s, n), 0) for s, its in clean.items() for n, i in enumerate(its)}

    def worth(item: SummaryItem) -> float:
        """Score per token, softened, times what the item names: the cap is a knapsack,
        and a short specific line (an id, a setting) is worth more of it than a long one
        saying as much. A kept instruction is worth its salience whatever its length:
        rules are not shortened."""
        if item.kept:
            return score(item, now)
        length: float = max(4, cost[id(item)]) / TYPICAL_ITEM_TOKENS
        value = 1.0 if item.kind in STATED else 1 + VALUE_WEIGHT * (2 * named[id(item)] - 1)
        repeat = REPEAT_DECAY ** later.get(id(item), 0)
        return score(item, now) * value * repeat / math.pow(length, DENSITY)

    def take(section: Section, item: SummaryItem) -> None:
        nonlocal budget
        budget -= cost[id(item)] + opens(section)
        used.update((_group_of(section), section))
        shown.add(tx.norm(item.text))

    # Pinned items alone over the cap are shortened; when the budget forces a refit
    # (``evict_kept``), shortened again before the node would have to give up.
    for limit in (PINNED_COMPRESSED_CHARS, PINNED_SHORTEST_CHARS)[: 1 + evict_kept]:
        if sum(cost[id(i)] for _, i in pinned) > budget:
            pinned = [(s, compressed(i, limit)) for s, i in pinned]
            cost.update({id(i): count_text(f"- {i.text}") + 1 for _, i in pinned})
    keep: dict[int, tuple[Section, SummaryItem]] = {}
    for section, item in pinned:
        take(section, item)
        keep[id(item)] = (section, item)
    others = [(s, i) for s, items in clean.items() for i in items if not must(i)]
    others.sort(key=lambda si: -worth(si[1]))
    # Every section first gets its best item, so the summary covers each kind of thing
    # it knows; then the rest of the cap goes to the best items overall. A command that
    # ran is no section's guaranteed best: it competes on worth like the rest, so at a
    # small cap it does not displace what was said.
    firsts = {
        s: i
        for s, i in reversed(others)
        if not i.historical
        and (i.salience >= FIRST_SALIENCE or (i.kind != "done" and tx.is_specific(i.text)))
    }
    others = [
        *sorted(firsts.items(), key=lambda si: -worth(si[1])),
        *(si for si in others if si[1] is not firsts.get(si[0])),
    ]
    # A smaller cap lists fewer of each: the latest few files, not a dozen.
    scale = min(1.0, cap / FULL_LIMITS_CAP)
    limits = {s: max(2, round(n * scale)) for s, n in SECTION_LIMITS.items()}
    counts: dict[object, int] = {}
    spent: dict[str, int] = {}

    def fits(section: Section, item: SummaryItem) -> bool:
        full = counts.get(section, 0) >= limits.get(section, len(others))
        if item.historical:  # earlier tasks: the latest couple is context enough
            full = full or counts.get(f"old:{section}", 0) >= HISTORICAL_LIMIT
        share = KIND_SHARES.get(item.kind)
        if share is not None and spent.get(item.kind, 0) + cost[id(item)] > share * cap:
            full = True
        return not full and cost[id(item)] + opens(section) <= budget

    lasting = lasting_copies(clean)
    for section, item in others:
        if tx.norm(item.text) in shown:
            continue
        copy = lasting.get(tx.norm(item.text)) if section is Section.IN_PROGRESS else None
        if copy is not None and fits(*copy):
            section, item = copy  # taken at this copy's rank, where the next turn leaves it
        if fits(section, item):
            take(section, item)
            keep[id(item)] = (section, item)
            counts[section] = counts.get(section, 0) + 1
            if item.historical:
                counts[f"old:{section}"] = counts.get(f"old:{section}", 0) + 1
            spent[item.kind] = spent.get(item.kind, 0) + cost[id(item)]
    order = {
        id(i): n for n, (_, i) in enumerate((s, i) for s, items in clean.items() for i in items)
    }
    for _, item in pinned:
        order.setdefault(id(item), len(order))
    evicted = sum(len(items) for items in sections.values()) - len(keep)
    while True:
        fitted: dict[Section, list[SummaryItem]] = {}
        for section, item in sorted(keep.values(), key=lambda si: order[id(si[1])]):
            fitted.setdefault(section, []).append(item)
        result = {s: tuple(items) for s, items in fitted.items()}
        tokens = count_text(render_sections(title, result))
        droppable = [si for si in keep.values() if not must(si[1])]
        if tokens <= cap or not droppable:
            return Selection(result, tokens, evicted, over_cap=tokens > cap)
        worst = min(droppable, key=lambda si: worth(si[1]))
        del keep[id(worst[1])]
        evicted += 1


def refit_summary(
    summary: RunningSummary, cap: int, count_text: Callable[[str], int]
) -> RunningSummary:
    """``summary`` with only the items that fit ``cap`` to meet the budget: pinned items
    stay, ``kept`` ones may go."""
    chosen = select_items(
        summary.sections,
        cap,
        count_text,
        title=summary.title(),
        now=summary.covered_through,
        evict_kept=True,
    )
    evicted = evicted_values(summary.evicted, summary.sections, chosen.sections)
    update = {"sections": chosen.sections, "token_count": chosen.tokens, "evicted": evicted}
    return summary.model_copy(update=update)
