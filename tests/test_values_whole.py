"""A value is shown whole or not at all: a quoted path with spaces is one path, an
absolute path is read to its end, a line shortened for a small cap keeps its value and
the words around it, and what a person states exactly ranks with their facts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage

from langgraph_compact.compaction import extract_items
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import SALIENCE
from langgraph_compact.compaction.extent import gives_a_value, said_across
from langgraph_compact.compaction.merge import merge_items
from langgraph_compact.compaction.quote import Quote, Source, value_spans
from langgraph_compact.compaction.select import select_items
from langgraph_compact.compaction.shapes import compatible
from langgraph_compact.compaction.summary import Section
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
WORD = st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True)
PART = st.from_regex(r"[A-Za-z0-9_]{2,10}", fullmatch=True)


@given(
    parts=st.lists(st.lists(WORD, min_size=1, max_size=3).map(" ".join), min_size=2, max_size=4),
    name=PART,
    quote=st.sampled_from(['"{}"', "`{}`", "<code>{}</code>", "\u201c{}\u201d"]),
)
def test_a_quoted_path_with_spaces_is_one_path(parts: list[str], name: str, quote: str) -> None:
    path = "/" + "/".join(parts) + f"/{name}.mxf"
    text = f"Found the master under {quote.format(path)}, the file the report means."
    assert tx.paths(text) == [path]
    shown = [i.text for _, i in extract_items(AIMessage(text, id="a"), 1, {})]
    assert path in shown  # a file item naming all of it
    assert all(path in t or not set(t.split()) & set(path.split("/")) for t in shown), shown


def test_an_unquoted_path_with_spaces_is_still_no_path_of_its_own() -> None:
    assert tx.paths("open C:\\Program Files\\app\\a.ini now") == []
    assert tx.paths('say "it is / and /" or "/a b"') == []


@given(parts=st.lists(PART, min_size=2, max_size=6), dotted=st.integers(0, 5))
def test_an_absolute_path_is_read_to_its_end(parts: list[str], dotted: int) -> None:
    parts[dotted % len(parts)] += ".Sql"  # a part with a dot is no extension of the path
    path = "/" + "/".join(parts)
    assert tx.paths(f"apply the policy to {path} now") == [path]


@given(
    text=st.lists(
        st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30),
        min_size=1,
        max_size=6,
    ).map(". ".join),
    limit=st.integers(20, 120),
    sentence=st.booleans(),
)
def test_a_line_cut_around_a_value_keeps_the_value_and_its_source(
    text: str, limit: int, sentence: bool
) -> None:
    value = "build-7:2222"
    text = f"{text} {value} {text}"
    at = text.index(value)
    src = Source("m", text)
    cut = src.piece(0, len(text)).around(at, at + len(value), limit, sentence=sentence)
    assert value in cut.text
    pieces = cut.text.replace("\u2026", "\n").split("\n")
    assert all(p.strip() in text for p in pieces)  # verbatim pieces, cuts marked
    for span in cut.spans:  # each piece still knows where it came from
        assert text[span.start : span.end] == cut.text[span.at : span.at + span.end - span.start]
    words = len(cut.text) - cut.text.count("\u2026") * 2
    assert words <= max(limit, len(value)) + 2


def test_a_small_cap_shows_a_long_line_as_its_value_and_the_words_around_it() -> None:
    said = (
        "please nobody restart loyalty-relay@ap3.service during business hours, last time "
        "it double-posted three thousand journal entries and it took the finance team two "
        "days to reconcile them by hand"
    )
    items = [(s, i) for s, i in extract_items(HumanMessage(said, id="h"), 1, {})]
    sections: dict[Section, list] = {}
    for s, i in items:
        sections.setdefault(s, []).append(i)
    small = select_items(sections, 300, COUNTER.count_text, title="t", now=2)
    large = select_items(sections, 2_000, COUNTER.count_text, title="t", now=2)
    [short] = [i.text for items in small.sections.values() for i in items]
    [whole] = [i.text for items in large.sections.values() for i in items]
    assert whole == said
    assert "loyalty-relay@ap3.service" in short and short.endswith("\u2026")
    assert len(short) < len(said) and short.removesuffix(" \u2026") in said


@given(
    value=st.one_of(
        st.from_regex(r"[0-9]{1,3}\.[0-9]%", fullmatch=True),
        st.sampled_from(["\u9ad8\u6a4b \u5065\u592a", "\uc784\uc218\uc544", "M\u00fcller"]),
        st.from_regex(r'"[a-z]{3,8} [a-z]{3,8}"', fullmatch=True),
    )
)
def test_what_a_person_states_exactly_ranks_with_their_facts(value: str) -> None:
    said = f"When you write up the PR, could you add {value} as reviewer?"
    assert gives_a_value(said)
    found = [i for _, i in extract_items(HumanMessage(said, id="h"), 1, {})]
    assert [i.salience for i in found if value in i.text] == [SALIENCE["human.fact"]], found
    [plain] = [
        i
        for _, i in extract_items(
            HumanMessage("When you write up the PR, add a reviewer?", id="p"), 1, {}
        )
    ]
    assert plain.salience == SALIENCE["human.note"]


def _merged(*turns: str) -> list[str]:
    sections: dict = {}
    for n, said in enumerate(turns):
        sections = merge_items(sections, extract_items(HumanMessage(said, id=f"m{n}"), n, {}))
    return [i.text for items in sections.values() for i in items]


def test_a_change_said_across_two_sentences_replaces_the_old_value() -> None:
    shown = _merged(
        "Use APN fleet85.ent.docomo.jp for the field units.",
        "We moved off fleet85.ent.docomo.jp last night. The field units are on "
        "kiosk93.m2m.orange.fr now.",
    )
    assert not any("fleet85" in t for t in shown), shown
    assert any("kiosk93.m2m.orange.fr" in t for t in shown)


def test_two_sentences_naming_two_values_without_a_change_keep_both() -> None:
    shown = _merged(
        "The primary is fleet85.ent.docomo.jp for the field units.",
        "The primary is still fleet85.ent.docomo.jp. The backup is kiosk93.m2m.orange.fr.",
    )
    assert any("fleet85" in t for t in shown) and any("kiosk93" in t for t in shown)


def test_said_across_reads_only_sentences_that_say_something_changed() -> None:
    turn = [
        (s, list(extract_items(HumanMessage(s, id="h"), 1, {})))
        for s in ("The primary is db-1.internal.", "The backup is db-2.internal.")
    ]
    assert all(not i.said_with for _, i in said_across(turn))


def test_hosts_with_digits_inside_their_labels_are_values_of_one_shape() -> None:
    assert compatible("fleet85.ent.docomo.jp", "kiosk93.m2m.orange.fr")
    assert not compatible("fleet85.ent.docomo.jp", "8080")
    assert not compatible("build-7:2222", "9000")
    assert value_spans("on kiosk93.m2m.orange.fr now") == [(3, 24)]


def test_a_quote_cut_around_a_value_marks_both_cuts() -> None:
    text = "one two three four five VALUE-1 six seven eight nine ten"
    at = text.index("VALUE-1")
    cut = Quote(text).around(at, at + 7, 24)
    assert cut.text.startswith("\u2026 ") and cut.text.endswith(" \u2026")
    assert "VALUE-1" in cut.text and len(cut.text) <= 24 + 4
