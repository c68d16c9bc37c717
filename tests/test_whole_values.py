"""A value is shown whole or not at all: no item quotes a piece of a value.

A file cited with its line and column, a Windows path, a host:port passed as a tool
argument: each is one value. Extraction keys a cited path by its file, but shows the
citation as written, and never makes an identifier out of a piece of a larger value (the
``cache-97`` of ``cache-97.internal:22828``, the ``fjord48`` of a Windows path). Of the
error lines a failing command prints, the one naming the failure (``segfault at 0x…``)
is the one its blocked step shows, not the shell's echo after it.
"""

from __future__ import annotations

import json
import re

import pytest
from factories import ai, ai_tool_call, human, system, tool_result
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage

from langgraph_compact import Budget, CompactionSettings, compact
from langgraph_compact.compaction import Section
from langgraph_compact.compaction.clip import clip_text
from langgraph_compact.compaction.extract import extract_items
from langgraph_compact.compaction.quote import message_sources
from langgraph_compact.compaction.stage import recall_hint
from langgraph_compact.compaction.text import file_key, is_junk, paths
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
word = st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
line = st.integers(1, 9999)
posix = st.builds(lambda a, b, n, c: f"{a}/{b}.py:{n}:{c}", word, word, line, line)
windows = st.builds(lambda a, b, n: f"C:\\Users\\{a}\\{b}{n}\\keys.json", word, word, line)
host = st.builds(lambda w, n, p: f"{w}-{n}.internal:{p}", word, st.integers(2, 99), line)
anchored = st.builds(lambda a, b, n: f"src/{a}/{b}.rs#L{n}", word, word, line)
cited = st.one_of(posix, windows, anchored, st.builds(lambda a, n: f"{a}.py:{n}", word, line))


@given(cited, st.sampled_from(["The offending call is {p}, inside the loop.",
                                "Backup saved as {p} before editing.",
                                "I'll come back to {p}."]))  # fmt: skip
def test_a_cited_path_is_shown_as_written_and_keyed_by_its_file(path: str, frame: str) -> None:
    assert paths(frame.format(p=path)) == [path]
    items = extract_items(ai(frame.format(p=path), id="a"), 3, {})
    files = [i for s, i in items if s is Section.FILES_READ]
    assert [(i.text, i.key) for i in files] == [(path, f"file:{file_key(path)}")]
    assert file_key(path) in path and not re.search(r"(:|#L)\d+$", file_key(path))
    pieces = [i.key for _, i in items if (i.key or "").startswith("id:") and i.key[3:] in path]
    assert pieces == [], pieces  # no id made of a piece of the path


@given(st.one_of(host, windows), st.sampled_from(["target", "artifact", "manifest_path"]))
def test_a_whole_argument_is_one_value(value: str, name: str) -> None:
    call = ai_tool_call("bash", {name: value}, id="a")
    items = [i for _, i in extract_items(call, 3, {})]
    assert items and all(value in i.text for i in items), [i.text for i in items]


@st.composite
def history(draw: st.DrawFn) -> tuple[list[BaseMessage], list[str]]:
    """Turns whose text, arguments and outputs carry values a piece of which looks like
    a value of its own, padded so the middle is summarized."""
    values = draw(st.lists(st.one_of(host, windows, posix), min_size=16, max_size=20, unique=True))
    msgs: list[BaseMessage] = [system(id="s"), human("Fix the relay.", id="h")]
    for i, v in enumerate(values):
        w = draw(word)
        call = ai_tool_call("probe", {"target": v}, id=f"a{i}")
        out = f"{w}_endpoint: {v}\n" + "\n".join(f"log {n} of {w}" for n in range(80))
        msgs += [call, tool_result(call, out, id=f"t{i}")]
        msgs.append(AIMessage(f"Checked {v}; the {w} step is next.", id=f"x{i}"))
    return msgs, values


@settings(max_examples=20, deadline=None)
@given(history())
def test_no_summary_item_quotes_a_piece_of_a_value(
    case: tuple[list[BaseMessage], list[str]],
) -> None:
    raw, values = case
    budget = Budget(context_window=1_500, reserved_output=0, compaction_reserve=0, safety_margin=0)
    summary = compact(raw, None, CompactionSettings(budget, counter=COUNTER)).summary
    assert summary is not None
    sources = message_sources(raw)
    for items in summary.sections.values():
        for item in items:
            for span in item.spans:
                text = sources[(span.id, span.part)]
                for v in values:
                    for m in re.finditer(re.escape(v), text):
                        inside = (m.start() < span.start < m.end(), m.start() < span.end < m.end())
                        assert not any(inside), (item.text, v)


def test_a_blocked_step_shows_the_error_line_that_names_the_failure() -> None:
    call = ai_tool_call("bash", {"command": "./run_worker --threads 8"}, id="a")
    out = "starting\nworker[3]: fatal: segfault at 0x6d07ef7b77e9\nSegmentation fault"
    items = extract_items(tool_result(call, out, id="t"), 4, {c["id"]: c for c in call.tool_calls})
    blocked = [i.text for s, i in items if s is Section.BLOCKED]
    assert len(blocked) == 1 and blocked[0].endswith("segfault at 0x6d07ef7b77e9")
    errors = [i.text for _, i in items if i.kind == "error"]
    assert errors == ["worker[3]: fatal: segfault at 0x6d07ef7b77e9"]  # the echo is no item
    # a warning or a retry on the way is not the failure, however much it names
    out = "warning: unused import in src/lib.rs:3:5\nerror: linker cc not found"
    items = extract_items(tool_result(call, out, id="t3"), 4, {c["id"]: c for c in call.tool_calls})
    assert next(i.text for s, i in items if s is Section.BLOCKED).endswith("linker cc not found")
    # of lines naming nothing, the last still says it
    out = "error: build failed\nError: command exited"
    items = extract_items(tool_result(call, out, id="t2"), 4, {c["id"]: c for c in call.tool_calls})
    assert next(i.text for s, i in items if s is Section.BLOCKED).endswith("Error: command exited")


@given(st.one_of(host, windows), st.sampled_from(["[call probe {j}]", "Calling probe with {j}"]))
def test_a_call_written_out_in_a_transcript_gives_its_whole_argument(
    value: str, frame: str
) -> None:
    j = json.dumps({"target": value, "retries": 3})
    text = f"human: check the relay\n\nai: On it.\n{frame.format(j=j)}\n\ntool: reachable"
    items = [i for _, i in extract_items(human(text, id="h"), 1, {})]
    named = [i for i in items if i.kind == "identifier"]
    assert [i.key for i in named] == [f"id:{value}"]
    assert json.dumps(value) in named[0].text  # the pair as written (JSON-escaped), whole


@pytest.mark.parametrize(
    "line", ['{"path": "C:\\Users\\ci\\keys.json"}', '{"pattern": "\\d+-build-42"}']
)
def test_a_written_pair_with_escapes_json_does_not_know_is_read_as_written(line: str) -> None:
    items = [i for _, i in extract_items(human(f"Use this:\n{line}", id="h"), 1, {})]
    value = line.split('": "', 1)[1].rstrip('"}')
    assert [i.key for i in items if i.kind == "identifier"] == [f"id:{value}"]


def test_the_packages_own_markers_are_never_items() -> None:
    clipped = clip_text("\n".join(f"row {n} of the log" for n in range(400)), 300, "handoff-2")
    marker = next(line for line in clipped.splitlines() if line.startswith("[..."))
    assert is_junk(marker)
    assert is_junk(marker[7:])  # a marker a later clip cut through
    assert is_junk(f"[superseded by a later identical call cat (result in message m-3); "
                   f"{recall_hint('m-1')}]")  # fmt: skip
    assert not is_junk("row 12 of the log failed with ECONNREFUSED db-3:5432")


bare = st.text("bcdfghjklmnpqrstvwxz", min_size=3, max_size=8)  # never "the", "was", ...


@given(
    st.lists(bare, min_size=0, max_size=14),
    st.lists(bare, min_size=1, max_size=3),
    st.builds(lambda n, m: f"{n}.{m}", st.integers(0, 99), st.integers(10, 99)),
    st.booleans(),
)
def test_a_fact_shows_its_clause_from_the_start_or_marks_the_cut(
    lead: list[str], key: list[str], value: str, said: bool
) -> None:
    # "A typical value for the effective index of an AR coating is 1.29": the key is the
    # last words before "is", the subject starts earlier; never "of an AR coating is 1.29"
    sentence = " ".join(["Measured", *lead, *key, "is", value]) + "."
    call = ai_tool_call("bash", {"command": "cat notes.txt"}, id="a")
    message = human(sentence, id="h") if said else tool_result(call, f"ok\n{sentence}", id="t")
    calls = {c["id"]: c for c in call.tool_calls}
    facts = [i.text for _, i in extract_items(message, 4, calls) if i.kind == "fact"]
    shown = [f for f in facts if f.endswith(f"is {value}")]
    assert shown, facts
    for text in shown:
        if text.startswith("…"):
            assert len(lead) + 1 + len(key) > 8 and sentence.index(text[2:]) > 0
        else:
            assert text == sentence.rstrip(".")  # the whole clause, from its first word


@given(
    st.lists(bare, min_size=5, max_size=8),
    st.lists(bare, min_size=3, max_size=5),
    st.one_of(st.integers(100, 99_999).map(str), host.map(json.dumps)),
)
def test_an_assistant_sentence_quoting_json_is_kept_whole(
    before: list[str], after: list[str], value: str
) -> None:
    # 'I'll set {"backoff_ms": 990} in the client config.': prose that quotes an object is
    # not a line of code; the sentence names a value (a number of three digits or more)
    payload = f'{{"retries": {value}}}'
    sentence = " ".join(["Having", *before, payload, "in", *after]) + "."
    items = [i for _, i in extract_items(ai(f"Checked.\n\n{sentence}", id="a"), 4, {})]
    assert any(i.text == sentence for i in items), [i.text for i in items]


@pytest.mark.parametrize(
    "line",
    [
        '    payload = {"retries": 500, "target": "relay-4.internal:8443"}',
        '[Makes two calls: {"retries": 500}, {"target": "relay-4.internal:8443"}]',
    ],
)
def test_a_line_of_code_or_of_payloads_is_still_code(line: str) -> None:
    items = extract_items(ai(f"Checked.\n\n{line}", id="a"), 4, {})
    assert [i.text for _, i in items] == ['"target": "relay-4.internal:8443"']
