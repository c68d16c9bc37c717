"""Values a document, a config comment or an argument's name carries.

A document a tool shows (a policy, a README) states its limits in sentences, not ``key:
value`` fields: its line with a specific value is a fact, shown verbatim without its
bullet. A comment after a config value is no part of it. A number passed whole after the
capitals that say what it numbers (``IMO 7472628``) under an id's name is one id, as is
an aircraft's registration (``D-SUCQ``). A preference may carry an adverb ("I'd much
rather"), and a Rust panic's message, on the line after its header, is its error.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import extract_items
from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction.parse import classify

_word = st.from_regex(r"[a-z]{4,9}", fullmatch=True)
_time = st.builds(lambda m, s, ms: f"{m}:{s:02d}.{ms:03d}", st.integers(1, 3),
                  st.integers(0, 59), st.integers(0, 999))  # fmt: skip


def _items(message: HumanMessage | AIMessage | ToolMessage, calls: dict | None = None) -> list:
    return [i for _, i in extract_items(message, 4, calls or {})]


def _output(text: str) -> list:
    call = {"id": "c1", "name": "bash", "args": {"command": "cat docs/RULES.md"}}
    return _items(ToolMessage(text, tool_call_id="c1", name="bash", id="t"), {"c1": call})


@given(limit=_time, bullet=st.sampled_from(["- ", "* ", "1. ", "• "]), noun=_word)
def test_a_documents_line_with_a_value_is_a_fact_shown_verbatim(
    limit: str, bullet: str, noun: str
) -> None:
    line = (
        f"Any {noun} slower than {limit} in Q1 starts from the pit lane; the importer enforces it."
    )
    text = f"# League rules\n{bullet}Setups are frozen after practice.\n{bullet}{line}\n"
    facts = [i for i in _output(text) if i.kind == "fact"]
    assert any(i.text == line for i in facts), facts


def test_a_diffs_removed_line_and_a_source_comment_are_no_documents_facts() -> None:
    rule = "The nightly backup of the orders database runs at {} UTC every day."
    diff = "\n".join(
        ["--- a/docs/ops.md", "+++ b/docs/ops.md", "@@ -3,3 +3,3 @@",
         "- " + rule.format("02:00"), "+ " + rule.format("03:30")]
    )  # fmt: skip
    assert not any("02:00" in i.text for i in _output(diff))
    source = "\n".join(
        ["/*", " * The ring buffer holds at most 4096 entries before it wraps around.", " */",
         "#define RING_SIZE 8192", "static int head = 0;", "int push(int x);"]
    )  # fmt: skip
    assert not any("4096" in i.text for i in _output(source))


def test_two_rules_that_open_alike_are_two_facts() -> None:
    rule = "Refunds for orders placed before 2024-01-01 are processed within {} days by {}."
    text = "\n".join(["# Refunds", "- " + rule.format(14, "bank transfer"),
                      "- " + rule.format(30, "credit card")])  # fmt: skip
    facts = [i.text for i in _output(text) if i.kind == "fact"]
    assert rule.format(14, "bank transfer") in facts and rule.format(30, "credit card") in facts


def test_code_log_and_diff_lines_are_no_documents_sentences() -> None:
    text = "\n".join(
        [
            "-    self.timeout = 30",
            "- result = compute(12345, 67890)",
            "Successfully installed numpy-1.26.4 pandas-2.2.1",
            "2026-01-02 12:00:01 started worker 3 on port 8080",
        ]
    )
    assert not any(i.kind == "fact" and "8080" in i.text for i in _output(text))
    assert not any("12345" in i.text or "self.timeout" in i.text for i in _output(text))


@given(key=st.sampled_from(["region", "target", "window", "bucket"]),
       new=st.from_regex(r"chr[0-9]{1,2}:[0-9]{3},[0-9]{3}-[0-9]{3},[0-9]{3}", fullmatch=True),
       old=st.from_regex(r"chrX:[0-9]{3},[0-9]{3}", fullmatch=True),
       mark=st.sampled_from(["#", "//"]))  # fmt: skip
def test_a_comment_after_a_config_value_is_no_part_of_it(
    key: str, new: str, old: str, mark: str
) -> None:
    line = f"{key}: {new}   {mark} widened after review, was {old}"
    (fact,) = p.facts(line, fields=True)
    assert (fact.value, line[fact.start : fact.end]) == (new, f"{key}: {new}")
    shown = [i.text for i in _output(f"{line}\ncoverage_min: 30")]
    assert f"{key}: {new}" in shown and not any(old in s for s in shown), shown


def test_a_hash_inside_a_value_is_no_comment() -> None:
    for line, value in [("url: http://x.example/#frag", "http://x.example/#frag"),
                        ("color: #ff0000", "#ff0000"), ("room: Suite # 12", "Suite # 12"),
                        ("ref: PO # 88123", "PO # 88123"),
                        ('title: "Build # seven"', '"Build # seven"')]:  # fmt: skip
        assert [f.value for f in p.facts(line, fields=True)] == [value], line


@given(prefix=st.from_regex(r"[A-Z]{2,4}", fullmatch=True), number=st.integers(10**5, 10**9),
       arg=st.sampled_from(["imo_number", "vessel_id", "account_no", "order_ref"]))  # fmt: skip
def test_a_number_after_its_prefix_passed_under_an_ids_name_is_one_id(
    prefix: str, number: int, arg: str
) -> None:
    value = f"{prefix} {number}"
    call = {"id": "c1", "name": "lookup", "args": {arg: value}}
    items = _items(AIMessage("", tool_calls=[call], id="a"))
    assert any(i.kind == "identifier" and i.text.endswith(f"{arg}: {value}") for i in items)
    # under another name the words are a phrase, not an id; a short number is a page
    for name, words in [("query", value), ("page_number", "PAGE 3"), ("order_by", "DESC 10")]:
        call = {"id": "c1", "name": "lookup", "args": {name: words}}
        items = _items(AIMessage("", tool_calls=[call], id="a"))
        assert not any(i.kind == "identifier" and words in i.text for i in items), items


@given(code=st.from_regex(r"[BCDFGHJKLMNPQRSTVWXZ]{1,2}-[BCDFGHJKLMNPQRSTVWXZ]{4}", fullmatch=True))
def test_a_code_in_capitals_with_a_hyphen_passed_whole_is_an_id(code: str) -> None:
    call = {"id": "c1", "name": "lookup_aircraft", "args": {"registration": code}}
    items = _items(AIMessage("", tool_calls=[call], id="a"))
    assert any(i.kind == "identifier" and i.text.endswith(f": {code}") for i in items), items
    for key in ("CTRL-C", "MM-DD", "HH-MM-SS", "CTRL-ALT-T"):  # a key, a format
        call = {"id": "c1", "name": "press", "args": {"text": key}}
        assert not any(
            i.kind == "identifier" for i in _items(AIMessage("", tool_calls=[call], id="a"))
        )


@given(adverb=st.sampled_from(["much", "really", "far", "strongly"]),
       who=st.sampled_from(["I'd", "I would", "We'd"]), zone=_word)  # fmt: skip
def test_a_preference_with_an_adverb_is_a_preference(adverb: str, who: str, zone: str) -> None:
    text = f"When you print times in the roster {who} {adverb} rather see Europe/{zone} than UTC."
    assert classify(text) == "preference"
    # an estimate or a need said with "rather" prefers nothing
    for said in ("We'd need rather more than 3 replicas to handle 5000 qps.",
                 "I would guess rather than measure, the p99 is around 300 ms."):  # fmt: skip
        assert classify(said) is None, said


@given(code=st.from_regex(r"[A-Z]{2} [A-Z0-9]{3}", fullmatch=True),
       where=st.from_regex(r"src/[a-z]{3,8}\.rs:[0-9]{1,3}:[0-9]", fullmatch=True))  # fmt: skip
def test_a_rust_panics_message_is_the_error(code: str, where: str) -> None:
    output = "\n".join(
        [
            "    Finished dev [unoptimized + debuginfo] target(s) in 0.41s",
            f"thread 'main' panicked at {where}:",
            f"unknown UN/LOCODE: {code}",
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        ]
    )
    errors = [i.text for i in _output(output) if i.kind == "error"]
    assert f"unknown UN/LOCODE: {code}" in errors, errors
    # a panic with no message: Rust's advice after it is no error
    silent = "\n".join([f"thread 'main' panicked at {where}:", output.splitlines()[-1]])
    assert not any(i.text.startswith("note:") for i in _output(silent) if i.kind == "error")
