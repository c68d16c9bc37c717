"""Extraction: candidates from every place, in any shape a real tool or person writes them."""

from __future__ import annotations

import json
import random
import string
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import Section, extract_items
from langgraph_compact.compaction import text as p
from langgraph_compact.compaction.candidates import SALIENCE
from langgraph_compact.compaction.failures import error_lines
from langgraph_compact.compaction.json_output import json_facts

RNG = random.Random(7)


def _word(n: int = 6) -> str:
    return "".join(RNG.choice(string.ascii_lowercase) for _ in range(n))


def _tool(text: str, call: dict | None = None) -> list[tuple[Section, object]]:
    call = call or {"id": "c1", "name": "bash", "args": {"command": "run"}}
    return extract_items(
        ToolMessage(text, tool_call_id=call["id"], name=call["name"], id="t"), 5, {"c1": call}
    )


def _texts(items: list) -> list[str]:
    return [i.text for _, i in items]


ERRORS = [
    ("src/{w}.c:12:5: error: expected ';' before 'return'", "expected ';'"),
    ("app/{w}.py:3:1: F401 'os' imported but unused", "F401"),
    ("{w}.ts(12,5): error TS2322: Type 'string' is not assignable", "TS2322"),
    ("error[E0382]: borrow of moved value: `{w}`", "E0382"),
    ("FAILED tests/test_{w}.py::test_refund - AssertionError: 41.99 != 42.0", "test_refund"),
    ("--- FAIL: Test{W} (0.00s)", "FAIL: Test"),
    ("HTTP/1.1 503 Service Unavailable", "503"),
    ("curl: (22) The requested URL returned error: 404 Not Found", "404"),
    ("2024-05-01 12:00:01 ERROR {w}-service: connection refused", "connection refused"),
    ('level=error msg="lost lease on {w}"', "lost lease"),
    ("npm ERR! code E{W}", "npm ERR!"),
    ("bash: {w}: command not found", "command not found"),
    ("fatal: repository '{w}' not found", "fatal:"),
    ("E       AssertionError: expected 3, got 4 in {w}", "AssertionError"),
    ("Process exited with code 137 ({w})", "137"),
    ("E: Unable to locate package lib{w}-dev", "lib"),
    ("ld: library not found for -l{w}", "library not found"),
    ("cp: cannot stat '{w}.txt': No such file or directory", "cannot stat"),
    ("make: *** [Makefile:12: {w}] Error 2", "Error 2"),
    ("[E 240501 12:00:01 {w}:88] upload failed: 413 Request Entity Too Large", "413"),
    ("FAIL: test_{w} (tests.test_auth.LoginTest)", "test_"),
    ("tests/test_{w}.py:42: AssertionError", "AssertionError"),
    ("Job {w} failed: timeout after 30s", "failed:"),
    ("Killed", "Killed"),
    ("ERR-42 {w} connection reset", "ERR-42"),  # an error code, not a host named "err-…"
    ("12:04:53  Database Error in model {w}", "Database Error"),
    (
        "An error occurred (AccessDenied) when calling the SendMessage operation on {w}",
        "AccessDenied",
    ),
]


@pytest.mark.parametrize(("template", "needle"), ERRORS, ids=[e[1] for e in ERRORS])
def test_errors_in_any_shape_are_kept_with_their_message(template: str, needle: str) -> None:
    w = _word()
    line = template.format(w=w, W=w.upper())
    noise = "\n".join(f"building {_word()} ... ok" for _ in range(RNG.randint(0, 30)))
    items = _tool(f"{noise}\n{line}\n")
    errors = [i for _, i in items if i.kind == "error"]
    assert any(needle in e.text for e in errors), (line, _texts(items))
    assert any(i.kind == "blocked" for _, i in items)  # the call did not succeed


def test_a_traceback_keeps_its_last_line_not_its_header() -> None:
    name = _word()
    text = (
        'Traceback (most recent call last):\n  File "x.py", line 2, in <module>\n'
        f"    import {name}\nModuleNotFoundError: No module named '{name}'"
    )
    texts = _texts(_tool(text))
    assert f"ModuleNotFoundError: No module named '{name}'" in texts
    assert not any(t.startswith("Traceback") for t in texts)


def test_code_in_a_file_dump_is_not_an_error_fact_or_constraint() -> None:
    dump = (
        "class Parser:\n    def parse(self):\n        raise ValueError('bad input')\n"
        "    timeout = 30\n    # you must never call this twice\n"
    )
    items = _tool(dump)
    assert [i.kind for _, i in items] == ["done"]


@pytest.mark.parametrize(
    "template",
    [
        "{k}: {v}",
        "{k} = {v}",
        '{{"{k}": "{v}", "status": "ok"}}',
        "The {k_spaced} is {v}.",
        "INFO loaded settings: {k}={v}",
        "NOTE: the {k_spaced} is {v}",
    ],
)
def test_facts_a_tool_reports_are_kept(template: str) -> None:
    key = f"{_word(5)}_{RNG.choice(['limit', 'region', 'timeout'])}"
    value = RNG.choice([f"eu-{_word(4)}-{RNG.randint(1, 9)}", str(RNG.randint(101, 9999))])
    text = template.format(k=key, k_spaced=key.replace("_", " "), v=value)
    items = _tool(text)
    assert any(value in i.text and i.kind == "fact" for _, i in items), (text, _texts(items))


def test_facts_of_a_short_answer_outrank_the_key_values_of_a_dump() -> None:
    answer = [i for _, i in _tool("max_connections = 417") if i.kind == "fact"]
    dump = "\n".join(f"setting_{n} = {1000 + n}" for n in range(60))
    crowded = [i for _, i in _tool(dump) if i.kind == "fact"]
    assert len(crowded) <= 4  # a dump cannot flood the summary
    assert answer[0].salience > max(i.salience for i in crowded)


def test_identifiers_in_tool_call_arguments_are_kept() -> None:
    ident = f"{_word(3).upper()}-{RNG.randint(1000, 9999)}"
    call = {"id": "c9", "name": "get_order", "args": {"order_id": ident, "verbose": True}}
    items = extract_items(AIMessage("", tool_calls=[call], id="a"), 3, {})
    assert any(ident in i.text and i.kind == "identifier" for _, i in items)


def test_a_script_in_an_argument_is_not_mined_for_identifiers() -> None:
    script = "cat > t.py << 'EOF'\nusers = ['user123', 'abc_def_99']\nEOF"
    call = {"id": "c9", "name": "bash", "args": {"command": script}}
    items = extract_items(AIMessage("", tool_calls=[call], id="a"), 3, {})
    assert not any(i.kind == "identifier" for _, i in items)
    assert "t.py" in [i.text for _, i in items]  # the file it writes is still a file


def test_paths_the_assistant_names_are_kept_and_normalized() -> None:
    path = f"{_word(5)}/{_word(6)}/{_word(4)}_{RNG.randint(10, 99)}.py"
    items = extract_items(AIMessage(f"The bug is in ./{path}, I think.", id="a"), 3, {})
    assert (Section.FILES_READ, path) in [(s, i.text) for s, i in items]


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("Never run migrations on the production database.", "safety"),
        ("Do not delete anything in the archive bucket without asking me.", "safety"),
        ("You must keep the public API unchanged.", "constraint"),
        ("I prefer small commits.", "preference"),
        ("Please use black for formatting.", "preference"),
    ],
)
def test_instructions_a_user_states_are_pinned(sentence: str, kind: str) -> None:
    items = extract_items(HumanMessage(sentence, id="h"), 4, {})
    assert [(s, i.kind, i.pinned) for s, i in items] == [(Section.CONSTRAINTS, kind, True)]


@pytest.mark.parametrize(
    ("sentence", "new", "old"),
    [
        ("Correction: the deadline is now March 9, not March 3.", "March 9", "March 3"),
        ("Actually, the port is 8443 (not 8080).", "8443", "8080"),
        ("Update: the quota changed from 400 to 900.", "900", "400"),
        ("Sorry, I got that wrong: the owner should be Dana instead of Eli.", "Dana", "Eli"),
        ("Scratch that, use region eu-west-3 instead of us-east-1.", "eu-west-3", "us-east-1"),
    ],
)
def test_a_correction_pins_the_new_value_and_names_the_stale_one(
    sentence: str, new: str, old: str
) -> None:
    items = [i for _, i in extract_items(HumanMessage(sentence, id="h"), 4, {})]
    current = [i for i in items if i.pinned and new in i.text]
    assert current and old not in current[0].text
    assert old in current[0].stale


def test_a_goal_change_opens_a_sentence_but_a_mention_does_not() -> None:
    change = extract_items(HumanMessage("Change of plan: build the JSON export.", id="h"), 4, {})
    assert [(s, i.key) for s, i in change] == [(Section.GOAL, "goal")]
    policy = "Refunds depend on the reason for cancellation (change of plan, weather)."
    assert not any(s is Section.GOAL for s, _ in extract_items(HumanMessage(policy, id="p"), 4, {}))


@pytest.mark.parametrize(
    "junk",
    [
        "Traceback (most recent call last):",
        "Now let me test again:",
        "Good!",
        "Let me check",
        "Output:",
        "Description",
    ],
)
def test_junk_is_junk(junk: str) -> None:
    assert p.is_junk(junk)


def test_same_error_with_other_temp_paths_shares_a_key() -> None:
    a = _tool(f"Error: Unable to load file /tmp/tmp{_word()}/src/project:")
    b = _tool(f"Error: Unable to load file /tmp/tmp{_word()}/src/project:")
    key = {i.key for _, i in a if i.kind == "error"}
    assert key and key == {i.key for _, i in b if i.kind == "error"}


@pytest.mark.parametrize("junk", ["ERROR: Exception:", "Warning: Details:", "FATAL: Cause:"])
def test_a_label_announcing_what_follows_is_junk(junk: str) -> None:
    assert p.is_junk(junk)
    assert not p.is_junk("ERROR: could not bind port 8080:")  # it says what failed


def test_a_directory_listing_names_no_relevant_file_but_prose_does() -> None:
    names = [f"{_word()}.{ext}" for ext in ("rst", "md", "toml", "ini", "cfg")]
    wanted = f"{_word()}/{_word()}.py"
    for text in ("\n".join(names), "  ".join(names)):
        human = HumanMessage(f"$ ls\n{text}\nPlease look at {wanted} first.", id="h")
        texts = " ".join(_texts(extract_items(human, 1, {})))
        assert wanted in texts
        assert not any(n in texts for n in names), texts
    two = HumanMessage(f"{names[0]}\n{names[1]}", id="h2")  # two lines are not a listing
    assert len(extract_items(two, 1, {})) == 2


def test_a_pasted_stack_frame_and_a_placeholder_name_no_file() -> None:
    frame = f'File "/srv/{_word()}/lib/{_word()}.py", line 12, in handler'
    human = HumanMessage(f"It crashes:\n{frame}\nKeyError: 'tenant'", id="h")
    found = extract_items(human, 1, {})
    assert not any(i.kind == "path" for _, i in found)
    assert any(i.kind == "error" and "KeyError: 'tenant'" in i.text for _, i in found)
    assert p.paths("run `git diff -- path/to/file1.py src/real.py`") == ["src/real.py"]


@pytest.mark.parametrize(
    "line",
    [
        "417- :raise ImportError: if there is no such module in the directory",
        "88:    raise ValueError('bad month')",
    ],
)
def test_numbered_source_lines_from_grep_are_code_not_errors(line: str) -> None:
    assert not [i for _, i in _tool(f"{line}\n") if i.kind == "error"]


def test_a_pip_log_line_is_not_a_rule_but_a_requirement_is() -> None:
    from langgraph_compact.compaction.parse import classify

    assert classify(f"Requirement already satisfied: {_word()} in /root/.venv/lib") is None
    assert classify("Python 3.11 is required for this service.") == "constraint"
    assert classify("Requirements: no new runtime dependency.") == "constraint"


def test_a_list_of_files_a_user_writes_is_not_a_directory_listing() -> None:
    files = [f"src/{_word()}/{_word()}.py" for _ in range(3)]
    for marker in ("- ", "* ", "1. "):
        text = "Please refactor these files:\n" + "\n".join(f"{marker}{f}" for f in files)
        texts = " ".join(_texts(extract_items(HumanMessage(text, id="h"), 1, {})))
        assert all(f in texts for f in files), (marker, texts)


@pytest.mark.parametrize("seed", range(5))
def test_an_id_passed_as_a_whole_argument_outranks_one_inside_a_command(seed: int) -> None:
    rng = random.Random(seed)
    ident = f"{rng.choice(['W', 'PX', 'ORD'])}-{rng.randint(1000, 99999)}"
    commit = "".join(rng.choice("abcdef") + rng.choice("0123456789") for _ in range(4))
    arg = rng.choice(["order_id", "ticket", "reservation_id", "user_id"])
    message = AIMessage(
        "",
        id="a",
        tool_calls=[
            {"name": "lookup", "args": {arg: ident}, "id": "c1"},
            {"name": "bash", "args": {"command": f"git show {commit} -- {_word()}.py"}, "id": "c2"},
        ],
    )
    ids = {i.text: i.salience for _, i in extract_items(message, 3, {}) if i.kind == "identifier"}
    passed = ids[f"lookup {arg}: {ident}"]
    mined = ids[f"bash command: {commit}"]
    assert passed > mined


def test_a_count_of_zero_failures_is_not_an_error() -> None:
    n = RNG.randint(1, 400)
    for line in (f"Tests: {n} passed, 0 failed", f"== {n} passed, 0 errors in 1.2s =="):
        assert not [i for _, i in _tool(line) if i.kind == "error"], line


FACT_SHAPES = [
    ("{name} | {value}", "row"),  # a psql or SHOW row
    ("{Name} {version}", "version"),
    ("{name} version {version}", "version"),
]


@pytest.mark.parametrize(("template", "kind"), FACT_SHAPES, ids=[f[0] for f in FACT_SHAPES])
def test_table_rows_and_versions_are_facts(template: str, kind: str) -> None:
    name, value = f"{_word()}_{_word(4)}", str(RNG.randint(101, 9999))
    version = f"{RNG.randint(1, 20)}.{RNG.randint(0, 30)}.{RNG.randint(0, 99)}"
    line = template.format(name=name, Name=_word().title(), value=value, version=version)
    facts = [i.text for _, i in _tool(line) if i.kind == "fact"]
    assert any((version if kind == "version" else value) in t for t in facts), (line, facts)


def test_the_id_or_url_line_of_a_short_answer_is_kept_whole() -> None:
    order, build = (
        f"#{_word(1).upper()}-{RNG.randint(10000, 99999)}",
        f"{_word(3)}{RNG.randint(1000, 9999)}",
    )
    port = RNG.randint(1025, 65000)
    for line, name in (
        (f"Created order {order} for customer {RNG.randint(100, 999)}", order),
        (f"Deployed build {build}9f to staging", f"{build}9f"),
        (f"Listening on http://0.0.0.0:{port}", f"http://0.0.0.0:{port}"),
    ):
        ids = [i for _, i in _tool(line) if i.kind == "identifier"]
        assert [i.text for i in ids] == [line] and ids[0].key == f"id:{name}"
    dump = "\n".join(f"row {n}: build {_word(3)}{RNG.randint(1000, 9999)}9f" for n in range(40))
    assert not [i for _, i in _tool(dump) if i.kind == "identifier"]  # a dump's ids: incidental


def _table(style: str, head: list[str], rows: list[list[str]]) -> str:
    if style == "csv":
        return "\n".join(",".join(r) for r in [head, *rows])
    widths = [max(len(r[n]) for r in [head, *rows]) + 2 for n in range(len(head))]
    if style == "aligned":
        return "\n".join(
            "".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *rows]
        )
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"
        for r in [head, *rows]
    ]
    return "\n".join([rule, lines[0], rule, *lines[1:], rule])


@pytest.mark.parametrize("style", ["csv", "aligned", "pipes"])
def test_the_cells_of_a_short_table_are_facts_by_column(style: str) -> None:
    head = ["zone", "cidr_block", "owner"]
    cidr = f"10.{RNG.randint(0, 255)}.{RNG.randint(0, 255)}.0/22"
    one = _tool(_table(style, head, [[f"eu-{_word(4)}-1b", cidr, "ops"]]))
    facts = {i.key: i.text for _, i in one if i.kind == "fact"}
    assert facts["fact:cidr_block"] == f"cidr_block: {cidr}", facts
    # one row named in words is named by its first cell: another zone's is another row
    zone = f"eu-{_word(4)}"
    named = {i.key: i.text for _, i in _tool(_table(style, head, [[zone, cidr, "ops"]]))}
    assert named[f"fact:cidr_block:{zone}"] == f"{zone} cidr_block: {cidr}", named
    counted = _tool(_table(style, ["count", "total_bytes"], [["42", "1048576"]]))
    assert {i.text for _, i in counted if i.kind == "fact"} >= {"total_bytes: 1048576"}
    assert not [i for _, i in one if i.kind == "identifier"]  # the row is not said twice
    rows = [[f"db-{n}", f"10.{n}.{RNG.randint(0, 255)}.0/24", "ops"] for n in range(3)]
    several = {i.key: i.text for _, i in _tool(_table(style, head, rows)) if i.kind == "fact"}
    assert several[f"fact:cidr_block:{rows[1][0]}"] == f"{rows[1][0]} cidr_block: {rows[1][1]}"
    # which row, shown with each cell: the first cell is no fact of its own
    assert not [k for k in several if k.startswith("fact:zone:")], several
    # two rows with one first cell are two rows: neither replaces the other
    twice = [[rows[0][0], rows[0][1], "ops"], [rows[0][0], rows[1][1], "ops"]]
    both = {i.key: i.text for _, i in _tool(_table(style, head, twice)) if i.kind == "fact"}
    assert len(both) == 2 and {rows[0][1], rows[1][1]} <= set(" ".join(both.values()).split())
    dump = [[f"db-{n}", f"10.{n}.1.0/24", "ops"] for n in range(40)]  # a dump: left to recall
    assert not [i for _, i in _tool(_table(style, head, dump)) if "cidr_block" in (i.key or "")]


def test_one_row_tables_of_two_named_rows_keep_both_rows() -> None:
    from langgraph_compact.compaction.merge import merge_items

    head = "NAME      READY   UP-TO-DATE   AVAILABLE   AGE\n"
    found = []
    for n, row in enumerate(["api       5/5     5            5           3d",
                             "worker    0/3     3            0           9d"]):  # fmt: skip
        name = row.split()[0]
        call = {"id": f"c{n}", "name": "bash", "args": {"command": f"kubectl get deploy {name}"}}
        out = ToolMessage(head + row, tool_call_id=f"c{n}", name="bash", id=f"t{n}")
        found += extract_items(out, 5 + 2 * n, {f"c{n}": call})
    shown = {i.text for items in merge_items({}, found).values() for i in items}
    assert {"api READY: 5/5", "worker READY: 0/3"} <= shown, shown


@pytest.mark.parametrize("style", ["csv", "aligned", "pipes"])
def test_a_table_under_its_command_and_over_its_footer_is_read_as_a_table(style: str) -> None:
    head = ["zone", "cidr_block", "owner"]
    rows = [[f"db-{n}", f"10.{n}.{RNG.randint(0, 255)}.0/24", "ops"] for n in range(3)]
    table = _table(style, head, rows)
    command = f"$ {_word()}ctl export --format {style}"
    for text in (f"{table}\n(3 rows)", f"{command}\n{table}", f"{command}\n{table}\n(3 rows)"):
        facts = {i.key: i.text for _, i in _tool(text) if i.kind == "fact"}
        assert facts[f"fact:cidr_block:{rows[2][0]}"] == f"{rows[2][0]} cidr_block: {rows[2][1]}"
    # three lines of prose around it: an output that shows a table among other things
    prose = "\n".join(f"{_word().title()} {_word()} {_word()}." for _ in range(3))
    assert not [i for _, i in _tool(f"{prose}\n{table}") if "cidr_block" in (i.key or "")]


@pytest.mark.parametrize(
    "output",
    [
        # a row with an empty column breaks the run: no table, not a one-row table
        "CONTAINER ID   IMAGE          STATUS        PORTS                  NAMES\n"
        "3f2a9c1b7d4e   nginx:1.25.3   Up 2 hours    0.0.0.0:8080->80/tcp   web-frontend\n"
        "9b8e7d6c5a4f   redis:7.2.4    Up 3 hours                           cache-redis\n"
        "1a2b3c4d5e6f   postgres:16.1  Exited (1) 5 minutes ago   5432/tcp  db-main",
        "name,version,sha\napi,2.8.1,9f3c2a1\nworker,2.8.0\ndb,14.2,7e1b0d4",
        # a header that fails is not replaced by a row under it, nor a line under a title
        "Service  State  Region  IPv4\nweb  running  east  primary\ndb  degraded  west  10.0.3.7",
        "Starting deploy\nChecking  cluster  status\nrollout  deploy-8812  complete",
    ],
)
def test_lines_that_only_look_like_a_table_state_no_cells(output: str) -> None:
    assert not [i.text for _, i in _tool(output) if i.kind == "fact"]


def test_json_nested_deeper_than_python_recurses_is_read_as_text() -> None:
    depth = RNG.randint(5_000, 20_000)
    for text in ("[" * depth, "[" * depth + "]" * depth, '{"a": ' * depth + "1" + "}" * depth):
        assert json_facts(text) is None
        assert any(i.kind == "done" for _, i in _tool(text))


def test_records_of_a_list_are_keyed_by_their_values() -> None:
    users = [{"id": f"u_{RNG.randint(100, 999)}a"}, {"id": f"u_{RNG.randint(100, 999)}b"}]
    orders = [{"id": f"ord_{RNG.randint(100, 999)}x"}, {"id": f"ord_{RNG.randint(100, 999)}y"}]
    keys = [
        {i.key for _, i in _tool(text) if i.kind == "fact"}
        for text in (json.dumps(users), "\n".join(json.dumps(o) for o in orders))
    ]
    # another list's first record is another record: neither output's ids replace the other's
    assert keys[0] and keys[1] and not keys[0] & keys[1], keys


def test_a_structured_log_states_its_values_under_their_keys() -> None:
    image = f"registry.internal/{_word()}:{RNG.randint(1, 9)}.{RNG.randint(0, 40)}.2-rc.3"
    events = [
        {"ts": "2024-06-01T10:00:01Z", "level": "info", "msg": "rollout started"},
        {"ts": "2024-06-01T10:00:09Z", "level": "info", "msg": "pulled", "image": image},
    ]
    log = "\n".join(json.dumps(e, separators=(",", ":")) for e in events)
    facts = [i.text for _, i in _tool(log) if i.kind == "fact"]
    assert f'"image":"{image}"' in facts, facts
    assert json_facts(f"{log}\nrollout done") is None  # not every line a document


@pytest.mark.parametrize(
    "head",
    [
        "2025-10-14 21:02:12 INFO  ",
        "[2025-10-14T21:02:12Z] [info] ",
        "21:02:12.481 WARN ",
        "14/Oct/2025:21:02:12 +0000 DEBUG ",
        "NOTICE: ",
    ],
)
def test_a_log_line_states_its_fact_after_its_header(head: str) -> None:
    key = f"{_word(5)} {RNG.choice(['target', 'region', 'owner'])} locked"
    value = f"{_word(1).upper()}{RNG.randint(1000, 9999)}-{RNG.randint(1000, 9999)}"
    lines = [f"{head}gate open", f"{head}{key}: {value} (airmass 1.21)", f"{head}slew started"]
    facts = [i.text for _, i in _tool("\n".join(lines)) if i.kind == "fact"]
    # the header is left out, visibly where it was cut: what the line states is shown
    shown = f"{key}: {value}" if head == "NOTICE: " else f"\u2026 {key}: {value}"
    assert any(f.startswith(shown) for f in facts), (lines, facts)
    assert not any(f.startswith(head.strip()) for f in facts if head != "NOTICE: "), facts


@pytest.mark.parametrize("wrap", [False, True])
def test_an_output_that_is_one_value_answers_its_call(wrap: bool) -> None:
    value = "".join(RNG.choice("0123456789abcdef") for _ in range(12)) + "a1"
    call = {"id": "c1", "name": "bash", "args": {"command": "cat PINNED"}}
    output = f"<returncode>0</returncode>\n<output>\n{value}\n</output>" if wrap else value
    facts = [i for _, i in _tool(output, call) if i.kind == "fact"]
    assert [(i.text, i.key) for i in facts] == [
        (f"bash: cat PINNED → {value}", "answer:bash: cat PINNED")
    ]
    assert not [
        i for _, i in _tool(f"{value} {value[::-1]} and more", call) if i.key.startswith("answer:")
    ]


@pytest.mark.parametrize(
    "output",
    [
        "title: Fix crash when config file is missing\nstate: OPEN\nnumber: 4521",
        "Note: missing values are filled with defaults",
        "INFO: cache miss, key not found, fetching from origin",
        "Description: Validate that invalid emails are rejected",
        "Retry succeeded after first attempt failed with a timeout",
        "Now error-10.internal:10 serves the queue",  # a host named "error-…"
        "fatal-7.example.org replied in 12 ms",
        "12 passed, 0 failed, 3 skipped",
        "expired: 0\nrejected: 0",
        "DO NOT re-run the same failed edit command.",
        "Some tests failed - this shows the bug exists",  # names nothing that failed
        "docs/auth.md:40:Authentication failed for user 'etl' when the password is wrong",
        "PermitRootLogin no  # root login is not permitted by /etc/ssh/sshd_config",
        "<returncode>0</returncode>\na1b2c3d fix retries when upload to s3://bucket/x failed",
        "Unable to open /var/lib/x.db is shown when the disk is full.\n" + "See the FAQ.\n" * 4,
        '    raise LoadError("Loading {name} failed with: {error}")',
    ],
)
def test_lines_that_only_mention_a_failure_are_not_errors(output: str) -> None:
    items = _tool(output)
    assert not [i for _, i in items if i.kind == "error"], _texts(items)
    assert any(i.kind == "done" for _, i in items)


WORDS = st.lists(
    st.from_regex(r"[b-df-hj-np-tv-z]{2,8}", fullmatch=True).filter(
        lambda w: w != "npm" and not p.starts_code(f"{w} x")
    ),
    min_size=1,
    max_size=3,
)
"""Words no reader knows (no vowels: no "failed", no "cannot"; not npm, whose "npm error"
is its failure; no code keyword such as ``fn``, whose line is code), around a level
word."""
LEVELS = st.sampled_from(["error", "fatal", "critical", "panic"])


@given(before=WORDS, level=LEVELS, after=WORDS, field=st.sampled_from(
    ["2024-05-01 12:00:01", "12:00:01.337", "[wrkr]", "pid=4411", "web-7", "7:51:34 PM:"]
))  # fmt: skip
def test_a_level_word_is_a_log_level_where_a_log_puts_it_not_in_prose(
    before: list[str], level: str, after: list[str], field: str
) -> None:
    words, rest = " ".join(before), " ".join(after)
    assert error_lines(f"{words} {level} {rest}") == []  # "If `None`, the error is …"
    assert error_lines(f"{level} {rest}") == []  # a line a docstring wrapped
    for case in (level, level.title()):
        assert error_lines(f"{words}: {case}") == []  # a setting: "log_level: error"
    for shown in (f"{field} {level} {rest}", f"{field} {level.title()} {rest}",
                  f"{level.title()} {rest}", f"{words} {level.title()} {rest}",
                  f"{words} {level.upper()} {rest}", f"{words} [{level}] {rest}",
                  f"12:00:01 [{level}    ] {rest}", f"{words} {level}: {rest}"):  # fmt: skip
        assert error_lines(shown) == [shown]


def test_a_line_of_long_log_fields_is_read_in_one_pass() -> None:
    """Fields split at their first digit or bracket: lines of long hashes or timestamps
    (``git log`` of merges) are not tried in every way they could be cut. Cut every way,
    these five lines took 4 to 19 s each; read once, about a millisecond: the bound is
    far from both, so a loaded machine does not decide it."""
    lines = [" ".join([c * 132] * 3) + " x" for c in (":", "1", "[")]
    lines += [" ".join(["1" * 99] * 4) + " x", " ".join(["ab12" * 16] * 3) + " done"]
    started = time.perf_counter()
    assert [error_lines(line) for line in lines] == [[]] * len(lines)
    assert time.perf_counter() - started < 3.0


def test_a_plain_number_argument_is_an_id_only_under_an_ids_name() -> None:
    n = str(RNG.randint(100, 9999))
    calls = [
        {"name": "view", "args": {"start_line": n}, "id": "c1"},
        {"name": "lookup", "args": {"order_id": n}, "id": "c2"},
    ]
    items = extract_items(AIMessage("", id="a", tool_calls=calls), 3, {})
    by_call = {i.text.split()[0]: i.salience for _, i in items if i.kind == "identifier"}
    assert by_call["lookup"] > by_call.get("view", 0.0)


def test_a_long_single_line_output_is_a_payload_not_an_answer() -> None:
    blob = "".join(RNG.choice("0123456789ab-") for _ in range(30_000))
    assert not [i for _, i in _tool(blob) if i.kind == "identifier"]


def test_pleasantries_of_a_conversation_are_not_items() -> None:
    for said in ("Thank you so much, that's all I needed today.", "Great, sounds good to me!"):
        assert not extract_items(HumanMessage(said, id="h"), 3, {}), said


@pytest.mark.parametrize("field", ["id", "ip", "os", "tz"])
def test_a_two_letter_field_states_its_value_and_supersedes_no_other_output(field: str) -> None:
    """``id: IMO 9651960`` in a YAML record is a fact like ``imo_number: …``; being two
    letters, the field names nothing of its own, so another output's ``id:`` is another
    fact. A two-letter word of prose (``no: fast-forward 14 commits``) is no field."""
    value = f"{_word(3).upper()} {RNG.randint(1000000, 9999999)}"
    record = f"voyage:\n  vessel:\n    {field}: {value}\n    flag: MT\n  cutoff: 2025-11-03T18:00Z"
    facts = {i.key: i.text for _, i in _tool(record) if i.kind == "fact"}
    assert facts[f"fact:{field}={value}"] == f"{field}: {value}", facts
    prose = _tool("Already up to date? no: fast-forward 14 commits\nok: 5 tests ran")
    assert not [i for _, i in prose if (i.key or "").startswith(("fact:no", "fact:ok"))]


@pytest.mark.parametrize(
    "body",
    [
        '{"errors": [], "id": "AB-1234"}',
        '{"data": {"id": "AB-1234"}, "errors": {}}',
        '{"status": "ok", "message": "Created AB-1234"}',
        '{"detail": "Successfully logged out AB-1234."}',  # a detail with no error status
        '[{"id": 101, "name": "AB-1234", "status": "failure"}]',  # records a call listed
        '        return jsonify({"error": "not found"}), 404',  # code building a body
        'src/api.py:42:        return {"ok": False, "error": "missing AB-1234"}',
    ],
)
def test_a_json_body_with_no_failure_is_no_error(body: str) -> None:
    items = _tool(body)
    assert not any(i.kind in ("error", "blocked") for _, i in items), _texts(items)


@pytest.mark.parametrize(
    "url",
    [
        "s3://{w}-384/stems/2025/part-39901.parquet",
        "sftp://edi@{w}.example:2222/inbound/CTI_464251.edi",
        "gs://{w}/runs/2025-10/model.ckpt",
    ],
)
def test_a_location_the_assistant_names_by_url_ranks_as_a_path(url: str) -> None:
    shown = url.format(w=_word())
    said = f"(For reference, the intermediate export lives at {shown}.)"
    items = extract_items(AIMessage(said, id="a"), 5, {})
    assert any(shown in i.text and i.salience >= SALIENCE["ai.path"] for _, i in items), items
    # a web page is as often a reference; a question states no location
    for other in [
        "The docs are at https://docs.example.com/3/library/re.html today.",
        f"Should I upload the file to {shown}?",
    ]:
        found = extract_items(AIMessage(other, id="b"), 5, {})
        assert all(i.salience < SALIENCE["ai.path"] for _, i in found), found


@pytest.mark.parametrize(
    "output",
    [
        # a failure said in words, naming what failed
        "ssh: connect to host {v} port 22: No route to host",
        "Authentication failed for user '{v}'",
        'The Deployment "{v}" is invalid: spec.template.spec.containers[0].image: Required value',
        "Cannot connect to the Docker daemon at unix:///run/{v}.sock. Is the daemon running?",
        "Request rejected: rate limit of 600/min exceeded for key {v}",
        "certificate for {v}.example expired on 2024-04-30",
        "Unable to open database file /var/lib/{v}/state.db",
        "1 out of 1 hunk FAILED -- saving rejects to file {v}.rej",
        "Connection to {v}.internal:5432 refused",
        # a failure a shell without a terminal prints after its prompt
        '$ psql: error: connection to server at "{v}" failed: FATAL: no pg_hba.conf entry\n$ exit',
        # a test runner failing a file or a package
        "FAIL src/{v}/post.test.ts\n  \u25cf posts a batch\n    Expected: 400\n    Received: 201",
        "--- FAIL: TestPost (0.00s)\nFAIL\tgithub.com/acme/{v}/post\t0.012s",
        # an API's one-line JSON body reporting a failure, whatever the HTTP status says
        'HTTP/1.1 422 Unprocessable\n\n{{"status": 422, "detail": "BIC {v} unknown"}}',
        'HTTP/1.1 400 Bad Request\n\n{{"ok": false, "errors": [{{"value": "{v}"}}]}}',
        'HTTP/1.1 200 OK\n\n{{"error": {{"code": 403, "message": "{v} may not write here"}}}}',
    ],
)
def test_a_failure_in_any_shape_is_an_error_and_blocks_its_call(output: str) -> None:
    name = f"{_word()}-{RNG.randint(1, 99)}"  # what failed is named: a host, a file, a key
    items = _tool(output.format(v=name))
    assert any(i.kind == "error" and name in i.text for _, i in items), _texts(items)
    # the call's outcome points at the line naming what failed, not at a bare status
    assert any(i.kind == "blocked" and name in i.text for _, i in items), _texts(items)


def test_a_log_header_is_read_once_and_only_where_a_log_has_one() -> None:
    from langgraph_compact.compaction.patterns import facts, shown_from

    assert [f.key for f in facts("Log level: DEBUG (set by LOG_LEVEL)", fields=True)] == [
        "log level"
    ]
    assert [f.key for f in facts("timeout: 30 WARN threshold: 20", fields=True)] == ["timeout"]
    assert facts("WARN: a " * 2000, fields=True) == []  # no header after header after …
    prose = "With DEBUG on the retry limit is 5."
    fact = facts(prose)[0]
    assert shown_from(prose, fact) == (0, False)  # prose has no log header to cut


def test_an_exception_outranks_a_failure_said_in_words_after_it() -> None:
    method = f"acme.{_word()}.v1.Ledger/Replay"
    output = (
        "> Task :client:integrationTest FAILED\n"
        f"io.grpc.StatusRuntimeException: UNIMPLEMENTED: Method not found: {method}\n"
        "    at io.grpc.stub.ClientCalls.toStatusRuntimeException(ClientCalls.java:271)\n\n"
        "BUILD FAILED in 41s"  # a duration names nothing that failed
    )
    items = _tool(output)
    assert any(i.kind == "error" and method in i.text for _, i in items), _texts(items)
    blocked = [i.text for _, i in items if i.kind == "blocked"]
    assert blocked and "41s" not in blocked[0], blocked


def test_a_failure_the_command_itself_prints_is_no_echo_of_it() -> None:
    """Only the call's command repeated after a prompt is its echo; a command that prints
    its own failure (``… || echo "> ERROR: …"``) holds that text further on."""
    migration = f"00{RNG.randint(10, 99)}_{_word()}"
    command = f'./migrate.sh || {{ echo "> ERROR: migration {migration} failed"; exit 1; }}'
    call = {"id": "c1", "name": "bash", "args": {"command": command}}
    items = _tool(f"> ERROR: migration {migration} failed\nexit status 1", call)
    assert any(i.kind == "error" and migration in i.text for _, i in items), _texts(items)
    assert any(i.kind == "blocked" and migration in i.text for _, i in items), _texts(items)
    echoed = _tool(f"$ {command}\n> ERROR: migration {migration} failed\nexit status 1", call)
    assert not any(i.text.startswith("$ ") for _, i in echoed), _texts(echoed)


def test_an_echoed_command_does_not_hide_the_value_its_call_printed() -> None:
    version = f"{RNG.randint(1, 9)}.{RNG.randint(0, 30)}.{RNG.randint(0, 99)}"
    call = {"id": "c1", "name": "bash", "args": {"command": "cat VERSION"}}
    for output in (version, f"$ cat VERSION\n{version}"):
        items = _tool(output, call)
        answers = [i.text for _, i in items if (i.key or "").startswith("answer:")]
        assert answers == [f"bash: cat VERSION → {version}"], _texts(items)
