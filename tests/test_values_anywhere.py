"""Values kept whatever carries them: a rule that points back at the sentence naming its
value, a value listed with others of its shape, a path with no extension, a name an
output prints in a format nothing parses (``ls -l``, a plan, a report)."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import extract_items
from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import SALIENCE
from langgraph_compact.compaction.novelty import NOVEL_SALIENCE, raise_novel

NAMES = st.from_regex(r"[a-z]{3,8}-[a-z]{3,8}-[0-9]{2,4}", fullmatch=True)
DOTTED = st.from_regex(r"[a-z]{3,8}\.[a-z]{3,8}\.v[0-9]\.[a-z]{3,6}", fullmatch=True)
SEGMENTS = st.lists(st.from_regex(r"[a-z][a-z0-9_]{1,8}", fullmatch=True), min_size=2, max_size=5)


def _said(text: str) -> list:
    return [i for _, i in extract_items(HumanMessage(text, id="h"), 1, {})]


def _printed(text: str, command: str = "run") -> list:
    call = {"id": "c1", "name": "bash", "args": {"command": command}}
    message = ToolMessage(text, tool_call_id="c1", name="bash", id="t")
    return [i for _, i in extract_items(message, 5, {"c1": call})]


@given(value=NAMES)
def test_a_rule_pointing_back_shows_the_value_it_points_to(value: str) -> None:
    rules = [
        i
        for i in _said(f"Heads up: {value} is the WAL disk. Do not format it or repartition it.")
        if i.pinned
    ]
    assert rules and all(value in i.text for i in rules), [i.text for i in rules]


@given(value=NAMES, other=NAMES)
def test_a_rule_naming_its_own_value_or_not_pointing_back_is_shown_alone(
    value: str, other: str
) -> None:
    for rule in (f"Never restart {other} during business hours.", "Never deploy on Fridays."):
        pinned = [i for i in _said(f"The primary is {value}. {rule}") if i.pinned]
        assert [i.text for i in pinned] == [rule]


@given(
    lat=st.floats(0, 89, allow_nan=False),
    lon=st.floats(0, 179, allow_nan=False),
    port=st.integers(1024, 65535),
)
def test_a_value_listed_with_values_of_its_shape_is_shown_whole(
    lat: float, lon: float, port: int
) -> None:
    coords = f"{lat:.4f}° N, {lon:.4f}° E"
    facts = [i.text for i in _said(f"The pin for the pickup should be {coords}; it's the dock.")]
    assert any(coords in t for t in facts), facts
    # another value after the comma is another statement, not more of this one
    shown = [i.text for i in _said(f"The cache host is cache-7.internal, port {port} for now.")]
    assert not any("cache-7.internal, port" in t for t in shown), shown


@given(segments=SEGMENTS)
def test_an_absolute_path_needs_no_extension(segments: list[str]) -> None:
    path = "/" + "/".join(segments)
    assert tx.paths(f"Mount {path}, then copy.") == [path]
    assert tx.is_name(path)
    # a URL's or a URI's path is part of it, not a file; a ratio is no path
    assert tx.paths(f"see https://example.com{path} and gs://bucket{path}") == []
    assert tx.paths("the ratio 1 /2/3 holds") == []


@given(value=NAMES)
def test_a_key_whose_value_is_a_sentence_is_a_label(value: str) -> None:
    facts = p.facts(f"Heads up: {value} is the WAL disk on the primary.")
    assert all(f.key != "heads up" for f in facts), facts


@given(
    target=NAMES, name=st.from_regex(r"[a-z]{3,8}\.[a-z]{3,8}\.v[0-9]\.[a-z]{3,6}", fullmatch=True)
)
def test_a_name_an_output_prints_in_any_format_is_an_item(target: str, name: str) -> None:
    listing = (
        "total 16\n"
        "drwxr-xr-x  4 deploy deploy 4096 May 14 03:10 .\n"
        f"lrwxrwxrwx  1 deploy deploy   27 May 14 03:10 current -> /srv/{target}\n"
    )
    shown = [i.text for i in _printed(listing, "ls -la /srv/releases")]
    assert any(f"current -> /srv/{target}" in t for t in shown), shown
    plan = (
        '  + resource "kafka_topic" "replay" {\n'
        "      + id    = (known after apply)\n"
        f'      + name  = "{name}"\n'
        "    }\n\nPlan: 1 to add, 0 to change, 0 to destroy."
    )
    shown = [i.text for i in _printed(plan, "terraform plan")]
    assert any(f'name  = "{name}"' in t for t in shown), shown


@given(target=NAMES)
def test_a_name_a_log_line_passes_to_a_call_is_an_item_in_source_it_is_code(target: str) -> None:
    log = f"dispatching Worker.run({target}) on pool b\nqueue depth 3\nheartbeat ok\nexit 0"
    assert any(target in t for t in (i.text for i in _printed(log, "tail worker.log"))), log
    source = f"def main():\n    pool = Pool()\n    Worker.run({target})\n    return pool"
    assert not any(target in i.text for i in _printed(source, "cat main.py"))
    for code in (f"  df.run({target}).agg(x)", f'  rows["{target}"] = pd.load(rows)',
                 f"Returned: [Host(name='{target}')]"):  # fmt: skip
        warning = f"etl.py:88: FutureWarning: deprecated\n{code}\nok\nok\nexit 0"
        assert not any(target in i.text for i in _printed(warning, "python -m etl")), code


@given(
    target=NAMES,
    words=st.lists(st.from_regex(r"[a-z]{2,7}", fullmatch=True), min_size=1, max_size=16),
    at=st.integers(0, 16),
)
def test_a_printed_name_is_shown_with_ten_words_of_its_line_wherever_it_stands(
    target: str, words: list[str], at: int
) -> None:
    row = [*words[:at], target, *words[at:]]
    line = " ".join(row)
    assume(not tx.starts_code(line))  # ``fn {target}``: the names of code are code's
    shown = [i for i in _printed(f"{line}\n" + "ok\n" * 8) if target in i.text]
    assert shown, line
    if any(not i.key.startswith("printed:") for i in shown):
        # the fact reader quoted the line first (``… is {target}``): whole
        assert [(i.kind, i.text) for i in shown] == [("fact", line)]
        return
    (printed,) = [i.text for i in shown]
    assert printed.strip(" …") in line
    assert len(printed.strip(" …").split()) == min(len(row), 10), (line, printed)


def test_a_printed_name_is_shown_with_the_words_around_it_not_its_whole_line() -> None:
    line = "lrwxrwxrwx 1 deploy deploy 27 May 14 03:10 current -> /srv/spool-42 " + "x " * 40
    (item,) = [i for i in _printed(f"{line}\nok\nok\nok") if "/srv/spool-42" in i.text]
    assert item.text.startswith("… ") and item.text.endswith(" …")
    assert len(item.text) < 80 and "current -> /srv/spool-42" in item.text


def test_a_printed_name_is_raised_only_where_no_earlier_message_named_it() -> None:
    (found,) = [c for c in extract_items(
        ToolMessage("a\nb\nc\nmounted /srv/spool-42 rw", tool_call_id="c1", id="t"), 5, {}
    ) if "/srv/spool-42" in c[1].text]  # fmt: skip
    assert found[1].salience <= SALIENCE["tool.value"]
    (new,) = raise_novel([found], seen=set())
    (old,) = raise_novel([found], seen={"/srv/spool-42"})
    assert new[1].salience == NOVEL_SALIENCE["tool"] > old[1].salience == found[1].salience


@given(code=st.from_regex(r"[BCDFGHJKLMNPQRSTVWXZ]{6}", fullmatch=True))
def test_a_code_in_capitals_passed_whole_is_an_id_letters_only_or_not(code: str) -> None:
    def ids(value: str) -> list[str]:
        call = {"id": "c1", "name": "lookup", "args": {"record_locator": value}}
        found = extract_items(AIMessage("", id="a", tool_calls=[call]), 1, {})
        return [i.key for _, i in found if i.kind == "identifier"]

    assert ids(code) == [f"id:{code}"]
    assert ids("DELETE") == ids("SERIALIZABLE") == []  # a word in capitals is no code


@given(segments=SEGMENTS)
def test_a_program_or_a_device_on_a_command_line_is_no_file_worked_on(
    segments: list[str],
) -> None:
    path = "/" + "/".join(segments)
    command = f"cat notes.txt | /bin/bash > /dev/null && ls {path}"
    call = {"id": "c1", "name": "bash", "args": {"command": command}}
    files = [
        i.text
        for s, i in extract_items(AIMessage("", id="a", tool_calls=[call]), 1, {})
        if s.value.startswith("Files")
    ]
    assert files == ["notes.txt"]


def test_three_words_joined_by_underscores_name_one_thing_two_do_not() -> None:
    assert tx.is_name("int_adyen__shipments_dedup") and tx.is_name("max_retry_count")
    assert not tx.is_name("str_replace") and not tx.is_name("en_US")


def test_a_list_continues_a_value_only_to_the_end_of_its_clause() -> None:
    for sentence, shown in (
        ("The port is 8080, 9090 was the old one.", "The port is 8080"),
        ("The reviewer should be Alice, Bob is out.", "The reviewer should be Alice"),
    ):
        assert [i.text for i in _said(sentence) if i.kind == "fact"] == [shown]


def test_a_rule_after_a_rule_or_across_lines_is_not_joined_to_it() -> None:
    text = "Never restart db-primary-3.corp during business hours. Do not reboot it either."
    assert [i.text for i in _said(text) if i.pinned] == [
        "Never restart db-primary-3.corp during business hours.",
        "Do not reboot it either.",
    ]
    pinned = [i.text for i in _said("Replica: db-replica-9\n\nDo not touch it.") if i.pinned]
    assert pinned == ["Do not touch it."]


def test_a_printed_line_never_takes_the_key_of_what_someone_said() -> None:
    listing = "\n".join(
        ["Fetching issues...", "page 1 of 1", "filter: open", "assignee: me",
         "ENG-4412  open  Fix retry overflow", "1 issue"]
    )  # fmt: skip
    keys = {i.key for i in _printed(listing, "jira list")}
    assert "id:ENG-4412" not in keys and "printed:ENG-4412" in keys


def test_a_removed_line_of_a_diff_names_nothing_current() -> None:
    diff = '-QUEUE = "billing.jobs.v1"\n+QUEUE = "billing.jobs.v2"\n x = 1\n y = 2'
    keys = {i.key for i in _printed(diff, "git diff")}
    assert "printed:billing.jobs.v2" in keys and "printed:billing.jobs.v1" not in keys
