"""Qualifiers tell subjects apart: "the db host" and "the cache host" are two things.

A later fact replaces an earlier one only when they are about the same thing. Their keys
may share every content word and still name two things when each has a word the other
lacks and one of those is a short word ("db", "EU"), a number ("Room 12") or an owner
("Alice's"). A word on one side only narrows the same thing ("the DB host", then
"Correction: the host is …"): that replaces, and leaves no stub of the old line behind.
Of a sentence stating several values, a correction of one leaves the others shown.
"""

from __future__ import annotations

import re
import string

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage

from langgraph_compact.compaction.extract import extract_items
from langgraph_compact.compaction.merge import merge_items
from langgraph_compact.compaction.patterns import _KEY_STOP
from langgraph_compact.compaction.subject import statement, superseded_values
from langgraph_compact.compaction.text import function_words_only

_FUNCTION = frozenset(
    "the and are was has had not now new old was for its but can all any own use set was "
    "one out off per via who why how too yes no an as at be by do if in is it of on or so to "
    "up us we my me he she his her our you than rather instead still really please note fyi "
    "got current currently actually correct sorry wrong typo meant update".split()
)  # and the words a correction is said with: none of them names what it is about
_word = st.text(string.ascii_lowercase, min_size=3, max_size=8).filter(  # "plan" names no key
    lambda w: w not in _FUNCTION and w not in _KEY_STOP and not function_words_only(w)
)
_qualifier = st.one_of(
    _word,
    st.text(string.ascii_uppercase, min_size=2, max_size=3).filter(  # DB, EU, API
        lambda w: w.lower() not in _FUNCTION
    ),
    st.integers(2, 999).map(str),  # Room 12, ward 3
    _word.map(lambda w: w + "'s"),  # Alice's
)
_value = st.builds(
    lambda h, n, p: f"{h}-{n}.internal:{p}", _word, st.integers(1, 99), st.integers(1000, 9999)
)
HEADS = ("host", "window", "owner", "endpoint", "gate", "region")


def _distinct(a: str, b: str) -> bool:
    """Neither word is the other written short (its letters in order, the same first)."""
    short, long = sorted(
        (a.casefold().removesuffix("'s"), b.casefold().removesuffix("'s")), key=len
    )
    rest = iter(long)
    return short[:1] != long[:1] or not all(c in rest for c in short)


def _a_key_word(word: str) -> bool:
    """A word read as part of a key: not a function word ("did", "no")."""
    return len(statement(f"The {word} box is b-1.internal:1000.").qualifiers) == 2


def _phrase(qualifier: str, head: str) -> str:
    return f"{qualifier} {head}" if qualifier.endswith("'s") else f"The {qualifier} {head}"


def _merged(*texts: str) -> str:
    found = []
    for n, text in enumerate(texts):
        found += extract_items(HumanMessage(text, id=f"h{n}"), 1 + 4 * n, {})
    return "\n".join(i.text for items in merge_items({}, found).values() for i in items)


@settings(max_examples=60, deadline=None)
@given(
    head=st.sampled_from(HEADS),
    shared=_word,
    qualifiers=st.tuples(_qualifier, _qualifier).filter(lambda q: _distinct(*q)),
    values=st.tuples(_value, _value).filter(lambda v: v[0] != v[1]),
)
def test_keys_naming_two_things_keep_both_values(
    head: str, shared: str, qualifiers: tuple[str, str], values: tuple[str, str]
) -> None:
    assume(all(_distinct(q, w) for q in qualifiers for w in (shared, head)))
    assume(all(_a_key_word(q) for q in (*qualifiers, shared)))
    a = f"{_phrase(qualifiers[0], f'{shared} {head}')} is {values[0]}."
    b = f"{_phrase(qualifiers[1], f'{shared} {head}')} is {values[1]}."
    assert superseded_values(statement(b), statement(a)) == ()
    shown = _merged(a, b)
    assert values[0] in shown and values[1] in shown, shown


@settings(max_examples=60, deadline=None)
@given(
    head=st.sampled_from(HEADS),
    shared=_word,
    qualifier=_qualifier,
    values=st.tuples(_value, _value).filter(lambda v: v[0] != v[1]),
)
def test_a_qualifier_on_one_side_narrows_the_same_thing(
    head: str, shared: str, qualifier: str, values: tuple[str, str]
) -> None:
    assume(all(_distinct(qualifier, w) for w in (shared, head)))
    a = f"{_phrase(qualifier, f'{shared} {head}')} is {values[0]}."
    b = f"Correction: the {shared} {head} is {values[1]}."
    assert superseded_values(statement(b), statement(a)) == (values[0],)
    shown = _merged(a, b)
    assert shown == b.removesuffix(".").removeprefix("Correction: "), shown  # no stub left


def test_each_fact_of_a_sentence_is_replaced_alone() -> None:
    shown = _merged(
        "The staging window is 09:00 UTC and the runner is build-7:2222.",
        "Correction: the staging window is now 15:32 UTC, not 09:00 UTC.",
    )
    assert "build-7:2222" in shown and "15:32 UTC" in shown, shown
    assert "09:00 UTC" not in shown, shown


def test_a_statement_keeps_the_values_its_correction_leaves_alone() -> None:
    shown = _merged(
        "Deploy to eu-west-1 at 09:00 UTC with build v2.3.1.",
        "Correction: deploy at 11:00 UTC, not 09:00 UTC.",
    )
    assert "eu-west-1" in shown and "v2.3.1" in shown and "11:00 UTC" in shown, shown
    assert "09:00" not in shown, shown
    # a value the correction states anew goes too ("build v2.3.1" under "build v2.4.0")
    shown = _merged(
        "Deploy to eu-west-1 at 09:00 UTC with build v2.3.1.",
        "Correction: deploy build v2.4.0 at 11:00 UTC, not 09:00 UTC.",
    )
    assert "v2.3.1" not in shown and "eu-west-1" in shown and "v2.4.0" in shown, shown
    # a value only in the key is no value left: no "Gate A1 boarding time is …"
    shown = _merged("Gate A1 boarding time is 07:10.", "Correction: the boarding time is 07:40.")
    assert shown == "the boarding time is 07:40", shown


def test_a_thing_keyed_apart_is_the_same_in_the_next_summary() -> None:
    first = merge_items(
        {},
        [
            *extract_items(HumanMessage("Alice's flight is LH 1234.", id="a"), 1, {}),
            *extract_items(HumanMessage("Bob's flight is LH 1236.", id="b"), 5, {}),
        ],
    )
    later = [
        *extract_items(HumanMessage("Carol's flight is LH 1300.", id="c"), 9, {}),
        *extract_items(HumanMessage("Bob's flight is LH 1250 now.", id="d"), 13, {}),
    ]
    shown = "\n".join(i.text for items in merge_items(first, later).values() for i in items)
    for value in ("LH 1234", "LH 1300", "LH 1250"):
        assert value in shown, shown
    assert "LH 1236" not in shown, shown


@settings(max_examples=40, deadline=None)
@given(
    unit=st.sampled_from(("UTC", "ms", "GB", "EUR", "CET")),
    numbers=st.lists(st.integers(10, 999), min_size=3, max_size=3, unique=True),
)
def test_a_unit_the_correction_says_again_is_not_stale(unit: str, numbers: list[int]) -> None:
    """A correction of "09:00 UTC" to "11:00 UTC" makes 09:00 stale, not every line that
    mentions UTC."""
    other, old, new = (f"{n} {unit}" for n in numbers)
    shown = _merged(
        f"The backup window is {other} every night.",
        f"Deploy at {old}.",
        f"Correction: deploy at {new}, not {old}.",
    )
    assert other in shown and new in shown, shown
    assert not re.search(rf"(?<![\w.]){old}", shown), shown
