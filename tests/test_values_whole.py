"""A value is shown whole or not at all: a quoted path with spaces is one path, an
absolute path is read to its end, a line shortened for a small cap keeps its value and
the words around it, and what a person states exactly ranks with their facts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import extract_items
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import SALIENCE
from langgraph_compact.compaction.extent import gives_a_value
from langgraph_compact.compaction.quote import Quote, Source
from langgraph_compact.compaction.select import select_items
from langgraph_compact.compaction.shorten import around, focused
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


@given(
    drive=st.sampled_from("CDEZ"),
    parts=st.lists(st.lists(WORD, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=4),
    name=PART,
)
def test_a_windows_path_from_its_drive_keeps_its_folders_with_spaces(
    drive: str, parts: list[str], name: str
) -> None:
    """``D:\\Program Files\\Vendor Tool\\run.exe`` unquoted: from a drive, folders of a
    few words end at a backslash, so the path is read whole, never as its tail."""
    path = f"{drive}:\\" + "\\".join(parts) + f"\\{name}.wav"
    text = f"For the record, the reference bounce is {path} — level-match against it."
    assert tx.paths(text) == [path]
    shown = [i.text for _, i in extract_items(AIMessage(text, id="a"), 1, {})]
    assert all(path in t or not t.endswith(f"{name}.wav") for t in shown), shown


def test_an_unquoted_posix_path_with_spaces_is_still_no_path_of_its_own() -> None:
    """Without quotes, words with a slash between them are no path; from a drive, a
    Windows path's folders of a few words are (``test_a_windows_path_from_its_drive…``)."""
    assert tx.paths("open C:\\Program Files\\app\\a.ini now") == ["C:\\Program Files\\app\\a.ini"]
    # words of prose are no folder: a folder of words starts with a capital or a digit
    assert tx.paths("copy C:\\build\\out to dist\\app.exe first") == ["dist\\app.exe"]
    # a rotated log keeps its number; a dotted name is no file name
    assert tx.paths("see logs/app.log.1, not aaaa.json.max_depth") == ["logs/app.log.1"]
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
    cut = around(src.piece(0, len(text)), at, at + len(value), limit, sentence=sentence)
    assert value in cut.text
    pieces = cut.text.replace("\u2026", "\n").split("\n")
    assert all(p.strip() in text for p in pieces)  # verbatim pieces, cuts marked
    for span in cut.spans:  # each piece still knows where it came from
        assert text[span.start : span.end] == cut.text[span.at : span.at + span.end - span.start]
    words = len(cut.text) - cut.text.count("\u2026") * 2
    assert words <= max(limit, len(value)) + 2


def test_a_small_cap_shows_a_long_line_as_its_value_and_the_words_around_it() -> None:
    said = (
        "the cron job restarted loyalty-relay@ap3.service during business hours, last time "
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


def test_a_quote_cut_around_a_value_marks_both_cuts() -> None:
    text = "one two three four five VALUE-1 six seven eight nine ten"
    at = text.index("VALUE-1")
    cut = around(Quote(text), at, at + 7, 24)
    assert cut.text.startswith("\u2026 ") and cut.text.endswith(" \u2026")
    assert "VALUE-1" in cut.text and len(cut.text) <= 24 + 4


def test_a_line_cut_already_at_its_edge_shows_one_mark_per_cut() -> None:
    # a blocked call's line: its command was cut before (``…``), and at a small cap only
    # the error is kept; the two cuts before the arrow are one cut
    text = (
        "bash: cd /testbed && cp astroid/modutils.py astroid/mod\u2026 \u2192 "
        "IndentationError: line 632"
    )
    at = text.index("632")
    for limit in (40, 50, 60):
        cut = around(Quote(text), at, at + 3, limit).text
        assert "632" in cut and "\u2026 \u2026" not in cut
        assert cut.count("\u2026") == 1


TITLED = st.builds(
    lambda title, initial, first, last: f"{title} {initial}{first} {last}",
    st.sampled_from(["Dr.", "Mr.", "Mrs.", "Ms.", "Prof."]),
    st.sampled_from(["", "J. ", "K. L. "]),
    WORD,
    WORD,
)
SUFFIXED = st.builds(
    lambda v, major, minor, patch, tail: f"{v}{major}.{minor}.{patch}{tail}",
    st.sampled_from(["", "v"]),
    st.integers(0, 30),
    st.integers(0, 99),
    st.integers(0, 99),
    st.from_regex(r"[-+][a-z]{1,6}[0-9]{0,3}(?:\.[0-9]{1,2})?", fullmatch=True),
)


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(["attending physician", "release owner", "runtime", "standup"]),
    said=st.one_of(
        st.tuples(st.one_of(TITLED, SUFFIXED), st.just(HumanMessage)),
        st.tuples(SUFFIXED, st.just(AIMessage)),  # the assistant's facts: specific values
    ),
)
def test_a_stated_value_is_shown_to_its_last_word(
    key: str, said: tuple[str, type[HumanMessage] | type[AIMessage]]
) -> None:
    """A title's or an initial's period ends no sentence, and a version's suffix is part of
    it: the fact shows its value whole, never cut at "Dr" or at "1.7.5" of "1.7.5-beta2"."""
    value, role = said
    text = f"The {key} is {value}. Next we check the logs."
    shown = [i.text for _, i in extract_items(role(text, id="m"), 3, {}) if i.kind == "fact"]
    assert any(value in t for t in shown), shown


@pytest.mark.parametrize(
    "said",
    [
        "The standup is at 9 a.m. The deploy window is 15:00 UTC.",
        "The timeout is 500 ms. The deploy window is 15:00 UTC.",
        "The reviewer is Martin King Jr. The deploy window is 15:00 UTC.",
        "The meeting is at St. Louis. The deploy window is 15:00 UTC.",
    ],
)
def test_a_period_that_ends_a_name_or_a_unit_still_ends_its_sentence(said: str) -> None:
    shown = [i.text for _, i in extract_items(HumanMessage(said, id="m"), 3, {})]
    assert "The deploy window is 15:00 UTC" in shown, shown


def test_a_value_ends_before_a_comma_even_with_no_space_after_it() -> None:
    shown = [
        i.text
        for _, i in extract_items(HumanMessage("The port is 8443,so open it.", id="m"), 3, {})
    ]
    assert "The port is 8443" in shown, shown


@pytest.mark.parametrize(
    "printed",
    ["k3s version v1.29.2+k3s1 (86f10213)", "terraform 1.7.5-beta2", "node list: a1,b2,c3"],
)
def test_a_printed_value_is_shown_to_its_last_word(printed: str) -> None:
    call = {"id": "c1", "name": "bash", "args": {"command": "inspect"}}
    out = ToolMessage(printed, tool_call_id="c1", name="bash", id="t")
    shown = [i.text for _, i in extract_items(out, 5, {"c1": call}) if i.kind == "fact"]
    value = printed.split(" (")[0].rsplit(" ", 1)[1]
    assert any(t.endswith(value) for t in shown), shown


def test_a_quoted_command_line_is_no_path() -> None:
    for said in (
        "Run `/usr/bin/python3 /srv/app/manage.py migrate` now",
        "Now run `~/bin/deploy.sh --build a2e906172881 us-east-1` and check.",
        '{"cmd": "/usr/bin/env python3 run.py"}',
    ):
        assert all(" " not in p for p in tx.paths(said)), tx.paths(said)
    said = "Now run `~/bin/deploy.sh --build a2e906172881 us-east-1` and check."
    keys = [i.key for _, i in extract_items(AIMessage(said, id="a"), 1, {})]
    assert "file:~/bin/deploy.sh" in keys, keys


def test_a_cut_never_splits_a_value_or_a_group_of_values() -> None:
    text = 'Copy it to "/Volumes/Backup v2. Final/a.mxf" before noon and then tell the editor.'
    value = "/Volumes/Backup v2. Final/a.mxf"
    at = text.index(value)
    assert value in around(Quote(text), at, at + len(value), 60).text
    text = "We need reviewer Dr. 高橋 健太 from Osaka and the backup reviewer ops-77 today."
    at = text.index("ops-77")
    for limit in range(20, 80):  # wherever the cut falls, the name is in whole or not at all
        cut = around(Quote(text), at, at + 6, limit).text
        assert "ops-77" in cut and ("高橋 健太" in cut or "健太" not in cut), (limit, cut)


@given(limit=st.integers(10, 120))
def test_a_line_focused_on_its_value_keeps_the_value_group_whole(limit: int) -> None:
    said = (
        "The maintenance window we agreed on with the regional operations team is 14:05 "
        "UTC on the first Sunday of each month unless the change board objects in writing"
    )
    [item] = [i for _, i in extract_items(HumanMessage(said, id="h"), 1, {}) if "14:05" in i.text]
    assert "14:05 UTC" in focused(item, limit).text


HOST = st.from_regex(r"[a-z]{3,8}-[0-9]{1,2}", fullmatch=True)
UNIT = st.from_regex(r"[a-z]{3,8}-[a-z]{3,8}@[a-z]{2}[0-9]\.service", fullmatch=True)


@given(
    host=HOST, unit=UNIT, since=st.from_regex(r"20[0-9]{2}-0[1-9]-1[0-9]T0[0-9]:00", fullmatch=True)
)
@settings(max_examples=30)
def test_a_call_line_focused_for_a_small_cap_shows_what_the_call_gave(
    host: str, unit: str, since: str
) -> None:
    """A blocked call's line is the call and the error it stopped at; cut for a small cap
    it is shown around the error's value, never around the call's own (a date, a flag)
    with the error cut off; the echoed command is no error."""
    command = f"journalctl -p err -u {unit.split('@')[0]} --since {since} --no-pager | tail -n 2"
    output = (
        f"$ {command}\n"
        f"May 14 03:12:09 {host} systemd[1]: {unit}: Main process exited, code=exited\n"
        f"May 14 03:12:09 {host} systemd[1]: {unit}: Failed with result 'exit-code'."
    )
    call = {"name": "bash", "args": {"command": command}, "id": "c1"}
    message = ToolMessage(output, tool_call_id="c1", id="t")
    items = [i for _, i in extract_items(message, 2, {"c1": call})]
    assert not any(i.text.startswith("$ ") for i in items), items  # the echo is the command
    [blocked] = [i for i in items if i.kind == "blocked"]
    assert unit in blocked.text.split(" → ")[1] and "Failed" in blocked.text, blocked.text
    for limit in (60, 80, 120):
        shown = focused(blocked, limit).text
        assert unit in shown.split(" → ")[-1], shown  # the error's value, not the call's
        assert len(shown) <= limit + 4, shown  # the marks of two cuts at most


def test_a_call_line_whose_error_names_nothing_specific_keeps_the_calls_value() -> None:
    command = "scp -i ~/.ssh/id_ed25519 release-2026.05.14.tar.gz deploy@203.0.113.45:/srv/r/"
    output = (
        "Permission denied (publickey,gssapi-keyex,gssapi-with-mic,password). "
        "lost connection while copying the release archive"
    )
    call = {"name": "bash", "args": {"command": command}, "id": "c1"}
    message = ToolMessage(output, tool_call_id="c1", id="t", status="error")
    [blocked] = [i for _, i in extract_items(message, 2, {"c1": call}) if i.kind == "blocked"]
    shown = focused(blocked, 80).text
    assert "release-2026.05.14.tar.gz" in shown or "203.0.113.45" in shown, shown


TOKEN = st.one_of(WORD, PART, st.sampled_from([",", ";", ":", "…", "db-7:5432", ":5432"]))


@settings(max_examples=200)
@given(words=st.lists(TOKEN, min_size=2, max_size=12), data=st.data())
def test_a_line_without_its_cut_words_marks_the_cuts_once_with_no_orphan_separator(
    words: list[str], data: st.DataObject
) -> None:
    """Cutting words out of a line (a struck value) leaves one ``…`` where each cut was,
    never two side by side (the line may already carry one), and no ``,``/``;``/``:``
    opening what follows a cut: the separator went with the cut. Every other word is the
    line's own, in order."""
    pairs = list(itertools.pairwise(words))
    assume(not any(a == "…" and b in {"…", ",", ";", ":"} for a, b in pairs))
    text = " ".join(words)
    starts = [sum(len(w) + 1 for w in words[:n]) for n in range(len(words))]
    cut = sorted(data.draw(st.sets(st.integers(0, len(words) - 1), min_size=1)))
    ranges = [(starts[n], starts[n] + len(words[n])) for n in cut]
    shown = Quote(text).without(ranges, ends=True).text.split()
    for a, b in itertools.pairwise(shown):
        assert a != "…" or b not in {"…", ",", ";", ":"}, shown
    kept = iter(w for n, w in enumerate(words) if n not in cut and w != "…")
    rest = [w for w in shown if w != "…"]
    assert all(w in kept for w in rest), shown  # the line's own words, in order
    named = [w for n, w in enumerate(words) if n not in cut and any(c.isalnum() for c in w)]
    assert [w for w in rest if any(c.isalnum() for c in w)] == named, shown
    assert not named or "…" in shown, shown  # what is left never reads as the whole line
