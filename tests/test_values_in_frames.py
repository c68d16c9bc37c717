"""Values where the words or the layout around them could hide them.

A noun like "replacement" makes no sentence a correction, and what a correction says
"was in fact" so is current, not an old value. A value written in groups and passed
whole as an argument (``DE 13 556 81070``) is one identifier, a list of like values is
not; a field a tool prints inside a drawn box (``|  imsi: …``) is a fact; a qualified
name (``io::session::Frame``) is as concrete as a path.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import extract_items
from langgraph_compact.compaction.stale import stale_values

_lower = st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
_upper = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=3)
_amount = st.builds(
    lambda cur, n: f"{cur}{n:,}", st.sampled_from(["₹", "$", "€", "CHF ", "¥"]),
    st.integers(100, 99_999_999),
)  # fmt: skip


def _items(message: HumanMessage | AIMessage | ToolMessage, calls: dict | None = None) -> list:
    return [i for _, i in extract_items(message, 4, calls or {})]


@given(adverb=st.sampled_from(["in fact", "actually", "really", "indeed", "truly"]),
       new=st.from_regex(r"[0-9]{2}\.[A-Z][a-z][0-9]", fullmatch=True),
       old=st.from_regex(r"[0-9]{3}", fullmatch=True))  # fmt: skip
def test_a_value_a_correction_says_was_in_fact_so_is_the_current_one(
    adverb: str, new: str, old: str
) -> None:
    text = f"Correction to my earlier note: the decisive move was {adverb} {new}, not {old}."
    assert stale_values(text) == [old]
    items = _items(HumanMessage(text, id="h"))
    assert any(new in i.text and old in i.stale for i in items), items


@given(noun=_lower, depot=st.from_regex(r"[A-Z]{3}-[0-9]{2}", fullmatch=True), limit=_amount)
def test_a_replacement_named_as_a_thing_corrects_nothing(noun: str, depot: str, limit: str) -> None:
    # read as a correction, "from X to" would say the depot X no longer holds
    text = f"The replacement {noun} ships from depot {depot} to Basel for {limit}."
    assert stale_values(text) == []
    items = _items(HumanMessage(text, id="h"))
    assert not any(i.kind == "correction" or i.stale for i in items), items
    assert any(depot in i.text and limit in i.text for i in items), items


@given(
    country=_upper,
    groups=st.lists(st.integers(1, 99_999).map(str), min_size=2, max_size=4),
    arg=st.sampled_from(["parcel", "account", "phone", "target"]),
)
def test_a_value_written_with_spaces_and_passed_whole_is_one_identifier(
    country: str, groups: list[str], arg: str
) -> None:
    value = " ".join([country, *groups])
    call = {"id": "c1", "name": "lookup", "args": {arg: value, "verbose": True}}
    items = _items(AIMessage("", tool_calls=[call], id="a"))
    assert any(i.kind == "identifier" and value in i.text for i in items), items


def test_a_phrase_or_a_statement_passed_whole_is_no_identifier() -> None:
    # a list of like values, a move list, a clause: each word is a value of its own
    lists = ("101 102 103", "1920 1080", "LH400 LH401", "v1.2 v1.3", "e4 e5 Nf3 Nc6")
    for value in ("find the bug", "SELECT 1", "fix bug 123", "LIMIT 100 OFFSET 200", *lists):
        call = {"id": "c1", "name": "run", "args": {"query": value}}
        items = _items(AIMessage("", tool_calls=[call], id="a"))
        assert not any(i.kind == "identifier" and value in i.text for i in items), value


@given(
    key=st.sampled_from(["imsi", "iccid", "eic", "serial", "msisdn", "lot", "tail", "vin"]),
    value=st.integers(10**9, 10**15).map(str),
    frame=st.sampled_from(["|", "│", "┃", "║"]),
    label=st.sampled_from(["", "Properties ", "Device info "]),
)
def test_a_field_inside_a_drawn_box_is_a_fact(key: str, value: str, frame: str, label: str) -> None:
    pad = " " * len(label)
    output = "\n".join(
        [
            "-" * 30,
            f"  {label}{frame}   active: yes",
            f"  {pad}{frame}   {key}: {value}",
            "-" * 30,
        ]
    )
    call = {"id": "c1", "name": "modem", "args": {"cmd": "show"}}
    message = ToolMessage(output, tool_call_id="c1", name="modem", id="t")
    facts = [i for i in _items(message, {"c1": call}) if i.kind == "fact"]
    assert any(i.text == f"{key}: {value}" for i in facts), facts


def test_a_labelled_row_keeps_its_label() -> None:
    # the label names the group: "total: 2" alone says nothing
    call = {"id": "c1", "name": "lint", "args": {"cmd": "run"}}
    message = ToolMessage("Warnings | total: 2072", tool_call_id="c1", name="lint", id="t")
    assert [i.text for i in _items(message, {"c1": call}) if i.kind == "fact"] == [
        "Warnings | total: 2072"
    ]


@given(parts=st.lists(st.from_regex(r"[a-z][a-z_]{1,8}", fullmatch=True), min_size=2, max_size=4),
       last=st.from_regex(r"[A-Z][a-z]{2,6}[A-Z][a-z]{2,6}", fullmatch=True))  # fmt: skip
def test_a_qualified_name_the_assistant_notes_is_kept(parts: list[str], last: str) -> None:
    name = "::".join([*parts, last])
    text = f"Let me look at the helper too:\n\nNote to self: the frame decoder is `{name}`."
    items = _items(AIMessage(text, id="a"))
    assert any(name in i.text for i in items), items
