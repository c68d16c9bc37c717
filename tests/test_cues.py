"""Instructions in the many ways people phrase them, and what only looks like one.

Rules are pinned, so both directions matter: a missed rule can be evicted, and a request,
an error or a bug title taken for a rule fills the summary with pins.
"""

from __future__ import annotations

import random
import string

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from langgraph_compact.compaction import extract_items
from langgraph_compact.compaction.cues import goal_change
from langgraph_compact.compaction.parse import classify

RNG = random.Random(23)


def _w(n: int = 6) -> str:
    return "".join(RNG.choice(string.ascii_lowercase) for _ in range(n))


RULES = {
    "constraint": [
        "All new code needs to be covered by tests in {w}_tests.",
        "The {w} endpoint has to stay below 200ms.",
        "Keep backwards compatibility with {w} 3.8.",
        "Limit changes to the {w} module.",
        "It is important that the {w} migration is reversible.",
        "Changes are limited to the {w}/ directory.",
        "Use only the public API of {w}.",
        "We can't use any GPL-licensed code in {w}.",
        "Nothing should be written to /{w}.",
        "I have to keep the public API of {w} stable.",
        "Rule: tests must pass; the {w} build cannot be red.",
    ],
    "safety": [
        "Never modify files under {w}_legacy/.",
        "Ask me before deleting any {w} branch.",
        "Please check with me before sending any email to {w} customers.",
        "No force pushes to {w}, ever.",
        "Do not restart the {w} service without my OK.",
        "Under no circumstances touch the {w} production database.",
        "Never use sudo on {w}; if you get Permission denied, ask me.",
        "Do not retry when the {w} API returns status 500.",
        "If a request to {w} timed out, never retry more than 3 times.",
        "I don't want any new dependencies added to {w}.",
        "I'm going to be away, so don't push anything to {w}.",
        "I do not want you touching the {w} database.",
    ],
    "preference": [
        "I like short commit messages in {w}.",
        "Use 4 spaces for indentation in {w} please.",
        "Can you keep the {w} answers brief?",
        "My preferred logging library is {w}log.",
        "I'd like you to write docstrings in {w} style.",
        "I prefer {w}-style docstrings.",
    ],
}
NOT_RULES = [
    "I'd like to change my {w} flight, please.",
    "Hi, I'd like to know the sum of my {w} balances, please.",
    "I'm sorry, I don't have my {w} reservation ID handy.",
    "Yes, let's go with the economy class for {w}.",
    'sqlite3.OperationalError: the "." operator prohibited in {w} expressions',
    "QuerySet.only() after select_related() crash on {w} models.",
    "Remaking table with unique constraint crashes on {w}.",
    "We can't reproduce the {w} bug on macOS.",
    "This change is not compatible with {w} 4.2.",
    "No worries, you may close the {w} ticket now.",
    "Keep going with {w}.",
    "Stay on the line while I check {w}.",
    "My name is {w} Smith, please look up my order.",
    "I can't use my {w} card, please help me.",
    "Could you keep me posted about {w}?",
    "No deploys happened on {w} last week.",
]


@pytest.mark.parametrize(
    ("kind", "template"), [(k, t) for k, ts in RULES.items() for t in ts], ids=lambda x: x[:40]
)
def test_a_rule_in_other_words_is_classified_and_pinned(kind: str, template: str) -> None:
    text = template.format(w=_w())
    assert classify(text) == kind
    items = [i for _, i in extract_items(HumanMessage(text, id="h"), 4, {})]
    assert any(i.pinned and i.kind == kind for i in items), items


@pytest.mark.parametrize("template", NOT_RULES, ids=lambda x: x[:40])
def test_requests_errors_and_bug_titles_are_not_rules(template: str) -> None:
    assert classify(template.format(w=_w())) is None


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Change of plans: we need the {w} export now.", True),
        ("Stop working on the {w} parser; fix the flaky test instead.", True),
        ("The priority is now the {w} billing bug.", True),
        ("Now let's run the {w} code to see the same output as the issue.", False),
        ("Please stop doing the {w} rebase, I'll handle it.", False),
    ],
)
def test_goal_changes(text: str, change: bool) -> None:
    assert goal_change(text.format(w=_w())) is change


def test_what_no_recognizer_takes_in_a_conversation_turn_is_still_an_item() -> None:
    said = f"Whatever happens, leave the {_w()} folder alone."
    items = [i for _, i in extract_items(HumanMessage(said, id="h"), 4, {})]
    assert [(i.text, i.kind, i.pinned) for i in items] == [(said, "note", False)]
    brief = " ".join(f"The {_w()} module talks to the {_w()} service." for _ in range(30))
    assert not [i for _, i in extract_items(HumanMessage(brief, id="b"), 4, {}) if i.kind == "note"]


DECISIONS = [
    "Going with {w}json over ujson since it handles decimals.",
    "We'll adopt {w} v2; v1 is too slow for this.",
    "Picked {w} because the team already knows it.",
    "I decided against {w}: it adds a broker we don't need.",
    "Using {w} rather than requests, because we need async.",
    "I'll use {w}lib instead of otherkit because it is already vendored.",
    "Choosing {w}db for the cache, since it is already deployed.",
    "Decision: {w} stays the default runner.",
    "Opting for {w} over the rewrite.",
]


NOT_DECISIONS = [
    "Once the dust settled, the {w} logs were quiet.",
    "Is the {w} question settled?",
    "Are you choosing {w} or the other one?",
    "Switching to directory /tmp/{w}.",
    "The {w} invoice was settled last week.",
]


@pytest.mark.parametrize("template", NOT_DECISIONS, ids=lambda x: x[:40])
def test_words_of_choosing_that_decide_nothing(template: str) -> None:
    items = extract_items(AIMessage(template.format(w=_w()), id="a"), 4, {})
    assert not [i for _, i in items if i.kind == "decision"], items


@pytest.mark.parametrize("template", DECISIONS, ids=lambda x: x[:40])
def test_decisions_in_other_words(template: str) -> None:
    w = _w()
    items = [i for _, i in extract_items(AIMessage(template.format(w=w), id="a"), 4, {})]
    assert any(i.kind == "decision" and w in i.text for i in items), items


@pytest.mark.parametrize(
    ("template", "new", "old"),
    [
        ("No wait, the {w} port is 9090, not 8080.", "9090", "8080"),
        ("The {w} bucket changed from logs-old to logs-v2.", "logs-v2", "logs-old"),
        ("Sorry, typo: the {w} host is db-7.internal, not db-1.internal.", "db-7", "db-1.internal"),
    ],
)
def test_corrections_name_their_stale_value(template: str, new: str, old: str) -> None:
    text = template.format(w=_w())
    items = [i for _, i in extract_items(HumanMessage(text, id="h"), 4, {})]
    assert any(old in i.stale and i.pinned and new in i.text for i in items), items
